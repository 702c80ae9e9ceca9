// What a failed call throws: FieldserviceError for an HTTP answer that is not a success (its `code`
// is one the API documents, or one of the two the client adds), FieldserviceConnectionError when no
// answer came back at all (network failure, timeout), after the retries the call was allowed.
import type { ErrorCode } from './generated/api.js'

/**
 * The codes a FieldserviceError can carry: every code the OpenAPI document lists, plus two the client
 * gives itself — `NOT_MODIFIED` for a 304 answer to `If-None-Match`, and `UNEXPECTED_RESPONSE` for an
 * answer that is not the API's JSON (a proxy's HTML error page, say). A newer server may send a code
 * this version does not know; it is passed through as it is.
 */
export type FieldserviceErrorCode = ErrorCode | 'NOT_MODIFIED' | 'UNEXPECTED_RESPONSE'

/** One offending field of a validation error: `path` is a JSON pointer such as `/body/title`. */
export interface ErrorDetail {
  path: string
  message: string
}

export interface FieldserviceErrorInit {
  status: number
  code: FieldserviceErrorCode
  message: string
  details?: ErrorDetail[]
  retryAfterSeconds?: number
  requestId?: string
  headers: Headers
  body: unknown
}

export class FieldserviceError extends Error {
  override readonly name = 'FieldserviceError'
  /** The HTTP status (400, 404, 429, …; 304 for NOT_MODIFIED). */
  readonly status: number
  readonly code: FieldserviceErrorCode
  /** One entry per offending field on a validation error; empty otherwise. */
  readonly details: ErrorDetail[]
  /** `Retry-After` of the answer, in seconds, when it had one (429, 503). */
  readonly retryAfterSeconds: number | undefined
  /** The server's `X-Request-Id`: quote it when you report a problem. */
  readonly requestId: string | undefined
  readonly headers: Headers
  /** The answer's body as parsed JSON, or its text when it was not JSON. */
  readonly body: unknown

  constructor(init: FieldserviceErrorInit) {
    super(init.message)
    this.status = init.status
    this.code = init.code
    this.details = init.details ?? []
    this.retryAfterSeconds = init.retryAfterSeconds
    this.requestId = init.requestId
    this.headers = init.headers
    this.body = init.body
  }
}

/** No answer: the connection failed or the attempt timed out, on every attempt the call was allowed. */
export class FieldserviceConnectionError extends Error {
  override readonly name = 'FieldserviceConnectionError'
  /** True when the last attempt was cut off by the client's `timeoutMs`. */
  readonly timedOut: boolean
  /** How many attempts were made. */
  readonly attempts: number

  constructor(message: string, options: { cause: unknown; timedOut: boolean; attempts: number }) {
    super(message, { cause: options.cause })
    this.timedOut = options.timedOut
    this.attempts = options.attempts
  }
}

/** True when `error` is a FieldserviceError with one of `codes`: `if (isFieldserviceError(e, 'NOT_FOUND'))`. */
export function isFieldserviceError<C extends FieldserviceErrorCode>(
  error: unknown,
  ...codes: C[]
): error is FieldserviceError & { code: C } {
  return error instanceof FieldserviceError && (codes.length === 0 || codes.includes(error.code as C))
}
