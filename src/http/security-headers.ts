// The content-security-policy every answer carries. Written for the dashboard (a single-page app
// served from this origin): scripts only from files of this origin, never inline; styles from this
// origin (inline style attributes allowed: components set them); images also as data:/blob: URLs and
// from any https origin, for the tile server an admin may set for the organisation's maps (one header
// for every answer, sent before anyone is signed in, so not narrowed to that host; an image cannot
// run script or send what the page reads, and scripts stay on this origin); requests only to this origin; never
// framed (clickjacking); no <base> and no form posting elsewhere. JSON answers carry it harmlessly;
// the swagger-ui playgrounds load only files of this origin and work under it unchanged (checked in
// a browser: no violation on load, Authorize or Try it out).
import type { FastifyInstance } from 'fastify'
import { AppError } from './errors.js'

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ')

/**
 * Every answer, errors included, names its request id and carries the security headers of a JSON
 * API. No strict-transport-security: TLS terminates at the load balancer, which sets HSTS for the
 * public host name; this process speaks plain HTTP behind it (and on localhost in development).
 * One content-security-policy for every answer (above). cache-control is a default: the playground's
 * static assets set their own. From the shutdown signal on, every response closes its connection, so
 * keep-alive clients reconnect (to another instance, once the load balancer has seen /readyz fail)
 * before this one stops listening. PostgreSQL cannot store NUL in text and no value of this API
 * contains one: a %00 anywhere in the URL (path or query) is refused before it reaches a query.
 * A callback-style hook: it runs on every request, and an async hook costs a promise each time.
 */
export function installResponseHeaders(
  app: FastifyInstance,
  lifecycle: { readonly stopping: boolean },
): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    reply.header('x-content-type-options', 'nosniff')
    reply.header('x-frame-options', 'DENY')
    reply.header('referrer-policy', 'same-origin')
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY)
    reply.header('cache-control', 'no-store')
    if (lifecycle.stopping) reply.header('connection', 'close')
    if (/%00/i.test(request.url)) {
      done(new AppError('VALIDATION_ERROR', 'The URL contains a NUL character (%00)'))
      return
    }
    done()
  })
}
