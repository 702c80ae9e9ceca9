// Per-key rate limit (spec §5): @fastify/rate-limit's counters keyed by the authenticated API key, with the
// key's own limit per minute (a dashboard session counts per user, SESSION_RATE_LIMIT_PER_MINUTE). Registered inside each API's plugin, after authentication; both APIs
// share one RateLimits (one switch, one Redis connection when REDIS_URL is set) and one budget per
// key: an admin key's requests to the public and the admin API count against the same limit.
//
// With REDIS_URL, counters live in Redis so a key's limit holds exactly across every instance. When
// Redis cannot be reached (at start or later) each instance counts in its own memory instead —
// requests never fail and are never left unlimited — and goes back to Redis by itself once Redis
// answers again. Every Redis call is bounded (see REDIS_OPTIONS), so no request waits on an outage.
// What happens to counts across a switch is described in rate-limit-store.ts.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { Redis, type RedisOptions } from 'ioredis'
import { DEFAULT_REDIS_KEY_PREFIX } from '../config.js'
import { AppError } from './errors.js'
import { fallbackStore, type StoreSwitch } from './rate-limit-store.js'
import { appendRouteHook } from './route-hooks.js'

export const RATE_LIMIT_WINDOW_MS = 60_000

export interface RateLimitStatus {
  /** Where counters live right now: shared in Redis, or in this process only. */
  store: 'redis' | 'memory'
  /** `disabled` when REDIS_URL is unset. */
  redis: 'disabled' | 'connected' | 'unreachable'
}

export interface RateLimitOptions {
  /** Prefix of every Redis key this service writes (REDIS_KEY_PREFIX). */
  keyPrefix?: string
  /** A Redis command that has not answered within this is treated as an outage. */
  commandTimeoutMs?: number
  /** While counting in memory, how often to check whether Redis answers again. */
  probeIntervalMs?: number
}

const COMMAND_TIMEOUT_MS = 500
const CONNECT_TIMEOUT_MS = 1000
const PROBE_INTERVAL_MS = 1000

// Fail fast instead of queueing: no offline queue, no retry of a command after a reconnect (an
// INCR resent after it was already counted in memory would count twice), every command bounded.
// The connection itself reconnects forever, at most a second apart.
const REDIS_OPTIONS: RedisOptions = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  connectTimeout: CONNECT_TIMEOUT_MS,
  retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  connectionName: 'fieldservice-rate-limit',
}

/** The rate-limit switch of one app. Without a Redis URL, counters are per process. */
export class RateLimits implements StoreSwitch {
  readonly redis: Redis | undefined
  readonly keyPrefix: string
  sharing = false
  generation = 0
  private outage = false
  private closed = false
  private starting: Promise<void> | undefined
  private probe: NodeJS.Timeout | undefined
  private readonly probeIntervalMs: number
  private keyStore: FastifyRateLimitStoreCtor | undefined
  private ipStore: FastifyRateLimitStoreCtor | undefined

  constructor(
    readonly redisUrl: string | undefined,
    readonly log: FastifyBaseLogger,
    options: RateLimitOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? DEFAULT_REDIS_KEY_PREFIX
    this.probeIntervalMs = options.probeIntervalMs ?? PROBE_INTERVAL_MS
    if (!redisUrl) return
    this.redis = new Redis(redisUrl, {
      ...REDIS_OPTIONS,
      commandTimeout: options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS,
    })
    this.redis.on('ready', () => this.useRedis())
    // ioredis emits these on every failed (re)connection attempt; only the first one switches.
    this.redis.on('error', (error: Error) => this.redisFailed(error))
    this.redis.on('close', () => this.redisFailed(new Error('connection closed')))
  }

  /** The per-key counters, shared by every API this switch serves: one budget per key. */
  perKeyStore(): FastifyRateLimitStoreCtor {
    this.keyStore ??= fallbackStore(this, `${this.keyPrefix}key:`)
    return this.keyStore
  }

  /** The per-address counters of the routes that need no key (ip-rate-limit.ts). */
  perIpStore(): FastifyRateLimitStoreCtor {
    this.ipStore ??= fallbackStore(this, `${this.keyPrefix}ip:`)
    return this.ipStore
  }

  /** Counters of failed sign-ins (sessions/sign-in-limits.ts), in a namespace of their own. */
  signInStore(): FastifyRateLimitStore {
    const Store = fallbackStore(this, `${this.keyPrefix}sign-in:`)
    return new Store({})
  }

  status(): RateLimitStatus {
    if (!this.redis) return { store: 'memory', redis: 'disabled' }
    return this.sharing ? { store: 'redis', redis: 'connected' } : { store: 'memory', redis: 'unreachable' }
  }

  /**
   * Connects to Redis once, for at most a couple of seconds; an unreachable Redis is not an error
   * (the service starts counting in memory). Called by every installRateLimit; idempotent.
   */
  start(): Promise<void> {
    const redis = this.redis
    if (!redis) return Promise.resolve()
    this.starting ??= new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.redisFailed(new Error('Redis did not become ready in time'))
        resolve()
      }, CONNECT_TIMEOUT_MS * 2)
      redis.connect().then(
        () => this.useRedis(),
        (error: Error) => this.redisFailed(error),
      )
      const settle = () => {
        if (!this.sharing && !this.outage) return
        clearTimeout(timer)
        resolve()
      }
      redis.once('ready', settle)
      redis.once('close', settle)
      redis.once('error', settle)
    })
    return this.starting
  }

  redisFailed(error: Error): void {
    if (this.closed || this.outage) return
    this.outage = true
    this.sharing = false
    this.generation++
    this.log.warn(
      { err: error },
      'Redis is unreachable: rate limits are counted per instance until it answers again',
    )
    this.probe = setInterval(() => this.checkRedis(), this.probeIntervalMs)
    this.probe.unref()
  }

  async close(): Promise<void> {
    this.closed = true
    this.sharing = false
    clearInterval(this.probe)
    this.redis?.disconnect()
  }

  private useRedis(): void {
    if (this.closed || this.sharing) return
    const recovered = this.outage
    this.sharing = true
    this.outage = false
    this.generation++
    clearInterval(this.probe)
    this.probe = undefined
    if (recovered) this.log.info('Redis answers again: rate limits are shared through Redis again')
    else this.log.info('Rate limits are shared through Redis')
  }

  /** A timeout can end sharing while the connection stays up (no new 'ready' then): ping it. */
  private checkRedis(): void {
    const redis = this.redis
    if (redis?.status !== 'ready') return // ioredis is reconnecting; 'ready' will follow
    redis.ping().then(
      () => this.useRedis(),
      () => {
        // still failing: the next probe tries again
      },
    )
  }
}

type HookDone = (error?: Error) => void

/**
 * The per-key limit on every route of the calling plugin (one registered after authentication; a
 * route with `config: { rateLimit: false }` is not counted). Counting is the plugin's own: its
 * LocalStore and RedisStore behind the fallback switch (rate-limit-store.ts), one fixed window per
 * key. The hook around them is ours and callback-style: the plugin's own hook awaits the key, the
 * limit and the store in turn and builds the route's options once more per request, which cost
 * 7.5 µs of a 115 µs GET /jobs/:id (bench/where-the-time-goes.md), for the same counts and headers.
 * It sets X-RateLimit-* (spec §8) and the IETF draft's fields beside them
 * (draft-ietf-httpapi-ratelimit-headers, -08 onwards: Structured Fields, one quota policy "default"):
 *   RateLimit-Policy: "default";q=<limit>;w=60
 *   RateLimit: "default";r=<remaining>;t=<seconds until the window ends>
 * and past the limit Retry-After and 429 RATE_LIMITED (the refused request counts too).
 */
export async function installRateLimit(api: FastifyInstance, limits: RateLimits): Promise<void> {
  await limits.start()
  const Store = limits.perKeyStore()
  const store = new Store({} as never)
  const windowSeconds = Math.round(RATE_LIMIT_WINDOW_MS / 1000)
  const count = (request: FastifyRequest, reply: FastifyReply, done: HookDone) => {
    const { rateLimitKey, rateLimitPerMinute: max } = request.auth
    store.incr(
      rateLimitKey,
      (error, counter) => {
        if (error || !counter) return done(error ?? new Error('the rate-limit store answered nothing'))
        const remaining = Math.max(0, max - counter.current)
        const reset = Math.ceil(counter.ttl / 1000)
        reply.header('x-ratelimit-limit', max)
        reply.header('x-ratelimit-remaining', remaining)
        reply.header('x-ratelimit-reset', reset)
        reply.header('ratelimit-policy', `"default";q=${max};w=${windowSeconds}`)
        reply.header('ratelimit', `"default";r=${remaining};t=${reset}`)
        if (counter.current <= max) return done()
        reply.header('retry-after', reset)
        done(
          new AppError(
            'RATE_LIMITED',
            `Rate limit of ${max} requests per minute exceeded; retry in ${reset} second${reset === 1 ? '' : 's'}`,
          ),
        )
      },
      RATE_LIMIT_WINDOW_MS,
      max,
    )
  }
  api.addHook('onRoute', (route: RouteOptions) => {
    if ((route.config as { rateLimit?: unknown } | undefined)?.rateLimit === false) return
    appendRouteHook(route, 'onRequest', count)
  })
}
