// Which occurrences of a series exist, where each one falls and what window its job gets: the rule's
// dates (rules.ts) less the skipped ones, moved ones on their new date, and each window's local time
// of day placed on its date in the depot's time zone (shifts/zoned-time.ts), so a 09:00 visit stays
// 09:00 on both sides of a daylight-saving change.
import type { TimeWindowType } from '../../db/types.js'
import { DAY, localTime, minutesOf } from '../shifts/zoned-time.js'
import type { ExceptionRow, SeriesRow } from './repository.js'
import { addDays, datesBetween, datesFrom, isOccurrence, parseRule, type Rule } from './rules.js'
import type { SeriesWindow } from './schemas.js'

/** A series as the occurrence rules read it. */
export interface SeriesPlan {
  rule: Rule
  startDate: string
  endDate: string | null
  window: SeriesWindow | null
}

export function planOf(row: SeriesRow): SeriesPlan {
  return {
    rule: parseRule(row.rrule),
    startDate: row.start_date,
    endDate: row.end_date,
    window: windowOfRow(row),
  }
}

/** A stored window (a series' or a moved occurrence's): null when its columns are. */
export function windowOfRow(row: {
  window_start: string | null
  window_end: string | null
  window_type: TimeWindowType | null
}): SeriesWindow | null {
  if (row.window_start === null || row.window_end === null || row.window_type === null) return null
  return { startTime: row.window_start, endTime: row.window_end, type: row.window_type }
}

/** One occurrence: its date in the rule, the date it happens, and its window (null: the series'). */
export interface Occurrence {
  date: string
  onDate: string
  skipped: boolean
  window: SeriesWindow | null
}

/** Whether `date` is an occurrence of the series: a date of its rule from its start to its end. */
export function isSeriesDate(plan: SeriesPlan, date: string): boolean {
  if (date < plan.startDate || (plan.endDate !== null && date > plan.endDate)) return false
  return isOccurrence(plan.rule, plan.startDate, date)
}

function occurrenceOf(plan: SeriesPlan, date: string, exception: ExceptionRow | undefined): Occurrence {
  return {
    date,
    onDate: exception?.kind === 'MOVE' && exception.moved_to ? exception.moved_to : date,
    skipped: exception?.kind === 'SKIP',
    window: (exception && windowOfRow(exception)) ?? plan.window,
  }
}

/**
 * The occurrences that happen within [from, through] (inclusive, on the date they happen), not
 * skipped: the rule's dates there, and occurrences moved there from any date.
 */
export function occurrencesWithin(
  plan: SeriesPlan,
  exceptions: readonly ExceptionRow[],
  from: string,
  through: string,
): Occurrence[] {
  const byDate = new Map(exceptions.map((e) => [e.occurrence_date, e]))
  const last = plan.endDate !== null && plan.endDate < through ? plan.endDate : through
  const first = plan.startDate > from ? plan.startDate : from
  const dates = new Set(datesBetween(plan.rule, plan.startDate, first, last))
  for (const exception of exceptions) {
    if (exception.kind === 'MOVE' && isSeriesDate(plan, exception.occurrence_date)) {
      dates.add(exception.occurrence_date)
    }
  }
  return [...dates]
    .sort()
    .map((date) => occurrenceOf(plan, date, byDate.get(date)))
    .filter((o) => !o.skipped && o.onDate >= from && o.onDate <= through)
}

/** The next `count` occurrences by their date in the rule, from `from` on, skipped ones included. */
export function nextOccurrences(
  plan: SeriesPlan,
  exceptions: readonly ExceptionRow[],
  from: string,
  count: number,
): Occurrence[] {
  const byDate = new Map(exceptions.map((e) => [e.occurrence_date, e]))
  const first = plan.startDate > from ? plan.startDate : from
  return datesFrom(plan.rule, plan.startDate, first, count)
    .filter((date) => plan.endDate === null || date <= plan.endDate)
    .map((date) => occurrenceOf(plan, date, byDate.get(date)))
}

/** An occurrence's window as a job's: instants in `timeZone`; no window: the whole local day, HARD. */
export function jobWindowOf(
  onDate: string,
  window: SeriesWindow | null,
  timeZone: string,
): { earliestStart: string; latestEnd: string; timeWindowType: TimeWindowType } {
  const day = Date.parse(`${onDate}T00:00:00Z`)
  if (window === null) {
    return {
      earliestStart: new Date(localTime(day, 0, timeZone)).toISOString(),
      latestEnd: new Date(localTime(day + DAY, 0, timeZone)).toISOString(),
      timeWindowType: 'HARD',
    }
  }
  return {
    earliestStart: new Date(localTime(day, minutesOf(window.startTime), timeZone)).toISOString(),
    latestEnd: new Date(localTime(day, minutesOf(window.endTime), timeZone)).toISOString(),
    timeWindowType: window.type,
  }
}

const dateFormats = new Map<string, Intl.DateTimeFormat>()

/** The calendar date (YYYY-MM-DD) in `timeZone` at the instant `at`. */
export function localDateOf(at: number, timeZone: string): string {
  const format =
    dateFormats.get(timeZone) ?? new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' })
  dateFormats.set(timeZone, format)
  return format.format(new Date(at))
}

/** The last date the generator makes jobs for: today and the `horizonDays` - 1 days after it. */
export const horizonEnd = (today: string, horizonDays: number) => addDays(today, Math.max(0, horizonDays - 1))
