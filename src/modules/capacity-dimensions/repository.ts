import type { Selectable, Transaction, Updateable } from 'kysely'
import { isPostgres } from '../../db/database.js'
import type { CapacityDimensionsTable, Database, Executor } from '../../db/types.js'

export type CapacityDimensionRow = Selectable<CapacityDimensionsTable>
export type CapacityDimensionUpdate = Updateable<CapacityDimensionsTable>

export async function insertCapacityDimension(db: Executor, row: CapacityDimensionRow): Promise<void> {
  await db.insertInto('capacity_dimensions').values(row).execute()
}

export async function listCapacityDimensions(
  db: Executor,
  organisationId: string,
  page: { limit: number; offset: number },
): Promise<CapacityDimensionRow[]> {
  return db
    .selectFrom('capacity_dimensions')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function countCapacityDimensions(db: Executor, organisationId: string): Promise<number> {
  const row = await db
    .selectFrom('capacity_dimensions')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('organisation_id', '=', organisationId)
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

export async function findCapacityDimension(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<CapacityDimensionRow | undefined> {
  return db
    .selectFrom('capacity_dimensions')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** The dimension, locked on PostgreSQL so that no vehicle or job can take it until the transaction ends. */
export async function findCapacityDimensionForUpdate(
  trx: Transaction<Database>,
  organisationId: string,
  id: string,
): Promise<CapacityDimensionRow | undefined> {
  let query = trx
    .selectFrom('capacity_dimensions')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
  // SQLite has one writer at a time: a write transaction is already exclusive.
  if (isPostgres(trx)) query = query.forUpdate()
  return query.executeTakeFirst()
}

export async function findCapacityDimensionByKey(
  db: Executor,
  organisationId: string,
  key: string,
): Promise<CapacityDimensionRow | undefined> {
  return db
    .selectFrom('capacity_dimensions')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('key', '=', key)
    .executeTakeFirst()
}

export async function findCapacityDimensionsByIds(
  db: Executor,
  organisationId: string,
  ids: readonly string[],
): Promise<CapacityDimensionRow[]> {
  // `in ()` is not valid SQL.
  if (ids.length === 0) return []
  let query = db
    .selectFrom('capacity_dimensions')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', 'in', [...new Set(ids)])
    .orderBy('key')
    .orderBy('id')
  // Inside a writer's transaction on PostgreSQL the rows stay key-share locked until it ends, so a
  // concurrent delete waits instead of breaking the writer's foreign keys.
  if (isPostgres(db)) query = query.forKeyShare()
  return query.execute()
}

export async function updateCapacityDimension(
  db: Executor,
  organisationId: string,
  id: string,
  changes: CapacityDimensionUpdate,
): Promise<number> {
  const result = await db
    .updateTable('capacity_dimensions')
    .set(changes)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/** How many vehicles have a capacity, and how many live (not deleted) jobs a demand, in the dimension. */
export async function countCapacityDimensionUsage(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<{ vehicles: number; jobs: number }> {
  const [vehicles, jobs] = await Promise.all([
    db
      .selectFrom('vehicle_capacities')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('organisation_id', '=', organisationId)
      .where('capacity_dimension_id', '=', id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('job_demands')
      .innerJoin('jobs', (join) =>
        join
          .onRef('jobs.id', '=', 'job_demands.job_id')
          .onRef('jobs.organisation_id', '=', 'job_demands.organisation_id'),
      )
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('job_demands.organisation_id', '=', organisationId)
      .where('job_demands.capacity_dimension_id', '=', id)
      .where('jobs.deleted_at', 'is', null)
      .executeTakeFirstOrThrow(),
  ])
  return { vehicles: Number(vehicles.total), jobs: Number(jobs.total) }
}

/**
 * Deletes the dimension, first dropping the demands of soft-deleted jobs in it: those jobs are gone
 * from the API and must not keep a dimension alive forever. Callers check for other references.
 */
export async function deleteCapacityDimension(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<number> {
  await db
    .deleteFrom('job_demands')
    .where('organisation_id', '=', organisationId)
    .where('capacity_dimension_id', '=', id)
    .where('job_id', 'in', (eb) =>
      eb
        .selectFrom('jobs')
        .select('id')
        .where('organisation_id', '=', organisationId)
        .where('deleted_at', 'is not', null),
    )
    .execute()
  const result = await db
    .deleteFrom('capacity_dimensions')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
