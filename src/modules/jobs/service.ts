// Business rules for jobs: references must belong to the caller's organisation, the time window must
// be ordered, terminal jobs are read-only, and a job in progress cannot be deleted.
import type { Kysely, Transaction } from 'kysely'
import { newId, nowIso } from '../../db/ids.js'
import type { Database, Executor, JobRow, JobUpdate, NewJob } from '../../db/types.js'
import { EARLIEST_INSTANT, LATEST_INSTANT } from '../../db/values.js'
import { AppError, guardExternalId, notFound, validationError } from '../../http/errors.js'
import { listOrderOf, orderedPageOf } from '../../http/list-order.js'
import { keysetPageOf, startOf } from '../../http/pagination.js'
import type { CursorPagination } from '../../http/schemas.js'
import { type EventData, recordEvent, recordFeedEvent } from '../events/service.js'
import { isTimeZone } from '../locations/service.js'
import type { JobFound } from '../search/schemas.js'
import type { SearchTerms } from '../search/terms.js'
import { localTime } from '../shifts/zoned-time.js'
import * as changeFeed from './change-feed-repository.js'
import * as counts from './counts-repository.js'
import * as dateOrder from './date-order-repository.js'
import * as days from './day-repository.js'
import { CHANGE_FIELDS, CREATED_EVENT_PROPERTIES, columnsOfBody, JOB_FIELDS } from './fields.js'
import * as headerSearch from './header-search-repository.js'
import * as lists from './list-repository.js'
import * as repository from './repository.js'
import type { AdminJobListQuery, CreateJobBody, JobDetail, JobListed, UpdateJobBody } from './schemas.js'
import * as searches from './search-repository.js'
import { serializeJobDetail, serializeJobListed } from './serialize.js'

export const DEFAULT_SERVICE_DURATION = 900
/** Short numbers read like quantities ("job 12" vs "12 jobs"): each organisation starts at 1001. */
const FIRST_JOB_NUMBER = 1001
const TERMINAL_STATUSES = new Set(['COMPLETED', 'CANCELLED'])
const DAY_MS = 86_400_000

/** The list's filters as the repositories take them (the CSV export's too). */
function listFiltersOf(query: JobExportFilters): lists.JobFilters {
  // An empty customerId or locationId (`?customerId=`) filters nothing, whichever path reads.
  const filters: lists.JobFilters = {
    status: query.status,
    customerId: query.customerId || undefined,
    locationId: query.locationId || undefined,
    priority: query.priority,
  }
  if (query.targetDate) filters.overlapping = dayOf(query.targetDate, query.timeZone)
  return filters
}

export async function listJobs(
  db: Kysely<Database>,
  organisationId: string,
  query: AdminJobListQuery,
  settleMs = 0,
): Promise<{ jobs: JobListed[]; pagination: CursorPagination }> {
  const filters = listFiltersOf(query)
  if (query.sort === 'date') {
    if (query.cursor !== undefined)
      throw validationError('/query/cursor', 'cannot be combined with sort=date')
    if (query.updatedSince !== undefined) {
      throw validationError('/query/updatedSince', 'cannot be combined with sort=date')
    }
    const found = await dateOrder.listJobsByDate(db, organisationId, filters, query.search?.trim(), {
      limit: query.limit + 1,
      offset: startOf(query).offset,
    })
    const total =
      found.total ?? (await searches.countJobSearch(db, organisationId, filters, query.search?.trim() ?? ''))
    const { rows, pagination } = keysetPageOf(query, found.rows, total)
    return { jobs: rows.map(serializeJobListed), pagination: { ...pagination, nextCursor: null } }
  }
  if (query.updatedSince !== undefined) {
    if (query.search?.trim()) throw validationError('/query/search', 'cannot be combined with updatedSince')
    const order = listOrderOf(query, settleMs)
    const [fetched, total] = await Promise.all([
      changeFeed.listJobsChanged(db, organisationId, filters, order, query.limit + 1),
      changeFeed.countJobsChanged(db, organisationId, filters, order),
    ])
    const { rows, pagination } = orderedPageOf(query, order, fetched, total)
    return { jobs: rows.map(serializeJobListed), pagination }
  }
  const start = startOf(query)
  const page = { ...start, limit: query.limit + 1 }
  const search = query.search?.trim() ?? ''
  const { overlapping } = filters
  // The day tables hold UTC days: a day in a time zone that does not start at UTC midnight (London
  // in summer, anywhere east or west of it) is read by its window's overlap instead, as a search is.
  if (search || (overlapping && !isUtcDay(overlapping))) {
    // A search reads the matching rows themselves (no counter can know them); the count comes along.
    const found = await searches.searchJobs(db, organisationId, filters, search, page)
    const total = found.total ?? (await searches.countJobSearch(db, organisationId, filters, search))
    const { rows, pagination } = keysetPageOf(query, found.rows, total)
    return { jobs: rows.map(serializeJobListed), pagination }
  }
  const [fetched, total] = await Promise.all(
    overlapping
      ? [
          days.listJobsOfDay(db, organisationId, { ...filters, overlapping }, page),
          days.countJobsOfDay(db, organisationId, { ...filters, overlapping }),
        ]
      : [lists.listJobs(db, organisationId, filters, page), counts.countJobs(db, organisationId, filters)],
  )
  const { rows, pagination } = keysetPageOf(query, fetched, total)
  return { jobs: rows.map(serializeJobListed), pagination }
}

/** Whether [start, end) is one whole UTC day, as the day tables (day-repository.ts) keep days. */
function isUtcDay({ start, end }: { start: string; end: string | null }): boolean {
  const from = Date.parse(start)
  return from % DAY_MS === 0 && (end === null || Date.parse(end) === from + DAY_MS)
}

/**
 * [start, end) of the day `date` in `timeZone` (400 naming the parameter when it is not an IANA zone),
 * or the UTC day; the last representable day has no end bound: nothing is stored after it.
 */
function dayOf(date: string, timeZone: string | undefined): { start: string; end: string | null } {
  const day = Date.parse(`${date}T00:00:00.000Z`)
  if (timeZone === undefined) {
    const end = day + DAY_MS
    return {
      start: new Date(day).toISOString(),
      end: end > LATEST_INSTANT ? null : new Date(end).toISOString(),
    }
  }
  if (!isTimeZone(timeZone)) {
    throw validationError(
      '/query/timeZone',
      `"${timeZone}" is not an IANA time zone name, e.g. Europe/London`,
    )
  }
  const start = localTime(day, 0, timeZone)
  const end = localTime(day + DAY_MS, 0, timeZone)
  return {
    start: new Date(Math.max(start, EARLIEST_INSTANT)).toISOString(),
    end: end > LATEST_INSTANT ? null : new Date(end).toISOString(),
  }
}

// Most jobs have no tags or demands: '[]' needs no JSON parser (a new array each time: callers own it).
const parsed = <T>(value: string | T): T =>
  value === '[]' ? ([] as T) : typeof value === 'string' ? (JSON.parse(value) as T) : value

export async function getJob(db: Executor, organisationId: string, id: string): Promise<JobDetail> {
  const row = await repository.findJobWithExtras(db, organisationId, id)
  if (!row) throw notFound('Job')
  return serializeJobDetail(row, { tags: parsed(row.tags_json), demands: parsed(row.demands_json) })
}

/** 404 unless the job exists in the organisation and is not deleted. */
export async function assertJobExists(db: Executor, organisationId: string, id: string): Promise<void> {
  if (!(await repository.jobExists(db, organisationId, id))) throw notFound('Job')
}

/**
 * The live job row, locked until the transaction ends (PostgreSQL; SQLite writers are exclusive), so a
 * concurrent soft delete or change waits: for every writer that changes a job or attaches rows to it.
 */
export async function lockJob(
  trx: Transaction<Database>,
  organisationId: string,
  id: string,
): Promise<JobRow> {
  const job = await repository.findJobForUpdate(trx, organisationId, id)
  if (!job) throw notFound('Job')
  return job
}

/** A body datetime in UTC with milliseconds; 400 at /body/<field> when invalid or out of range. */
export function parseInstant(field: string, value: string): string {
  const time = Date.parse(value)
  if (Number.isNaN(time)) throw validationError(`/body/${field}`, 'is not a valid datetime')
  if (time < EARLIEST_INSTANT || time > LATEST_INSTANT) {
    throw validationError(
      `/body/${field}`,
      'must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z',
    )
  }
  return new Date(time).toISOString()
}

function assertWindowOrdered(earliestStart: string | null, latestEnd: string | null): void {
  if (earliestStart && latestEnd && earliestStart >= latestEnd) {
    throw validationError('/body/latestEnd', 'must be after earliestStart')
  }
}

/**
 * A job's coordinates are a pair: both or neither, on the row a write leaves behind. 400 names the
 * missing one. Checked when a write sets either, so an older row with half a pair can still take
 * unrelated changes.
 */
function assertCoordinatePair(latitude: unknown, longitude: unknown): void {
  const hint = '(send both coordinates, or null for both)'
  if (latitude !== null && longitude === null)
    throw validationError('/body/jobLongitude', `is required when jobLatitude is set ${hint}`)
  if (latitude === null && longitude !== null)
    throw validationError('/body/jobLatitude', `is required when jobLongitude is set ${hint}`)
}

/**
 * The customer and depot a write sets (a string id is checked, the empty one included: only null and
 * omission mean none), read in one statement; 400 at the field that names a missing one. The depot
 * stays locked until the transaction ends, so a concurrent delete waits rather than breaking the
 * reference.
 */
async function jobReferences(
  trx: Transaction<Database>,
  organisationId: string,
  customerId: string | null | undefined,
  locationId: string | null | undefined,
): Promise<repository.JobReferencesRow> {
  const customer = typeof customerId === 'string' ? customerId : null
  const location = typeof locationId === 'string' ? locationId : null
  const refs = await repository.findJobReferences(trx, organisationId, customer, location)
  if (customer !== null && refs.customer_service_duration === null) {
    throw validationError('/body/customerId', `customer ${customer} does not exist in your organisation`)
  }
  if (location !== null && refs.location_name === null) {
    throw validationError('/body/locationId', `location ${location} does not exist in your organisation`)
  }
  return refs
}

const NO_EXTRAS = { tags: [], demands: [] }

/** Tags and demands a new job is written with, in the transaction that creates it. */
export interface JobExtras {
  /** Checked by the caller (reference-data ids of the organisation). */
  tagIds: readonly string[]
  demands: readonly { capacityDimensionId: string; requiredValue: number }[]
}

/** A job made as an occurrence of a series (job-series module): which one, and its tags and demands. */
export interface JobOccurrence extends JobExtras {
  seriesId: string
  occurrenceDate: string
}

/** The columns POST /jobs would write for `input`, after the rules that need no database. */
function givenColumns(input: CreateJobBody): Partial<NewJob> {
  const given = columnsOfBody(input, parseInstant, true) as Partial<NewJob>
  assertWindowOrdered(given.earliest_start ?? null, given.latest_end ?? null)
  assertCoordinatePair(given.job_latitude ?? null, given.job_longitude ?? null)
  return given
}

/**
 * Every rule POST /jobs applies to `input`, writing nothing: a series checks its template with it
 * (400s name the body's fields as POST /jobs does).
 */
export async function assertJobCreatable(
  trx: Transaction<Database>,
  organisationId: string,
  input: CreateJobBody,
): Promise<void> {
  givenColumns(input)
  await jobReferences(trx, organisationId, input.customerId, input.locationId)
}

/**
 * POST /jobs; with `occurrence`, the job is that occurrence of a series (its tags and demands written
 * in the same transaction, so JOB_CREATED is still its one event). A second job for the same
 * occurrence fails on the unique (series_id, occurrence_date) index (db/errors.ts isUniqueViolation).
 */
export async function createJob(
  db: Kysely<Database>,
  organisationId: string,
  input: CreateJobBody,
  occurrence?: JobOccurrence,
): Promise<JobDetail> {
  return guardExternalId('jobs', 'job', input.externalId, () =>
    db.transaction().execute((trx) => createJobIn(trx, organisationId, input, occurrence)),
  )
}

/**
 * POST /jobs inside the caller's transaction (a booking creates and assigns its job in one). The
 * caller maps a unique externalId to 409 (guardExternalId) around its transaction.
 */
export async function createJobIn(
  trx: Transaction<Database>,
  organisationId: string,
  input: CreateJobBody,
  occurrence?: JobOccurrence | JobExtras,
): Promise<JobDetail> {
  const given = givenColumns(input)
  const refs = await jobReferences(trx, organisationId, input.customerId, input.locationId)
  const now = nowIso()
  const job: NewJob = {
    ...(given as Pick<NewJob, 'title' | 'priority' | 'time_window_type'>),
    id: newId(),
    organisation_id: organisationId,
    status: 'CREATED',
    service_duration: given.service_duration ?? refs.customer_service_duration ?? DEFAULT_SERVICE_DURATION,
    scheduled_start: null,
    scheduled_end: null,
    assigned_user_id: null,
    shift_id: null,
    started_at: null,
    completed_at: null,
    actual_duration: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
    start_recorded_at: null,
    complete_recorded_at: null,
    en_route_at: null,
    number: await repository.takeJobNumber(trx, organisationId, FIRST_JOB_NUMBER),
    series_id: occurrence && 'seriesId' in occurrence ? occurrence.seriesId : null,
    occurrence_date: occurrence && 'seriesId' in occurrence ? occurrence.occurrenceDate : null,
  }
  await repository.insertJob(trx, job)
  if (occurrence) {
    for (const tagId of occurrence.tagIds) await repository.insertJobTag(trx, organisationId, job.id, tagId)
    for (const demand of occurrence.demands) {
      await repository.insertJobDemand(
        trx,
        organisationId,
        job.id,
        demand.capacityDimensionId,
        demand.requiredValue,
      )
    }
  }
  // The answer is what GET /jobs/:id reads back, built from what was written and the references
  // read above (a new job has no worker, tags or demands): no second read of the row.
  const created = serializeJobDetail(
    { ...(job as JobRow), ...refs, assigned_user_name: null, assigned_user_email: null },
    NO_EXTRAS,
  )
  await recordEvent(trx, organisationId, 'JOB_CREATED', jobCreatedData(created), now)
  // An occurrence may have tags or demands: then the answer is read back with them.
  const hasExtras = occurrence && (occurrence.tagIds.length > 0 || occurrence.demands.length > 0)
  return hasExtras ? getJob(trx, organisationId, job.id) : created
}

// JOB_CREATED's fields after its subject, as the API names them (jobs/fields.ts).
const CREATED_EVENT_FIELDS = Object.keys(CREATED_EVENT_PROPERTIES) as (keyof JobDetail)[]

function jobCreatedData(job: JobDetail): EventData['JOB_CREATED'] {
  const data: Record<string, unknown> = { jobId: job.id, title: job.title, status: job.status }
  for (const name of CREATED_EVENT_FIELDS) data[name] = job[name]
  return data as EventData['JOB_CREATED']
}

/** JOB_UPDATED's `changes` for column changes that really change something; stored values are already in API formats. */
function changedFields(current: JobRow, changes: JobUpdate): EventData['JOB_UPDATED']['changes'] {
  const fields: Record<string, { previous: unknown; current: unknown }> = {}
  for (const { column, name } of CHANGE_FIELDS) {
    const value = changes[column as keyof JobUpdate]
    if (value !== undefined) fields[name] = { previous: current[column], current: value }
  }
  return fields as EventData['JOB_UPDATED']['changes']
}

/** The column changes a PATCH asks for, limited to fields whose value really changes. */
function changesOf(current: JobRow, input: UpdateJobBody): JobUpdate {
  const requested = columnsOfBody(input, parseInstant, false)
  const changes: Record<string, unknown> = {}
  for (const [column, value] of Object.entries(requested) as [keyof JobRow, unknown][]) {
    if (current[column] !== value) changes[column] = value
  }
  return changes as JobUpdate
}

export async function updateJob(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  input: UpdateJobBody,
): Promise<JobDetail> {
  return guardExternalId('jobs', 'job', input.externalId, () =>
    db.transaction().execute(async (trx) => {
      // The job as GET answers it, locked: the answer is built from it and the changes, not read again.
      const current = await repository.findJobWithExtrasForUpdate(trx, organisationId, id)
      if (!current) throw notFound('Job')
      if (TERMINAL_STATUSES.has(current.status)) {
        throw new AppError('TERMINAL_STATE', `Job is ${current.status} and can no longer be modified`)
      }
      const changes = changesOf(current, input)
      assertWindowOrdered(
        changes.earliest_start !== undefined ? changes.earliest_start : current.earliest_start,
        changes.latest_end !== undefined ? changes.latest_end : current.latest_end,
      )
      if (input.jobLatitude !== undefined || input.jobLongitude !== undefined) {
        assertCoordinatePair(
          changes.job_latitude !== undefined ? changes.job_latitude : current.job_latitude,
          changes.job_longitude !== undefined ? changes.job_longitude : current.job_longitude,
        )
      }
      const customerChanged = typeof changes.customer_id === 'string'
      const locationChanged = typeof changes.location_id === 'string'
      const refs =
        customerChanged || locationChanged
          ? await jobReferences(trx, organisationId, changes.customer_id, changes.location_id)
          : undefined
      const extras = { tags: parsed(current.tags_json), demands: parsed(current.demands_json) }
      if (Object.keys(changes).length === 0) return serializeJobDetail(current, extras)
      const at = nowIso()
      await repository.updateJob(trx, organisationId, id, { ...changes, updated_at: at })
      const row: lists.JobDetailRow = { ...current, ...(changes as Partial<JobRow>), updated_at: at }
      if (customerChanged && refs) {
        row.customer_name = refs.customer_name
        row.customer_address = refs.customer_address
        row.customer_latitude = refs.customer_latitude
        row.customer_longitude = refs.customer_longitude
      }
      if (locationChanged && refs) row.location_name = refs.location_name
      const job = serializeJobDetail(row, extras)
      await recordEvent(
        trx,
        organisationId,
        'JOB_UPDATED',
        {
          jobId: id,
          title: job.title,
          status: job.status,
          updatedAt: at,
          changes: changedFields(current, changes),
        },
        at,
      )
      return job
    }),
  )
}

/** The jobs with these externalIds, soft-deleted ones included (imports upsert by externalId). */
export async function findJobsByExternalIds(
  db: Executor,
  organisationId: string,
  externalIds: readonly string[],
): Promise<JobRow[]> {
  return repository.findJobsByExternalIds(db, organisationId, externalIds)
}

/**
 * The fields a PATCH of `input` would change on `current`, checked as PATCH checks them but written
 * nowhere (an import counts a row unchanged, and its dry run previews, with it). 422 for a job that
 * is COMPLETED or CANCELLED and would change.
 */
export async function jobChangesOf(
  db: Kysely<Database>,
  organisationId: string,
  current: JobRow,
  input: UpdateJobBody,
): Promise<string[]> {
  const changes = changesOf(current, input)
  const names = CHANGE_FIELDS.filter(({ column }) => column in changes).map(({ name }) => name)
  if (names.length === 0) return names
  if (TERMINAL_STATUSES.has(current.status)) {
    throw new AppError('TERMINAL_STATE', `Job is ${current.status} and can no longer be modified`)
  }
  assertWindowOrdered(
    changes.earliest_start !== undefined ? changes.earliest_start : current.earliest_start,
    changes.latest_end !== undefined ? changes.latest_end : current.latest_end,
  )
  if (typeof changes.customer_id === 'string' || typeof changes.location_id === 'string') {
    await db
      .transaction()
      .execute((trx) => jobReferences(trx, organisationId, changes.customer_id, changes.location_id))
  }
  return names
}

export async function deleteJob(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
): Promise<{ id: string; deletedAt: string }> {
  return db.transaction().execute(async (trx) => {
    const current = await lockJob(trx, organisationId, id)
    if (current.status === 'IN_PROGRESS') {
      throw new AppError(
        'JOB_IN_PROGRESS',
        'Job is in progress and cannot be deleted; complete or cancel it first',
      )
    }
    const deletedAt = nowIso()
    await repository.softDeleteJob(trx, organisationId, id, deletedAt)
    await recordFeedEvent(
      trx,
      organisationId,
      'JOB_DELETED',
      { jobId: id, title: current.title, status: current.status, deletedAt },
      deletedAt,
    )
    return { id, deletedAt }
  })
}

/**
 * Writes a job with its tags and demands as given (its id, timestamps and state included): for the demo organisation (cli/demo-seed.ts), which writes a history no request could make; no rule is
 * checked, the demo's data is known good.
 */
export async function seedJob(
  trx: Transaction<Database>,
  given: NewJob,
  extras: { tagIds: readonly string[]; demands: readonly (readonly [dimensionId: string, value: number])[] },
): Promise<void> {
  const number =
    given.number ?? (await repository.takeJobNumber(trx, given.organisation_id, FIRST_JOB_NUMBER))
  const row: NewJob = { ...given, number }
  await repository.insertJob(trx, row)
  for (const tagId of extras.tagIds) await repository.insertJobTag(trx, row.organisation_id, row.id, tagId)
  for (const [dimensionId, value] of extras.demands) {
    await repository.insertJobDemand(trx, row.organisation_id, row.id, dimensionId, value)
  }
}

/** The header search's jobs, best first (header-search-repository.ts). */
export async function findJobsForSearch(
  db: Executor,
  organisationId: string,
  terms: SearchTerms,
  customerIds: readonly string[],
  limit: number,
): Promise<JobFound[]> {
  const rows = await headerSearch.findJobsMatching(db, organisationId, terms, customerIds, limit)
  return rows.map((row) => ({
    id: row.id,
    number: `J-${row.number}`,
    title: row.title,
    status: row.status,
    date: row.date,
    customerName: row.customer_name,
  }))
}

/** The list filters a CSV export of jobs takes: the admin list's (GET /jobs), but its paging and order. */
export type JobExportFilters = Pick<
  AdminJobListQuery,
  'status' | 'customerId' | 'locationId' | 'priority' | 'targetDate' | 'timeZone' | 'search'
>

/**
 * The CSV export's reader: pages of live jobs in API names (the listed shape's columns), in id order
 * after `after`. The filters are checked here, before the first page (a bad time zone is a 400, not a
 * stream that fails once the answer has begun).
 */
export function jobPagesById(
  db: Executor,
  organisationId: string,
  query: JobExportFilters,
): (after: string | null, limit: number) => Promise<Record<string, unknown>[]> {
  const filters = listFiltersOf(query)
  const search = query.search?.trim() || undefined
  return async (after, limit) => {
    const rows = await searches.listJobsById(db, organisationId, filters, search, after, limit)
    return rows.map((row) => {
      const job: Record<string, unknown> = {}
      for (const field of JOB_FIELDS as readonly { column: string; name?: string; prefix?: string }[]) {
        if (!field.name) continue
        const value = row[field.column as keyof JobRow]
        job[field.name] = field.prefix && value !== null ? `${field.prefix}${value}` : value
      }
      return job
    })
  }
}
