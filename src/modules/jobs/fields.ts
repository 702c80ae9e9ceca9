// The one table of a job's fields: its column, its API name and schema, whether a write may set it
// (and so whether a change to it makes JOB_UPDATED), and whether JOB_CREATED carries it. The response
// shapes (schemas.ts), the write bodies, the insert's column list (repository.ts), a PATCH's column
// changes and JOB_UPDATED's `changes` (service.ts) and the event shapes (events/schemas.ts) are all
// derived from it; serialize.ts keeps a hand-written literal for speed, and fields.test.ts fails when
// it and this table disagree. Adding a field: docs/architecture.md, "Adding a job field".
//
// Rows are in the jobs table's column order, which is also the order of the response's properties.
// The published bodies and change lists list the editable fields in other orders, frozen by the
// OpenAPI documents: `body` and `change` give each editable field's place in them (a new field takes
// the next number of each).
import { type TOptional, type TSchema, Type } from '@sinclair/typebox'
import type { JobsTable } from '../../db/types.js'
import { toNullableDecimalString } from '../../db/values.js'
import {
  CalendarDay,
  DateTime,
  DateTimeInput,
  Duration,
  ExternalIdInput,
  Id,
  JobPriority,
  JobStatus,
  Latitude,
  LatitudeString,
  Longitude,
  LongitudeString,
  Nullable,
  TimeWindowType,
} from '../../http/schemas.js'

export interface EditableField {
  /** The write body's schema (POST and PATCH; every field is optional in PATCH). */
  input: TSchema
  /** Required in POST /jobs. */
  required?: true
  /** Place among the write body's fields. */
  body: number
  /** Place among JOB_UPDATED's `changes`. */
  change: number
  /** The value in JOB_UPDATED's `changes`, when it is documented differently from the response's. */
  changeSchema?: TSchema
  /** Whether the body's value is stored as sent: numbers become decimal strings, datetimes UTC. */
  stored?: 'decimal' | 'instant'
  /** The value POST /jobs stores when the body omits the field; null when none is given here. */
  default?: string
}

export interface JobField {
  column: keyof JobsTable
  /** The API name; none for columns the API never shows. */
  name?: string
  /** The value in the job's response shape. */
  schema?: TSchema
  /** Only in the single-job shape (GET /jobs/:id), not in lists. */
  detailOnly?: true
  /** The response shows the column's value after this text (the job number 1042 as J-1042). */
  prefix?: string
  editable?: EditableField
  /** In JOB_CREATED's data: true for the response's schema, or the schema it is documented with there. */
  created?: true | TSchema
}

const NullableId = (description: string) => Nullable(Type.String({ description }))
const Title = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '\\S',
  description: 'At least one visible character',
})
const ReferenceId = (what: string) =>
  Nullable(
    Type.String({ maxLength: 200, description: `Must exist in your organisation; null clears it (${what})` }),
  )
const Coordinate = (range: typeof Latitude, other: string) =>
  Nullable(Type.Number({ ...range, description: `${range.description}; with ${other} (both or neither)` }))

/** Read-only: given at creation, per organisation (migration 0026), so a write naming it is a 400. */
const JobNumber = Type.String({
  pattern: '^J-[0-9]+$',
  description: 'The number a customer quotes on the phone: J- and a per-organisation sequence from 1001',
  examples: ['J-1042'],
})

/** Read-only: set by the series generator (job-series module), so a write naming them is a 400. */
const SeriesId = Type.String({
  description:
    'The recurring job series this job is an occurrence of (GET /v1/admin/job-series/{id}); null: none',
})
const OccurrenceDate = Type.String({
  format: 'date',
  description:
    "The occurrence's date in its series' rule (YYYY-MM-DD, the depot's calendar); a moved occurrence keeps it",
})

/**
 * Stored as sent, as a customer's address is (no trimming); "" reads as no address of its own, like a
 * customer's default "".
 */
const JOB_ADDRESS =
  'The visit\'s address as people write it; when null (or ""), the customer\'s address is shown. ' +
  'Coordinates stay the routing truth (jobLatitude/jobLongitude); null clears it'

const EXTERNAL_ID =
  'Your own reference for the job (an ERP or CRM key), unique in your organisation; CSV imports ' +
  'update the job with the same externalId. null: none'
const DUE_BY =
  'The last date the job should be done on (YYYY-MM-DD, its depot’s calendar): a route plan over ' +
  'several days (dateFrom..dateTo) may place it on any of them up to this date, the first of them when ' +
  'it is already past. Its time window still holds; null: no date of its own'
export const JOB_FIELDS = [
  { column: 'id', name: 'id', schema: Id },
  { column: 'organisation_id' },
  {
    column: 'title',
    name: 'title',
    schema: Type.String(),
    editable: { input: Title, required: true, body: 0, change: 0 },
  },
  {
    column: 'description',
    name: 'description',
    schema: Nullable(Type.String()),
    editable: { input: Nullable(Type.String({ maxLength: 10_000 })), body: 3, change: 1 },
    created: true,
  },
  { column: 'status', name: 'status', schema: JobStatus },
  {
    column: 'priority',
    name: 'priority',
    schema: JobPriority,
    editable: { input: JobPriority, body: 6, change: 6, default: 'NORMAL' },
    created: true,
  },
  {
    column: 'customer_id',
    name: 'customerId',
    schema: Nullable(Id),
    editable: { input: ReferenceId('customer'), body: 1, change: 2, changeSchema: NullableId('Customer id') },
    created: NullableId('The customer, if any'),
  },
  {
    column: 'location_id',
    name: 'locationId',
    schema: Nullable(Id),
    editable: { input: ReferenceId('location'), body: 2, change: 3, changeSchema: NullableId('Location id') },
    created: NullableId('The location, if any'),
  },
  {
    column: 'job_latitude',
    name: 'jobLatitude',
    schema: Nullable(LatitudeString),
    editable: { input: Coordinate(Latitude, 'jobLongitude'), body: 4, change: 4, stored: 'decimal' },
    created: true,
  },
  {
    column: 'job_longitude',
    name: 'jobLongitude',
    schema: Nullable(LongitudeString),
    editable: { input: Coordinate(Longitude, 'jobLatitude'), body: 5, change: 5, stored: 'decimal' },
    created: true,
  },
  {
    column: 'service_duration',
    name: 'serviceDuration',
    schema: Type.Integer({ description: 'Seconds on site' }),
    editable: {
      input: Type.Integer({
        ...Duration,
        description: "Seconds; default: the customer's serviceDuration, else 900",
      }),
      body: 7,
      change: 7,
      changeSchema: Type.Integer({ description: 'Seconds' }),
    },
    created: true,
  },
  {
    column: 'time_window_type',
    name: 'timeWindowType',
    schema: TimeWindowType,
    editable: { input: TimeWindowType, body: 8, change: 8, default: 'HARD' },
    created: true,
  },
  {
    column: 'earliest_start',
    name: 'earliestStart',
    schema: Nullable(DateTime),
    editable: { input: Nullable(DateTimeInput), body: 9, change: 9, stored: 'instant' },
    created: true,
  },
  {
    column: 'latest_end',
    name: 'latestEnd',
    schema: Nullable(DateTime),
    editable: {
      input: Nullable(
        Type.String({ ...DateTimeInput, description: `${DateTimeInput.description}; after earliestStart` }),
      ),
      body: 10,
      change: 10,
      stored: 'instant',
    },
    created: true,
  },
  { column: 'scheduled_start', name: 'scheduledStart', schema: Nullable(DateTime) },
  { column: 'scheduled_end', name: 'scheduledEnd', schema: Nullable(DateTime) },
  { column: 'assigned_user_id', name: 'assignedUserId', schema: Nullable(Id) },
  { column: 'shift_id', name: 'shiftId', schema: Nullable(Id), detailOnly: true },
  { column: 'started_at', name: 'startedAt', schema: Nullable(DateTime) },
  { column: 'completed_at', name: 'completedAt', schema: Nullable(DateTime) },
  {
    column: 'actual_duration',
    name: 'actualDuration',
    schema: Nullable(Type.Integer({ description: 'Seconds from start to completion' })),
    detailOnly: true,
  },
  { column: 'created_at', name: 'createdAt', schema: DateTime, created: true },
  { column: 'updated_at', name: 'updatedAt', schema: DateTime },
  { column: 'deleted_at' },
  {
    column: 'start_recorded_at',
    name: 'startRecordedAt',
    schema: Nullable(
      Type.String({
        ...DateTime,
        description: 'When the server received the start; startedAt is when the worker started, as sent',
      }),
    ),
    detailOnly: true,
  },
  {
    column: 'complete_recorded_at',
    name: 'completeRecordedAt',
    schema: Nullable(
      Type.String({
        ...DateTime,
        description: 'When the server received the completion; completedAt is when it happened, as sent',
      }),
    ),
    detailOnly: true,
  },
  {
    column: 'en_route_at',
    name: 'enRouteAt',
    schema: Nullable(
      Type.String({
        ...DateTime,
        description: 'When the worker said "On my way" (the status stays ASSIGNED)',
      }),
    ),
    detailOnly: true,
  },
  { column: 'number', name: 'number', schema: JobNumber, prefix: 'J-', created: true },
  {
    column: 'address',
    name: 'address',
    schema: Nullable(Type.String({ description: JOB_ADDRESS })),
    editable: {
      input: Nullable(Type.String({ maxLength: 1000, description: JOB_ADDRESS })),
      body: 11,
      change: 11,
    },
    created: true,
  },
  { column: 'series_id', name: 'seriesId', schema: Nullable(SeriesId), created: true },
  { column: 'occurrence_date', name: 'occurrenceDate', schema: Nullable(OccurrenceDate), created: true },
  {
    column: 'external_id',
    name: 'externalId',
    schema: Nullable(Type.String({ description: EXTERNAL_ID })),
    editable: { input: ExternalIdInput, body: 12, change: 12 },
  },
  {
    column: 'due_by',
    name: 'dueBy',
    schema: Nullable(Type.String({ format: 'date', description: DUE_BY })),
    editable: { input: Nullable(CalendarDay(DUE_BY)), body: 13, change: 13 },
    created: true,
  },
] as const satisfies readonly JobField[]

type Field = (typeof JOB_FIELDS)[number]

// Every column of the jobs table has its row here: this fails to compile, naming the column, when one
// has not.
const everyColumnListed: Record<Exclude<keyof JobsTable, Field['column']>, never> = {}
void everyColumnListed

// The types of the derived properties, field by field, so the derived schemas keep their static types.
type ShownField = Extract<Field, { name: string; schema: TSchema }>
type EditableOf = Extract<ShownField, { editable: EditableField }>
type ListedProperties = { [F in Exclude<ShownField, { detailOnly: true }> as F['name']]: F['schema'] }
type DetailProperties = { [F in Extract<ShownField, { detailOnly: true }> as F['name']]: F['schema'] }
type BodyProperties<AllOptional extends boolean> = {
  [F in EditableOf as F['name']]: F['editable'] extends { required: true }
    ? AllOptional extends true
      ? TOptional<F['editable']['input']>
      : F['editable']['input']
    : TOptional<F['editable']['input']>
}
type CreatedProperties = {
  [F in Extract<ShownField, { created: unknown }> as F['name']]: F['created'] extends true
    ? F['schema']
    : F['created']
}
type ChangeProperties = {
  [F in EditableOf as F['name']]: F['editable'] extends { changeSchema: infer S } ? S : F['schema']
}

/** Every column, in the table's order: what an insert writes. */
export const JOB_COLUMNS = JOB_FIELDS.map((field) => field.column)

type Shown = JobField & { name: string; schema: TSchema }
const shown = (JOB_FIELDS as readonly JobField[]).filter(
  (field): field is Shown => field.name !== undefined && field.schema !== undefined,
)

const propertiesOf = <F extends Shown>(fields: readonly F[], schemaOf: (field: F) => TSchema) =>
  Object.fromEntries(fields.map((field) => [field.name, schemaOf(field)])) as Record<string, TSchema>

/** The properties of a job in a list (the relations follow them: schemas.ts). */
export const LISTED_PROPERTIES = propertiesOf(
  shown.filter((field) => !field.detailOnly),
  (field) => field.schema,
) as ListedProperties
/** The properties only the single-job shape adds. */
export const DETAIL_PROPERTIES = propertiesOf(
  shown.filter((field) => field.detailOnly),
  (field) => field.schema,
) as DetailProperties

export type Editable = Shown & { editable: EditableField }
const editable = shown.filter((field): field is Editable => field.editable !== undefined)

/** The editable fields in the write bodies' order. */
export const BODY_FIELDS = [...editable].sort((a, b) => a.editable.body - b.editable.body)
/** The editable fields in JOB_UPDATED's order: the order a PATCH's changes are worked out and listed. */
export const CHANGE_FIELDS = [...editable].sort((a, b) => a.editable.change - b.editable.change)

/** The write body's properties; `required` ones stay required when `allOptional` is false (POST). */
export function bodyProperties<AllOptional extends boolean>(allOptional: AllOptional) {
  return propertiesOf(BODY_FIELDS, (field) =>
    field.editable.required && !allOptional ? field.editable.input : Type.Optional(field.editable.input),
  ) as BodyProperties<AllOptional>
}

/** JOB_CREATED's fields after the event's subject (jobId, title, status). */
export const CREATED_EVENT_PROPERTIES = propertiesOf(
  shown.filter((field) => field.created !== undefined),
  (field) => (field.created === true ? field.schema : (field.created as TSchema)),
) as CreatedProperties

/** JOB_UPDATED's `changes`: each editable field's value, as documented there. */
export const CHANGE_PROPERTIES = propertiesOf(
  CHANGE_FIELDS,
  (field) => field.editable.changeSchema ?? field.schema,
) as ChangeProperties

/**
 * A body value as stored: coordinates as decimal strings, datetimes in UTC (`parseInstant` answers
 * 400 at the field when invalid); anything else as sent.
 */
export function storedValueOf(
  field: Editable,
  value: unknown,
  parseInstant: (field: string, value: string) => string,
): unknown {
  if (value === null) return null
  switch (field.editable.stored) {
    case 'decimal':
      return toNullableDecimalString(value as number)
    case 'instant':
      return parseInstant(field.name, value as string)
    default:
      return value
  }
}

/**
 * The columns a write body sets, in JOB_UPDATED's order, as stored: only the fields it sends, or with
 * `withDefaults` (POST) every editable one, an omitted field taking its default or null.
 */
export function columnsOfBody(
  body: Readonly<Record<string, unknown>>,
  parseInstant: (field: string, value: string) => string,
  withDefaults: boolean,
): Partial<Record<keyof JobsTable, unknown>> {
  const columns: Partial<Record<keyof JobsTable, unknown>> = {}
  for (const field of CHANGE_FIELDS) {
    const value = body[field.name]
    if (value !== undefined) columns[field.column] = storedValueOf(field, value, parseInstant)
    else if (withDefaults) columns[field.column] = field.editable.default ?? null
  }
  return columns
}
