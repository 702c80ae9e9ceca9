// SQL for absences and one-off shift changes (migration 0025). Every query is scoped by organisation;
// dates are `YYYY-MM-DD` text, so comparing them as strings compares them as dates.

import type { Insertable, Updateable } from 'kysely'
import type { AbsenceRow, Executor, ShiftDateChangeRow, ShiftDateChangesTable } from '../../db/types.js'

export async function insertAbsence(db: Executor, row: AbsenceRow): Promise<void> {
  await db.insertInto('absences').values(row).execute()
}

export async function findAbsence(
  db: Executor,
  organisationId: string,
  userId: string,
  id: string,
): Promise<AbsenceRow | undefined> {
  return db
    .selectFrom('absences')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function deleteAbsence(db: Executor, organisationId: string, id: string): Promise<void> {
  await db.deleteFrom('absences').where('organisation_id', '=', organisationId).where('id', '=', id).execute()
}

export interface AbsenceListedRow extends AbsenceRow {
  user_name: string
}

/**
 * Absences touching [from, to] (either bound open), of the given workers (all when `userIds` is
 * undefined) or of the workers with a shift at `locationId`, earliest first.
 */
export async function listAbsences(
  db: Executor,
  organisationId: string,
  filters: { from?: string; to?: string; userIds?: readonly string[]; locationId?: string },
): Promise<AbsenceListedRow[]> {
  if (filters.userIds?.length === 0) return []
  return db
    .selectFrom('absences')
    .innerJoin('users', (join) =>
      join
        .onRef('users.id', '=', 'absences.user_id')
        .onRef('users.organisation_id', '=', 'absences.organisation_id'),
    )
    .selectAll('absences')
    .select('users.name as user_name')
    .where('absences.organisation_id', '=', organisationId)
    .$if(filters.from !== undefined, (q) => q.where('absences.end_date', '>=', filters.from as string))
    .$if(filters.to !== undefined, (q) => q.where('absences.start_date', '<=', filters.to as string))
    .$if(filters.userIds !== undefined, (q) =>
      q.where('absences.user_id', 'in', filters.userIds as readonly string[]),
    )
    .$if(filters.locationId !== undefined, (q) =>
      q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('shifts')
            .select('shifts.id')
            .where('shifts.organisation_id', '=', organisationId)
            .whereRef('shifts.user_id', '=', 'absences.user_id')
            .where('shifts.location_id', '=', filters.locationId as string),
        ),
      ),
    )
    .orderBy('absences.start_date')
    .orderBy('absences.start_time')
    .orderBy('absences.id')
    .execute()
}

export async function findShiftDateChange(
  db: Executor,
  organisationId: string,
  shiftId: string,
  date: string,
): Promise<ShiftDateChangeRow | undefined> {
  return db
    .selectFrom('shift_date_changes')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('shift_id', '=', shiftId)
    .where('date', '=', date)
    .executeTakeFirst()
}

/** The changes of the given shifts between `from` and `to` (inclusive; either open), by date. */
export async function listShiftDateChanges(
  db: Executor,
  organisationId: string,
  shiftIds: readonly string[],
  range: { from?: string; to?: string },
): Promise<ShiftDateChangeRow[]> {
  if (shiftIds.length === 0) return []
  return db
    .selectFrom('shift_date_changes')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('shift_id', 'in', shiftIds)
    .$if(range.from !== undefined, (q) => q.where('date', '>=', range.from as string))
    .$if(range.to !== undefined, (q) => q.where('date', '<=', range.to as string))
    .orderBy('date')
    .orderBy('shift_id')
    .execute()
}

export async function insertShiftDateChange(
  db: Executor,
  row: Insertable<ShiftDateChangesTable>,
): Promise<void> {
  await db.insertInto('shift_date_changes').values(row).execute()
}

export async function updateShiftDateChange(
  db: Executor,
  organisationId: string,
  id: string,
  changes: Updateable<ShiftDateChangesTable>,
): Promise<void> {
  await db
    .updateTable('shift_date_changes')
    .set(changes)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .execute()
}

export async function deleteShiftDateChange(
  db: Executor,
  organisationId: string,
  shiftId: string,
  date: string,
): Promise<number> {
  const result = await db
    .deleteFrom('shift_date_changes')
    .where('organisation_id', '=', organisationId)
    .where('shift_id', '=', shiftId)
    .where('date', '=', date)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}

export async function findUserName(
  db: Executor,
  organisationId: string,
  userId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('name')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', userId)
    .executeTakeFirst()
  return row?.name
}

export async function findLocationTimezone(
  db: Executor,
  organisationId: string,
  locationId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('locations')
    .select('timezone')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', locationId)
    .executeTakeFirst()
  return row?.timezone
}

/**
 * The time zone a worker's dates are read in: the depot of `shiftId` when given, else of the worker's
 * first shift, else the organisation's primary depot, else UTC.
 */
export async function findWorkerZone(
  db: Executor,
  organisationId: string,
  userId: string,
  shiftId: string | null,
): Promise<string> {
  const ofShift = await db
    .selectFrom('shifts')
    .innerJoin('locations', (join) =>
      join
        .onRef('locations.id', '=', 'shifts.location_id')
        .onRef('locations.organisation_id', '=', 'shifts.organisation_id'),
    )
    .select('locations.timezone')
    .where('shifts.organisation_id', '=', organisationId)
    .$if(shiftId !== null, (q) => q.where('shifts.id', '=', shiftId as string))
    .$if(shiftId === null, (q) => q.where('shifts.user_id', '=', userId))
    .orderBy('shifts.id')
    .limit(1)
    .executeTakeFirst()
  if (ofShift) return ofShift.timezone
  const primary = await db
    .selectFrom('locations')
    .select('timezone')
    .where('organisation_id', '=', organisationId)
    .orderBy('is_primary', 'desc')
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst()
  return primary?.timezone ?? 'UTC'
}

/**
 * Absences of `userIds` recorded after `since` touching [from, to], and one-off changes of `shiftIds`
 * on `date` written after it: what a route plan made at `since` did not know.
 */
export async function findDayChangesSince(
  db: Executor,
  organisationId: string,
  filters: {
    userIds: readonly string[]
    shiftIds: readonly string[]
    date: string
    from: string
    to: string
  },
  since: string,
): Promise<{ absences: { user_id: string }[]; changes: { shift_id: string }[] }> {
  const absences =
    filters.userIds.length === 0
      ? []
      : await db
          .selectFrom('absences')
          .select('user_id')
          .where('organisation_id', '=', organisationId)
          .where('user_id', 'in', filters.userIds)
          .where('created_at', '>', since)
          .where('end_date', '>=', filters.from)
          .where('start_date', '<=', filters.to)
          .execute()
  const changes =
    filters.shiftIds.length === 0
      ? []
      : await db
          .selectFrom('shift_date_changes')
          .select('shift_id')
          .where('organisation_id', '=', organisationId)
          .where('shift_id', 'in', filters.shiftIds)
          .where('date', '=', filters.date)
          .where('updated_at', '>', since)
          .execute()
  return { absences, changes }
}
