// The JSON body parser. Like Fastify's own it refuses `__proto__` and `constructor.prototype`
// keys; it also refuses NUL characters anywhere in the document, which PostgreSQL cannot store in
// text and which no field of this API has a use for, and unpaired UTF-16 surrogates (`"\ud800"`),
// which are not Unicode text: each database would silently store them as a different replacement.
import type { FastifyInstance } from 'fastify'
import secureJson from 'secure-json-parse'
import { AppError } from './errors.js'

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
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (_request, body, done) => {
    const text = body as string
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
