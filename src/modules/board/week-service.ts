// The week view of the board: per worker with a weekly shift, per day of the seven, the shifts of that
// weekday placed on the date (shift-days.ts: the one answer to "this shift's hours on date D", with
// one-off changes and absences), the jobs whose visit starts that day, and the capacity they use; then
// the waiting jobs that fall due by the week's end. Days are read in one zone (the depot's, else the
// organisation's), as the day board reads its date.
import type { Executor } from '../../db/types.js'
import { notFound } from '../../http/errors.js'
import { findShiftsOfWeekday } from '../shifts/service.js'
import { type DayAbsence, type ShiftDay, shiftDaysOn } from '../shifts/shift-days.js'
import { DAY, localTime, MINUTE, minutesOf, weekdayOf } from '../shifts/zoned-time.js'
import * as board from './repository.js'
import * as repository from './week-repository.js'
import { WEEK_DUE_LIMIT, type WeekBoard, type WeekBoardQuery, type WeekJob } from './week-schemas.js'

const WEEK_DAYS = 7
const MINUTES_PER_DAY = 24 * 60
const iso = (ms: number) => new Date(ms).toISOString()
const dateAfter = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00.000Z`) + days * DAY).toISOString().slice(0, 10)

type Cell = WeekBoard['workers'][number]['days'][number]
type CellShift = Cell['shifts'][number]

export async function getWeekBoard(
  db: Executor,
  organisationId: string,
  query: WeekBoardQuery,
): Promise<WeekBoard> {
  const locationId = query.locationId ?? null
  const depots = await board.findDepots(db, organisationId)
  const depot = locationId === null ? undefined : depots.find((d) => d.id === locationId)
  if (locationId !== null && !depot) throw notFound('Location')
  const timezone = depot?.timezone ?? depots[0]?.timezone ?? 'UTC'
  const days = Array.from({ length: WEEK_DAYS }, (_, i) => {
    const date = dateAfter(query.start, i)
    const dayUtc = Date.parse(`${date}T00:00:00.000Z`)
    return {
      date,
      from: localTime(dayUtc, 0, timezone),
      to: localTime(dayUtc, MINUTES_PER_DAY, timezone),
    }
  })
  const weekFrom = (days[0] as (typeof days)[number]).from
  const weekTo = (days[WEEK_DAYS - 1] as (typeof days)[number]).to

  // Each date's shift templates (worker, vehicle and depot active) and their day there (shift-days.ts):
  // four queries a date, however many shifts.
  const perDay: { templates: ShiftTemplate[]; shiftDays: Map<string, ShiftDay> }[] = []
  for (const day of days) {
    const ofWeekday = await findShiftsOfWeekday(db, organisationId, weekdayOf(day.date), {
      workable: true,
      ...(locationId !== null ? { locationId } : {}),
    })
    const shiftDays = await shiftDaysOn(db, organisationId, day.date, ofWeekday, (t) => t.location_timezone)
    perDay.push({ templates: ofWeekday, shiftDays })
  }
  const templates = perDay.flatMap((d) => d.templates)

  const workers = new Map<string, { name: string; colour: number }>()
  const byName = [...templates].sort(
    (a, b) => a.user_name.localeCompare(b.user_name) || a.user_id.localeCompare(b.user_id),
  )
  for (const t of byName) workers.set(t.user_id, { name: t.user_name, colour: t.user_colour })
  // A job is on the day its visit starts in its shift's depot zone (the week's zone without one), so
  // read a day either side of the week, then keep those whose day is one of the seven.
  const zoneOfShift = new Map(templates.map((t) => [t.id, t.location_timezone]))
  const dates = new Set(days.map((d) => d.date))
  const scheduled = (
    await repository.findScheduledJobsOfWorkers(db, organisationId, [...workers.keys()], {
      from: iso(weekFrom - DAY),
      to: iso(weekTo + DAY),
    })
  )
    .filter(
      // One depot: the jobs on its shifts, and those on no shift that belong to it or to none.
      (job) =>
        locationId === null ||
        (job.shift_id !== null
          ? zoneOfShift.has(job.shift_id)
          : job.location_id === null || job.location_id === locationId),
    )
    .map((job) => ({
      job,
      date: localDate(
        Date.parse(job.scheduled_start ?? ''),
        (job.shift_id !== null && zoneOfShift.get(job.shift_id)) || timezone,
      ),
    }))
    .filter(({ date }) => dates.has(date))
  const due = await repository.findJobsDueBy(db, organisationId, iso(weekTo), {
    locationId,
    limit: WEEK_DUE_LIMIT + 1,
  })

  return {
    start: query.start,
    end: (days[WEEK_DAYS - 1] as (typeof days)[number]).date,
    locationId,
    timezone,
    days: days.map((d) => ({ date: d.date, dayStart: iso(d.from), dayEnd: iso(d.to) })),
    workers: [...workers].map(([userId, { name, colour }]) => ({
      user: { id: userId, name, colour },
      days: days.map((day, index): Cell => {
        const ofDay = perDay[index]
        const shifts = (ofDay?.templates ?? [])
          .filter((t) => t.user_id === userId)
          .map((t) => cellShift(t, day.date, ofDay?.shiftDays.get(t.id) as ShiftDay))
          .sort((a, b) => Date.parse(a.start) - Date.parse(b.start))
        const jobs = scheduled
          .filter(({ job, date }) => job.assigned_user_id === userId && date === day.date)
          .map(({ job }) => serializeWeekJob(job))
        const allAway = shifts.length > 0 && shifts.every((s) => s.off === 'ABSENT')
        return {
          date: day.date,
          shifts,
          absence: allAway ? (shifts[0]?.absence ?? null) : null,
          jobs,
          minutesBooked: Math.round(jobs.reduce((sum, job) => sum + visitMs(job), 0) / MINUTE),
          minutesAvailable: Math.round(shifts.reduce((sum, s) => sum + workMs(s), 0) / MINUTE),
        }
      }),
    })),
    due: due.slice(0, WEEK_DUE_LIMIT).map((job) => ({
      ...serializeWeekJob(job),
      dueAt: new Date(job.latest_end ?? job.earliest_start ?? 0).toISOString(),
    })),
    dueTruncated: due.length > WEEK_DUE_LIMIT,
  }
}

const dateFormats = new Map<string, Intl.DateTimeFormat>()
/** The calendar date (YYYY-MM-DD) of an instant in `zone`. */
function localDate(at: number, zone: string): string {
  const format =
    dateFormats.get(zone) ?? new Intl.DateTimeFormat('en-CA', { timeZone: zone, dateStyle: 'short' })
  dateFormats.set(zone, format)
  return format.format(at)
}

const visitMs = (job: WeekJob) =>
  Math.max(0, Date.parse(job.scheduledEnd ?? '') - Date.parse(job.scheduledStart ?? '')) || 0

/** A worked shift's minutes: its hours less every break (paid or not: no visit happens in one). */
function workMs(shift: CellShift): number {
  if (shift.off !== null) return 0
  const breaks = shift.breaks.reduce((sum, b) => sum + Date.parse(b.end) - Date.parse(b.start), 0)
  return Math.max(0, Date.parse(shift.end) - Date.parse(shift.start) - breaks)
}

type ShiftTemplate = Awaited<ReturnType<typeof findShiftsOfWeekday>>[number]

function cellShift(template: ShiftTemplate, date: string, day: ShiftDay): CellShift {
  const dayUtc = Date.parse(`${date}T00:00:00.000Z`)
  const at = (hhmm: string) => iso(localTime(dayUtc, minutesOf(hhmm), template.location_timezone))
  const common = {
    shiftId: template.id,
    vehicle: { id: template.vehicle_id, name: template.vehicle_name },
    locationId: template.location_id,
  }
  if (day.off) {
    // Off: the pattern's hours, so the cell can say which shift is not worked.
    return {
      ...common,
      start: at(template.start_time),
      end: at(template.end_time),
      breaks: [],
      off: day.why,
      absence: day.absence ? absenceOf(day.absence) : null,
    }
  }
  return {
    ...common,
    start: iso(day.start),
    end: iso(day.end),
    breaks: day.breaks.map((b) => ({ start: iso(b.start), end: iso(b.end), isPaid: b.isPaid })),
    off: null,
    absence: null,
  }
}

const absenceOf = (absence: DayAbsence) => ({
  id: absence.id,
  reason: absence.reason,
  startTime: absence.startTime,
  endTime: absence.endTime,
  note: absence.note,
})

function serializeWeekJob(row: repository.WeekJobRow): WeekJob {
  return {
    id: row.id,
    number: `J-${row.number}`,
    title: row.title,
    status: row.status,
    priority: row.priority,
    customer: row.customer_id ? { id: row.customer_id, name: row.customer_name ?? '' } : null,
    locationId: row.location_id,
    serviceDuration: row.service_duration,
    timeWindowType: row.time_window_type,
    earliestStart: row.earliest_start,
    latestEnd: row.latest_end,
    scheduledStart: row.scheduled_start,
    scheduledEnd: row.scheduled_end,
    assignedUserId: row.assigned_user_id,
    shiftId: row.shift_id,
  }
}
