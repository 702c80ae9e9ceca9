// When a start or a completion happened, as the caller says (issue 29): work done offline reaches the
// server minutes or hours later, and the job and its events must say when the worker did it, not when
// the phone found a connection. A time sent is believed only within what the worker could have done:
// not in the future (CLOCK_SKEW_MS for a phone's clock running ahead), not before the job's previous
// transition, and within the worker's shift give or take SHIFT_TOLERANCE_MS (the tolerance positions
// use). A job with no shift to check against (assigned without one, to a worker with no shifts) takes
// any time within UNSHIFTED_LIMIT_MS.
import type { Executor, JobRow } from '../../db/types.js'
import { AppError, validationError } from '../../http/errors.js'
import { findShiftHoursOfUser, type ShiftHours } from '../shifts/service.js'
import { DAY, localTime, MINUTE, minutesOf, weekdayOf } from '../shifts/zoned-time.js'
import { parseInstant } from './service.js'

export const CLOCK_SKEW_MS = 2 * MINUTE
export const SHIFT_TOLERANCE_MS = 30 * MINUTE
export const UNSHIFTED_LIMIT_MS = DAY

export type HappenedField = 'startedAt' | 'completedAt'

/**
 * `value` checked and in UTC: 400 at /body/<field> when it is not a datetime, in the future or before
 * the job started; 422 OUTSIDE_SHIFT when the worker was not on shift then.
 */
export async function checkHappenedAt(
  db: Executor,
  organisationId: string,
  job: JobRow,
  field: HappenedField,
  value: string,
  now: number,
): Promise<string> {
  const iso = parseInstant(field, value)
  const at = Date.parse(iso)
  if (at > now + CLOCK_SKEW_MS) {
    throw validationError(
      `/body/${field}`,
      `must not be in the future (it is ${new Date(now).toISOString()} on the server; ` +
        `${CLOCK_SKEW_MS / MINUTE} minutes of clock difference are allowed)`,
    )
  }
  if (field === 'completedAt' && job.started_at !== null && at < Date.parse(job.started_at)) {
    throw validationError(`/body/${field}`, `must not be before the job's startedAt (${job.started_at})`)
  }
  await assertOnShift(db, organisationId, job, field, at, now)
  return iso
}

async function assertOnShift(
  db: Executor,
  organisationId: string,
  job: JobRow,
  field: HappenedField,
  at: number,
  now: number,
): Promise<void> {
  const shifts =
    job.assigned_user_id === null
      ? []
      : await findShiftHoursOfUser(db, organisationId, job.assigned_user_id, job.shift_id)
  if (shifts.length === 0) {
    if (at >= now - UNSHIFTED_LIMIT_MS) return
    throw outsideShift(field, `is more than ${(UNSHIFTED_LIMIT_MS / DAY) * 24} hours ago`)
  }
  if (shifts.some((shift) => onShift(shift, at))) return
  const hours = shifts.map((shift) => `${shift.day} ${shift.start_time}–${shift.end_time}`).join(', ')
  const minutes = SHIFT_TOLERANCE_MS / MINUTE
  throw outsideShift(field, `is outside the worker's shift (${hours}, ± ${minutes} min)`)
}

function outsideShift(field: HappenedField, why: string): AppError {
  const path = `/body/${field}`
  return new AppError('OUTSIDE_SHIFT', `${field} ${why}`, [{ path, message: why }])
}

/** Whether `at` lies within one day's occurrence of the weekly shift, widened by the tolerance. */
function onShift(shift: ShiftHours, at: number): boolean {
  // The tolerance may reach over midnight: the occurrences on the local dates of both ends count.
  const dates = new Set([
    localDate(at - SHIFT_TOLERANCE_MS, shift.timezone),
    localDate(at + SHIFT_TOLERANCE_MS, shift.timezone),
  ])
  for (const date of dates) {
    if (weekdayOf(date) !== shift.day) continue
    const dayUtc = Date.parse(`${date}T00:00:00.000Z`)
    const start = localTime(dayUtc, minutesOf(shift.start_time), shift.timezone) - SHIFT_TOLERANCE_MS
    const end = localTime(dayUtc, minutesOf(shift.end_time), shift.timezone) + SHIFT_TOLERANCE_MS
    if (at >= start && at <= end) return true
  }
  return false
}

const dateFormats = new Map<string, Intl.DateTimeFormat>()
/** The calendar date (YYYY-MM-DD) at `at` in `timeZone`. */
function localDate(at: number, timeZone: string): string {
  const format =
    dateFormats.get(timeZone) ?? new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' })
  dateFormats.set(timeZone, format)
  return format.format(at)
}
