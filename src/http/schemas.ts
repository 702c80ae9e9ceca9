// Schema building blocks shared by every route module: the envelope, pagination, errors and the
// value formats the API uses everywhere (ids, datetimes, coordinates, times of day).
import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { ERROR_STATUS, type ErrorCode } from './errors.js'

/** `T | null`, as a JSON Schema type array: one schema, fast to serialize, valid OpenAPI 3.1. */
export function Nullable<T extends TSchema>(schema: T) {
  const { type } = schema as { type?: string }
  if (!type) throw new Error('Nullable() needs a schema with a primitive type')
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] })
}

export function NullableObject<T extends TSchema>(schema: T) {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: ['object', 'null'] })
}

export const MAX_INT32 = 2_147_483_647

/** An id as the API issues them (a UUIDv7), for examples. */
export const EXAMPLE_ID = '0193e2f4-5b7a-7c3d-9e1f-2a4b6c8d0e1f'

export const Id = Type.String({ description: 'Opaque identifier' })
export const DateTime = Type.String({
  format: 'date-time',
  description: 'ISO 8601 datetime in UTC with milliseconds',
  examples: ['2026-11-23T09:00:00.000Z'],
})
export const DateTimeInput = Type.String({
  format: 'date-time',
  maxLength: 40,
  description: 'ISO 8601 datetime with an offset (Z or ±HH:MM); stored and returned in UTC',
  examples: ['2026-11-23T09:00:00Z'],
})
/**
 * A calendar day for the board, My day and route plans: `YYYY-MM-DD` from 1970-01-01 to 9998-12-31.
 * Outside it a day's bounds in a depot's zone are instants the databases cannot store (PostgreSQL
 * answered 500), or years JavaScript's Date.UTC reads as 1900–1999.
 */
export const CalendarDay = (description: string) =>
  Type.String({
    format: 'date',
    formatMinimum: '1970-01-01',
    formatMaximum: '9998-12-31',
    description: `${description}; from 1970-01-01 to 9998-12-31`,
    examples: ['2026-11-26'],
  })
export const TimeOfDay = Type.String({
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  description: 'Time of day, HH:MM (00:00–23:59)',
  examples: ['08:30'],
})
/** A coordinate as responses give it: a canonical decimal string. */
export const LatitudeString = Type.String({
  description: 'Latitude in decimal degrees',
  examples: ['51.5072'],
})
export const LongitudeString = Type.String({
  description: 'Longitude in decimal degrees',
  examples: ['-0.1276'],
})
export const Latitude = Type.Number({
  minimum: -90,
  maximum: 90,
  description: 'Decimal degrees, -90 to 90',
  examples: [51.5072],
})
export const Longitude = Type.Number({
  minimum: -180,
  maximum: 180,
  description: 'Decimal degrees, -180 to 180',
  examples: [-0.1276],
})
/** 1–8: a worker's colour (users.colour), the dashboard's route palette. */
export const WorkerColour = Type.Integer({
  minimum: 1,
  maximum: 8,
  description:
    'The worker’s colour on the board, the maps, plan previews and the phone; distinct among the first 8 ' +
    'people, set by an admin',
  examples: [3],
})
export const Duration = Type.Integer({ minimum: 0, maximum: MAX_INT32, description: 'Seconds' })
export const Text = (maxLength: number, description?: string) =>
  Type.String({ maxLength, ...(description ? { description } : {}) })

/** Enums as `{ type: 'string', enum: [...] }`: compact in OpenAPI and cheap to validate. */
export function StringEnum<const T extends string>(values: readonly T[], description?: string) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) })
}

export const JOB_STATUSES = ['CREATED', 'ASSIGNED', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED'] as const
export const JobStatus = StringEnum(JOB_STATUSES)
export const JobPriority = StringEnum(['LOW', 'NORMAL', 'HIGH'])
export const TimeWindowType = StringEnum(
  ['HARD', 'SOFT'],
  'HARD: must be kept — the route optimiser plans the visit inside the window or not at all, and assigning ' +
    'a job outside its own HARD window is refused (422 OUTSIDE_TIME_WINDOW); SOFT: preferred — a visit may end ' +
    "after it, at a cost (the organisation's routing.latenessPenaltyPerMinute)",
)
export const VehicleEndPolicy = StringEnum(['RETURN_TO_ORIGIN', 'END_AT_LAST_JOB'])
export const DayOfWeek = StringEnum([
  'MONDAY',
  'TUESDAY',
  'WEDNESDAY',
  'THURSDAY',
  'FRIDAY',
  'SATURDAY',
  'SUNDAY',
])

export const IdParams = Type.Object(
  { id: Type.String({ description: 'Resource id', examples: [EXAMPLE_ID] }) },
  { additionalProperties: false },
)

/** The body of an action that takes no input (`config: { optionalBody: true }` routes). */
export const NoInputBody = Type.Object(
  {},
  { additionalProperties: false, description: 'No input: send {} or no body at all' },
)

export const Pagination = Type.Object(
  {
    page: Type.Integer(),
    limit: Type.Integer(),
    total: Type.Integer(),
    totalPages: Type.Integer(),
  },
  { title: 'Pagination' },
)
export type Pagination = Static<typeof Pagination>

/** The pagination object of lists that can also be walked with a keyset cursor. */
export const CursorPagination = Type.Object(
  {
    page: Nullable(Type.Integer({ description: 'The page returned; null when the request used `cursor`' })),
    limit: Type.Integer(),
    total: Type.Integer({ description: 'Every row matching the filters (exact)' }),
    totalPages: Type.Integer(),
    nextCursor: Nullable(
      Type.String({
        description:
          'Pass as `cursor` to get the rows after this page, at the same cost at any depth; null on the last page',
      }),
    ),
  },
  { title: 'CursorPagination' },
)
export type CursorPagination = Static<typeof CursorPagination>

export const CursorQuery = {
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 512,
      description:
        'Opaque: `nextCursor` of the previous response. Returns the rows after it (the filters still ' +
        'apply); `page` must then be omitted. Use it to walk a whole list: its cost does not grow with depth. ' +
        'A cursor from a read with `updatedSince` continues only such a read, and the other way round.',
    }),
  ),
}

/** The change feed of a list (an addition to the spec; see docs/integrators.md). */
export const UpdatedSinceQuery = {
  updatedSince: Type.Optional(
    Type.String({
      format: 'date-time',
      maxLength: 40,
      description:
        'Only rows changed strictly after this instant, oldest change first (updatedAt ascending, then ' +
        'id), instead of newest created first. Rows changed in the last 5 seconds are held back until ' +
        'every earlier write has committed, so resuming from the last updatedAt you processed never ' +
        'skips a change. Walk the result with `cursor`.',
      examples: ['2026-11-23T09:00:00.000Z'],
    }),
  ),
}

/** Pagination of lists that can also be read as a change feed (`updatedSince`) with a cursor. */
export const ChangeFeedPagination = Type.Object(
  {
    page: Nullable(Type.Integer({ description: 'The page returned; null when the request used `cursor`' })),
    limit: Type.Integer(),
    total: Type.Integer({ description: 'Every row matching the filters (and updatedSince) (exact)' }),
    totalPages: Type.Integer(),
    nextCursor: Type.Optional(
      Nullable(
        Type.String({
          description:
            'Only when the request had `updatedSince` or `cursor`: pass as `cursor` for the rows after this ' +
            'page; null on the last page',
        }),
      ),
    ),
  },
  { title: 'ChangeFeedPagination' },
)
export type ChangeFeedPagination = Static<typeof ChangeFeedPagination>

export function PageQuery(defaultLimit: number) {
  return {
    page: Type.Integer({ minimum: 1, maximum: MAX_INT32, default: 1, description: '1-indexed page number' }),
    limit: Type.Integer({
      minimum: 1,
      maximum: 100,
      default: defaultLimit,
      description: `Page size (default ${defaultLimit}, max 100)`,
    }),
  }
}

export const SUCCESS = 'Success'

export function Envelope<T extends TSchema>(data: T, description: string) {
  return Type.Object({ data, message: Type.String({ examples: [SUCCESS] }) }, { description })
}

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Human-readable message' }),
    code: Type.Optional(Type.String({ description: 'Stable machine-readable code' })),
    details: Type.Optional(
      Type.Array(Type.Object({ path: Type.String(), message: Type.String() }), {
        description: 'Validation failures, one per offending field',
      }),
    ),
  },
  { $id: 'Error', title: 'Error' },
)

/** What each code of the catalogue means, as error responses describe it unless a route says more. */
export const ERROR_CODE_DESCRIPTIONS: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'The request is not valid; `details` names each offending field',
  SLOT_TAKEN:
    'The booked window is no longer free on that worker’s day (another booking or a dispatcher took it): ask POST /availability again',
  BOOKING_EXPIRED: 'The bookingToken is older than its 10 minutes: ask POST /availability again',
  UNAUTHORIZED: 'Missing, malformed, unknown, revoked or expired API key',
  FORBIDDEN: 'The key lacks the required scope',
  PLAN_UPGRADE_REQUIRED: "The organisation's plan has no API access",
  CSRF_INVALID:
    'A dashboard session request that changes something came without the X-CSRF-Token header of its session, or with another one',
  ORGANISATION_REQUIRED:
    'The email and password match users of several organisations; sign in again naming one as organisationId',
  NOT_FOUND: 'Resource not found',
  OCCURRENCE_NOT_FOUND:
    "The date is not an occurrence of the series: not one of its rule's dates from its startDate to its end",
  METHOD_NOT_ALLOWED: 'The path exists, but not for this method; `Allow` lists its methods',
  CONFLICT: 'Conflicts with the current state of the resource',
  IN_USE: 'Other resources still refer to it',
  KEY_ALREADY_ROTATED: 'The key was already rotated: a key has at most one successor',
  SHIFT_IN_USE: 'The shift has ASSIGNED or IN_PROGRESS jobs',
  PLAN_STALE: 'An input of the route plan changed after it was made; nothing was applied',
  PLAN_NOT_READY: 'The route plan is not DONE',
  JOBS_NOT_PLANNABLE: 'Some jobs cannot be planned on the date; each is listed',
  FORM_REQUIRED: 'A form the job needs has not been submitted yet; `details` lists each',
  COMPLETION_REQUIREMENTS:
    'What completing the job requires (a signature, so many photos, notes) is missing; `details` names each',
  OUTSIDE_TIME_WINDOW: 'The job has a HARD window and the scheduled visit falls outside it',
  OFF_SHIFT: 'The worker has no shift at that time (30 min either side): positions are taken only on shift',
  OUTSIDE_SHIFT:
    "The time sent is outside the worker's shift (± 30 min), or more than 24 hours ago for a job with no shift; nothing was done",
  OVERLAP:
    "The visit overlaps another of the worker's visits, or leaves too little time to drive between them; nothing was done",
  SKILL_MISSING: "The job needs a tag the worker's vehicle lacks; nothing was done",
  CAPACITY_EXCEEDED: "The vehicle's capacity would be exceeded by the day's demands; nothing was done",
  WORKER_ABSENT:
    'The worker is away (holiday, sick, training or other absence) during the scheduled visit; nothing was done',
  IDEMPOTENCY_KEY_IN_USE: 'A request with this Idempotency-Key is still running; retry once it has finished',
  IDEMPOTENCY_KEY_REUSED:
    'This Idempotency-Key was used in the last 24 hours for another method, path or body; nothing was done',
  CURSOR_EXPIRED:
    'The cursor points before what the event feed keeps (30 days): events may be missing after it; resync from the lists with updatedSince',
  TRACKING_EXPIRED: 'The tracking link ended: its job was completed or cancelled more than 12 hours ago',
  PRECONDITION_FAILED:
    'If-Match does not name the current ETag: the resource changed since you read it; nothing was done',
  PAYLOAD_TOO_LARGE: 'Body larger than 1 MiB',
  UNSUPPORTED_MEDIA_TYPE: 'Content-Type is not application/json',
  TERMINAL_STATE: 'The job is COMPLETED or CANCELLED',
  JOB_IN_PROGRESS: 'The job is IN_PROGRESS',
  INVALID_TRANSITION: 'The job is not in a status this action applies to',
  OCCURRENCE_DISPATCHED:
    "The occurrence's job is already ASSIGNED, IN_PROGRESS, COMPLETED or CANCELLED: a series never changes it; change the job itself",
  ATTACHMENT_QUOTA_EXCEEDED:
    "The organisation's attachments would exceed its storage quota (ATTACHMENT_QUOTA_BYTES, or its own); nothing was stored",
  RATE_LIMITED: 'Rate limit of the key exceeded; retry after `Retry-After` seconds',
  TOO_MANY_PLANS:
    'The organisation already has as many route plans queued or running as it may (ROUTE_PLAN_QUEUE_MAX); ' +
    'retry after `Retry-After` seconds, or cancel one to free a place',
  INTERNAL_ERROR: 'Unexpected error; nothing of it is shown, it is logged with the request id',
  SERVICE_UNAVAILABLE: 'Database unreachable for the moment; retry after `Retry-After` seconds',
  GEOCODER_NOT_CONFIGURED:
    'This service has no address lookup (GEOCODER_URL is unset): coordinates are entered by hand or on the map',
  GEOCODER_UNAVAILABLE:
    'The address lookup service failed, did not answer within 3 s or answered something unreadable; retry later',
}

/**
 * The keyword of an error response schema listing the codes it can carry. Serialisation ignores it
 * (the schema is a `$ref`); the OpenAPI documents turn it into an enum of `code` (see openapi-document.ts).
 */
export const ERROR_CODES_KEYWORD = 'x-error-codes'

/** A code a route can answer, alone or with what it means on that route. */
export type ErrorSpec = ErrorCode | readonly [ErrorCode, string]
type CodeOf<S extends ErrorSpec> = S extends readonly [infer C, string] ? C : S
type StatusOf<C> = C extends ErrorCode ? (typeof ERROR_STATUS)[C] : never
type ErrorResponse = ReturnType<typeof errorResponse>

function errorResponse(codes: ErrorCode[], description: string) {
  return Type.Ref(ErrorBody, { description, [ERROR_CODES_KEYWORD]: codes })
}

/**
 * The error responses of a route, one per status, each listing the codes it can carry:
 * `errorResponses('NOT_FOUND', ['IN_USE', 'Vehicles or jobs still carry the tag'])`.
 */
export function errorResponses<const S extends ErrorSpec>(
  ...specs: S[]
): Record<StatusOf<CodeOf<S>>, ErrorResponse> {
  const byStatus = new Map<number, { codes: ErrorCode[]; descriptions: string[] }>()
  for (const spec of specs) {
    const [code, description]: readonly [ErrorCode, string] =
      typeof spec === 'string' ? [spec as ErrorCode, ERROR_CODE_DESCRIPTIONS[spec as ErrorCode]] : spec
    const status = ERROR_STATUS[code]
    const entry = byStatus.get(status) ?? { codes: [], descriptions: [] }
    entry.codes.push(code)
    entry.descriptions.push(`${description} (${code})`)
    byStatus.set(status, entry)
  }
  return Object.fromEntries(
    [...byStatus].map(([status, { codes, descriptions }]) => [
      status,
      errorResponse(codes, descriptions.join('; or ')),
    ]),
  ) as Record<StatusOf<CodeOf<S>>, ErrorResponse>
}

/**
 * An error response whose body carries more than `{ error, code, details }` (the 409 of a sign-in
 * lists organisations): serialised with these fields, documented as the Error body plus them.
 */
export function ErrorBodyWith(codes: ErrorCode[], description: string, extra: Record<string, TSchema>) {
  return Type.Object(
    {
      error: Type.String(),
      code: Type.String(),
      ...extra,
    },
    { description, [ERROR_CODES_KEYWORD]: codes },
  )
}

/** Error responses every authenticated route can give (500 is added to every operation centrally). */
export const COMMON_ERRORS = errorResponses(
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'PLAN_UPGRADE_REQUIRED',
  'RATE_LIMITED',
)
export const NOT_FOUND_ERROR = errorResponses('NOT_FOUND')
/** What a route that reads a JSON body can also answer. */
export const BODY_ERRORS = errorResponses('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE')

/** The longest grace period of a rotation (API keys, webhook secrets): 7 days. */
export const MAX_GRACE_PERIOD_SECONDS = 604_800

/** The body of a rotation: how long the old credential keeps working beside the new one. */
export function RotationBody(defaultSeconds: number, description: string) {
  return Type.Object(
    {
      gracePeriodSeconds: Type.Optional(
        Type.Integer({ minimum: 0, maximum: MAX_GRACE_PERIOD_SECONDS, default: defaultSeconds, description }),
      ),
    },
    { additionalProperties: false, examples: [{ gracePeriodSeconds: 3600 }] },
  )
}

/** A job's or customer's externalId in a write (migration 0032): the caller's reference, 1 to 200 characters with one visible. */
export const ExternalIdInput = Nullable(
  Type.String({
    minLength: 1,
    maxLength: 200,
    pattern: '\\S',
    description: 'Your own reference, unique in your organisation (at most 200 characters); null clears it',
  }),
)
