// The catalogue of coded errors. Services throw these; the error handler maps them (and validation
// failures, and anything unexpected) to `{ error, code }`. A 5xx never shows its cause to a client.
import { isUniqueViolationOf } from '../db/errors.js'

export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  PLAN_UPGRADE_REQUIRED: 403,
  CSRF_INVALID: 403,
  NOT_FOUND: 404,
  OCCURRENCE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  ORGANISATION_REQUIRED: 409,
  IN_USE: 409,
  KEY_ALREADY_ROTATED: 409,
  SHIFT_IN_USE: 409,
  PLAN_STALE: 409,
  PLAN_NOT_READY: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  OFF_SHIFT: 409,
  SLOT_TAKEN: 409,
  CURSOR_EXPIRED: 410,
  TRACKING_EXPIRED: 410,
  BOOKING_EXPIRED: 410,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TERMINAL_STATE: 422,
  JOB_IN_PROGRESS: 422,
  INVALID_TRANSITION: 422,
  OUTSIDE_TIME_WINDOW: 422,
  OUTSIDE_SHIFT: 422,
  OVERLAP: 422,
  SKILL_MISSING: 422,
  CAPACITY_EXCEEDED: 422,
  WORKER_ABSENT: 422,
  JOBS_NOT_PLANNABLE: 422,
  FORM_REQUIRED: 422,
  COMPLETION_REQUIREMENTS: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  OCCURRENCE_DISPATCHED: 422,
  ATTACHMENT_QUOTA_EXCEEDED: 422,
  RATE_LIMITED: 429,
  TOO_MANY_PLANS: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  GEOCODER_NOT_CONFIGURED: 404,
  GEOCODER_UNAVAILABLE: 503,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

export interface ErrorDetail {
  /** JSON Pointer into the request part that failed, e.g. `/body/title` or `/query/limit`. */
  path: string
  message: string
}

export interface AppErrorOptions {
  /** Sent as `Retry-After` (seconds). */
  retryAfterSeconds?: number
  /** Fields of the error body beside error and code (the route's error schema must list them). */
  extra?: Record<string, unknown>
}

export class AppError extends Error {
  readonly statusCode: number

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly options: AppErrorOptions = {},
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

/** Words that start a predicate: "title" + "must be …" reads "title must be …", without a colon. */
const PREDICATE = /^(must|is|are|cannot|can|does|has|have|appears|requires|should|was|contains|needs)\b/

/**
 * A validation problem in one sentence that names its field: `{ path: '/body/title', message: 'must
 * be at least 1 character' }` → "title must be at least 1 character"; `/body/breaks/0/endTime` →
 * "breaks.0.endTime …". A message that is not a predicate follows a colon.
 */
export function describeDetail({ path, message }: ErrorDetail): string {
  const field = path.replace(/^\/(body|query|params|headers)\/?/, '').replaceAll('/', '.') || path.slice(1)
  return PREDICATE.test(message) ? `${field} ${message}` : `${field}: ${message}`
}

export const validationError = (path: string, message: string) =>
  new AppError('VALIDATION_ERROR', describeDetail({ path, message }), [{ path, message }])

/**
 * The non-zero counts of what still refers to a resource, for IN_USE messages:
 * `{ vehicle: 2, shift: 0, job: 1 }` → "2 vehicles and 1 job".
 */
export function describeUsage(counts: Record<string, number>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([noun, n]) => `${n} ${noun}${n === 1 || noun.endsWith('s') ? '' : 's'}`)
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '')
}

/**
 * Runs a write, turning the unique (organisation_id, external_id) index's refusal into 409 at
 * /body/externalId (migration 0032): the index is the check, so concurrent writes cannot both win.
 */
export async function guardExternalId<T>(
  table: 'customers' | 'jobs',
  noun: string,
  externalId: string | null | undefined,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (typeof externalId === 'string' && isUniqueViolationOf(error, table, 'external_id')) {
      throw new AppError(
        'CONFLICT',
        `Your organisation already has a ${noun} with the externalId "${externalId}"`,
        [{ path: '/body/externalId', message: 'is already taken' }],
      )
    }
    throw error
  }
}
