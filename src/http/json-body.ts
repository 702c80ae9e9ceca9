// The JSON body parser. Like Fastify's own it refuses `__proto__` and `constructor.prototype`
// keys; it also refuses NUL characters anywhere in the document, which PostgreSQL cannot store in
// text and which no field of this API has a use for, and unpaired UTF-16 surrogates (`"\ud800"`),
// which are not Unicode text: each database would silently store them as a different replacement.
//
// Parsing is the costly part of a hostile body (1 MiB of `[[[[…]]]]` took ~120 ms of CPU to parse and
// throw away), so nothing is parsed that no one will read: an operation that takes no body only
// checks that the bytes are blank or `{}`, and a document nested deeper than MAX_JSON_DEPTH is
// refused by a scan of the bytes before JSON.parse runs. Requests that are refused before their body
// is needed (no key, unknown route, wrong method) never get here: see auth.ts and unrouted.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import secureJson from 'secure-json-parse'
import { AppError } from './errors.js'
import { noBodyError } from './optional-body.js'

/** No body of this API needs more; a deeper one is refused before it is parsed. */
export const MAX_JSON_DEPTH = 64

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d

/**
 * Whether a JSON text nests arrays and objects deeper than `max`. One pass over the bytes, stopping
 * as soon as it is: brackets inside strings are skipped (UTF-8 never puts an ASCII byte inside a
 * multi-byte character, so bytes are as good as characters here). Malformed text is left to the parser.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0
  const length = bytes.length
  for (let i = 0; i < length; i++) {
    const byte = bytes[i]
    if (byte === QUOTE) {
      for (i++; i < length; i++) {
        const inString = bytes[i]
        if (inString === BACKSLASH) i++
        else if (inString === QUOTE) break
      }
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      if (++depth > max) return true
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      depth--
    }
  }
  return false
}

const isJsonWhitespace = (byte: number | undefined) =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09

/** `undefined` for blank bytes, `{}` for an empty object, else `null`: decided without parsing. */
function blankOrEmptyObject(bytes: Uint8Array): undefined | Record<string, never> | null {
  let i = 0
  const skipWhitespace = () => {
    while (isJsonWhitespace(bytes[i])) i++
  }
  skipWhitespace()
  if (i === bytes.length) return undefined
  if (bytes[i] !== OPEN_BRACE) return null
  i++
  skipWhitespace()
  if (bytes[i] !== CLOSE_BRACE) return null
  i++
  skipWhitespace()
  return i === bytes.length ? {} : null
}

const takesNoBody = (request: FastifyRequest) => request.routeOptions.config?.takesNoBody === true

const hasNul = (text: string) => text.includes('\u0000')
/** With the u flag, a paired surrogate is one code point: only an unpaired one matches. */
const hasLoneSurrogate = (text: string) => /\p{Cs}/u.test(text)
/** Either can only arrive as a `\u` escape in the JSON text: bodies without one skip the walk. */
const NUL_ESCAPE = /\\u0000/
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/

function containsText(value: unknown, matches: (text: string) => boolean): boolean {
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const current = stack.pop()
    if (typeof current === 'string') {
      if (matches(current)) return true
    } else if (Array.isArray(current)) {
      for (const item of current) stack.push(item)
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        if (matches(key)) return true
        stack.push(item)
      }
    }
  }
  return false
}

export function installJsonParser(app: FastifyInstance, bodyLimit: number): void {
  // JSON is the only body this API accepts; anything else is 415 (Fastify also parses text/plain).
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (request, body, done) => {
    const bytes = body as Buffer
    if (takesNoBody(request)) {
      const empty = blankOrEmptyObject(bytes)
      if (empty === null) done(noBodyError(), undefined)
      else done(null, empty)
      return
    }
    if (nestsDeeperThan(bytes, MAX_JSON_DEPTH)) {
      done(
        new AppError('VALIDATION_ERROR', `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`),
        undefined,
      )
      return
    }
    const text = bytes.toString('utf8')
    // Many clients send `Content-Type: application/json` on every request, DELETE included: an empty
    // body is no body, and routes that need one say so through their schema.
    if (text.trim() === '') {
      done(null, undefined)
      return
    }
    let parsed: unknown
    try {
      parsed = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' })
    } catch (error) {
      const reason = error instanceof SyntaxError ? error.message : 'forbidden prototype key'
      done(new AppError('VALIDATION_ERROR', `Request body is not valid JSON: ${reason}`), undefined)
      return
    }
    if (NUL_ESCAPE.test(text) && containsText(parsed, hasNul)) {
      done(new AppError('VALIDATION_ERROR', 'Request body contains a NUL character (\\u0000)'), undefined)
      return
    }
    if (SURROGATE_ESCAPE.test(text) && containsText(parsed, hasLoneSurrogate)) {
      done(
        new AppError(
          'VALIDATION_ERROR',
          'Request body contains an unpaired UTF-16 surrogate (\\uD800–\\uDFFF without its pair)',
        ),
        undefined,
      )
      return
    }
    done(null, parsed)
  })
}
