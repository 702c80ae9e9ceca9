// SQL for shift templates. Every query is scoped by organisation; breaks are loaded for a whole page
// of shifts in one query, never one query per shift.

import type { ExpressionBuilder, Transaction, Updateable } from 'kysely'
import { isPostgres, sqlBool } from '../../db/database.js'
import { fastPath, idList, inIdList, param, presentFilters } from '../../db/fast-path/index.js'
import { lockForUpdate } from '../../db/locking.js'
import { referenceExists } from '../../db/references.js'
import type {
  Database,
  DayOfWeek,
  Executor,
  JobStatus,
  ShiftBreakRow,
  ShiftRow,
  ShiftsTable,
} from '../../db/types.js'
import type { ListOrder } from '../../http/list-order.js'
import { countListed, type PreparedList, readListPage } from '../prepared-list.js'

export type ShiftUpdate = Updateable<ShiftsTable>

export interface ShiftFilters {
  locationId?: string
  userId?: string
  day?: DayOfWeek
}

export interface ShiftListedRow extends ShiftRow {
  user_name: string
  user_email: string
  location_name: string
  vehicle_name: string
}

/** Conditions for the filters that are set; values are param() placeholders (see db/fast-path/). */
function filterConditions(eb: ExpressionBuilder<Database, 'shifts'>, present: readonly string[]) {
  const conditions = [eb('shifts.organisation_id', '=', param<string>('organisationId'))]
  if (present.includes('locationId'))
    conditions.push(eb('shifts.location_id', '=', param<string>('locationId')))
  if (present.includes('userId')) conditions.push(eb('shifts.user_id', '=', param<string>('userId')))
  if (present.includes('day')) conditions.push(eb('shifts.day', '=', param<DayOfWeek>('day')))
  return eb.and(conditions)
}

function selectShifts(db: Executor) {
  return db
    .selectFrom('shifts')
    .innerJoin('users', (join) =>
      join
        .onRef('users.id', '=', 'shifts.user_id')
        .onRef('users.organisation_id', '=', 'shifts.organisation_id'),
    )
    .innerJoin('locations', (join) =>
      join
        .onRef('locations.id', '=', 'shifts.location_id')
        .onRef('locations.organisation_id', '=', 'shifts.organisation_id'),
    )
    .innerJoin('vehicles', (join) =>
      join
        .onRef('vehicles.id', '=', 'shifts.vehicle_id')
        .onRef('vehicles.organisation_id', '=', 'shifts.organisation_id'),
    )
    .selectAll('shifts')
    .select([
      'users.name as user_name',
      'users.email as user_email',
      'locations.name as location_name',
      'vehicles.name as vehicle_name',
    ])
}

/** The list's statements for the filters set: their names and values. */
function shiftList(kind: 'list' | 'count', organisationId: string, filters: ShiftFilters): PreparedList {
  return {
    table: 'shifts',
    shape: `shifts.${kind}:${presentFilters(filters).join(',')}`,
    values: { organisationId, ...filters },
  }
}

export async function listShifts(
  db: Executor,
  organisationId: string,
  filters: ShiftFilters,
  order: ListOrder,
  limit: number,
): Promise<ShiftListedRow[]> {
  const present = presentFilters(filters)
  return readListPage<ShiftListedRow>(db, shiftList('list', organisationId, filters), order, limit, () =>
    selectShifts(db).where((eb) => filterConditions(eb, present)),
  )
}

export async function countShifts(
  db: Executor,
  organisationId: string,
  filters: ShiftFilters,
  order?: ListOrder,
): Promise<number> {
  const present = presentFilters(filters)
  return countListed(db, shiftList('count', organisationId, filters), order, () =>
    db
      .selectFrom('shifts')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where((eb) => filterConditions(eb, present)),
  )
}

export async function findShift(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<ShiftListedRow | undefined> {
  return selectShifts(db)
    .where('shifts.organisation_id', '=', organisationId)
    .where('shifts.id', '=', id)
    .executeTakeFirst()
}

export async function findBreaksOfShifts(
  db: Executor,
  organisationId: string,
  shiftIds: readonly string[],
): Promise<ShiftBreakRow[]> {
  if (shiftIds.length === 0) return []
  return fastPath.read<ShiftBreakRow>(
    db,
    'shifts.breaks',
    () =>
      db
        .selectFrom('shift_breaks')
        .selectAll()
        .where('organisation_id', '=', param<string>('organisationId'))
        .where(inIdList(db, 'shift_id', 'shiftIds'))
        .orderBy('start_time')
        .orderBy('id'),
    { organisationId, shiftIds: idList(db, shiftIds) },
  )
}

export async function insertShift(db: Executor, row: ShiftRow): Promise<void> {
  await db
    .insertInto('shifts')
    .values({ ...row, is_generated: sqlBool(Boolean(row.is_generated)) })
    .execute()
}

export async function insertShiftBreak(db: Executor, row: ShiftBreakRow): Promise<void> {
  await db
    .insertInto('shift_breaks')
    .values({ ...row, is_paid: sqlBool(Boolean(row.is_paid)) })
    .execute()
}

/** The shift row alone, locked against concurrent writers and deleters until the transaction ends. */
export async function findShiftRowForUpdate(
  trx: Transaction<Database>,
  organisationId: string,
  id: string,
): Promise<ShiftRow | undefined> {
  return lockForUpdate(
    trx,
    trx.selectFrom('shifts').selectAll().where('organisation_id', '=', organisationId).where('id', '=', id),
  ).executeTakeFirst()
}

// Existence checks for a shift's references, locking them until the shift is written.
export const userExists = (trx: Transaction<Database>, organisationId: string, id: string) =>
  referenceExists(trx, 'users', organisationId, id)
export const locationExists = (trx: Transaction<Database>, organisationId: string, id: string) =>
  referenceExists(trx, 'locations', organisationId, id)
export const vehicleExists = (trx: Transaction<Database>, organisationId: string, id: string) =>
  referenceExists(trx, 'vehicles', organisationId, id)

export async function updateShift(
  db: Executor,
  organisationId: string,
  id: string,
  changes: ShiftUpdate,
): Promise<void> {
  await db
    .updateTable('shifts')
    .set(changes)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .execute()
}

export async function deleteBreaksOfShift(
  db: Executor,
  organisationId: string,
  shiftId: string,
): Promise<void> {
  await db
    .deleteFrom('shift_breaks')
    .where('organisation_id', '=', organisationId)
    .where('shift_id', '=', shiftId)
    .execute()
}

/** Jobs (not soft-deleted) ASSIGNED or IN_PROGRESS on the shift: its worker is doing them. */
export async function findActiveJobsOnShift(
  db: Executor,
  organisationId: string,
  shiftId: string,
): Promise<{ id: string; title: string; status: JobStatus }[]> {
  return db
    .selectFrom('jobs')
    .select(['id', 'title', 'status'])
    .where('organisation_id', '=', organisationId)
    .where('shift_id', '=', shiftId)
    .where('status', 'in', ['ASSIGNED', 'IN_PROGRESS'])
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute()
}

/** Live (not soft-deleted) jobs planned on the shift, whatever their status. */
export async function countLiveJobsOnShift(
  db: Executor,
  organisationId: string,
  shiftId: string,
): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('organisation_id', '=', organisationId)
    .where('shift_id', '=', shiftId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

/** Soft-deleted jobs keep their row, so their foreign key to the shift must go before the shift does. */
export async function detachDeletedJobsFromShift(
  db: Executor,
  organisationId: string,
  shiftId: string,
): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ shift_id: null })
    .where('organisation_id', '=', organisationId)
    .where('shift_id', '=', shiftId)
    .where('deleted_at', 'is not', null)
    .execute()
}

/** Hard delete; its breaks go with it (ON DELETE CASCADE). */
export async function deleteShift(db: Executor, organisationId: string, id: string): Promise<void> {
  await db.deleteFrom('shifts').where('organisation_id', '=', organisationId).where('id', '=', id).execute()
}

/** What assigning a job to a shift depends on: its worker and its vehicle's state. */
export interface AssignableShift {
  id: string
  user_id: string
  vehicle_id: string
  vehicle_is_active: boolean | number
}

/**
 * Shifts by id with their vehicle's state, in id order; on PostgreSQL share-locked with their vehicles
 * until the transaction ends, so a concurrent deactivation or deletion waits for the assignment.
 */
export async function findShiftsForAssignment(
  trx: Transaction<Database>,
  organisationId: string,
  ids: readonly string[],
): Promise<AssignableShift[]> {
  if (ids.length === 0) return []
  const query = trx
    .selectFrom('shifts')
    .innerJoin('vehicles', (join) =>
      join
        .onRef('vehicles.id', '=', 'shifts.vehicle_id')
        .onRef('vehicles.organisation_id', '=', 'shifts.organisation_id'),
    )
    .select(['shifts.id', 'shifts.user_id', 'shifts.vehicle_id', 'vehicles.is_active as vehicle_is_active'])
    .where('shifts.organisation_id', '=', organisationId)
    .where('shifts.id', 'in', ids)
    .orderBy('shifts.id')
  return (isPostgres(trx) ? query.forShare() : query).execute()
}

export interface ShiftHours {
  day: DayOfWeek
  start_time: string
  end_time: string
  timezone: string
}

/**
 * The weekly hours of a user's shifts, each with its depot's time zone: only `shiftId` when given
 * (the shift a job is planned on), else all of the user's.
 */
export async function findShiftHoursOfUser(
  db: Executor,
  organisationId: string,
  userId: string,
  shiftId: string | null,
): Promise<ShiftHours[]> {
  return db
    .selectFrom('shifts')
    .innerJoin('locations', (join) =>
      join
        .onRef('locations.id', '=', 'shifts.location_id')
        .onRef('locations.organisation_id', '=', 'shifts.organisation_id'),
    )
    .select(['shifts.day', 'shifts.start_time', 'shifts.end_time', 'locations.timezone'])
    .where('shifts.organisation_id', '=', organisationId)
    .where('shifts.user_id', '=', userId)
    .$if(shiftId !== null, (q) => q.where('shifts.id', '=', shiftId as string))
    .orderBy('shifts.id')
    .execute()
}

/** A shift template of a weekday with its worker, vehicle (and costs) and depot: what a day's plan, live forecast and board start from. */
export interface ShiftOfDayRow {
  id: string
  organisation_id: string
  user_id: string
  location_id: string
  vehicle_id: string
  start_time: string
  end_time: string
  updated_at: string
  user_name: string
  user_colour: number
  user_updated_at: string
  vehicle_name: string
  vehicle_updated_at: string
  fixed_cost: number
  cost_per_km: number
  cost_per_hour: number
  speed_factor: number
  start_latitude: string | null
  start_longitude: string | null
  end_policy: string
  location_latitude: string
  location_longitude: string
  location_timezone: string
  location_updated_at: string
}

export interface ShiftOfDayFilters {
  locationId?: string
  userId?: string
  shiftIds?: readonly string[]
  /** Only shifts whose vehicle and depot are active too (planning); the worker is always active. */
  workable?: boolean
}

/**
 * The shift templates of `day` whose worker is active, by start time: of one organisation, or of
 * every organisation when `organisationId` is null (the live day's minute refresh).
 */
export async function findShiftsOfWeekday(
  db: Executor,
  organisationId: string | null,
  day: DayOfWeek,
  filters: ShiftOfDayFilters = {},
): Promise<ShiftOfDayRow[]> {
  let query = db
    .selectFrom('shifts')
    .innerJoin('users', (j) =>
      j
        .onRef('users.id', '=', 'shifts.user_id')
        .onRef('users.organisation_id', '=', 'shifts.organisation_id'),
    )
    .innerJoin('vehicles', (j) =>
      j
        .onRef('vehicles.id', '=', 'shifts.vehicle_id')
        .onRef('vehicles.organisation_id', '=', 'shifts.organisation_id'),
    )
    .innerJoin('locations', (j) =>
      j
        .onRef('locations.id', '=', 'shifts.location_id')
        .onRef('locations.organisation_id', '=', 'shifts.organisation_id'),
    )
    .select([
      'shifts.id',
      'shifts.organisation_id',
      'shifts.user_id',
      'shifts.location_id',
      'shifts.vehicle_id',
      'shifts.start_time',
      'shifts.end_time',
      'shifts.updated_at',
      'users.name as user_name',
      'users.colour as user_colour',
      'users.updated_at as user_updated_at',
      'vehicles.name as vehicle_name',
      'vehicles.updated_at as vehicle_updated_at',
      'vehicles.fixed_cost',
      'vehicles.cost_per_km',
      'vehicles.cost_per_hour',
      'vehicles.speed_factor',
      'vehicles.start_latitude',
      'vehicles.start_longitude',
      'vehicles.end_policy',
      'locations.latitude as location_latitude',
      'locations.longitude as location_longitude',
      'locations.timezone as location_timezone',
      'locations.updated_at as location_updated_at',
    ])
    .where('shifts.day', '=', day)
    .where('users.is_active', '=', sqlBool(true))
  if (organisationId !== null) query = query.where('shifts.organisation_id', '=', organisationId)
  if (filters.workable) {
    query = query
      .where('vehicles.is_active', '=', sqlBool(true))
      .where('locations.is_active', '=', sqlBool(true))
  }
  if (filters.locationId !== undefined) query = query.where('shifts.location_id', '=', filters.locationId)
  if (filters.userId !== undefined) query = query.where('shifts.user_id', '=', filters.userId)
  if (filters.shiftIds !== undefined) query = query.where('shifts.id', 'in', filters.shiftIds)
  return query.orderBy('shifts.start_time').orderBy('shifts.id').execute()
}
