// Per-key rate limit (spec §5): @fastify/rate-limit keyed by the authenticated API key, with the
// key's own limit per minute. Registered inside each API's plugin, after authentication.
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import { AppError } from './errors.js'

export const RATE_LIMIT_WINDOW_MS = 60_000

export async function installRateLimit(api: FastifyInstance): Promise<void> {
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
