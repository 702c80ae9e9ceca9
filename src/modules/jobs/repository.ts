// SQL for jobs. Every query is scoped by organisation and ignores soft-deleted rows.
import type { ExpressionBuilder, Transaction } from 'kysely'
import { isPostgres } from '../../db/database.js'
import type { Database, Executor, JobPriority, JobRow, JobStatus, JobUpdate, NewJob } from '../../db/types.js'

export interface JobFilters {
  status?: JobStatus
  customerId?: string
  locationId?: string
  priority?: JobPriority
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

function filterConditions(
  eb: ExpressionBuilder<Database, 'jobs'>,
  organisationId: string,
  filters: JobFilters,
) {
  const conditions = [eb('jobs.organisation_id', '=', organisationId), eb('jobs.deleted_at', 'is', null)]
  if (filters.status) conditions.push(eb('jobs.status', '=', filters.status))
  if (filters.customerId) conditions.push(eb('jobs.customer_id', '=', filters.customerId))
  if (filters.locationId) conditions.push(eb('jobs.location_id', '=', filters.locationId))
  if (filters.priority) conditions.push(eb('jobs.priority', '=', filters.priority))
  if (filters.overlapping) {
    const { start, end } = filters.overlapping
    // [earliest_start, latest_end] overlaps [start, end); an open bound is unbounded, but at least
    // one bound must be set.
    conditions.push(
      eb.or([eb('jobs.earliest_start', 'is not', null), eb('jobs.latest_end', 'is not', null)]),
      eb.or([eb('jobs.latest_end', 'is', null), eb('jobs.latest_end', '>=', start)]),
    )
    if (end !== null) {
      conditions.push(eb.or([eb('jobs.earliest_start', 'is', null), eb('jobs.earliest_start', '<', end)]))
    }
  }
  return eb.and(conditions)
}

function selectJobs(db: Executor) {
  return db
    .selectFrom('jobs')
    .leftJoin('customers', (join) =>
      join
        .onRef('customers.id', '=', 'jobs.customer_id')
        .onRef('customers.organisation_id', '=', 'jobs.organisation_id'),
    )
    .leftJoin('locations', (join) =>
      join
        .onRef('locations.id', '=', 'jobs.location_id')
        .onRef('locations.organisation_id', '=', 'jobs.organisation_id'),
    )
    .leftJoin('users', (join) =>
      join
        .onRef('users.id', '=', 'jobs.assigned_user_id')
        .onRef('users.organisation_id', '=', 'jobs.organisation_id'),
    )
    .selectAll('jobs')
    .select([
      'customers.name as customer_name',
      'locations.name as location_name',
      'users.name as assigned_user_name',
      'users.email as assigned_user_email',
    ])
}

export async function listJobs(
  db: Executor,
  organisationId: string,
  filters: JobFilters,
  page: { limit: number; offset: number },
): Promise<JobListedRow[]> {
  return selectJobs(db)
    .where((eb) => filterConditions(eb, organisationId, filters))
    .orderBy('jobs.created_at', 'desc')
    .orderBy('jobs.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function countJobs(db: Executor, organisationId: string, filters: JobFilters): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => filterConditions(eb, organisationId, filters))
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

export async function findJobDetail(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<JobDetailRow | undefined> {
  return selectJobs(db)
    .select(['customers.address as customer_address', 'customers.latitude as customer_latitude'])
    .select('customers.longitude as customer_longitude')
    .where('jobs.organisation_id', '=', organisationId)
    .where('jobs.id', '=', id)
    .where('jobs.deleted_at', 'is', null)
    .executeTakeFirst()
}

export async function findJobTags(db: Executor, organisationId: string, jobId: string) {
  return db
    .selectFrom('job_tags')
    .innerJoin('tags', (join) =>
      join
        .onRef('tags.id', '=', 'job_tags.tag_id')
        .onRef('tags.organisation_id', '=', 'job_tags.organisation_id'),
    )
    .select(['tags.id', 'tags.name'])
    .where('job_tags.organisation_id', '=', organisationId)
    .where('job_tags.job_id', '=', jobId)
    .orderBy('tags.name')
    .execute()
}

export async function findJobDemands(db: Executor, organisationId: string, jobId: string) {
  return db
    .selectFrom('job_demands')
    .innerJoin('capacity_dimensions as dimension', (join) =>
      join
        .onRef('dimension.id', '=', 'job_demands.capacity_dimension_id')
        .onRef('dimension.organisation_id', '=', 'job_demands.organisation_id'),
    )
    .select(['dimension.id', 'dimension.key', 'dimension.label', 'job_demands.required_value'])
    .where('job_demands.organisation_id', '=', organisationId)
    .where('job_demands.job_id', '=', jobId)
    .orderBy('dimension.key')
    .execute()
}

/** The live job row, locked against concurrent writers until the transaction ends (PostgreSQL). */
export async function findJobForUpdate(trx: Transaction<Database>, organisationId: string, id: string) {
  let query = trx
    .selectFrom('jobs')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
  // SQLite has one writer at a time: a write transaction is already exclusive.
  if (isPostgres(trx)) query = query.forUpdate()
  return query.executeTakeFirst()
}

export async function insertJob(db: Executor, job: NewJob): Promise<void> {
  await db.insertInto('jobs').values(job).execute()
}

export async function updateJob(
  db: Executor,
  organisationId: string,
  id: string,
  changes: JobUpdate,
): Promise<void> {
  await db
    .updateTable('jobs')
    .set(changes)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute()
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
