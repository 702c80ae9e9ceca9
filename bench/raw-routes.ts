// The yardsticks of issue 18: what GET /jobs/:id, GET /jobs, POST /jobs and PATCH /jobs/:id cost when
// written by hand on Fastify — one prepared statement per read, the rows shaped by SQL aliases, and
// the answer serialised through the service's own response schemas, so both servers send the same
// bytes. bench/sqlite-raw.ts and bench/pg-raw.ts run them on each database; this file holds what
// they share: the SQL (placeholders `?` or `$n`), the shaping left after SQL, and the event payloads
// the writes put in the outbox.
//
// What the raw routes leave out, on purpose: authentication, rate limiting, request validation beyond
// the schema, idempotency, ETags and error mapping. What they keep: tenant scoping in every query,
// the live-row filter, the exact total (from the job_counts counters, as the service reads it), the
// reference checks a create needs to answer (customer, location) and the outbox row in the same
// transaction as the change, so a raw write is as durable and as eventful as the service's.
import { JOB_DETAIL } from '../src/modules/jobs/hot-queries.js'

export { JobListResponse, JobResponse } from '../src/modules/jobs/schemas.js'

export const JOB_NOT_FOUND = { error: 'Job not found', code: 'NOT_FOUND' }
export const TERMINAL = { error: 'Job can no longer be modified', code: 'TERMINAL_STATE' }
export const PAGE_SIZE = 20

type Placeholder = (n: number) => string
export const sqlitePlaceholder: Placeholder = () => '?'
export const pgPlaceholder: Placeholder = (n) => `$${n}`

const LISTED = `jobs.id, jobs.title, jobs.description, jobs.status, jobs.priority,
  jobs.customer_id AS "customerId", jobs.location_id AS "locationId",
  jobs.job_latitude AS "jobLatitude", jobs.job_longitude AS "jobLongitude",
  jobs.service_duration AS "serviceDuration", jobs.time_window_type AS "timeWindowType",
  jobs.earliest_start AS "earliestStart", jobs.latest_end AS "latestEnd",
  jobs.scheduled_start AS "scheduledStart", jobs.scheduled_end AS "scheduledEnd",
  jobs.assigned_user_id AS "assignedUserId", jobs.started_at AS "startedAt",
  jobs.completed_at AS "completedAt", jobs.created_at AS "createdAt", jobs.updated_at AS "updatedAt",
  jobs.number`

const nameOf = (table: string, column: string, key: string, alias: string) =>
  `(SELECT ${table}.${column} FROM ${table}
     WHERE ${table}.id = jobs.${key} AND ${table}.organisation_id = jobs.organisation_id) AS "${alias}"`

/** The first page of the newest-first list, one row more than the page (is there a next page?). */
export const listPageSql = (p: Placeholder) => `SELECT ${LISTED},
    ${nameOf('customers', 'name', 'customer_id', 'customerName')},
    ${nameOf('locations', 'name', 'location_id', 'locationName')},
    ${nameOf('users', 'name', 'assigned_user_id', 'userName')},
    ${nameOf('users', 'email', 'assigned_user_id', 'userEmail')}
  FROM jobs WHERE jobs.organisation_id = ${p(1)} AND jobs.deleted_at IS NULL
  ORDER BY jobs.created_at DESC, jobs.id DESC LIMIT ${PAGE_SIZE + 1}`

/** The organisation's live jobs, from the counters the jobs table's triggers keep (summed over slots). */
export const totalSql = (p: Placeholder) =>
  `SELECT sum(count) AS count FROM job_counts WHERE organisation_id = ${p(1)} AND status = '*' AND priority = '*' AND location_id = '*'`

/** The single-job shape in one statement: the service's own (jobs/hot-queries.ts). */
export const detailSql = (p: Placeholder) => (p === pgPlaceholder ? JOB_DETAIL.postgres : JOB_DETAIL.sqlite)

/** What a create must know of its references: the customer (for the answer) and the depot's name. */
export const referencesSql = (p: Placeholder) => `SELECT
    (SELECT json_${p === pgPlaceholder ? 'build_' : ''}object('name', name, 'address', address,
       'latitude', latitude, 'longitude', longitude)
     FROM customers WHERE organisation_id = ${p(1)} AND id = ${p(2)}) AS customer,
    (SELECT name FROM locations WHERE organisation_id = ${p(3)} AND id = ${p(4)}) AS "locationName"`

export const INSERT_COLUMNS = [
  'id',
  'organisation_id',
  'title',
  'description',
  'status',
  'priority',
  'customer_id',
  'location_id',
  'job_latitude',
  'job_longitude',
  'service_duration',
  'time_window_type',
  'earliest_start',
  'latest_end',
  'created_at',
  'updated_at',
  'number',
] as const

/** The organisation's next job number, taken in the create's transaction as the service takes it. */
export const takeNumberSql = (p: Placeholder) =>
  `INSERT INTO job_number_counters (organisation_id, last_number) VALUES (${p(1)}, 1001)
   ON CONFLICT (organisation_id) DO UPDATE SET last_number = job_number_counters.last_number + 1
   RETURNING last_number`

export const insertJobSql = (p: Placeholder) =>
  `INSERT INTO jobs (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map((_, i) => p(i + 1)).join(', ')})`

export const insertOutboxSql = (p: Placeholder) =>
  `INSERT INTO outbox_events (id, organisation_id, event, data, occurred_at) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)})`

/** The live job a PATCH changes, locked on PostgreSQL until the transaction ends. */
export const currentForUpdateSql = (p: Placeholder) =>
  `SELECT title, status, priority, service_duration AS "serviceDuration" FROM jobs
   WHERE organisation_id = ${p(1)} AND id = ${p(2)} AND deleted_at IS NULL${p === pgPlaceholder ? ' FOR UPDATE' : ''}`

/** The benchmark's PATCH body: title, priority, serviceDuration (bench/bodies.ts). */
export const updateJobSql = (p: Placeholder) =>
  `UPDATE jobs SET title = ${p(3)}, priority = ${p(4)}, service_duration = ${p(5)}, updated_at = ${p(6)}
   WHERE organisation_id = ${p(1)} AND id = ${p(2)}`

interface ListedRow {
  number: number | string
  customerId: string | null
  locationId: string | null
  assignedUserId: string | null
  customerName: string | null
  locationName: string | null
  userName: string | null
  userEmail: string | null
  customer?: unknown
  location?: unknown
  assignedUser?: unknown
}

/** The nested references of a listed job, added in place (the serialiser drops the flat names). */
export function nestListed<T extends ListedRow>(row: T): T {
  row.number = `J-${row.number}`
  row.customer = row.customerId ? { id: row.customerId, name: row.customerName ?? '' } : null
  row.location = row.locationId ? { id: row.locationId, name: row.locationName ?? '' } : null
  row.assignedUser = row.assignedUserId
    ? { id: row.assignedUserId, name: row.userName ?? '', email: row.userEmail ?? '' }
    : null
  return row
}

export function listResponse(rows: ListedRow[], total: number) {
  const jobs = rows.slice(0, PAGE_SIZE).map(nestListed)
  const last = rows.length > PAGE_SIZE ? (jobs.at(-1) as unknown as { createdAt: string; id: string }) : null
  return {
    data: {
      jobs,
      pagination: {
        page: 1,
        limit: PAGE_SIZE,
        total,
        totalPages: Math.ceil(total / PAGE_SIZE),
        nextCursor: last ? Buffer.from(`v1|${last.createdAt}|${last.id}`).toString('base64url') : null,
      },
    },
    message: 'Success',
  }
}

type Json<T> = string | T
const parsed = <T>(value: Json<T>): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value)

/** The single-job shape from a JOB_DETAIL row (snake_case: the service's statement). */
export function detailOf(row: Record<string, unknown>) {
  const tags = parsed<{ id: string; name: string }[]>(row.tags_json as Json<never>)
  const demands = parsed<{ id: string; key: string; label: string; required_value: number }[]>(
    row.demands_json as Json<never>,
  )
  const customerId = row.customer_id as string | null
  const locationId = row.location_id as string | null
  const userId = row.assigned_user_id as string | null
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    status: row.status,
    priority: row.priority,
    customerId,
    locationId,
    jobLatitude: row.job_latitude,
    jobLongitude: row.job_longitude,
    serviceDuration: row.service_duration,
    timeWindowType: row.time_window_type,
    earliestStart: row.earliest_start,
    latestEnd: row.latest_end,
    scheduledStart: row.scheduled_start,
    scheduledEnd: row.scheduled_end,
    assignedUserId: userId,
    startedAt: row.started_at,
    completedAt: row.completed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    number: `J-${row.number}`,
    shiftId: row.shift_id,
    actualDuration: row.actual_duration,
    startRecordedAt: row.start_recorded_at,
    completeRecordedAt: row.complete_recorded_at,
    enRouteAt: row.en_route_at,
    customer: customerId
      ? {
          id: customerId,
          name: row.customer_name,
          address: row.customer_address,
          latitude: row.customer_latitude,
          longitude: row.customer_longitude,
        }
      : null,
    assignedUser: userId
      ? { id: userId, name: row.assigned_user_name, email: row.assigned_user_email }
      : null,
    location: locationId ? { id: locationId, name: row.location_name } : null,
    tags: tags.map((tag) => ({ tag })),
    demands: demands.map((d) => ({
      capacityDimension: { id: d.id, key: d.key, label: d.label },
      requiredValue: d.required_value,
    })),
  }
}

/** A decimal as the service stores it: the shortest JSON number text. */
const decimal = (value: unknown) => (typeof value === 'number' ? String(value) : null)

export interface CreateBody {
  title: string
  description?: string | null
  priority?: string
  customerId?: string
  locationId?: string
  jobLatitude?: number
  jobLongitude?: number
  serviceDuration?: number
  timeWindowType?: string
  earliestStart?: string
  latestEnd?: string
}

/** The values of insertJobSql, in INSERT_COLUMNS order, and the created job as the API shows it. */
export function newJob(id: string, organisationId: string, body: CreateBody, now: string, number: number) {
  const job = {
    id,
    title: body.title,
    description: body.description ?? null,
    status: 'CREATED',
    priority: body.priority ?? 'NORMAL',
    customerId: body.customerId ?? null,
    locationId: body.locationId ?? null,
    jobLatitude: decimal(body.jobLatitude),
    jobLongitude: decimal(body.jobLongitude),
    serviceDuration: body.serviceDuration ?? 900,
    timeWindowType: body.timeWindowType ?? 'HARD',
    earliestStart: body.earliestStart ? new Date(body.earliestStart).toISOString() : null,
    latestEnd: body.latestEnd ? new Date(body.latestEnd).toISOString() : null,
    createdAt: now,
    updatedAt: now,
    number: `J-${number}`,
  }
  const values = [
    id,
    organisationId,
    job.title,
    job.description,
    job.status,
    job.priority,
    job.customerId,
    job.locationId,
    job.jobLatitude,
    job.jobLongitude,
    job.serviceDuration,
    job.timeWindowType,
    job.earliestStart,
    job.latestEnd,
    now,
    now,
    number,
  ]
  const event = JSON.stringify({
    jobId: id,
    title: job.title,
    status: job.status,
    description: job.description,
    priority: job.priority,
    customerId: job.customerId,
    locationId: job.locationId,
    jobLatitude: job.jobLatitude,
    jobLongitude: job.jobLongitude,
    serviceDuration: job.serviceDuration,
    timeWindowType: job.timeWindowType,
    earliestStart: job.earliestStart,
    latestEnd: job.latestEnd,
    createdAt: now,
    number: job.number,
  })
  return { job, values, event }
}

/** The created job in the single-job shape, given what referencesSql found. */
export function createdDetail(
  job: ReturnType<typeof newJob>['job'],
  customer: { name: string; address: string; latitude: string; longitude: string } | null,
  locationName: string | null,
) {
  return {
    ...job,
    scheduledStart: null,
    scheduledEnd: null,
    assignedUserId: null,
    startedAt: null,
    completedAt: null,
    shiftId: null,
    actualDuration: null,
    startRecordedAt: null,
    completeRecordedAt: null,
    enRouteAt: null,
    customer: customer && job.customerId ? { id: job.customerId, ...customer } : null,
    assignedUser: null,
    location: job.locationId ? { id: job.locationId, name: locationName ?? '' } : null,
    tags: [],
    demands: [],
  }
}

export interface PatchBody {
  title: string
  priority: string
  serviceDuration: number
}

/** JOB_UPDATED's data for the benchmark's PATCH, with only the fields that really change. */
export function updatedEvent(
  id: string,
  current: { title: string; status: string; priority: string; serviceDuration: number },
  body: PatchBody,
  at: string,
): string {
  const changes: Record<string, { previous: unknown; current: unknown }> = {}
  if (current.title !== body.title) changes.title = { previous: current.title, current: body.title }
  if (current.priority !== body.priority)
    changes.priority = { previous: current.priority, current: body.priority }
  if (current.serviceDuration !== body.serviceDuration)
    changes.serviceDuration = { previous: current.serviceDuration, current: body.serviceDuration }
  return JSON.stringify({ jobId: id, title: body.title, status: current.status, updatedAt: at, changes })
}
