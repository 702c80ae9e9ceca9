// The arrival window the customer is told, and how it is said: the predicted arrival ± 15 minutes,
// each end rounded to 5 minutes, in the time zone of the job's depot ("14:05–14:35 (BST)"), with the
// date when it is not today there. The tracking page and the emails both say it with this one
// function, so a customer never reads two different times for one visit — and neither depends on the
// zone of whatever device or server happens to show it.
import type { Tracking } from './schemas.js'

const WINDOW_HALF_MS = 15 * 60_000
const ROUND_MS = 5 * 60_000

export type ArrivalWindow = NonNullable<Tracking['arrivalWindow']>

/** `at` rounded to the nearest 5 minutes. */
function roundedToFive(at: number): string {
  return new Date(Math.round(at / ROUND_MS) * ROUND_MS).toISOString()
}

/** The window around an eta, in UTC instants; null when the eta is unknown. */
export function arrivalWindowOf(eta: string | null): { from: string; to: string } | null {
  if (eta === null) return null
  const at = Date.parse(eta)
  return { from: roundedToFive(at - WINDOW_HALF_MS), to: roundedToFive(at + WINDOW_HALF_MS) }
}

interface ZoneFormats {
  /** "14:05" and the zone's abbreviation ("BST") or offset ("GMT-4"). */
  time: Intl.DateTimeFormat
  /** "Thu 16 Jul". */
  date: Intl.DateTimeFormat
  /** "2026-07-16": which day it is there. */
  day: Intl.DateTimeFormat
}
const formats = new Map<string, ZoneFormats>()

function formatsOf(timeZone: string): ZoneFormats {
  let zone = formats.get(timeZone)
  if (!zone) {
    zone = {
      time: new Intl.DateTimeFormat('en-GB', {
        timeZone,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZoneName: 'short',
      }),
      date: new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short' }),
      day: new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
    }
    formats.set(timeZone, zone)
  }
  return zone
}

function timeAndZone(format: Intl.DateTimeFormat, at: number): { time: string; zone: string } {
  const parts = format.formatToParts(at)
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? ''
  return { time: `${part('hour')}:${part('minute')}`, zone: part('timeZoneName') }
}

/**
 * "14:05–14:35 (BST)" in `timeZone`, preceded by the date ("Fri 17 Jul, …") when the window does not
 * start on the day it is at `now` there. A window across a change of clocks names both zones.
 */
export function describeArrivalWindow(
  window: { from: string; to: string },
  timeZone: string,
  now: number,
): string {
  const zone = formatsOf(timeZone)
  const from = Date.parse(window.from)
  const start = timeAndZone(zone.time, from)
  const end = timeAndZone(zone.time, Date.parse(window.to))
  const times =
    start.zone === end.zone
      ? `${start.time}–${end.time} (${start.zone})`
      : `${start.time} (${start.zone})–${end.time} (${end.zone})`
  return zone.day.format(from) === zone.day.format(now) ? times : `${zone.date.format(from)}, ${times}`
}

/** The window as the tracking page's data carries it: the instants, and the words for them. */
export function zonedArrivalWindow(eta: string | null, timeZone: string, now: number): ArrivalWindow | null {
  const window = arrivalWindowOf(eta)
  return window ? { ...window, text: describeArrivalWindow(window, timeZone, now) } : null
}
