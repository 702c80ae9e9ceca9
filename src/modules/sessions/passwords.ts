// Passwords of team members: scrypt (memory-hard, in node:crypto), stored as a self-describing string
// `$scrypt$ln=15,r=8,p=3$<salt>$<hash>` (base64 without padding), so the cost can be raised later
// without locking anyone out: old hashes keep verifying with their own parameters, and a sign-in with
// a hash weaker than the current parameters stores a new one.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import { validationError } from '../../http/errors.js'

export interface ScryptParams {
  /** log2 of N, the CPU/memory cost: memory is 128 × 2^ln × r bytes. */
  ln: number
  /** Block size. */
  r: number
  /** Parallelism: multiplies the CPU cost, not the memory. */
  p: number
}

/**
 * One of OWASP's equivalent scrypt settings (Password Storage Cheat Sheet): N = 2^15 (32 MiB), r = 8,
 * p = 3. Measured on the 2-core development machine under load: about 0.2 s a hash at p = 1, so
 * about 0.5 s here; on an idle server core well under half that.
 */
export const DEFAULT_SCRYPT: ScryptParams = { ln: 15, r: 8, p: 3 }
export const MIN_PASSWORD_LENGTH = 12
export const MAX_PASSWORD_LENGTH = 1024

const SALT_BYTES = 16
const KEY_BYTES = 32
const FORMAT = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.ln
  return new Promise((resolve, reject) => {
    // maxmem: node's default (32 MiB) is what ln=15, r=8 needs with no room to spare; allow twice that.
    scrypt(
      password,
      salt,
      KEY_BYTES,
      { N, r: params.r, p: params.p, maxmem: 256 * N * params.r },
      (error, key) => (error ? reject(error) : resolve(key)),
    )
  })
}

/** The same password typed on any keyboard or system gives the same bytes. */
const canonical = (password: string) => password.normalize('NFC')

/** Length in characters as a person counts them (code points), after normalisation. */
export function passwordLength(password: string): number {
  return [...canonical(password)].length
}

/** 400 naming the field when a new password is too short or too long. */
export function assertAcceptablePassword(password: string, path = '/body/password'): void {
  const length = passwordLength(password)
  if (length < MIN_PASSWORD_LENGTH)
    throw validationError(path, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  if (length > MAX_PASSWORD_LENGTH)
    throw validationError(path, `must be at most ${MAX_PASSWORD_LENGTH} characters`)
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const key = await derive(canonical(password), salt, params)
  const encode = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '')
  return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${encode(salt)}$${encode(key)}`
}

function parse(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | undefined {
  const match = FORMAT.exec(stored)
  if (!match) return undefined
  const [, ln, r, p, salt, key] = match as unknown as [string, string, string, string, string, string]
  const params = { ln: Number(ln), r: Number(r), p: Number(p) }
  if (params.ln < 1 || params.ln > 20 || params.r < 1 || params.p < 1) return undefined
  return { params, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') }
}

/** Compares in constant time; a stored value that is not one of our hashes never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored)
  if (!parsed) return false
  const key = await derive(canonical(password), parsed.salt, parsed.params)
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key)
}

/** True when the hash was made with weaker parameters than `params`: store a new one at sign-in. */
export function needsRehash(stored: string, params: ScryptParams = DEFAULT_SCRYPT): boolean {
  const parsed = parse(stored)
  if (!parsed) return false
  const cost = (q: ScryptParams) => 2 ** q.ln * q.r * q.p
  return parsed.params.ln < params.ln || cost(parsed.params) < cost(params)
}

/**
 * A hash nobody's password matches, verified when the email is unknown (or has no password) so that
 * the answer takes as long as for a real account. Made once per parameter set, on first use.
 */
const dummies = new Map<string, Promise<string>>()
export function dummyHash(params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const key = `${params.ln},${params.r},${params.p}`
  let dummy = dummies.get(key)
  if (!dummy) {
    dummy = hashPassword(randomBytes(32).toString('base64'), params)
    dummies.set(key, dummy)
  }
  return dummy
}
