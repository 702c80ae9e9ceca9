import { type ExpressionBuilder, sql, type Transaction, type Updateable } from 'kysely'
import { isPostgres, sqlBool } from '../../db/database.js'
import { lockForUpdate } from '../../db/locking.js'
import type { Database, Executor, LocationRow, LocationsTable } from '../../db/types.js'
import {
  changedWithin,
  inListOrder,
  type ListOrder,
  type ListOrderValues,
  listOrderValues,
} from '../../http/list-order.js'
import { countSeriesUsing } from '../job-series/references.js'

export type LocationUpdate = Updateable<LocationsTable>

export interface LocationFilters {
  isActive?: boolean
}

function listConditions(
  eb: ExpressionBuilder<Database, 'locations'>,
  organisationId: string,
  filters: LocationFilters,
) {
  const conditions = [eb('organisation_id', '=', organisationId)]
  if (filters.isActive !== undefined) conditions.push(eb('is_active', '=', sqlBool(filters.isActive)))
  return eb.and(conditions)
}

export async function listLocations(
  db: Executor,
  organisationId: string,
  filters: LocationFilters,
  order: ListOrder,
  limit: number,
): Promise<LocationRow[]> {
  return inListOrder(
    db
      .selectFrom('locations')
      .selectAll()
      .where((eb) => listConditions(eb, organisationId, filters)),
    'locations',
    order,
    listOrderValues(order, limit) as ListOrderValues,
  ).execute()
}

export async function countLocations(
  db: Executor,
  organisationId: string,
  filters: LocationFilters,
  order?: ListOrder,
): Promise<number> {
  const row = await db
    .selectFrom('locations')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => listConditions(eb, organisationId, filters))
    .$if(order !== undefined, (q) =>
      q.where(changedWithin('locations', order as ListOrder, listOrderValues(order as ListOrder, 0))),
    )
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

export async function findLocation(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<LocationRow | undefined> {
  return db
    .selectFrom('locations')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/**
 * The time zone of a depot, or with none given (or none found) the organisation's default: its
 * primary depot's, else its first one's; undefined when it has no depot at all.
 */
export async function findTimeZone(
  db: Executor,
  organisationId: string,
  id: string | null,
): Promise<string | undefined> {
  let query = db
    .selectFrom('locations')
    .select('timezone')
    .where('organisation_id', '=', organisationId)
    .limit(1)
  // The depot asked for first, then the primary one, then the oldest.
  if (id !== null) query = query.orderBy(sql`case when id = ${id} then 0 else 1 end`)
  const row = await query.orderBy('is_primary', 'desc').orderBy('created_at').executeTakeFirst()
  return row?.timezone
}

export async function insertLocation(db: Executor, row: LocationRow): Promise<void> {
  await db
    .insertInto('locations')
    .values({
      ...row,
      is_primary: sqlBool(Boolean(row.is_primary)),
      is_active: sqlBool(Boolean(row.is_active)),
    })
    .execute()
}

/** The location row, locked against concurrent writers until the transaction ends (PostgreSQL). */
/** The id of the organisation's location with this code, if any (codes are unique per organisation). */
export async function findLocationIdByCode(
  db: Executor,
  organisationId: string,
  code: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('locations')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('code', '=', code)
    .executeTakeFirst()
  return row?.id
}

export async function findLocationForUpdate(
  trx: Transaction<Database>,
  organisationId: string,
  id: string,
): Promise<LocationRow | undefined> {
  return lockForUpdate(
    trx,
    trx
      .selectFrom('locations')
      .selectAll()
      .where('organisation_id', '=', organisationId)
      .where('id', '=', id),
  ).executeTakeFirst()
}

/**
 * Serialises changes of an organisation's primary location (PostgreSQL). Row locks cannot: a location
 * made primary by a concurrent transaction is invisible until it commits, and the second writer would
 * then hit the one-primary unique index. SQLite has one writer at a time already.
 */
export async function lockPrimaryLocation(trx: Transaction<Database>, organisationId: string): Promise<void> {
  if (!isPostgres(trx)) return
  await sql`select pg_advisory_xact_lock(hashtext(${`primary-location:${organisationId}`}))`.execute(trx)
}

/** Makes the organisation's primary location (other than `exceptId`) non-primary. */
export async function clearPrimaryLocation(
  db: Executor,
  organisationId: string,
  exceptId: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('locations')
    .set({ is_primary: sqlBool(false), updated_at: now })
    .where('organisation_id', '=', organisationId)
    .where('is_primary', '=', sqlBool(true))
    .where('id', '!=', exceptId)
    .execute()
}

export async function updateLocation(
  db: Executor,
  organisationId: string,
  id: string,
  changes: LocationUpdate,
): Promise<void> {
  await db
    .updateTable('locations')
    .set(changes)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .execute()
}

export interface LocationReferences {
  vehicles: number
  shifts: number
  jobs: number
  /** Job series still making jobs at the location. */
  series: number
}

/** Rows that would keep the location from being deleted (soft-deleted jobs do not count). */
export async function countLocationReferences(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<LocationReferences> {
  const count = (table: 'vehicles' | 'shifts' | 'jobs') => {
    let query = db
      .selectFrom(table as 'jobs')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('organisation_id', '=', organisationId)
      .where('location_id', '=', id)
    if (table === 'jobs') query = query.where('deleted_at', 'is', null)
    return query.executeTakeFirstOrThrow().then((row) => Number(row.total))
  }
  const [vehicles, shifts, jobs, series] = await Promise.all([
    count('vehicles'),
    count('shifts'),
    count('jobs'),
    countSeriesUsing(db, organisationId, id),
  ])
  return { vehicles, shifts, jobs, series }
}

/** Soft-deleted jobs keep their row but lose the reference, so their depot can be deleted. */
export async function detachDeletedJobs(db: Executor, organisationId: string, id: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ location_id: null })
    .where('organisation_id', '=', organisationId)
    .where('location_id', '=', id)
    .where('deleted_at', 'is not', null)
    .execute()
}

export async function deleteLocation(db: Executor, organisationId: string, id: string): Promise<void> {
  await db
    .deleteFrom('locations')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .execute()
}
