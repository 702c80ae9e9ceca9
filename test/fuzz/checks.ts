// What must hold for every answer, whatever was sent: no 5xx; errors are `{ error, code }` with a
// code of the catalogue and its status, one of the codes the operation documents for that status, and
// show nothing of the internals; every status is one the
// operation documents and successes match the documented response; and nothing of another
// organisation is accepted or shown.
import type { Response as InjectResponse } from 'light-my-request'
import { ERROR_STATUS } from '../../src/http/errors.js'
import { errorBodyValidator } from './operations.js'
import type { FuzzRequest, ResolvedRequest } from './requests.js'

/** Traces of internals an error must never show (unless the request itself carried that text). */
const LEAK_MARKERS = [
  /\n\s+at /,
  / {4}at /,
  /\/src\//,
  /node_modules/,
  /\.[cm]?[jt]s:\d+/,
  /SQLITE_[A-Z]/,
  /syntax error at or near/i,
  /relation "[^"]*" does not exist/i,
  /violates [a-z ]*constraint/i,
  /duplicate key value/i,
  /constraint failed/i,
  /no such (table|column)/i,
  /invalid input syntax/i,
  /\bkysely\b/i,
  /better-sqlite3/i,
  /\bpg-protocol\b/i,
  // Compiled SQL (Kysely quotes identifiers). Not a bare SELECT … FROM: the fuzzer stores names
  // such as "1' UNION SELECT key_hash FROM api_keys --", which later errors rightly quote.
  /\b(?:from|into|update|join) "[a-z_]+"/i,
]

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g

export interface CheckContext {
  foreignIds: ReadonlySet<string>
}

export function checkResponse(
  context: CheckContext,
  request: FuzzRequest,
  resolved: ResolvedRequest,
  response: InjectResponse,
): string[] {
  const problems: string[] = []
  const status = response.statusCode
  const method = resolved.inject.method as string
  if (status >= 500) problems.push(`answered ${status}`)
  if (method === 'HEAD') return problems
  if (status === 405 && typeof response.headers.allow !== 'string') problems.push('a 405 without Allow')
  if (method === 'OPTIONS' && status === 204) {
    if (response.body !== '') problems.push('OPTIONS answered 204 with a body')
    if (typeof response.headers.allow !== 'string') problems.push('OPTIONS answered without Allow')
    return problems
  }
  const sameOperation = method === request.op.method && resolved.cleanPath
  // Bytes where the operation documents bytes (an attachment's content): of its documented types.
  if (sameOperation && request.op.binary.has(status)) {
    if (String(response.headers['content-type']).startsWith('application/json'))
      problems.push(`answered JSON where ${status} is documented as bytes`)
    if (resolved.foreignPathIds.length > 0)
      problems.push(`answered for another organisation's resource ${resolved.foreignPathIds.join(', ')}`)
    return problems
  }
  let body: unknown
  try {
    body = JSON.parse(response.body)
  } catch {
    problems.push('the body is not JSON')
    return problems
  }
  if (!String(response.headers['content-type']).startsWith('application/json'))
    problems.push(`content-type is ${response.headers['content-type']}`)
  if (status >= 400) {
    const error = body as { error?: unknown; code?: unknown }
    if (!errorBodyValidator(error) || typeof error.error !== 'string' || typeof error.code !== 'string') {
      problems.push(`a ${status} body is not { error, code }`)
    } else {
      const expected = ERROR_STATUS[error.code as keyof typeof ERROR_STATUS]
      if (expected === undefined) problems.push(`unknown error code ${error.code}`)
      else if (expected !== status)
        problems.push(`code ${error.code} with status ${status} (expected ${expected})`)
    }
    for (const marker of LEAK_MARKERS) {
      if (marker.test(response.body) && !marker.test(resolved.sentText))
        problems.push(`the error shows internals (${marker})`)
    }
    // Sign-in failures are limited per client address, and every fuzzed request comes from one.
    const signIn = request.op.key === 'POST /v1/admin/session'
    if (status === 429 && request.auth !== 'key:normalLimit' && !signIn)
      problems.push('rate limited although the key allows 100 M requests a minute')
    const documented = sameOperation ? request.op.responses.get(status) : undefined
    if (sameOperation && !documented)
      problems.push(`status ${status} is not documented for ${request.op.key} in the OpenAPI documents`)
    // The documented error response lists the codes it can carry: the answer's code must be one.
    else if (documented && !documented(body))
      problems.push(
        `the ${status} body does not match the documented response (code ${(body as { code?: unknown }).code}): ` +
          JSON.stringify(documented.errors),
      )
  } else if (status >= 200 && status < 300) {
    const validate = sameOperation ? request.op.responses.get(status) : undefined
    if (sameOperation && !validate) problems.push(`status ${status} is not documented`)
    else if (validate && !validate(body))
      problems.push(
        `the body does not match the documented ${status} response: ${JSON.stringify(validate.errors)}`,
      )
    else if (!validate) {
      const envelope = body as { data?: unknown; message?: unknown }
      if (typeof envelope.data !== 'object' || envelope.message !== 'Success')
        problems.push('a 2xx body is not the { data, message } envelope')
    }
    if (resolved.foreignPathIds.length > 0)
      problems.push(`answered for another organisation's resource ${resolved.foreignPathIds.join(', ')}`)
    if (resolved.foreignBodyIds.length > 0 && method !== 'GET')
      problems.push(`accepted another organisation's id(s) ${resolved.foreignBodyIds.join(', ')}`)
  }
  for (const id of response.body.match(UUID) ?? []) {
    if (context.foreignIds.has(id) && !resolved.sentText.includes(id))
      problems.push(`the answer shows another organisation's id ${id}`)
  }
  return problems
}
