// SQL for jobs. Every query is scoped by organisation and ignores soft-deleted rows.
import { type ExpressionBuilder, sql, type Transaction } from 'kysely'
import { fastPath, idList, inIdList, param } from '../../db/fast-path/index.js'
import { lockForUpdate } from '../../db/locking.js'
import type { Database, Executor, JobPriority, JobRow, JobStatus, JobUpdate, NewJob } from '../../db/types.js'
import type { CursorPosition } from '../../http/cursor.js'
import {
  changedWithin,
  inListOrder,
  type ListOrder,
  type ListOrderValues,
  listOrderValues,
} from '../../http/list-order.js'
import { JOB_COLUMNS } from './fields.js'
import { JOB_DETAIL, JOB_DETAIL_FOR_UPDATE, JOB_REFERENCES } from './hot-queries.js'

/** The filters the jobs table's own indexes serve (targetDate goes through day-repository.ts). */
export interface JobEqualityFilters {
  status?: JobStatus
  customerId?: string
  locationId?: string
  priority?: JobPriority
}

export interface JobFilters extends JobEqualityFilters {
  /** [start, end) of a UTC day, as ISO strings; a null end is unbounded. */
  overlapping?: { start: string; end: string | null }
}

export interface JobListedRow extends JobRow {
  customer_name: string | null
  location_name: string | null
  assigned_user_name: string | null
  assigned_user_email: string | null
}

export interface JobDetailRow extends JobListedRow {
  customer_address: string | null
  customer_latitude: string | null
  customer_longitude: string | null
}

/** A job with its tags and demands (JSON text on SQLite, parsed JSON on PostgreSQL). */
export interface JobWithExtrasRow extends JobDetailRow {
  tags_json: string | { id: string; name: string }[]
  demands_json: string | { id: string; key: string; label: string; required_value: number }[]
}

/** The single-job shape in one statement (hot-queries.ts). */
export async function findJobWithExtras(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<JobWithExtrasRow | undefined> {
  const [row] = await fastPath.readSql<JobWithExtrasRow>(db, JOB_DETAIL, [organisationId, id])
  return row
}

/** The same, the row locked for the rest of the transaction (PostgreSQL): for a write that answers the job. */
export async function findJobWithExtrasForUpdate(
  trx: Transaction<Database>,
  organisationId: string,
  id: string,
): Promise<JobWithExtrasRow | undefined> {
  const [row] = await fastPath.readSql<JobWithExtrasRow>(trx, JOB_DETAIL_FOR_UPDATE, [organisationId, id])
  return row
}

/** A customer and depot a write sets, as far as they exist (hot-queries.ts); null ids read nothing. */
export interface JobReferencesRow {
  customer_service_duration: number | null
  customer_name: string | null
  customer_address: string | null
  customer_latitude: string | null
  customer_longitude: string | null
  location_name: string | null
}

export async function findJobReferences(
  trx: Transaction<Database>,
  organisationId: string,
  customerId: string | null,
  locationId: string | null,
): Promise<JobReferencesRow> {
  const [row] = await fastPath.readSql<JobReferencesRow>(trx, JOB_REFERENCES, [
    organisationId,
    customerId,
    organisationId,
    locationId,
  ])
  return row as JobReferencesRow
}

function filterConditions(
  eb: ExpressionBuilder<Database, 'jobs'>,
  organisationId: string,
  filters: JobEqualityFilters,
) {
  const conditions = [eb('jobs.organisation_id', '=', organisationId), eb('jobs.deleted_at', 'is', null)]
  if (filters.status) conditions.push(eb('jobs.status', '=', filters.status))
  if (filters.customerId) conditions.push(eb('jobs.customer_id', '=', filters.customerId))
  if (filters.locationId) conditions.push(eb('jobs.location_id', '=', filters.locationId))
  if (filters.priority) conditions.push(eb('jobs.priority', '=', filters.priority))
  return eb.and(conditions)
}

/**
 * Jobs with the names of their customer, location and worker. The names are scalar subqueries by
 * primary key rather than joins: they run once per returned row (after ORDER BY … LIMIT), and the plan
 * cannot change with the organisation's size — PostgreSQL's generic plan for a join, costed for an
 * average organisation, scanned every customer of a large one for each page.
 */
export function selectJobs(db: Executor) {
  return db
    .selectFrom('jobs')
    .selectAll('jobs')
    .select([
      ofJob('customers', 'name', 'customer_id').as('customer_name'),
      ofJob('locations', 'name', 'location_id').as('location_name'),
      ofJob('users', 'name', 'assigned_user_id').as('assigned_user_name'),
      ofJob('users', 'email', 'assigned_user_id').as('assigned_user_email'),
    ])
}

/** `column` of the `table` row the job's `key` points at, in the job's own organisation. */
function ofJob(
  table: 'customers' | 'locations' | 'users',
  column: 'name' | 'email',
  key: 'customer_id' | 'location_id' | 'assigned_user_id',
) {
  return sql<string | null>`(SELECT ${sql.ref(`${table}.${column}`)} FROM ${sql.table(table)}
    WHERE ${sql.ref(`${table}.id`)} = ${sql.ref(`jobs.${key}`)}
      AND ${sql.ref(`${table}.organisation_id`)} = ${sql.ref('jobs.organisation_id')})`
}

/** A page in list order; `after` starts it strictly after that row (keyset), else at `offset`. */
export async function listJobs(
  db: Executor,
  organisationId: string,
  filters: JobEqualityFilters,
  page: { limit: number; offset: number; after?: CursorPosition },
): Promise<JobListedRow[]> {
  const { after } = page
  const present = Object.keys(filters).filter(
    (name) => filters[name as keyof JobEqualityFilters] !== undefined,
  )
  const shape = `jobs.list:${present.join(',')}:${after ? 'after' : 'offset'}`
  const placeholders = Object.fromEntries(
    present.map((name) => [name, param<string>(name)]),
  ) as JobEqualityFilters
  return fastPath.read<JobListedRow>(
    db,
    shape,
    () =>
      selectJobs(db)
        .where((eb) => filterConditions(eb, param<string>('organisationId'), placeholders))
        .$if(after !== undefined, (q) =>
          q.where((eb) =>
            eb(
              eb.refTuple('jobs.created_at', 'jobs.id'),
              '<',
              eb.tuple(param<string>('afterCreatedAt'), param<string>('afterId')),
            ),
          ),
        )
        .orderBy('jobs.created_at', 'desc')
        .orderBy('jobs.id', 'desc')
        .limit(param<number>('limit'))
        .$if(after === undefined, (q) => q.offset(param<number>('offset'))),
    {
      organisationId,
      ...filters,
      afterCreatedAt: after?.createdAt,
      afterId: after?.id,
      limit: page.limit,
      offset: page.offset,
    },
  )
}

/**
 * A page of the jobs changed within the window of `order` (by: 'updated'), any filter included: the
 * change feed reads through (organisation_id, updated_at, id).
 */
export async function listJobsChanged(
  db: Executor,
  organisationId: string,
  filters: JobFilters,
  order: ListOrder,
  limit: number,
): Promise<JobListedRow[]> {
  return inListOrder(
    selectJobs(db).where((eb) => changedJobConditions(eb, organisationId, filters)),
    'jobs',
    order,
    listOrderValues(order, limit) as ListOrderValues,
  ).execute() as Promise<JobListedRow[]>
}

/** How many live jobs match `filters` within the change window of `order`. */
export async function countJobsChanged(
  db: Executor,
  organisationId: string,
  filters: JobFilters,
  order: ListOrder,
): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => changedJobConditions(eb, organisationId, filters))
    .where(changedWithin('jobs', order, listOrderValues(order, 0)))
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

/** The equality filters and, with targetDate, the same overlap rule as day-repository.ts. */
function changedJobConditions(
  eb: ExpressionBuilder<Database, 'jobs'>,
  organisationId: string,
  filters: JobFilters,
) {
  const { overlapping } = filters
  if (!overlapping) return filterConditions(eb, organisationId, filters)
  const overlap = [
    filterConditions(eb, organisationId, filters),
    eb.or([eb('jobs.earliest_start', 'is not', null), eb('jobs.latest_end', 'is not', null)]),
    eb.or([eb('jobs.latest_end', 'is', null), eb('jobs.latest_end', '>=', overlapping.start)]),
  ]
  if (overlapping.end !== null) {
    overlap.push(
      eb.or([eb('jobs.earliest_start', 'is', null), eb('jobs.earliest_start', '<', overlapping.end)]),
    )
  }
  return eb.and(overlap)
}

/**
 * The number of live jobs matching `filters`. Status, priority and location alone are answered from
 * the trigger-maintained `job_counts` (one counter: its slots, at most 16 rows at any size); a
 * customer filter counts the matching rows through its index.
 */
export async function countJobs(
  db: Executor,
  organisationId: string,
  filters: JobEqualityFilters,
): Promise<number> {
  // '' and '*' are the counters' own keys, never a location id: count those the slow way (as 0).
  const countable = filters.locationId !== '' && filters.locationId !== '*'
  if (filters.customerId === undefined && countable) {
    const [counted] = await fastPath.read<{ count: number }>(
      db,
      'jobs.count',
      () =>
        db
          .selectFrom('job_counts')
          .select((eb) => eb.fn.sum<number>('count').as('count'))
          .where('organisation_id', '=', param<string>('organisationId'))
          .where('status', '=', param<string>('status'))
          .where('priority', '=', param<string>('priority'))
          .where('location_id', '=', param<string>('locationId')),
      {
        organisationId,
        status: filters.status ?? '*',
        priority: filters.priority ?? '*',
        locationId: filters.locationId ?? '*',
      },
    )
    return Number(counted?.count ?? 0)
  }
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => filterConditions(eb, organisationId, filters))
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

/** `%term%` for LIKE, with LIKE's own wildcards in the term matched literally. */
function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** The filters of a title search: the equality filters, the day's overlap, and the title. */
function searchConditions(
  eb: ExpressionBuilder<Database, 'jobs'>,
  organisationId: string,
  filters: JobFilters,
  search: string,
) {
  const conditions = [
    filterConditions(eb, organisationId, filters),
    sql<boolean>`lower(${eb.ref('jobs.title')}) like ${containsPattern(search.toLowerCase())} escape '\\'`,
  ]
  const { overlapping } = filters
  if (overlapping) {
    // The window overlaps the day; a missing bound is open, and a job with neither is not matched.
    conditions.push(
      eb.or([eb('jobs.earliest_start', 'is not', null), eb('jobs.latest_end', 'is not', null)]),
      eb.or([eb('jobs.latest_end', 'is', null), eb('jobs.latest_end', '>=', overlapping.start)]),
    )
    if (overlapping.end !== null) {
      conditions.push(
        eb.or([eb('jobs.earliest_start', 'is', null), eb('jobs.earliest_start', '<', overlapping.end)]),
      )
    }
  }
  return eb.and(conditions)
}

/**
 * A page of the jobs whose title contains `search` (ignoring case), newest first, with the number of
 * matches from the same query; `total` is undefined when the page is past the last match.
 */
export async function searchJobs(
  db: Executor,
  organisationId: string,
  filters: JobFilters,
  search: string,
  page: { limit: number; offset: number; after?: CursorPosition },
): Promise<{ rows: JobListedRow[]; total: number | undefined }> {
  const { after } = page
  const rows = (await selectJobs(db)
    .select((eb) => eb.fn.countAll<number | string>().over().as('matches'))
    .where((eb) => searchConditions(eb, organisationId, filters, search))
    .$if(after !== undefined, (q) =>
      q.where((eb) =>
        eb(
          eb.refTuple('jobs.created_at', 'jobs.id'),
          '<',
          eb.tuple(after?.createdAt as string, after?.id as string),
        ),
      ),
    )
    .orderBy('jobs.created_at', 'desc')
    .orderBy('jobs.id', 'desc')
    .limit(page.limit)
    .$if(after === undefined, (q) => q.offset(page.offset))
    .execute()) as (JobListedRow & { matches: number | string })[]
  const first = rows[0]
  // With a cursor the window counts only the rows after it: count every match separately then.
  let total: number | undefined
  if (after === undefined) total = first ? Number(first.matches) : page.offset === 0 ? 0 : undefined
  return { rows: rows.map(({ matches: _, ...row }) => row as JobListedRow), total }
}

export async function countJobSearch(
  db: Executor,
  organisationId: string,
  filters: JobFilters,
  search: string,
): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => searchConditions(eb, organisationId, filters, search))
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

/** Whether a live job with this id exists in the organisation (its primary key, nothing joined). */
export async function jobExists(db: Executor, organisationId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('jobs')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
  return row !== undefined
}

/** The live job row, locked against concurrent writers until the transaction ends (PostgreSQL). */
export async function findJobForUpdate(trx: Transaction<Database>, organisationId: string, id: string) {
  const [row] = await fastPath.read<JobRow>(
    trx,
    'jobs.forUpdate',
    () => {
      const query = trx
        .selectFrom('jobs')
        .selectAll()
        .where('organisation_id', '=', param<string>('organisationId'))
        .where('id', '=', param<string>('id'))
        .where('deleted_at', 'is', null)
      return lockForUpdate(trx, query)
    },
    { organisationId, id },
  )
  return row
}

/**
 * Many jobs, in id order, locked until the transaction ends on PostgreSQL: two transactions that lock
 * overlapping sets this way take the locks in one order and so never deadlock. One statement for
 * any number of ids.
 */
export async function findJobsForUpdate(
  trx: Transaction<Database>,
  organisationId: string,
  ids: readonly string[],
): Promise<JobRow[]> {
  if (ids.length === 0) return []
  return fastPath.read<JobRow>(
    trx,
    'jobs.manyForUpdate',
    () => {
      const query = trx
        .selectFrom('jobs')
        .selectAll()
        .where('organisation_id', '=', param<string>('organisationId'))
        .where(inIdList(trx, 'id', 'ids'))
        .where('deleted_at', 'is', null)
        .orderBy('id')
      return lockForUpdate(trx, query)
    },
    { organisationId, ids: idList(trx, ids) },
  )
}

export async function insertJob(db: Executor, job: NewJob): Promise<void> {
  await fastPath.deferrableWrite(
    db,
    'jobs.insert',
    () => db.insertInto('jobs').values(Object.fromEntries(JOB_COLUMNS.map((c) => [c, param(c)])) as NewJob),
    job,
  )
}

export async function updateJob(
  db: Executor,
  organisationId: string,
  id: string,
  changes: JobUpdate,
): Promise<void> {
  // One statement per set of changed columns (a PATCH changes a few of a dozen).
  const columns = Object.keys(changes).sort() as (keyof JobUpdate)[]
  await fastPath.deferrableWrite(
    db,
    `jobs.update:${columns.join(',')}`,
    () =>
      db
        .updateTable('jobs')
        .set(Object.fromEntries(columns.map((c) => [c, param(c)])) as JobUpdate)
        .where('organisation_id', '=', param<string>('organisationId'))
        .where('id', '=', param<string>('id'))
        .where('deleted_at', 'is', null),
    { ...changes, organisationId, id },
  )
}

export async function softDeleteJob(
  db: Executor,
  organisationId: string,
  id: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ deleted_at: now, updated_at: now })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute()
}

export async function insertJobTag(
  db: Executor,
  organisationId: string,
  jobId: string,
  tagId: string,
): Promise<void> {
  await db
    .insertInto('job_tags')
    .values({ organisation_id: organisationId, job_id: jobId, tag_id: tagId })
    .execute()
}

export async function insertJobDemand(
  db: Executor,
  organisationId: string,
  jobId: string,
  capacityDimensionId: string,
  requiredValue: number,
): Promise<void> {
  await db
    .insertInto('job_demands')
    .values({
      organisation_id: organisationId,
      job_id: jobId,
      capacity_dimension_id: capacityDimensionId,
      required_value: requiredValue,
    })
    .execute()
}
