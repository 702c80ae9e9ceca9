// The IETF draft's rate-limit fields (draft-ietf-httpapi-ratelimit-headers, -08 onwards: Structured
// Fields, one quota policy named "default"), beside the spec's X-RateLimit-* which stay as they are:
//   RateLimit-Policy: "default";q=<limit>;w=60
//   RateLimit: "default";r=<remaining>;t=<seconds until the window ends>
// Derived from the X-RateLimit-* values @fastify/rate-limit has set, on every answer that has them
// (the 429 included: the limiter throws after setting them, so this runs at onSend).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

export function installDraftRateLimitHeaders(api: FastifyInstance, windowMs: number): void {
  const windowSeconds = Math.round(windowMs / 1000)
  api.addHook(
    'onSend',
    (
      _request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (e: null, p: unknown) => void,
    ) => {
      const limit = reply.getHeader('x-ratelimit-limit')
      if (limit !== undefined) {
        reply.header('ratelimit-policy', `"default";q=${limit};w=${windowSeconds}`)
        reply.header(
          'ratelimit',
          `"default";r=${reply.getHeader('x-ratelimit-remaining')};t=${reply.getHeader('x-ratelimit-reset')}`,
        )
      }
      done(null, payload)
    },
  )
}
