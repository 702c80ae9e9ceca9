// Dates and times for people: shown in a named IANA time zone (the organisation's primary depot's,
// see useTimeZone) with the zone's abbreviation, and wall-clock times in a zone turned back into UTC
// instants for the API. Intl only: no date library.

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`
  let cached = formatters.get(key)
  if (!cached) {
    cached = new Intl.DateTimeFormat('en-GB', { timeZone, ...options })
    formatters.set(key, cached)
  }
  return cached
}

/** "24 Nov 2026, 14:03 GMT" (with `seconds`, 14:03:27) — an instant as the zone's wall clock. */
export function formatDateTime(
  iso: string | null | undefined,
  timeZone: string,
  options: { seconds?: boolean } = {},
): string {
  if (!iso) return '—'
  return formatter(timeZone, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    ...(options.seconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(new Date(iso))
}

/** "24 Nov 2026" */
export function formatDate(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '—'
  return formatter(timeZone, { day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(iso))
}

/** "14:03:27" — to tell apart events of one minute (execution logs). */
export function formatTime(iso: string, timeZone: string): string {
  return formatter(timeZone, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso))
}

const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
]

/** "3 minutes ago", "in 29 days", "just now". */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const delta = Date.parse(iso) - now
  for (const [unit, ms] of UNITS) {
    if (Math.abs(delta) >= ms) return RELATIVE.format(Math.round(delta / ms), unit)
  }
  return 'just now'
}

/** The zone's offset from UTC, in minutes, at an instant (positive east of Greenwich). */
export function zoneOffsetMinutes(timeZone: string, instant: number): number {
  const parts = formatter(timeZone, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(instant))
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value)
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'))
  return Math.round((wall - Math.floor(instant / 1000) * 1000) / 60_000)
}

/**
 * The UTC instant of a wall-clock time in a zone: `zonedToUtc('2026-11-24', '09:30', 'Europe/London')`.
 * In a spring-forward gap the time is taken as if the clocks had not changed yet.
 */
export function zonedToUtc(date: string, time: string, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number]
  const [hour, minute] = time.split(':').map(Number) as [number, number]
  const wall = Date.UTC(year, month - 1, day, hour, minute)
  // Two passes settle on the offset in force at the result, across a DST change.
  let instant = wall - zoneOffsetMinutes(timeZone, wall) * 60_000
  instant = wall - zoneOffsetMinutes(timeZone, instant) * 60_000
  return new Date(instant)
}

/** Today's date (YYYY-MM-DD) in a zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return formatter(timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(now)
    .filter((part) => part.type !== 'literal')
    .map((part) => part.value)
    .reverse()
    .join('-')
}

/** The browser's zone: the fallback while the organisation's is loading or when it has no depot. */
export const BROWSER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone
