// Absences: a worker away for whole days or part of one. The rules of an absence live here; what an
// absence does to a shift on a date is shift-days.ts's, and manual assignment asks assertWorkerPresent.

import { newId, nowIso } from '../../db/ids.js'
import type { AbsenceRow, Executor } from '../../db/types.js'
import { AppError, notFound, validationError } from '../../http/errors.js'
import * as absences from './absences-repository.js'
import {
  type Absence,
  type AbsenceListQuery,
  type AllAbsencesQuery,
  type CreateAbsenceBody,
  MAX_ABSENCE_DAYS,
} from './absences-schemas.js'
import { DAY, localTime, minutesOf } from './zoned-time.js'

function serializeAbsence(row: absences.AbsenceListedRow): Absence {
  return {
    id: row.id,
    userId: row.user_id,
    user: { id: row.user_id, name: row.user_name },
    startDate: row.start_date,
    endDate: row.end_date,
    reason: row.reason,
    startTime: row.start_time,
    endTime: row.end_time,
    note: row.note,
    createdAt: new Date(row.created_at).toISOString(),
  }
}

const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY)

/** 400 naming the field: dates in order and not too far apart; hours only on one day, in order. */
function assertAbsenceShape(input: CreateAbsenceBody): void {
  if (input.endDate < input.startDate) throw validationError('/body/endDate', 'must be on or after startDate')
  if (daysBetween(input.startDate, input.endDate) + 1 > MAX_ABSENCE_DAYS) {
    throw validationError(
      '/body/endDate',
      `must be at most ${MAX_ABSENCE_DAYS} days from startDate (inclusive)`,
    )
  }
  const hasStart = input.startTime !== undefined
  const hasEnd = input.endTime !== undefined
  if (hasStart !== hasEnd) {
    throw validationError(hasStart ? '/body/endTime' : '/body/startTime', 'is required with the other time')
  }
  if (!hasStart) return
  if (input.startDate !== input.endDate) {
    throw validationError('/body/endDate', 'must equal startDate when startTime and endTime are sent')
  }
  if ((input.endTime as string) <= (input.startTime as string)) {
    throw validationError('/body/endTime', 'must be after startTime')
  }
}

async function assertUser(db: Executor, organisationId: string, userId: string): Promise<void> {
  if ((await absences.findUserName(db, organisationId, userId)) === undefined) throw notFound('User')
}

export async function createAbsence(
  db: Executor,
  organisationId: string,
  userId: string,
  input: CreateAbsenceBody,
): Promise<Absence> {
  assertAbsenceShape(input)
  // Users are never deleted (only deactivated), so reading the name is enough to know it exists.
  const userName = await absences.findUserName(db, organisationId, userId)
  if (userName === undefined) throw notFound('User')
  const row: AbsenceRow = {
    id: newId(),
    organisation_id: organisationId,
    user_id: userId,
    start_date: input.startDate,
    end_date: input.endDate,
    start_time: input.startTime ?? null,
    end_time: input.endTime ?? null,
    reason: input.reason,
    note: input.note ?? null,
    created_at: nowIso(),
  }
  await absences.insertAbsence(db, row)
  return serializeAbsence({ ...row, user_name: userName })
}

/** 400 naming `to` when the range ends before it starts. */
function assertRange(query: { from?: string; to?: string }): void {
  if (query.from !== undefined && query.to !== undefined && query.to < query.from) {
    throw validationError('/query/to', 'must be on or after from')
  }
}

export async function listAbsencesOfUser(
  db: Executor,
  organisationId: string,
  userId: string,
  query: AbsenceListQuery,
): Promise<Absence[]> {
  assertRange(query)
  await assertUser(db, organisationId, userId)
  const rows = await absences.listAbsences(db, organisationId, { ...query, userIds: [userId] })
  return rows.map(serializeAbsence)
}

export async function listAbsences(
  db: Executor,
  organisationId: string,
  query: AllAbsencesQuery,
): Promise<Absence[]> {
  assertRange(query)
  if (
    query.locationId !== undefined &&
    !(await absences.findLocationTimezone(db, organisationId, query.locationId))
  ) {
    throw notFound('Location')
  }
  return (await absences.listAbsences(db, organisationId, query)).map(serializeAbsence)
}

export async function deleteAbsence(
  db: Executor,
  organisationId: string,
  userId: string,
  absenceId: string,
): Promise<{ id: string; deletedAt: string }> {
  const row = await absences.findAbsence(db, organisationId, userId, absenceId)
  if (!row) throw notFound('Absence')
  await absences.deleteAbsence(db, organisationId, absenceId)
  return { id: absenceId, deletedAt: nowIso() }
}

/** The worker's absences touching `date` (My day: a whole-day one means the day is off), by start. */
export async function absencesOfDate(
  db: Executor,
  organisationId: string,
  userId: string,
  date: string,
): Promise<Pick<Absence, 'id' | 'reason' | 'startTime' | 'endTime' | 'note'>[]> {
  const rows = await absences.listAbsences(db, organisationId, { from: date, to: date, userIds: [userId] })
  return rows.map((row) => ({
    id: row.id,
    reason: row.reason,
    startTime: row.start_time,
    endTime: row.end_time,
    note: row.note,
  }))
}

/**
 * The time zone a worker's dates are read in: the depot of `shiftId` when given, else of the worker's
 * first shift, else the organisation's primary depot, else UTC (assertWorkerPresent's calendar).
 */
export async function findWorkerZone(
  db: Executor,
  organisationId: string,
  userId: string,
  shiftId: string | null,
): Promise<string> {
  return absences.findWorkerZone(db, organisationId, userId, shiftId)
}

const localDate = (at: number, zone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, dateStyle: 'short' }).format(new Date(at))

/**
 * 422 WORKER_ABSENT when the worker is away during [scheduledStart, scheduledEnd): away that whole
 * day, or for part of it overlapping the visit. Dates are read in the depot calendar of the shift the
 * job goes on (without one: of the worker's first shift, else the organisation's primary depot).
 */
export async function assertWorkerPresent(
  db: Executor,
  organisationId: string,
  userId: string,
  shiftId: string | null,
  scheduledStart: string,
  scheduledEnd: string,
): Promise<void> {
  const start = Date.parse(scheduledStart)
  const end = Date.parse(scheduledEnd)
  const zone = await absences.findWorkerZone(db, organisationId, userId, shiftId)
  const first = localDate(start, zone)
  const last = localDate(Math.max(start, end - 1), zone)
  const rows = await absences.listAbsences(db, organisationId, { from: first, to: last, userIds: [userId] })
  for (const row of rows) {
    if (row.start_time !== null && row.end_time !== null) {
      const dayUtc = Date.parse(`${row.start_date}T00:00:00.000Z`)
      const from = localTime(dayUtc, minutesOf(row.start_time), zone)
      const to = localTime(dayUtc, minutesOf(row.end_time), zone)
      if (from >= end || to <= start) continue
    }
    const when =
      row.start_time !== null
        ? `on ${row.start_date} from ${row.start_time} to ${row.end_time}`
        : row.start_date === row.end_date
          ? `on ${row.start_date}`
          : `from ${row.start_date} to ${row.end_date}`
    throw new AppError(
      'WORKER_ABSENT',
      `${row.user_name} is away (${row.reason}) ${when} (${zone}); the visit ${scheduledStart}–${scheduledEnd} ` +
        'falls then. Choose another worker or time, or remove the absence first',
    )
  }
}

/**
 * What changed the day's shifts after `since` (a route plan's inputs were read then): an absence of
 * one of `userIds` recorded since, touching the date (± a day, for any depot's zone), or a one-off
 * change of one of `shiftIds` on it. Described for PLAN_STALE ("absence of user X").
 */
export async function dayChangesSince(
  db: Executor,
  organisationId: string,
  date: string,
  routes: { userIds: readonly string[]; shiftIds: readonly string[] },
  since: string,
): Promise<string[]> {
  const day = Date.parse(`${date}T00:00:00.000Z`)
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10)
  const found = await absences.findDayChangesSince(
    db,
    organisationId,
    { ...routes, date, from: iso(day - DAY), to: iso(day + DAY) },
    since,
  )
  return [
    ...new Set([
      ...found.absences.map((a) => `absence of user ${a.user_id}`),
      ...found.changes.map((c) => `hours of shift ${c.shift_id} on ${date}`),
    ]),
  ]
}

/** Writes an absence as given, for the demo organisation (cli/demo-seed.ts): no rule is checked. */
export async function seedAbsence(db: Executor, row: AbsenceRow): Promise<void> {
  await absences.insertAbsence(db, row)
}
