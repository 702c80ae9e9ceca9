// The one answer to "what are this shift's hours on date D?": the weekly template, then the date's
// one-off change (other hours, or off), then the worker's absences. The route plan's inputs, the live
// forecast, the positions' OFF_SHIFT check, My day, the board and manual assignment all ask here.
//
// A part-day absence is time the worker cannot work. The optimiser takes breaks as fixed intervals
// (optimiser/model.ts BreakSpec: no travel or service during one), so an absence inside the shift
// becomes an unpaid break; one touching the shift's start or end shortens the shift instead (a break
// at an edge would still make the route leave or return at the edge); breaks it overlaps merge into
// it, since the optimiser wants breaks that do not overlap.

import type { AbsenceReason, AbsenceRow, Executor, ShiftDateChangeRow } from '../../db/types.js'
import * as absences from './absences-repository.js'
import * as repository from './repository.js'
import { localTime, minutesOf } from './zoned-time.js'

/** What a shift day needs to know of its template (the consumers' own rows carry these columns). */
export interface ShiftTemplateOfDay {
  id: string
  user_id: string
  start_time: string
  end_time: string
}

export interface DayAbsence {
  id: string
  reason: AbsenceReason
  /** Both null: the whole day. */
  startTime: string | null
  endTime: string | null
  note: string | null
}

export interface ShiftDayBreak {
  /** Instants in ms. */
  start: number
  end: number
  isPaid: boolean
  /** Set when the block is (or swallowed) a part-day absence. */
  absenceId: string | null
}

export type ShiftDay =
  | {
      off: false
      /** Instants in ms. */
      start: number
      end: number
      breaks: ShiftDayBreak[]
      /** Whether a one-off change set the hours. */
      changed: boolean
      /** Part-day absences that shortened the shift or block part of it. */
      absences: DayAbsence[]
    }
  | {
      off: true
      /** ABSENT: the worker is away (absence says why); SHIFT_OFF: the shift was cancelled that date. */
      why: 'ABSENT' | 'SHIFT_OFF'
      absence: DayAbsence | null
    }

interface Block {
  start: number
  end: number
  isPaid: boolean
  absenceId: string | null
}

const dayAbsence = (row: AbsenceRow): DayAbsence => ({
  id: row.id,
  reason: row.reason,
  startTime: row.start_time,
  endTime: row.end_time,
  note: row.note,
})

/**
 * The shift's day, in minutes past midnight turned into instants of `date` in `zone`. Pure: the
 * template, its breaks, the date's change (if any) and the worker's absences touching the date.
 */
export function resolveShiftDay(
  template: ShiftTemplateOfDay,
  date: string,
  zone: string,
  breaks: readonly { start_time: string; end_time: string; is_paid: boolean | number }[],
  change: Pick<ShiftDateChangeRow, 'start_time' | 'end_time' | 'is_off'> | undefined,
  absencesOfDate: readonly AbsenceRow[],
): ShiftDay {
  const own = absencesOfDate.filter((a) => a.start_date <= date && a.end_date >= date)
  const whole = own.find((a) => a.start_time === null || a.end_time === null)
  if (whole) return { off: true, why: 'ABSENT', absence: dayAbsence(whole) }
  if (change?.is_off) return { off: true, why: 'SHIFT_OFF', absence: null }

  const changed = change !== undefined && change.start_time !== null && change.end_time !== null
  let start = minutesOf(changed ? (change.start_time as string) : template.start_time)
  let end = minutesOf(changed ? (change.end_time as string) : template.end_time)
  // Breaks of the pattern that the changed hours leave out are dropped, those they cut are cut.
  let blocks: Block[] = breaks.map((b) => ({
    start: minutesOf(b.start_time),
    end: minutesOf(b.end_time),
    isPaid: Boolean(b.is_paid),
    absenceId: null,
  }))
  const touching: DayAbsence[] = []
  const parts = own
    .map((a) => ({ row: a, from: minutesOf(a.start_time as string), to: minutesOf(a.end_time as string) }))
    .sort((a, b) => a.from - b.from)
  for (const part of parts) {
    if (part.to <= start || part.from >= end) continue
    touching.push(dayAbsence(part.row))
    if (part.from <= start && part.to >= end)
      return { off: true, why: 'ABSENT', absence: dayAbsence(part.row) }
    if (part.from <= start) start = part.to
    else if (part.to >= end) end = part.from
    else {
      const merged: Block = { start: part.from, end: part.to, isPaid: false, absenceId: part.row.id }
      blocks = blocks.filter((b) => {
        if (b.end <= merged.start || b.start >= merged.end) return true
        merged.start = Math.min(merged.start, b.start)
        merged.end = Math.max(merged.end, b.end)
        return false
      })
      blocks.push(merged)
    }
  }
  const kept = blocks
    .map((b) => ({ ...b, start: Math.max(b.start, start), end: Math.min(b.end, end) }))
    .filter((b) => b.end > b.start)
    .sort((a, b) => a.start - b.start)
  const dayUtc = Date.parse(`${date}T00:00:00.000Z`)
  const at = (minutes: number) => localTime(dayUtc, minutes, zone)
  return {
    off: false,
    start: at(start),
    end: at(end),
    breaks: kept.map((b) => ({
      start: at(b.start),
      end: at(b.end),
      isPaid: b.isPaid,
      absenceId: b.absenceId,
    })),
    changed,
    absences: touching,
  }
}

/**
 * Each template's day on `date` (templates of that weekday; `zoneOf` gives each one's depot zone):
 * three queries — breaks, the date's changes, the workers' absences — however many shifts there are.
 */
export async function shiftDaysOn<T extends ShiftTemplateOfDay>(
  db: Executor,
  organisationId: string,
  date: string,
  templates: readonly T[],
  zoneOf: (template: T) => string,
): Promise<Map<string, ShiftDay>> {
  if (templates.length === 0) return new Map()
  const shiftIds = templates.map((t) => t.id)
  const userIds = [...new Set(templates.map((t) => t.user_id))]
  const [breaks, changes, away] = await Promise.all([
    repository.findBreaksOfShifts(db, organisationId, shiftIds),
    absences.listShiftDateChanges(db, organisationId, shiftIds, { from: date, to: date }),
    absences.listAbsences(db, organisationId, { from: date, to: date, userIds }),
  ])
  return new Map(
    templates.map((template) => [
      template.id,
      resolveShiftDay(
        template,
        date,
        zoneOf(template),
        breaks.filter((b) => b.shift_id === template.id),
        changes.find((c) => c.shift_id === template.id),
        away.filter((a) => a.user_id === template.user_id),
      ),
    ]),
  )
}

/**
 * What resolveShiftDay needs of these shifts over a range of dates, read at once: their breaks, their
 * one-off changes on those dates and their workers' absences then (bookings read a fortnight this way).
 */
export async function shiftDayFactsBetween(
  db: Executor,
  organisationId: string,
  shifts: readonly { id: string; user_id: string }[],
  range: { from: string; to: string },
) {
  const shiftIds = shifts.map((s) => s.id)
  const [breaks, changes, away] = await Promise.all([
    repository.findBreaksOfShifts(db, organisationId, shiftIds),
    absences.listShiftDateChanges(db, organisationId, shiftIds, range),
    absences.listAbsences(db, organisationId, {
      ...range,
      userIds: [...new Set(shifts.map((s) => s.user_id))],
    }),
  ])
  return { breaks, changes, away }
}
