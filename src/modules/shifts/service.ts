import type { Kysely, Transaction } from 'kysely'
import { sqlBool } from '../../db/database.js'
import { newId, nowIso } from '../../db/ids.js'
import type { Database, DayOfWeek, Executor, ShiftBreakRow, ShiftRow } from '../../db/types.js'
import { AppError, describeUsage, notFound, validationError } from '../../http/errors.js'
import { listOrderOf, readPage } from '../../http/list-order.js'
import type { ChangeFeedPagination } from '../../http/schemas.js'
import type { CreateShiftBody, UpdateShiftBody } from './admin-schemas.js'
import * as repository from './repository.js'
import type { Shift, ShiftListQuery } from './schemas.js'
import { serializeShift } from './serialize.js'

/** Breaks of every given shift: one query however many shifts there are. */
async function serializeShifts(
  db: Executor,
  organisationId: string,
  rows: readonly repository.ShiftListedRow[],
): Promise<Shift[]> {
  const breaks = await repository.findBreaksOfShifts(
    db,
    organisationId,
    rows.map((row) => row.id),
  )
  const breaksByShift = new Map<string, ShiftBreakRow[]>()
  for (const b of breaks) {
    const group = breaksByShift.get(b.shift_id)
    if (group) group.push(b)
    else breaksByShift.set(b.shift_id, [b])
  }
  return rows.map((row) => serializeShift(row, breaksByShift.get(row.id) ?? []))
}

export async function listShifts(
  db: Executor,
  organisationId: string,
  query: ShiftListQuery,
  settleMs = 0,
): Promise<{ shifts: Shift[]; pagination: ChangeFeedPagination }> {
  const filters = { locationId: query.locationId, userId: query.userId, day: query.day }
  const order = listOrderOf(query, settleMs)
  const { rows, pagination } = await readPage(
    query,
    order,
    (limit) => repository.listShifts(db, organisationId, filters, order, limit),
    () => repository.countShifts(db, organisationId, filters, order),
  )
  return { shifts: await serializeShifts(db, organisationId, rows), pagination }
}

export async function getShift(db: Executor, organisationId: string, id: string): Promise<Shift> {
  const row = await repository.findShift(db, organisationId, id)
  if (!row) throw notFound('Shift')
  return (await serializeShifts(db, organisationId, [row]))[0]!
}

type BreakInput = NonNullable<CreateShiftBody['breaks']>[number]

const REFERENCES = [
  { field: 'userId', column: 'user_id', what: 'user', exists: repository.userExists },
  { field: 'locationId', column: 'location_id', what: 'location', exists: repository.locationExists },
  { field: 'vehicleId', column: 'vehicle_id', what: 'vehicle', exists: repository.vehicleExists },
] as const

async function assertReferencesExist(
  trx: Transaction<Database>,
  organisationId: string,
  ids: Partial<Record<'userId' | 'locationId' | 'vehicleId', string>>,
): Promise<void> {
  for (const { field, what, exists } of REFERENCES) {
    const id = ids[field]
    if (id !== undefined && !(await exists(trx, organisationId, id))) {
      throw validationError(`/body/${field}`, `${what} ${id} does not exist in your organisation`)
    }
  }
}

/**
 * The rules of a shift's times: it ends after it starts, and every break ends after it starts, lies
 * within the shift and overlaps no other break. `breaksSent` is false when a PATCH keeps the stored
 * breaks: a break that no longer fits is then blamed on the shift time that moved.
 */
function assertShiftTimes(
  startTime: string,
  endTime: string,
  breaks: readonly BreakInput[],
  breaksSent: boolean,
): void {
  if (endTime <= startTime) throw validationError('/body/endTime', 'must be after startTime')
  breaks.forEach((b, i) => {
    if (b.endTime <= b.startTime) {
      throw validationError(`/body/breaks/${i}/endTime`, "must be after the break's startTime")
    }
    if (b.startTime >= startTime && b.endTime <= endTime) return
    if (breaksSent) {
      throw validationError(`/body/breaks/${i}`, `must lie within the shift (${startTime}–${endTime})`)
    }
    throw validationError(
      b.startTime < startTime ? '/body/startTime' : '/body/endTime',
      `would leave the break ${b.startTime}–${b.endTime} outside the shift; send breaks to replace them`,
    )
  })
  const order = breaks.map((_, i) => i).sort((a, b) => (breaks[a]!.startTime < breaks[b]!.startTime ? -1 : 1))
  for (let k = 1; k < order.length; k++) {
    const previous = breaks[order[k - 1]!]!
    const current = breaks[order[k]!]!
    if (current.startTime < previous.endTime) {
      throw validationError(
        `/body/breaks/${order[k]}`,
        `overlaps the break ${previous.startTime}–${previous.endTime}`,
      )
    }
  }
}

async function insertBreaks(
  db: Executor,
  organisationId: string,
  shiftId: string,
  breaks: readonly BreakInput[],
): Promise<void> {
  const createdAt = nowIso()
  for (const b of breaks) {
    await repository.insertShiftBreak(db, {
      id: newId(),
      organisation_id: organisationId,
      shift_id: shiftId,
      start_time: b.startTime,
      end_time: b.endTime,
      is_paid: b.isPaid,
      created_at: createdAt,
    })
  }
}

export async function createShift(
  db: Kysely<Database>,
  organisationId: string,
  input: CreateShiftBody,
): Promise<Shift> {
  const breaks = input.breaks ?? []
  assertShiftTimes(input.startTime, input.endTime, breaks, true)
  return db.transaction().execute(async (trx) => {
    await assertReferencesExist(trx, organisationId, input)
    const now = nowIso()
    const row: ShiftRow = {
      id: newId(),
      organisation_id: organisationId,
      user_id: input.userId,
      location_id: input.locationId,
      vehicle_id: input.vehicleId,
      day: input.day,
      start_time: input.startTime,
      end_time: input.endTime,
      is_generated: input.isGenerated ?? false,
      created_at: now,
      updated_at: now,
    }
    await repository.insertShift(trx, row)
    await insertBreaks(trx, organisationId, row.id, breaks)
    return getShift(trx, organisationId, row.id)
  })
}

const breakKey = (b: BreakInput) => `${b.startTime}-${b.endTime}-${b.isPaid}`
const sameBreaks = (a: readonly BreakInput[], b: readonly BreakInput[]) =>
  a.map(breakKey).sort().join() === b.map(breakKey).sort().join()

const LISTED_JOBS = 10

/**
 * A shift's worker may change only while no job on it is ASSIGNED or IN_PROGRESS: those jobs name
 * the worker doing them, and would silently pass to someone else. 409 SHIFT_IN_USE names them.
 */
async function assertNoActiveJobs(trx: Transaction<Database>, organisationId: string, id: string) {
  const jobs = await repository.findActiveJobsOnShift(trx, organisationId, id)
  if (jobs.length === 0) return
  const listed = jobs.slice(0, LISTED_JOBS).map((job) => `${job.id} (${job.status})`)
  const more = jobs.length > LISTED_JOBS ? ` and ${jobs.length - LISTED_JOBS} more` : ''
  throw new AppError(
    'SHIFT_IN_USE',
    `Cannot change the worker of shift ${id}: ${describeUsage({ job: jobs.length })} ASSIGNED or ` +
      `IN_PROGRESS on it (${listed.join(', ')}${more}); re-assign, unassign, complete or cancel ` +
      `${jobs.length === 1 ? 'it' : 'them'} first`,
  )
}

export async function updateShift(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  input: UpdateShiftBody,
): Promise<Shift> {
  return db.transaction().execute(async (trx) => {
    const current = await repository.findShiftRowForUpdate(trx, organisationId, id)
    if (!current) throw notFound('Shift')
    const stored = (await repository.findBreaksOfShifts(trx, organisationId, [id])).map((b) => ({
      startTime: b.start_time,
      endTime: b.end_time,
      isPaid: Boolean(b.is_paid),
    }))
    const startTime = input.startTime ?? current.start_time
    const endTime = input.endTime ?? current.end_time
    assertShiftTimes(startTime, endTime, input.breaks ?? stored, input.breaks !== undefined)

    const changes: repository.ShiftUpdate = {}
    for (const { field, column } of REFERENCES) {
      const value = input[field]
      if (value !== undefined && value !== current[column]) changes[column] = value
    }
    await assertReferencesExist(trx, organisationId, {
      userId: changes.user_id,
      locationId: changes.location_id,
      vehicleId: changes.vehicle_id,
    })
    if (changes.user_id !== undefined) await assertNoActiveJobs(trx, organisationId, id)
    if (input.day !== undefined && input.day !== current.day) changes.day = input.day
    if (startTime !== current.start_time) changes.start_time = startTime
    if (endTime !== current.end_time) changes.end_time = endTime
    if (input.isGenerated !== undefined && input.isGenerated !== Boolean(current.is_generated)) {
      changes.is_generated = sqlBool(input.isGenerated)
    }
    const replaceBreaks = input.breaks !== undefined && !sameBreaks(input.breaks, stored)
    if (replaceBreaks) {
      await repository.deleteBreaksOfShift(trx, organisationId, id)
      await insertBreaks(trx, organisationId, id, input.breaks ?? [])
    }
    if (replaceBreaks || Object.keys(changes).length > 0) {
      await repository.updateShift(trx, organisationId, id, { ...changes, updated_at: nowIso() })
    }
    return getShift(trx, organisationId, id)
  })
}

/** Hard delete, refused while a job that is not deleted is planned on the shift. */
export async function deleteShift(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
): Promise<{ id: string; deletedAt: string }> {
  return db.transaction().execute(async (trx) => {
    if (!(await repository.findShiftRowForUpdate(trx, organisationId, id))) throw notFound('Shift')
    const jobs = await repository.countLiveJobsOnShift(trx, organisationId, id)
    if (jobs > 0) {
      throw new AppError(
        'IN_USE',
        `Shift is referenced by ${describeUsage({ job: jobs })}; unassign or delete ${jobs === 1 ? 'it' : 'them'} first`,
      )
    }
    await repository.detachDeletedJobsFromShift(trx, organisationId, id)
    await repository.deleteShift(trx, organisationId, id)
    return { id, deletedAt: nowIso() }
  })
}

export type { AssignableShift, ShiftHours, ShiftOfDayFilters, ShiftOfDayRow } from './repository.js'

/**
 * The shift templates of a weekday with worker, vehicle and depot (of every organisation when
 * `organisationId` is null): the one read that plans, the live forecast and the board start from.
 */
export async function findShiftsOfWeekday(
  db: Executor,
  organisationId: string | null,
  day: DayOfWeek,
  filters: repository.ShiftOfDayFilters = {},
): Promise<repository.ShiftOfDayRow[]> {
  return repository.findShiftsOfWeekday(db, organisationId, day, filters)
}

/** The shifts job assignments name (jobs' dispatch), locked until the caller's transaction ends. */
export async function findShiftsForAssignment(
  trx: Transaction<Database>,
  organisationId: string,
  ids: readonly string[],
): Promise<repository.AssignableShift[]> {
  return repository.findShiftsForAssignment(trx, organisationId, ids)
}

/** The weekly hours of a user's shifts (only `shiftId` when given), each with its depot's time zone. */
export async function findShiftHoursOfUser(
  db: Executor,
  organisationId: string,
  userId: string,
  shiftId: string | null,
): Promise<repository.ShiftHours[]> {
  return repository.findShiftHoursOfUser(db, organisationId, userId, shiftId)
}

/**
 * Writes a shift with its breaks as given (ids and timestamps included): for the demo organisation (cli/demo-seed.ts), which writes a history no request could make; no rule is
 * checked, the demo's data is known good.
 */
export async function seedShift(
  db: Executor,
  row: ShiftRow,
  breaks: readonly ShiftBreakRow[],
): Promise<void> {
  await repository.insertShift(db, row)
  for (const shiftBreak of breaks) await repository.insertShiftBreak(db, shiftBreak)
}
