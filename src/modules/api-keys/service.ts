// API keys (spec §5): `svc_live_` + a random secret. Only the SHA-256 of the whole key and a short
// display prefix are stored; the key itself is returned once, at creation.
import { createHash, randomInt } from 'node:crypto'
import type { Kysely } from 'kysely'
import { newId, nowIso } from '../../db/ids.js'
import type { ApiKeyRow, Database } from '../../db/types.js'
import * as repository from './repository.js'

export const KEY_PREFIX = 'svc_live_'
const SECRET_LENGTH = 40
const DISPLAY_CHARS = 8
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
/** A well-formed key: the prefix and at least 32 base62 characters. */
export const KEY_PATTERN = /^svc_live_[0-9A-Za-z]{32,128}$/

export type Scope = 'read' | 'write' | 'admin'
export const SCOPES: readonly Scope[] = ['read', 'write', 'admin']
export const MAX_RATE_LIMIT_PER_MINUTE = 100_000_000

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value)
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
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

export async function createApiKey(db: Kysely<Database>, input: CreateApiKeyInput): Promise<CreatedApiKey> {
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
  }
  await repository.insertApiKey(db, record)
  return { key, record }
}

export function parseScopes(value: string): Scope[] {
  return value.split(' ').filter(isScope)
}

export const findApiKeyByHash = repository.findApiKeyByHash
export const findApiKeysByIdOrPrefix = repository.findApiKeysByIdOrPrefix
export const listApiKeys = repository.listApiKeys
export const touchApiKey = repository.touchApiKey

export async function revokeApiKey(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
): Promise<boolean> {
  return (await repository.revokeApiKey(db, organisationId, id, nowIso())) > 0
}
