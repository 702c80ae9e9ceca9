// What makes two requests "the same request" for an Idempotency-Key: method, path with its query, and
// the body as parsed JSON with object keys sorted (so the order of the fields does not matter).
import { createHash } from 'node:crypto'

/** The JSON text of `root` with object keys sorted; iterative, so no body is too deep for it. */
export function canonicalJson(root: unknown): string {
  const out: string[] = []
  const stack: unknown[] = [root]
  const tokens = new WeakSet<object>()
  const token = (text: string) => {
    const wrapped = { text }
    tokens.add(wrapped)
    return wrapped
  }
  const comma = token(',')
  const closeArray = token(']')
  const closeObject = token('}')
  while (stack.length > 0) {
    const item = stack.pop()
    if (item === null || typeof item !== 'object') {
      out.push(JSON.stringify(item) ?? 'null')
    } else if (tokens.has(item)) {
      out.push((item as { text: string }).text)
    } else if (Array.isArray(item)) {
      out.push('[')
      stack.push(closeArray)
      for (let i = item.length - 1; i >= 0; i--) {
        stack.push(item[i])
        if (i > 0) stack.push(comma)
      }
    } else {
      out.push('{')
      stack.push(closeObject)
      const keys = Object.keys(item).sort()
      for (let i = keys.length - 1; i >= 0; i--) {
        const name = keys[i] as string
        stack.push((item as Record<string, unknown>)[name])
        stack.push(token(`${JSON.stringify(name)}:`))
        if (i > 0) stack.push(comma)
      }
    }
  }
  return out.join('')
}

/** No body and `{}` are one request (operations without input take either). */
export function fingerprintOf(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method}\n${url}\n`)
    .update(canonicalJson(body === undefined ? {} : body))
    .digest('hex')
}
