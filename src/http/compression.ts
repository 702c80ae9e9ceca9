// Compressed answers (issue 33 §2): every text answer of 1 kB or more goes out in brotli or gzip when
// the client's Accept-Encoding allows it (brotli first), and says so (Content-Encoding, and Vary:
// Accept-Encoding on every answer that could have been). Three kinds:
// - the dashboard's files were compressed once at build, at the highest settings (web/build/
//   precompress.ts); @fastify/static sends the variant (src/http/dashboard.ts);
// - answers that never change while the process runs (frozen-response.ts: the OpenAPI documents, the
//   playgrounds, the tracking page) are compressed once, on first request, and kept;
// - the API's own answers are compressed as they go, at a fast setting (brotli 4, gzip 6): a job list
//   of 100 shrinks ~8×, for well under a millisecond of work off the event loop (zlib's thread pool).
// Compression runs last among each route's onSend hooks (appended from onRoute, after the ETag and
// Idempotency-Key hooks), so an ETag is the digest of the body as the API wrote it and a stored
// idempotent answer is never a compressed one. A compressed answer's ETag is weak (W/"…"): the bytes
// differ from the uncompressed ones it names; If-None-Match compares weakly, so a 304 still works.
import { pipeline, Readable } from 'node:stream'
import { promisify } from 'node:util'
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { appendRouteHook } from './route-hooks.js'

export type Encoding = 'br' | 'gzip'

/** Smaller answers go as they are: the headers would outweigh the saving. */
export const MIN_COMPRESSED_BYTES = 1024

/** JSON, text, JavaScript, XML, SVG, YAML: what compresses. Images, PDFs and archives do not. */
const COMPRESSIBLE =
  /^(text\/|application\/(json|javascript|xml|yaml|x-yaml|problem\+json|[a-z.+-]*\+json|[a-z.+-]*\+xml)|image\/svg\+xml)/i

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/**
 * The coding to answer with, from Accept-Encoding: brotli when accepted, else gzip, else none. A
 * coding with q=0 is refused; `*` accepts both (brotli then).
 */
export function acceptedEncoding(header: string | string[] | undefined): Encoding | null {
  if (header === undefined) return null
  const text = Array.isArray(header) ? header.join(',') : header
  const quality = new Map<string, number>()
  for (const part of text.split(',')) {
    const [raw, ...params] = part.toLowerCase().split(';')
    const name = raw?.trim()
    if (!name) continue
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean)
    quality.set(name, q ? Number(q[1]) : 1)
  }
  const accepts = (coding: string) => (quality.get(coding) ?? quality.get('*') ?? 0) > 0
  if (accepts('br')) return 'br'
  if (accepts('gzip')) return 'gzip'
  return null
}

/** Whether an answer of this Content-Type is worth compressing. */
export function isCompressible(contentType: unknown): boolean {
  return typeof contentType === 'string' && COMPRESSIBLE.test(contentType)
}

/** Adds Accept-Encoding to the answer's Vary (keeping what is there). */
export function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary')
  const current = typeof vary === 'string' ? vary : Array.isArray(vary) ? vary.join(', ') : ''
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(current)) return
  reply.header('vary', current ? `${current}, Accept-Encoding` : 'Accept-Encoding')
}

/** A weak form of an entity tag (unchanged when already weak). */
export function weakened(etag: unknown): string | null {
  if (typeof etag !== 'string') return null
  return etag.startsWith('W/') ? etag : `W/${etag}`
}

export function compressBytes(body: Buffer | string, encoding: Encoding, best = false): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: best ? 9 : 4,
          [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body),
        },
      })
    : gzipAsync(body, { level: best ? 9 : 6 })
}

async function compressAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (!isCompressible(reply.getHeader('content-type'))) return payload
  varyOnEncoding(reply)
  const status = reply.statusCode
  if (reply.getHeader('content-encoding') !== undefined || status === 304 || status === 206) return payload
  // A streamed answer (a CSV export, a file without a precompressed copy) is compressed as it streams,
  // unless its known length is small.
  if (payload instanceof Readable) {
    const length = Number(reply.getHeader('content-length'))
    return length < MIN_COMPRESSED_BYTES ? payload : compressStream(request, reply, payload)
  }
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload
  if (Buffer.byteLength(payload) < MIN_COMPRESSED_BYTES) return payload
  const encoding = acceptedEncoding(request.headers['accept-encoding'])
  if (encoding === null) return payload
  const compressed = await compressBytes(payload, encoding)
  reply.header('content-encoding', encoding)
  reply.removeHeader('content-length')
  const etag = weakened(reply.getHeader('etag'))
  if (etag) reply.header('etag', etag)
  return compressed
}

function compressStream(request: FastifyRequest, reply: FastifyReply, payload: Readable): Readable {
  const encoding = acceptedEncoding(request.headers['accept-encoding'])
  if (encoding === null) return payload
  const zip =
    encoding === 'br'
      ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
      : createGzip({ level: 6 })
  reply.header('content-encoding', encoding)
  reply.removeHeader('content-length')
  // A failure of the source ends the compressed stream with it (the request is then cut short).
  return pipeline(payload, zip, () => {})
}

/**
 * Compresses the answers of every route registered after this call (the top of this file). Call it
 * after installEtags and installIdempotency, so it runs after their onSend hooks.
 */
export function installCompression(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    appendRouteHook(route, 'onSend', compressAnswer)
  })
}
