// The board's arithmetic, kept out of the components so it can be tested alone: the hours a day's
// timeline spans, where an instant sits on it, the time a drop position means (snapped to 15
// minutes), which jobs the filters keep, and each route's stops in visiting order for the map.
import type { Schema } from '../../api/types'

export type Board = Schema<'Board'>
export type BoardRow = Board['rows'][number]
export type BoardJob = Board['jobs'][number]
export type JobStatus = BoardJob['status']
export type JobPriority = BoardJob['priority']

export const MINUTE = 60_000
export const HOUR = 60 * MINUTE
/** Drops land on the quarter hour (every time zone's offset is a multiple of 15 minutes). */
export const SNAP = 15 * MINUTE

export interface TimeRange {
  from: number
  to: number
}

const ms = (iso: string) => Date.parse(iso)

/**
 * The hours the timeline shows: every shift and scheduled visit of the day, widened to whole hours
 * (an hour either side of the shifts), within the day; 07:00–19:00 when nothing is on it.
 */
export function timelineRange(
  dayStart: string,
  dayEnd: string,
  spans: readonly { start: number; end: number }[],
): TimeRange {
  const day = { from: ms(dayStart), to: ms(dayEnd) }
  if (spans.length === 0) return { from: day.from + 7 * HOUR, to: day.from + 19 * HOUR }
  const earliest = Math.min(...spans.map((s) => s.start))
  const latest = Math.max(...spans.map((s) => s.end))
  // Whole hours of the day (the day starts at a local midnight, so these are local hours too).
  const from = day.from + Math.floor((earliest - day.from) / HOUR) * HOUR - HOUR
  const to = day.from + Math.ceil((latest - day.from) / HOUR) * HOUR + HOUR
  return { from: Math.max(day.from, from), to: Math.min(day.to, Math.max(to, from + 4 * HOUR)) }
}

/** The hour marks of a range: instants one hour apart from its start. */
export function hourTicks(range: TimeRange): number[] {
  const ticks: number[] = []
  for (let t = range.from; t <= range.to; t += HOUR) ticks.push(t)
  return ticks
}

/** The steps the time axis may label, in minutes: from a quarter hour up to three hours. */
const LABEL_STEPS = [15, 30, 60, 120, 180]
/** Room a label ("08:00" at the axis's size) needs, with a gap to the next. */
export const LABEL_ROOM_PX = 48

/**
 * The ticks the time axis labels when an hour is `pxPerHour` wide: the finest step whose labels do
 * not touch (quarter hours well zoomed in, hours at fit), never none — however narrow, every third
 * hour. Before the width is known (0), the hours.
 */
export function labelTicks(range: TimeRange, pxPerHour: number): number[] {
  const minutes =
    pxPerHour <= 0
      ? 60
      : (LABEL_STEPS.find((step) => (pxPerHour * step) / 60 >= LABEL_ROOM_PX) ?? LABEL_STEPS.at(-1) ?? 60)
  const step = minutes * 60_000
  const ticks: number[] = []
  for (let t = Math.ceil(range.from / step) * step; t <= range.to; t += step) ticks.push(t)
  return ticks
}

/** Where an instant sits on the range, as a percentage of its width (clamped to 0–100). */
export function percentOf(instant: number, range: TimeRange): number {
  const share = (instant - range.from) / (range.to - range.from)
  return Math.min(100, Math.max(0, share * 100))
}

/** The instant at `x` pixels on a track `width` pixels wide showing `range`, snapped to 15 minutes. */
export function instantAt(x: number, width: number, range: TimeRange): number {
  const share = width > 0 ? Math.min(1, Math.max(0, x / width)) : 0
  return snap(range.from + share * (range.to - range.from))
}

export function snap(instant: number): number {
  return Math.round(instant / SNAP) * SNAP
}

export interface BoardFilters {
  status?: JobStatus | undefined
  priority?: JobPriority | undefined
  tagId?: string | undefined
}

export function matchesFilters(job: BoardJob, filters: BoardFilters): boolean {
  if (filters.status && job.status !== filters.status) return false
  if (filters.priority && job.priority !== filters.priority) return false
  if (filters.tagId && !job.tags.some((tag) => tag.id === filters.tagId)) return false
  return true
}

/** Jobs scheduled on a row, by start: the route's visiting order. */
export function jobsOfRow(row: BoardRow, jobs: readonly BoardJob[]): BoardJob[] {
  return jobs
    .filter((job) => job.shiftId === row.shiftId && job.scheduledStart !== null)
    .sort((a, b) => ms(a.scheduledStart ?? '') - ms(b.scheduledStart ?? ''))
}

/** The CREATED jobs waiting for dispatch (the Unassigned tray), most urgent first. */
export function waitingJobs(jobs: readonly BoardJob[]): BoardJob[] {
  const rank = { HIGH: 0, NORMAL: 1, LOW: 2 } as const
  const deadline = (job: BoardJob) => (job.latestEnd ? ms(job.latestEnd) : Number.POSITIVE_INFINITY)
  return jobs
    .filter((job) => job.status === 'CREATED')
    .sort((a, b) => rank[a.priority] - rank[b.priority] || deadline(a) - deadline(b))
}

export type LatLng = [number, number]

export function positionOf(job: Pick<BoardJob, 'latitude' | 'longitude'>): LatLng | null {
  if (job.latitude === null || job.longitude === null) return null
  return [Number(job.latitude), Number(job.longitude)]
}

/** A route as the map draws it: from the start, through each located stop, back when it returns. */
export function routePath(
  origin: { latitude: string; longitude: string },
  stops: readonly Pick<BoardJob, 'latitude' | 'longitude'>[],
  returnsToOrigin: boolean,
): LatLng[] {
  const start: LatLng = [Number(origin.latitude), Number(origin.longitude)]
  const points = stops.map(positionOf).filter((p): p is LatLng => p !== null)
  return [start, ...points, ...(returnsToOrigin && points.length > 0 ? [start] : [])]
}

const clocks = new Map<string, Intl.DateTimeFormat>()
/** "09:30": an instant as the wall clock of a zone. */
export function clock(instant: number | string, timeZone: string): string {
  let format = clocks.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
    clocks.set(timeZone, format)
  }
  return format.format(new Date(instant))
}

/** "1 h 30 min", "45 min". */
export function duration(seconds: number): string {
  const minutes = Math.round(seconds / 60)
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  if (hours === 0) return `${rest} min`
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`
}

/** The date `days` after a `YYYY-MM-DD` date. */
export function addDays(date: string, days: number): string {
  const next = new Date(`${date}T00:00:00Z`)
  next.setUTCDate(next.getUTCDate() + days)
  return next.toISOString().slice(0, 10)
}

/**
 * Where a job fits on a row by default: the first quarter hour from the shift's start (or the job's
 * earliest start) that does not overlap a visit already there.
 */
export function suggestStart(row: BoardRow, rowJobs: readonly BoardJob[], job: BoardJob): number {
  const length = job.serviceDuration * 1000
  let start = Math.max(ms(row.start), job.earliestStart ? ms(job.earliestStart) : 0)
  start = Math.ceil(start / SNAP) * SNAP
  for (const other of rowJobs) {
    if (other.id === job.id || !other.scheduledStart || !other.scheduledEnd) continue
    if (start < ms(other.scheduledEnd) && start + length > ms(other.scheduledStart)) {
      start = Math.ceil(ms(other.scheduledEnd) / SNAP) * SNAP
    }
  }
  return start
}

export type AbsenceReason = NonNullable<BoardRow['absence']>['reason']

export const ABSENCE_LABEL: Record<AbsenceReason, string> = {
  HOLIDAY: 'Holiday',
  SICK: 'Sick',
  TRAINING: 'Training',
  OTHER: 'Away',
}

export type DayAbsence = NonNullable<BoardRow['absence']>

/**
 * How the dashboard says a worker is away, one wording everywhere: "Away all day (Holiday: Family
 * holiday)", "Away 13:00–17:00 (Training)"; OTHER says only its note. Times are the depot's clock.
 */
export function awayWords(absence: DayAbsence): string {
  const when = absence.startTime === null ? 'all day' : `${absence.startTime}–${absence.endTime}`
  const why = [absence.reason === 'OTHER' ? null : ABSENCE_LABEL[absence.reason], absence.note]
    .filter(Boolean)
    .join(': ')
  return why ? `Away ${when} (${why})` : `Away ${when}`
}

export type BlockFlagCode = 'WORKER_AWAY' | 'SOFT_WINDOW_MISSED' | 'OVERTIME' | 'IN_BREAK'

export interface BlockFlag {
  code: BlockFlagCode
  message: string
}

/**
 * The problems of a scheduled visit that the board sees in its own data (the server refuses them on
 * a new assignment; these came before): its worker away (an absence recorded after it was assigned),
 * its window missed (a SOFT window may be), running past the end of the row's shift,
 * and a visit over one of the shift's breaks.
 */
export function blockFlags(job: BoardJob, row: BoardRow, timeZone: string): BlockFlag[] {
  if (!job.scheduledStart || !job.scheduledEnd) return []
  const start = ms(job.scheduledStart)
  const end = ms(job.scheduledEnd)
  const at = (instant: number | string) => clock(instant, timeZone)
  const flags: BlockFlag[] = []
  // Assigned before the absence was recorded: the worker will not come. Part of a day: only the
  // visits in that time (its times are the depot's wall clock, as the row's).
  const away = row.absence
  if (away && (away.startTime === null || (at(start) < (away.endTime ?? '') && at(end) > away.startTime))) {
    const when = away.startTime === null ? '' : ` ${away.startTime}–${away.endTime}`
    flags.push({
      code: 'WORKER_AWAY',
      message: `${row.user.name} is away${when} (${ABSENCE_LABEL[away.reason]}): give this visit to someone else`,
    })
  }
  if (job.earliestStart !== null && start < ms(job.earliestStart)) {
    flags.push({
      code: 'SOFT_WINDOW_MISSED',
      message: `Window missed: starts ${at(start)}, before its window opens at ${at(job.earliestStart)}`,
    })
  } else if (job.latestEnd !== null && end > ms(job.latestEnd)) {
    flags.push({
      code: 'SOFT_WINDOW_MISSED',
      message: `Window missed: ends ${at(end)}, after its window closes at ${at(job.latestEnd)}`,
    })
  }
  const shiftEnd = ms(row.end)
  if (end > shiftEnd) {
    const over = (end - Math.max(start, shiftEnd)) / 1000
    flags.push({
      code: 'OVERTIME',
      message: `Overtime: ends ${at(end)}, ${duration(over)} after the shift ends at ${at(shiftEnd)}`,
    })
  }
  const during = row.breaks.find((b) => start < ms(b.end) && end > ms(b.start))
  if (during) {
    flags.push({
      code: 'IN_BREAK',
      message: `In a break: the visit overlaps the break ${at(during.start)}–${at(during.end)}`,
    })
  }
  return flags
}
