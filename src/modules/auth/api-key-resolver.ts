// Authentication by API key (spec §5): `Authorization: Bearer svc_live_…` → organisation, scopes, rate
// limit. Resolved keys are cached in memory for a few seconds so the hot path costs no query; a revoked
// or downgraded key is refused at the latest when its cache entry expires (AUTH_CACHE_TTL_MS).
import type { Kysely } from 'kysely'
import { nowIso } from '../../db/ids.js'
import type { Database } from '../../db/types.js'
import { AppError } from '../../http/errors.js'
import {
  findApiKeyByHash,
  hashApiKey,
  KEY_PATTERN,
  KEY_PREFIX,
  parseScopes,
  touchApiKey,
} from '../api-keys/service.js'
import type { KeyAuth } from './context.js'

interface CachedKey {
  context: KeyAuth
  expiresAt: number | null
  revoked: boolean
}

interface CacheEntry {
  key: CachedKey | null
  cachedUntil: number
}

const MAX_CACHE_ENTRIES = 10_000
const LAST_USED_RESOLUTION_MS = 60_000
const BEARER = /^Bearer +(\S+) *$/i

/** The token of a well-formed `Bearer svc_live_…` header, else undefined. */
function tokenOf(header: string): string | undefined {
  const token = BEARER.exec(header)?.[1]
  return token !== undefined && KEY_PATTERN.test(token) ? token : undefined
}

/** Why a known key cannot be used at `now` (the 401's message), or undefined when it can. */
function refusalOf(key: CachedKey, now: number): string | undefined {
  if (key.revoked) return 'API key has been revoked'
  if (key.expiresAt !== null && key.expiresAt <= now) return 'API key has expired'
  return undefined
}

export class ApiKeyResolver {
  private readonly cache = new Map<string, CacheEntry>()
  private readonly lastTouched = new Map<string, number>()

  constructor(
    private readonly db: Kysely<Database>,
    private readonly ttlMs: number,
  ) {}

  /**
   * The caller's context when the key is cached and usable, without a promise (the hot path of
   * every request); undefined when it must be looked up or refused (then call authenticate).
   */
  cached(header: string | undefined): KeyAuth | undefined {
    const token = header === undefined ? undefined : tokenOf(header)
    const entry = token === undefined ? undefined : this.cache.get(token)
    const now = Date.now()
    if (!entry?.key || entry.cachedUntil <= now || refusalOf(entry.key, now) !== undefined) return undefined
    this.recordUse(entry.key.context.keyId, now)
    return entry.key.context
  }

  /** Returns the caller's context or throws the 401 the request deserves. */
  async authenticate(header: string | undefined, orSignIn = false): Promise<KeyAuth> {
    if (!header)
      throw new AppError(
        'UNAUTHORIZED',
        orSignIn
          ? 'Not signed in: send "Authorization: Bearer <API key>", or sign in with POST /v1/admin/session'
          : 'Missing Authorization header; send "Authorization: Bearer <API key>"',
      )
    const match = BEARER.exec(header)
    if (!match)
      throw new AppError('UNAUTHORIZED', 'Malformed Authorization header; expected "Bearer <API key>"')
    const token = match[1] as string
    if (!KEY_PATTERN.test(token)) {
      throw new AppError('UNAUTHORIZED', `Malformed API key; keys start with ${KEY_PREFIX}`)
    }
    const key = await this.lookup(token)
    if (!key) throw new AppError('UNAUTHORIZED', 'Unknown API key')
    const now = Date.now()
    const refusal = refusalOf(key, now)
    if (refusal !== undefined) throw new AppError('UNAUTHORIZED', refusal)
    this.recordUse(key.context.keyId, now)
    return key.context
  }

  /** Forgets every cached key, so a revocation or plan change made here applies to the next request. */
  invalidate(): void {
    this.cache.clear()
  }

  /** Cached by the key itself (a process's memory holds the keys of its requests anyway): a hit costs no hash. */
  private async lookup(token: string): Promise<CachedKey | null> {
    const now = Date.now()
    const cached = this.cache.get(token)
    if (cached && cached.cachedUntil > now) return cached.key
    const row = await findApiKeyByHash(this.db, hashApiKey(token))
    const key: CachedKey | null = row
      ? {
          context: {
            kind: 'key',
            keyId: row.id,
            rateLimitKey: row.id,
            organisationId: row.organisation_id,
            plan: row.plan,
            scopes: new Set(parseScopes(row.scopes)),
            rateLimitPerMinute: row.rate_limit_per_minute,
          },
          expiresAt: row.expires_at ? Date.parse(row.expires_at) : null,
          revoked: row.revoked_at !== null,
        }
      : null
    if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value as string)
    this.cache.set(token, { key, cachedUntil: now + this.ttlMs })
    return key
  }

  /** Keeps `last_used_at` current to the minute without a write on every request. */
  private recordUse(keyId: string, now: number): void {
    const last = this.lastTouched.get(keyId) ?? 0
    if (now - last < LAST_USED_RESOLUTION_MS) return
    if (this.lastTouched.size >= MAX_CACHE_ENTRIES) this.lastTouched.clear()
    this.lastTouched.set(keyId, now)
    touchApiKey(this.db, keyId, nowIso()).catch(() => {
      // Best effort: a missed last-used stamp must never fail the request that caused it.
    })
  }
}

/**
 * Query parameters a client might put a key under (compared lower-case, without `-` and `_`). Plain
 * `key` is not among them: it is a field of this API (a capacity dimension's key); a value that holds
 * one of our keys is refused under any name.
 */
const CREDENTIAL_QUERY_NAMES = new Set(['apikey', 'token', 'accesstoken', 'authorization', 'bearer'])

/** A value that carries one of our secrets (an API key, a webhook signing secret), however it is named. */
export function carriesSecret(value: string): boolean {
  return value.includes(KEY_PREFIX) || value.includes('whsec_')
}

/**
 * Keys are accepted in the Authorization header only. One sent in the URL has already been written
 * to access logs, proxies and browser histories on its way here, so the request is refused (and the
 * message says where a key belongs) rather than served and silently teaching the habit.
 */
export function assertNoKeyInQuery(query: unknown): void {
  if (query === null || typeof query !== 'object') return
  for (const [name, value] of Object.entries(query)) {
    const values: unknown[] = Array.isArray(value) ? value : [value]
    const named = CREDENTIAL_QUERY_NAMES.has(name.toLowerCase().replace(/[-_]/g, ''))
    if (named || values.some((v) => typeof v === 'string' && carriesSecret(v))) {
      throw new AppError(
        'UNAUTHORIZED',
        `API keys are accepted only in the Authorization header ("Authorization: Bearer <API key>"), ` +
          `never in the URL (query parameter "${name}"); a key sent in a URL may be in logs by now, so rotate it`,
      )
    }
  }
}
