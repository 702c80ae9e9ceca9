// How every attachment's bytes are answered, on every API: the sniffed type, its length, a strong
// ETag (its SHA-256; If-None-Match → 304), inline for images and a download for anything else, and
// headers that keep uploaded content from ever acting in this origin: nosniff, and a CSP that
// sandboxes it (no script, no plugins, no same-origin access) and loads nothing.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { matches } from '../../http/etags.js'
import type { OpenedContent } from './service.js'
import { isImage } from './sniff.js'

export const CONTENT_POLICY = "sandbox; default-src 'none'"

/**
 * `Content-Disposition` with the name as given, made safe for the header: an ASCII fallback in
 * `filename` (quotes, backslashes, control and non-ASCII characters replaced by `_`) and the exact
 * name in `filename*` (RFC 6266 / 5987, UTF-8, percent-encoded).
 */
export function contentDisposition(type: string, filename: string): string {
  const disposition = isImage(type) ? 'inline' : 'attachment'
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_')
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`
}

export function sendContent(request: FastifyRequest, reply: FastifyReply, opened: OpenedContent) {
  reply
    .header('etag', opened.etag)
    .header('cache-control', 'private, no-cache')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', CONTENT_POLICY)
  const ifNoneMatch = request.headers['if-none-match']
  if (typeof ifNoneMatch === 'string' && matches(ifNoneMatch, opened.etag)) {
    opened.stream.destroy()
    return reply.code(304).send()
  }
  return reply
    .type(opened.contentType)
    .header('content-length', opened.sizeBytes)
    .header('content-disposition', contentDisposition(opened.contentType, opened.filename))
    .send(opened.stream)
}
