// The week view's arithmetic, kept out of the components so it can be tested alone: the Monday of a
// date's week, capacity in words, and where a job dropped on a worker's day lands — at its own time of
// day when a shift of that day covers it, else at the first free time from the shift's start.
import type { Schema } from '../../../api/types'
import { zonedToUtc } from '../../../lib/time'
import { ABSENCE_LABEL, clock } from '../board-model'

export { ABSENCE_LABEL }

export type WeekBoard = Schema<'WeekBoard'>
export type WeekWorker = WeekBoard['workers'][number]
export type WeekCell = WeekWorker['days'][number]
export type WeekShift = WeekCell['shifts'][number]
export type WeekJob = WeekCell['jobs'][number]
export type DueJob = WeekBoard['due'][number]
export type { AbsenceReason } from '../board-model'

const MINUTE = 60_000
const QUARTER = 15 * MINUTE
const ms = (iso: string) => Date.parse(iso)

/** The date `days` after a `YYYY-MM-DD` date. */
export function dateAfter(date: string, days: number): string {
  return new Date(ms(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

/** The Monday on or before a date: where a week starts when none is asked for. */
export function mondayOf(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay()
  return dateAfter(date, -((weekday + 6) % 7))
}

/** "6 h 30", "8 h", "45 min", "0 h": minutes as the capacity bar says them. */
export function hoursText(minutes: number): string {
  if (minutes > 0 && minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  return rest === 0 ? `${hours} h` : `${hours} h ${String(rest).padStart(2, '0')}`
}

/** "6 h 30 of 8 h", and how full the day is (0–1, more when overbooked). */
export function capacityOf(cell: Pick<WeekCell, 'minutesBooked' | 'minutesAvailable'>) {
  const share =
    cell.minutesAvailable > 0 ? cell.minutesBooked / cell.minutesAvailable : cell.minutesBooked > 0 ? 2 : 0
  return {
    text: `${hoursText(cell.minutesBooked)} of ${hoursText(cell.minutesAvailable)}`,
    share,
    over: cell.minutesBooked > cell.minutesAvailable,
  }
}

/** Why a cell takes no work, in words ("Holiday", "Shift cancelled", "No shift"), or null if it does. */
export function closedReason(cell: WeekCell): string | null {
  if (cell.absence) return ABSENCE_LABEL[cell.absence.reason]
  const worked = cell.shifts.filter((s) => s.off === null)
  if (worked.length > 0) return null
  if (cell.shifts.some((s) => s.off === 'ABSENT')) {
    const away = cell.shifts.find((s) => s.absence)?.absence
    return away ? ABSENCE_LABEL[away.reason] : 'Away'
  }
  return cell.shifts.length > 0 ? 'Shift cancelled' : 'No shift'
}

/** A job the week shows, scheduled or waiting: what a move needs of it. */
export type MovableJob = Pick<
  WeekJob,
  'id' | 'title' | 'serviceDuration' | 'scheduledStart' | 'scheduledEnd' | 'assignedUserId' | 'earliestStart'
>

export interface Placement {
  userId: string
  shiftId: string
  start: number
  end: number
}

/**
 * Where `job` lands on `worker`'s `cell`: its own local time of day (a scheduled job's; a waiting
 * job's earliest start when on that date) when a worked shift covers the whole visit and it is free
 * there, else the first free quarter hour after it in that shift, else the first free quarter hour from
 * the first worked shift's start. Free: clear of the day's breaks and other visits by a drive's
 * allowance each side (the server's check then says whether the real drive fits). Null when the day
 * takes no work.
 */
export function placeOnDay(
  job: MovableJob,
  worker: WeekWorker,
  cell: WeekCell,
  timeZone: string,
): Placement | null {
  const worked = cell.shifts.filter((s) => s.off === null)
  const first = worked[0]
  if (cell.absence || !first) return null
  const length =
    job.scheduledStart && job.scheduledEnd
      ? ms(job.scheduledEnd) - ms(job.scheduledStart)
      : job.serviceDuration * 1000
  const others = cell.jobs.filter((other) => other.id !== job.id)
  const own = job.scheduledStart ?? job.earliestStart
  if (own) {
    const wanted = zonedToUtc(cell.date, clock(ms(own), timeZone), timeZone).getTime()
    const covering = worked.find((s) => wanted >= ms(s.start) && wanted + length <= ms(s.end))
    if (covering && (job.scheduledStart || wanted >= ms(job.earliestStart ?? ''))) {
      const start = freeStartFrom(wanted, covering, others, length)
      if (start !== null)
        return { userId: worker.user.id, shiftId: covering.shiftId, start, end: start + length }
    }
  }
  const start = firstFreeStart(first, others, length)
  return { userId: worker.user.id, shiftId: first.shiftId, start, end: start + length }
}

/** Time kept clear before and after another visit or a break for a drive (most in a city take less). */
export const DRIVE_ALLOWANCE = 20 * MINUTE

/**
 * The first quarter hour at or after `from` (itself when it is free) where a visit of `length` fits in
 * the shift, clear of its breaks and other visits by DRIVE_ALLOWANCE; null when none does.
 */
function freeStartFrom(
  from: number,
  shift: WeekShift,
  others: readonly Pick<WeekJob, 'scheduledStart' | 'scheduledEnd'>[],
  length: number,
): number | null {
  const busy = [
    ...others.flatMap((o) =>
      o.scheduledStart && o.scheduledEnd
        ? [{ start: ms(o.scheduledStart) - DRIVE_ALLOWANCE, end: ms(o.scheduledEnd) + DRIVE_ALLOWANCE }]
        : [],
    ),
    // A drive may not run through a break either (the optimiser's rule).
    ...shift.breaks.map((b) => ({ start: ms(b.start) - DRIVE_ALLOWANCE, end: ms(b.end) + DRIVE_ALLOWANCE })),
  ].sort((a, b) => a.start - b.start)
  let start = Math.max(from, ms(shift.start))
  for (const slot of busy) {
    if (start < slot.end && start + length > slot.start) start = Math.ceil(slot.end / QUARTER) * QUARTER
  }
  return start + length <= ms(shift.end) ? start : null
}

/**
 * The first free quarter hour from the shift's start (see freeStartFrom); nothing free inside the
 * shift: its start, and the server says what is wrong with it.
 */
export function firstFreeStart(
  shift: WeekShift,
  others: readonly Pick<WeekJob, 'scheduledStart' | 'scheduledEnd'>[],
  length: number,
): number {
  const from = Math.ceil(ms(shift.start) / QUARTER) * QUARTER
  return freeStartFrom(from, shift, others, length) ?? ms(shift.start)
}

/** "Due Tue 8 Dec", or "Overdue · was due 30 Nov" before `today`. */
export function dueText(dueAt: string, today: string, timeZone: string): string {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  })
  const dueDate = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(dueAt))
  const words = format.format(new Date(dueAt)).replace(',', '')
  return dueDate < today ? `Overdue · was due ${words}` : `Due ${words}`
}

/** "Mon 7 Dec" and "Monday 7 December" of a calendar date. */
export function dayNames(date: string): { short: string; long: string } {
  const at = new Date(`${date}T00:00:00Z`)
  const short = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  })
  const long = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    weekday: 'long',
    day: 'numeric',
    month: 'long',
  })
  return { short: short.format(at).replace(',', ''), long: long.format(at).replace(',', '') }
}
