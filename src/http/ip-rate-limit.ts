// The per-IP limit of everything that needs no key: the documents and playgrounds, /healthz and
// /readyz, the landing page, and requests no route takes (404, 405, OPTIONS). Without it, one client
// could flood those for free while every tenant waited (issue 13). Authenticated routes are limited
// per key instead (rate-limit.ts).
//
// @fastify/rate-limit again, keyed by the client address (`request.ip`: the peer, or the address
// X-Forwarded-For names when TRUST_PROXY says which proxies to believe; IPv6 per /64), counted in
// the same store as the keys' limits (Redis when REDIS_URL is set, this process's memory otherwise)
// under a namespace of its own. A client under the limit sees no headers of it (X-RateLimit-* are
// the key's budget); one over it gets 429 RATE_LIMITED with Retry-After.
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from './errors.js'
import { RATE_LIMIT_WINDOW_MS, type RateLimits } from './rate-limit.js'

export type IpLimit = (request: FastifyRequest, reply: FastifyReply) => Promise<void>

const QUIET = { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false }

/**
 * Registers the limiter on `app` (for no route by itself) and returns the onRequest hook that
 * applies it; undefined when `perMinute` is 0 (the limit is off).
 */
export async function installIpRateLimit(
  app: FastifyInstance,
  limits: RateLimits,
  perMinute: number,
): Promise<IpLimit | undefined> {
  if (perMinute === 0) return undefined
  await limits.start()
  await app.register(rateLimit, {
    global: false,
    hook: 'onRequest',
    max: perMinute,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    store: limits.perIpStore(),
    addHeadersOnExceeding: QUIET,
    addHeaders: { ...QUIET, 'retry-after': true },
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'RATE_LIMITED',
        `Too many requests from this address: at most ${context.max} a minute to routes that need no ` +
          `API key; retry in ${context.after}`,
      ),
  })
  const hook = app.rateLimit()
  return async (request, reply) => {
    await hook.call(app, request, reply)
  }
}
