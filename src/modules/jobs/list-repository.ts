// The job as lists read it (with its customer's, location's and worker's names), the equality
// filters every list applies, and the first page of GET /jobs in list order. Every query is scoped by
// organisation and ignores soft-deleted rows.
import { type ExpressionBuilder, sql } from 'kysely'
import { param, prepareOnce } from '../../db/hot-query.js'
import type { Database, Executor, JobPriority, JobRow, JobStatus } from '../../db/types.js'
import type { CursorPosition } from '../../http/cursor.js'

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

export function filterConditions(
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
 * The job's window overlaps the day [start, end): a missing bound is open, and a job with neither
 * bound is not matched (the same rule as day-repository.ts).
 */
export function overlapConditions(
  eb: ExpressionBuilder<Database, 'jobs'>,
  overlapping: NonNullable<JobFilters['overlapping']>,
) {
  const conditions = [
    eb.or([eb('jobs.earliest_start', 'is not', null), eb('jobs.latest_end', 'is not', null)]),
    eb.or([eb('jobs.latest_end', 'is', null), eb('jobs.latest_end', '>=', overlapping.start)]),
  ]
  if (overlapping.end !== null) {
    conditions.push(
      eb.or([eb('jobs.earliest_start', 'is', null), eb('jobs.earliest_start', '<', overlapping.end)]),
    )
  }
  return conditions
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
  const query = prepareOnce(db, shape, () =>
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
  )
  return query.run<JobListedRow>({
    organisationId,
    ...filters,
    afterCreatedAt: after?.createdAt,
    afterId: after?.id,
    limit: page.limit,
    offset: page.offset,
  })
}
