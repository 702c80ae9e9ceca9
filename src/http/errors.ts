// The catalogue of coded errors. Services throw these; the error handler maps them (and validation
// failures, and anything unexpected) to `{ error, code }`. A 5xx never shows its cause to a client.

export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  PLAN_UPGRADE_REQUIRED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  IN_USE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TERMINAL_STATE: 422,
  JOB_IN_PROGRESS: 422,
  INVALID_TRANSITION: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

export interface ErrorDetail {
  /** JSON Pointer into the request part that failed, e.g. `/body/title` or `/query/limit`. */
  path: string
  message: string
}

export class AppError extends Error {
  readonly statusCode: number

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message)
    this.name = 'AppError'
    this.statusCode = ERROR_STATUS[code]
  }
}

/** Seconds a client is asked to wait (`Retry-After`) before retrying a 503. */
export const RETRY_AFTER_SECONDS = 2

/** The database cannot be reached (or cannot take the write) right now; the client may retry. */
export const serviceUnavailable = () =>
  new AppError('SERVICE_UNAVAILABLE', 'The service is temporarily unavailable; retry in a few seconds')

export const notFound = (resource: string) => new AppError('NOT_FOUND', `${resource} not found`)

export const validationError = (path: string, message: string) =>
  new AppError('VALIDATION_ERROR', message, [{ path, message }])

/**
 * The non-zero counts of what still refers to a resource, for IN_USE messages:
 * `{ vehicle: 2, shift: 0, job: 1 }` → "2 vehicles and 1 job".
 */
export function describeUsage(counts: Record<string, number>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([noun, n]) => `${n} ${noun}${n === 1 ? '' : 's'}`)
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '')
}
