// Schema building blocks shared by every route module: the envelope, pagination, errors and the
// value formats the API uses everywhere (ids, datetimes, coordinates, times of day).
import { type Static, type TSchema, Type } from '@sinclair/typebox'

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
export const TimeOfDay = Type.String({
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  description: 'Time of day, HH:MM (00:00–23:59)',
  examples: ['08:30'],
})
export const DecimalString = Type.String({ description: 'Decimal degrees', examples: ['51.5072'] })
export const Latitude = Type.Number({ minimum: -90, maximum: 90, description: 'Decimal degrees, -90 to 90' })
export const Longitude = Type.Number({
  minimum: -180,
  maximum: 180,
  description: 'Decimal degrees, -180 to 180',
})
export const Duration = Type.Integer({ minimum: 0, maximum: MAX_INT32, description: 'Seconds' })
export const Text = (maxLength: number, description?: string) =>
  Type.String({ maxLength, ...(description ? { description } : {}) })
export const RequiredText = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) })

/** Enums as `{ type: 'string', enum: [...] }`: compact in OpenAPI and cheap to validate. */
export function StringEnum<const T extends string>(values: readonly T[], description?: string) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) })
}

export const JOB_STATUSES = ['CREATED', 'ASSIGNED', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED'] as const
export const JobStatus = StringEnum(JOB_STATUSES)
export const JobPriority = StringEnum(['LOW', 'NORMAL', 'HIGH'])
export const TimeWindowType = StringEnum(['HARD', 'SOFT'])
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
  { id: Type.String({ description: 'Resource id' }) },
  { additionalProperties: false },
)

/** The body of an action that takes no input (`config: { optionalBody: true }` routes). */
export const NoInputBody = Type.Object(
  {},
  { additionalProperties: false, description: 'No input: send {} or no body at all' },
)

export const Pagination = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  totalPages: Type.Integer(),
})
export type Pagination = Static<typeof Pagination>

/** The pagination object of lists that can also be walked with a keyset cursor. */
export const CursorPagination = Type.Object({
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
})
export type CursorPagination = Static<typeof CursorPagination>

export const CursorQuery = {
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 512,
      description:
        'Opaque: `nextCursor` of the previous response. Returns the rows after it (the filters still ' +
        'apply); `page` must then be omitted. Use it to walk a whole list: its cost does not grow with depth.',
    }),
  ),
}

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
  { $id: 'ErrorBody', title: 'Error' },
)

const errorRef = (description: string) => Type.Ref(ErrorBody, { description })

/** Error responses every authenticated route can give, for the OpenAPI document. */
export const COMMON_ERRORS = {
  400: errorRef('Validation error (VALIDATION_ERROR)'),
  401: errorRef('Missing, malformed, unknown, revoked or expired API key (UNAUTHORIZED)'),
  403: errorRef(
    'Key lacks the required scope (FORBIDDEN) or the plan has no API access (PLAN_UPGRADE_REQUIRED)',
  ),
  429: errorRef('Rate limit exceeded (RATE_LIMITED)'),
}
export const NOT_FOUND_ERROR = { 404: errorRef('Resource not found (NOT_FOUND)') }
export const BODY_ERRORS = {
  413: errorRef('Body larger than 1 MiB (PAYLOAD_TOO_LARGE)'),
  415: errorRef('Content-Type is not application/json (UNSUPPORTED_MEDIA_TYPE)'),
}
export const BUSINESS_ERROR = (description: string) => ({ 422: errorRef(description) })

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
