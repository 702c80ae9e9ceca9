// SQL for a job by id: the reads of one job (and its lock) and every write to jobs and to the rows
// attached to a job. Lists, the change feed, counts and search have files of their own
// (list-repository.ts, change-feed-repository.ts, counts-repository.ts, search-repository.ts). Every
// query is scoped by organisation and ignores soft-deleted rows.
import type { Transaction } from 'kysely'
import { fastPath, idList, inIdList, param } from '../../db/fast-path/index.js'
import { lockForUpdate } from '../../db/locking.js'
import type { Database, Executor, JobRow, JobUpdate, NewJob } from '../../db/types.js'
import { JOB_COLUMNS } from './fields.js'
import { JOB_DETAIL, JOB_DETAIL_FOR_UPDATE, JOB_REFERENCES } from './hot-queries.js'
import type { JobDetailRow } from './list-repository.js'

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

/**
 * The organisation's next job number, taken in the caller's transaction: the upsert locks the
 * counter row until that transaction ends, so concurrent creates (on any instance) queue on it and
 * each gets the next number; a rolled-back create gives its number back. `first` starts a new
 * organisation's sequence.
 */
export async function takeJobNumber(
  trx: Transaction<Database>,
  organisationId: string,
  first: number,
): Promise<number> {
  const row = await trx
    .insertInto('job_number_counters')
    .values({ organisation_id: organisationId, last_number: first })
    .onConflict((oc) =>
      oc
        .column('organisation_id')
        .doUpdateSet((eb) => ({ last_number: eb('job_number_counters.last_number', '+', 1) })),
    )
    .returning('last_number')
    .executeTakeFirstOrThrow()
  return row.last_number
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

/** The jobs with these externalIds, soft-deleted ones too (they keep theirs: migration 0032). */
export async function findJobsByExternalIds(
  db: Executor,
  organisationId: string,
  externalIds: readonly string[],
): Promise<JobRow[]> {
  if (externalIds.length === 0) return []
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('external_id', 'in', externalIds)
    .execute()
}
