// Days, clock times and durations as the technician reads them, in the job's depot's time zone.

const cache = new Map<string, Intl.DateTimeFormat>()
function format(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(options)
  let formatter = cache.get(key)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', options)
    cache.set(key, formatter)
  }
  return formatter
}

/** "09:30" in the zone. */
export function clock(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '—'
  return format({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(new Date(iso))
}

/** "09:30–10:15", "from 09:30", "until 12:00", or null without either end. */
export function clockRange(start: string | null, end: string | null, timeZone: string): string | null {
  if (start && end) return `${clock(start, timeZone)}–${clock(end, timeZone)}`
  if (start) return `from ${clock(start, timeZone)}`
  if (end) return `until ${clock(end, timeZone)}`
  return null
}

/** "45 min", "1 h 30 min". */
export function duration(seconds: number): string {
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`
}

function utcDate(date: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(year, month - 1, day))
}

/** YYYY-MM-DD plus n days. */
export function addDays(date: string, days: number): string {
  const next = utcDate(date)
  next.setUTCDate(next.getUTCDate() + days)
  return next.toISOString().slice(0, 10)
}

/** "Tuesday 24 November". */
export function dayTitle(date: string): string {
  return format({ weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(utcDate(date))
}

/** A well-formed YYYY-MM-DD, or null. */
export function parseDay(value: string | null): string | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null
  return Number.isNaN(utcDate(value).getTime()) ? null : value
}
