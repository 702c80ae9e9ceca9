// SQL the admin job routes need beyond the public repository: what an assignment refers to, and a
// job's tag and demand sets. Users, shifts, vehicles, tags and dimensions are read from their tables
// directly, so dispatch rules depend on nothing but the schema.
import type { Transaction } from 'kysely'
import { isPostgres } from '../../db/database.js'
import type { Database, Executor } from '../../db/types.js'

// On PostgreSQL the rows a write relies on are locked until it commits: an assignment share-locks its
// user, shift and vehicle, so a concurrent deactivation or deletion waits and then sees the job; tag
// and dimension checks key-share lock the rows, so a concurrent delete cannot slip in before the
// foreign key is written.

export async function findUserForAssignment(
  trx: Transaction<Database>,
  organisationId: string,
  id: string,
): Promise<{ id: string; is_active: boolean | number } | undefined> {
  let query = trx
    .selectFrom('users')
    .select(['id', 'is_active'])
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
  if (isPostgres(trx)) query = query.forShare()
  return query.executeTakeFirst()
}

export async function findShiftForAssignment(
  trx: Transaction<Database>,
  organisationId: string,
  id: string,
): Promise<
  { id: string; user_id: string; vehicle_id: string; vehicle_is_active: boolean | number } | undefined
> {
  let query = trx
    .selectFrom('shifts')
    .innerJoin('vehicles', (join) =>
      join
        .onRef('vehicles.id', '=', 'shifts.vehicle_id')
        .onRef('vehicles.organisation_id', '=', 'shifts.organisation_id'),
    )
    .select(['shifts.id', 'shifts.user_id', 'shifts.vehicle_id', 'vehicles.is_active as vehicle_is_active'])
    .where('shifts.organisation_id', '=', organisationId)
    .where('shifts.id', '=', id)
  if (isPostgres(trx)) query = query.forShare()
  return query.executeTakeFirst()
}

export async function findJobTagIds(db: Executor, organisationId: string, jobId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('job_tags')
    .select('tag_id')
    .where('organisation_id', '=', organisationId)
    .where('job_id', '=', jobId)
    .execute()
  return rows.map((row) => row.tag_id)
}

export async function findJobDemandValues(
  db: Executor,
  organisationId: string,
  jobId: string,
): Promise<{ capacity_dimension_id: string; required_value: number }[]> {
  return db
    .selectFrom('job_demands')
    .select(['capacity_dimension_id', 'required_value'])
    .where('organisation_id', '=', organisationId)
    .where('job_id', '=', jobId)
    .execute()
}

export async function deleteJobTags(db: Executor, organisationId: string, jobId: string): Promise<void> {
  await db
    .deleteFrom('job_tags')
    .where('organisation_id', '=', organisationId)
    .where('job_id', '=', jobId)
    .execute()
}

export async function deleteJobDemands(db: Executor, organisationId: string, jobId: string): Promise<void> {
  await db
    .deleteFrom('job_demands')
    .where('organisation_id', '=', organisationId)
    .where('job_id', '=', jobId)
    .execute()
}
