// The JSON body parser. Like Fastify's own it refuses `__proto__` and `constructor.prototype`
// keys; it also refuses NUL characters anywhere in the document, which PostgreSQL cannot store in
// text and which no field of this API has a use for.
import type { FastifyInstance } from 'fastify'
import secureJson from 'secure-json-parse'
import { AppError } from './errors.js'

function containsNul(value: unknown): boolean {
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const current = stack.pop()
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return true
    } else if (Array.isArray(current)) {
      for (const item of current) stack.push(item)
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        if (key.includes('\u0000')) return true
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
    if (text.includes('\\u0000') && containsNul(parsed)) {
      done(new AppError('VALIDATION_ERROR', 'Request body contains a NUL character (\\u0000)'), undefined)
      return
    }
    done(null, parsed)
  })
}
