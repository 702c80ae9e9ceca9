// API keys (spec §5): `svc_live_` + a random secret. Only the SHA-256 of the whole key and a short
// display prefix are stored; the key itself is returned once, at creation.
import { hash, randomInt } from 'node:crypto'
import type { Kysely } from 'kysely'
import { newId, nowIso } from '../../db/ids.js'
import type { ApiKeyRow, Database, Executor } from '../../db/types.js'
import { AppError, notFound, validationError } from '../../http/errors.js'
import { offsetOf, paginationOf } from '../../http/pagination.js'
import type { Pagination } from '../../http/schemas.js'
import { KEY_PATTERN, KEY_PREFIX, MAX_RATE_LIMIT_PER_MINUTE, parseScopes, SCOPES, type Scope } from './key.js'
import * as repository from './repository.js'
import type { ApiKey, ApiKeyListQuery, CreateApiKeyBody, RotateApiKeyBody } from './schemas.js'
import { serializeApiKey } from './serialize.js'

export {
  isScope,
  KEY_PATTERN,
  KEY_PREFIX,
  MAX_RATE_LIMIT_PER_MINUTE,
  parseScopes,
  SCOPES,
  type Scope,
} from './key.js'

const SECRET_LENGTH = 40
const DISPLAY_CHARS = 8
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
/** Runs on every authenticated request: the one-shot hash costs a quarter of createHash (measured). */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex')
}

function generateSecret(): string {
  let secret = ''
  for (let i = 0; i < SECRET_LENGTH; i++) secret += BASE62[randomInt(BASE62.length)]
  return secret
}

export interface CreateApiKeyInput {
  organisationId: string
  name: string
  scopes: Scope[]
  rateLimitPerMinute: number
  expiresAt?: string | null
}

export interface CreatedApiKey {
  /** The full key: shown once, never stored. */
  key: string
  record: ApiKeyRow
}

export async function createApiKey(db: Executor, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  if (input.scopes.length === 0) throw new Error('An API key needs at least one scope')
  if (!Number.isInteger(input.rateLimitPerMinute) || input.rateLimitPerMinute < 1) {
    throw new Error('The rate limit must be a positive whole number of requests per minute')
  }
  if (input.rateLimitPerMinute > MAX_RATE_LIMIT_PER_MINUTE) {
    throw new Error(`The rate limit can be at most ${MAX_RATE_LIMIT_PER_MINUTE} requests per minute`)
  }
  const key = `${KEY_PREFIX}${generateSecret()}`
  const record: ApiKeyRow = {
    id: newId(),
    organisation_id: input.organisationId,
    name: input.name,
    prefix: key.slice(0, KEY_PREFIX.length + DISPLAY_CHARS),
    key_hash: hashApiKey(key),
    scopes: [...new Set(input.scopes)].sort((a, b) => SCOPES.indexOf(a) - SCOPES.indexOf(b)).join(' '),
    rate_limit_per_minute: input.rateLimitPerMinute,
    expires_at: input.expiresAt ?? null,
    revoked_at: null,
    last_used_at: null,
    created_at: nowIso(),
    replaced_by_id: null,
  }
  await repository.insertApiKey(db, record)
  return { key, record }
}

export const findApiKeyByHash = repository.findApiKeyByHash
export const deleteApiKeysNamed = repository.deleteApiKeysNamed

/**
 * Operator look-up (CLI): by id, by the display prefix (as lists print it, `…` included or not), or
 * by the whole key, which is matched through its hash like any request's.
 */
export function findApiKeysByIdPrefixOrKey(db: Executor, reference: string): Promise<ApiKeyRow[]> {
  const value = reference.trim().replace(/…$/, '')
  if (KEY_PATTERN.test(value)) return repository.findApiKeysForOperator(db, { keyHash: hashApiKey(value) })
  return repository.findApiKeysForOperator(db, { idOrPrefix: value })
}

/** How a key is named in messages: never the secret beyond its display prefix. */
export function describeKeyReference(reference: string): string {
  const value = reference.trim()
  return value.startsWith(KEY_PREFIX) && value.length > KEY_PREFIX.length + DISPLAY_CHARS
    ? `${value.slice(0, KEY_PREFIX.length + DISPLAY_CHARS)}…`
    : value
}
export const listApiKeys = repository.listApiKeys
export const touchApiKey = repository.touchApiKey

export async function revokeApiKey(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
): Promise<boolean> {
  return (await repository.revokeApiKey(db, organisationId, id, nowIso())) > 0
}

// The admin API. The caller is the authenticated key: what it may grant is bounded by its own scopes.

export interface ApiKeyCaller {
  organisationId: string
  scopes: ReadonlySet<Scope>
}

export interface IssuedApiKey {
  apiKey: ApiKey
  /** The full key: shown once, never stored. */
  key: string
}

/** A key can never hand out more than it holds; `admin` holds every scope. */
export function assertScopesGrantable(callerScopes: ReadonlySet<Scope>, requested: readonly Scope[]): void {
  if (callerScopes.has('admin')) return
  const missing = requested.filter((scope) => !callerScopes.has(scope))
  if (missing.length > 0) {
    throw new AppError(
      'FORBIDDEN',
      `This API key cannot grant scopes it does not hold itself: ${missing.join(', ')}`,
    )
  }
}

function isExpired(row: ApiKeyRow, now: number): boolean {
  return row.expires_at !== null && Date.parse(row.expires_at) <= now
}

export async function listApiKeyPage(
  db: Executor,
  organisationId: string,
  query: ApiKeyListQuery,
): Promise<{ apiKeys: ApiKey[]; pagination: Pagination }> {
  const filters = { includeRevoked: query.includeRevoked ?? true }
  const [rows, total] = await Promise.all([
    repository.listApiKeyPage(db, organisationId, filters, { limit: query.limit, offset: offsetOf(query) }),
    repository.countApiKeys(db, organisationId, filters),
  ])
  return { apiKeys: rows.map(serializeApiKey), pagination: paginationOf(query, total) }
}

export async function getApiKey(db: Executor, organisationId: string, id: string): Promise<ApiKey> {
  const row = await repository.findApiKey(db, organisationId, id)
  if (!row) throw notFound('API key')
  return serializeApiKey(row)
}

export async function issueApiKey(
  db: Executor,
  caller: ApiKeyCaller,
  input: CreateApiKeyBody,
  defaultRateLimitPerMinute: number,
): Promise<IssuedApiKey> {
  assertScopesGrantable(caller.scopes, input.scopes)
  let expiresAt: string | null = null
  if (input.expiresAt !== undefined) {
    const time = Date.parse(input.expiresAt)
    if (Number.isNaN(time)) throw validationError('/body/expiresAt', 'is not a valid datetime')
    if (time <= Date.now()) throw validationError('/body/expiresAt', 'must be in the future')
    expiresAt = new Date(time).toISOString()
  }
  const { key, record } = await createApiKey(db, {
    organisationId: caller.organisationId,
    name: input.name,
    scopes: input.scopes,
    rateLimitPerMinute: input.rateLimitPerMinute ?? defaultRateLimitPerMinute,
    expiresAt,
  })
  return { apiKey: serializeApiKey(record), key }
}

/**
 * Idempotent: a revoked key is returned unchanged. An expired key is revoked too, so that lists
 * show the operator's decision rather than only the lapse.
 */
export async function revokeApiKeyById(db: Executor, organisationId: string, id: string): Promise<ApiKey> {
  await repository.revokeApiKey(db, organisationId, id, nowIso())
  return getApiKey(db, organisationId, id)
}

/**
 * A new key with the old one's name, scopes, limit and expiry. The old key is revoked at once, or
 * keeps working for the grace period (never past its own expiry) so clients can switch over.
 * A key has at most one successor: rotating it again is refused with KEY_ALREADY_ROTATED, so the
 * grace-period expiry of a rotated key never becomes a successor's expiry.
 */
export async function rotateApiKey(
  db: Kysely<Database>,
  caller: ApiKeyCaller,
  id: string,
  input: RotateApiKeyBody,
): Promise<IssuedApiKey & { previous: ApiKey }> {
  const graceMs = (input.gracePeriodSeconds ?? 0) * 1000
  return db.transaction().execute(async (trx) => {
    const current = await repository.findApiKeyForUpdate(trx, caller.organisationId, id)
    if (!current) throw notFound('API key')
    if (current.replaced_by_id !== null) throw alreadyRotated(current.replaced_by_id)
    const now = Date.now()
    if (current.revoked_at !== null) throw new AppError('CONFLICT', 'API key is revoked')
    if (isExpired(current, now)) throw new AppError('CONFLICT', 'API key has expired')
    const scopes = parseScopes(current.scopes)
    assertScopesGrantable(caller.scopes, scopes)
    const { key, record } = await createApiKey(trx, {
      organisationId: caller.organisationId,
      name: current.name,
      scopes,
      rateLimitPerMinute: current.rate_limit_per_minute,
      // Never rotated before (checked above), so this is still the expiry it was issued with.
      expiresAt: current.expires_at,
    })
    const ending =
      graceMs === 0
        ? { revoked_at: new Date(now).toISOString() }
        : {
            expires_at: new Date(
              current.expires_at === null
                ? now + graceMs
                : Math.min(Date.parse(current.expires_at), now + graceMs),
            ).toISOString(),
          }
    // The row lock (PostgreSQL) or the single writer (SQLite) already orders concurrent rotations;
    // the condition on replaced_by_id makes a second successor impossible even without them.
    const marked = await repository.markApiKeyReplaced(trx, caller.organisationId, id, {
      ...ending,
      replaced_by_id: record.id,
    })
    if (!marked) {
      const winner = await repository.findApiKey(trx, caller.organisationId, id)
      throw alreadyRotated(winner?.replaced_by_id ?? null)
    }
    const previous = await getApiKey(trx, caller.organisationId, id)
    return { apiKey: serializeApiKey(record), key, previous }
  })
}

function alreadyRotated(successorId: string | null): AppError {
  return new AppError(
    'KEY_ALREADY_ROTATED',
    successorId === null
      ? 'API key has already been rotated; rotate its replacement instead'
      : `API key has already been rotated; its replacement is ${successorId}: rotate that one instead`,
  )
}
