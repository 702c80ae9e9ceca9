// Authentication (spec §5): `Authorization: Bearer svc_live_…` → organisation, scopes, rate limit.
// Resolved keys are cached in memory for a few seconds so the hot path costs no query; a revoked or
// downgraded key is refused at the latest when its cache entry expires (AUTH_CACHE_TTL_MS).
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import type { Kysely } from 'kysely'
import { nowIso } from '../db/ids.js'
import type { Database, PlanTier } from '../db/types.js'
import {
  findApiKeyByHash,
  hashApiKey,
  KEY_PATTERN,
  KEY_PREFIX,
  parseScopes,
  type Scope,
  touchApiKey,
} from '../modules/api-keys/service.js'
import { API_PLANS } from '../modules/organisations/service.js'
import { AppError } from './errors.js'

export interface AuthContext {
  keyId: string
  organisationId: string
  plan: PlanTier
  scopes: ReadonlySet<Scope>
  rateLimitPerMinute: number
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext
  }
}

interface CachedKey {
  context: AuthContext
  expiresAt: number | null
  revoked: boolean
}

interface CacheEntry {
  key: CachedKey | null
  cachedUntil: number
}

const MAX_CACHE_ENTRIES = 10_000
const LAST_USED_RESOLUTION_MS = 60_000

export class ApiKeyResolver {
  private readonly cache = new Map<string, CacheEntry>()
  private readonly lastTouched = new Map<string, number>()

  constructor(
    private readonly db: Kysely<Database>,
    private readonly ttlMs: number,
  ) {}

  /** Returns the caller's context or throws the 401 the request deserves. */
  async authenticate(header: string | undefined): Promise<AuthContext> {
    if (!header)
      throw new AppError(
        'UNAUTHORIZED',
        'Missing Authorization header; send "Authorization: Bearer <API key>"',
      )
    const match = /^Bearer +(\S+) *$/i.exec(header)
    if (!match)
      throw new AppError('UNAUTHORIZED', 'Malformed Authorization header; expected "Bearer <API key>"')
    const token = match[1] as string
    if (!KEY_PATTERN.test(token)) {
      throw new AppError('UNAUTHORIZED', `Malformed API key; keys start with ${KEY_PREFIX}`)
    }
    const key = await this.lookup(hashApiKey(token))
    if (!key) throw new AppError('UNAUTHORIZED', 'Unknown API key')
    if (key.revoked) throw new AppError('UNAUTHORIZED', 'API key has been revoked')
    const now = Date.now()
    if (key.expiresAt !== null && key.expiresAt <= now)
      throw new AppError('UNAUTHORIZED', 'API key has expired')
    this.recordUse(key.context.keyId, now)
    return key.context
  }

  /** Forgets every cached key, so a revocation or plan change made here applies to the next request. */
  invalidate(): void {
    this.cache.clear()
  }

  private async lookup(hash: string): Promise<CachedKey | null> {
    const now = Date.now()
    const cached = this.cache.get(hash)
    if (cached && cached.cachedUntil > now) return cached.key
    const row = await findApiKeyByHash(this.db, hash)
    const key: CachedKey | null = row
      ? {
          context: {
            keyId: row.id,
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
    this.cache.set(hash, { key, cachedUntil: now + this.ttlMs })
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

/** Public API: GET needs `read`, writes need `write`; `admin` permits everything. */
export function publicScope(method: string): Scope {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write'
}

/** Admin API: every request needs `admin` (spec §5: "full access including team and settings"). */
export function adminScope(): Scope {
  return 'admin'
}

/** Plan and scope: checked after the rate limiter, so refused requests still count and get headers. */
function assertAccess(request: FastifyRequest, requiredScope: (method: string) => Scope): void {
  const { plan, scopes } = request.auth
  if (!API_PLANS.has(plan)) {
    throw new AppError(
      'PLAN_UPGRADE_REQUIRED',
      `API access requires the Pro or Enterprise plan; this organisation is on ${plan}`,
    )
  }
  const needed = requiredScope(request.method)
  if (!scopes.has(needed) && !scopes.has('admin')) {
    throw new AppError(
      'FORBIDDEN',
      `This API key lacks the "${needed}" scope required for ${request.method} requests`,
    )
  }
}

/**
 * Installs, for every route of the calling plugin: authentication on `onRequest` (before the rate
 * limiter, which counts per key), and the plan and scope checks after the rate limiter. Register
 * this before @fastify/rate-limit and call `appendAccessCheck` after it.
 */
export function installAuthentication(scope: FastifyInstance, resolver: ApiKeyResolver): void {
  scope.decorateRequest('auth', null as unknown as AuthContext)
  scope.addHook('onRequest', async (request: FastifyRequest) => {
    request.auth = await resolver.authenticate(request.headers.authorization)
  })
}

export function appendAccessCheck(scope: FastifyInstance, requiredScope: (method: string) => Scope): void {
  scope.addHook('onRoute', (route: RouteOptions) => {
    const check = async (request: FastifyRequest, _reply: FastifyReply) =>
      assertAccess(request, requiredScope)
    const existing = route.onRequest
    route.onRequest = existing ? [...(Array.isArray(existing) ? existing : [existing]), check] : [check]
  })
}
