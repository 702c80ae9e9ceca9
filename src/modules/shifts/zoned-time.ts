// Wall-clock times in a depot's time zone turned into instants: how a weekly shift template (or a
// customer's opening hours) lands on a calendar date.
import type { DayOfWeek } from '../../db/types.js'

export const MINUTE = 60_000
export const DAY = 24 * 60 * MINUTE

/** Minutes past midnight of an `HH:MM` time of day. */
export const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

const formats = new Map<string, Intl.DateTimeFormat>()
/** How far `timeZone` is ahead of UTC at the instant `at`, in minutes (Europe/London in summer: 60). */
function zoneOffsetMinutes(at: number, timeZone: string): number {
  const options = { timeZone, hourCycle: 'h23', dateStyle: 'short', timeStyle: 'short' } as const
  const format = formats.get(timeZone) ?? new Intl.DateTimeFormat('en-GB', options)
  formats.set(timeZone, format)
  const parts = format.formatToParts(at)
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  const local = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'))
  return Math.round((local - Math.floor(at / MINUTE) * MINUTE) / MINUTE)
}

/** The instant (ms) when it is `minutes` past midnight in `timeZone` on the date starting at `dayUtc`. */
export function localTime(dayUtc: number, minutes: number, timeZone: string): number {
  const wall = dayUtc + minutes * MINUTE
  const guess = wall - zoneOffsetMinutes(wall, timeZone) * MINUTE
  return wall - zoneOffsetMinutes(guess, timeZone) * MINUTE
}

const WEEKDAYS: readonly DayOfWeek[] = [
  'SUNDAY',
  'MONDAY',
  'TUESDAY',
  'WEDNESDAY',
  'THURSDAY',
  'FRIDAY',
  'SATURDAY',
]

/** The DayOfWeek of a calendar date `YYYY-MM-DD`. */
export function weekdayOf(date: string): DayOfWeek {
  return WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()] as DayOfWeek
}
