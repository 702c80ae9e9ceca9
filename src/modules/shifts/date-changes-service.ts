// One-off changes of a shift template on one date: other hours, or no shift at all. The weekly
// pattern still holds on every other date; shift-days.ts applies a change where the day is read.

import type { Kysely } from 'kysely'
import { sqlBool } from '../../db/database.js'
import { newId, nowIso } from '../../db/ids.js'
import type { Database, Executor, ShiftDateChangeRow } from '../../db/types.js'
import { notFound, validationError } from '../../http/errors.js'
import * as absences from './absences-repository.js'
import type { PutShiftDateBody, ShiftDateChange, ShiftDateListQuery } from './absences-schemas.js'
import * as repository from './repository.js'
import { weekdayOf } from './zoned-time.js'

function serializeChange(row: ShiftDateChangeRow): ShiftDateChange {
  return {
    id: row.id,
    shiftId: row.shift_id,
    date: row.date,
    off: Boolean(row.is_off),
    startTime: row.start_time,
    endTime: row.end_time,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  }
}

/** 400 naming the field: either { off: true } alone, or both times with endTime after startTime. */
function hoursOf(input: PutShiftDateBody): {
  start_time: string | null
  end_time: string | null
  is_off: boolean
} {
  if (input.off === true) {
    if (input.startTime !== undefined || input.endTime !== undefined) {
      throw validationError(
        input.startTime !== undefined ? '/body/startTime' : '/body/endTime',
        'must not be sent with off: true',
      )
    }
    return { start_time: null, end_time: null, is_off: true }
  }
  if (input.startTime === undefined)
    throw validationError('/body/startTime', 'is required unless off is true')
  if (input.endTime === undefined) throw validationError('/body/endTime', 'is required unless off is true')
  if (input.endTime <= input.startTime) throw validationError('/body/endTime', 'must be after startTime')
  return { start_time: input.startTime, end_time: input.endTime, is_off: false }
}

/** Sets (or replaces) the shift's hours on `date`, a date its weekday falls on. */
export async function putShiftDateChange(
  db: Kysely<Database>,
  organisationId: string,
  shiftId: string,
  date: string,
  input: PutShiftDateBody,
): Promise<ShiftDateChange> {
  const hours = hoursOf(input)
  return db.transaction().execute(async (trx) => {
    const shift = await repository.findShiftRowForUpdate(trx, organisationId, shiftId)
    if (!shift) throw notFound('Shift')
    if (weekdayOf(date) !== shift.day) {
      throw validationError('/params/date', `is a ${weekdayOf(date)}; the shift is on ${shift.day}s`)
    }
    const now = nowIso()
    const current = await absences.findShiftDateChange(trx, organisationId, shiftId, date)
    const values = { ...hours, is_off: sqlBool(hours.is_off), updated_at: now }
    if (current) await absences.updateShiftDateChange(trx, organisationId, current.id, values)
    else {
      await absences.insertShiftDateChange(trx, {
        id: newId(),
        organisation_id: organisationId,
        shift_id: shiftId,
        date,
        created_at: now,
        ...values,
      })
    }
    return serializeChange(
      (await absences.findShiftDateChange(trx, organisationId, shiftId, date)) as ShiftDateChangeRow,
    )
  })
}

export async function deleteShiftDateChange(
  db: Executor,
  organisationId: string,
  shiftId: string,
  date: string,
): Promise<{ id: string; deletedAt: string }> {
  const current = await absences.findShiftDateChange(db, organisationId, shiftId, date)
  if (!current) throw notFound('Shift change on that date')
  await absences.deleteShiftDateChange(db, organisationId, shiftId, date)
  return { id: current.id, deletedAt: nowIso() }
}

export async function listShiftDateChanges(
  db: Executor,
  organisationId: string,
  shiftId: string,
  query: ShiftDateListQuery,
): Promise<ShiftDateChange[]> {
  if (query.from !== undefined && query.to !== undefined && query.to < query.from) {
    throw validationError('/query/to', 'must be on or after from')
  }
  if (!(await repository.findShift(db, organisationId, shiftId))) throw notFound('Shift')
  return (await absences.listShiftDateChanges(db, organisationId, [shiftId], query)).map(serializeChange)
}
