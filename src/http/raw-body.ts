// Routes that take their request body as raw bytes (attachment uploads): the body reaches the
// handler as the request stream, unread and unlimited by the 1 MiB JSON limit — the route reads it
// and caps it itself, as it arrives. Its Content-Type is not trusted (any is accepted, none too): the
// route decides what the bytes are. Registered per route module, so every other route keeps the JSON
// parser. `config.rawBody` lists the content types the OpenAPI documents show for the request body;
// the Idempotency-Key fingerprint of such a request leaves the body out (idempotency.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body is the raw request stream; these are the content types documented for it. */
    rawBody?: readonly string[]
  }
}

/** In this plugin scope, every request body is handed to the route as the request stream. */
export function installRawBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload))
}

export const takesRawBody = (request: FastifyRequest) => request.routeOptions.config?.rawBody !== undefined

/** Content-Length as a number, when the client sent a valid one. */
export function declaredLength(request: FastifyRequest): number | undefined {
  const raw = request.headers['content-length']
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined
  return Number(raw)
}
