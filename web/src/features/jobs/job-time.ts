// A job's times are shown and typed in its depot's time zone (the organisation's when it has no
// depot): `datetime-local` values are that zone's wall clock, turned into UTC instants for the API.
import { useDepots, useTimeZone } from '../../app/time-zone'
import { zonedToUtc } from '../../lib/time'

/** The time zone of a depot id, else the organisation's. */
export function useJobTimeZone(locationId: string | null | undefined): string {
  const depots = useDepots()
  const fallback = useTimeZone()
  return depots.data?.locations.find((d) => d.id === locationId)?.timezone ?? fallback
}

const inputFormatters = new Map<string, Intl.DateTimeFormat>()

/** An instant as a `datetime-local` value ("2026-11-24T09:30") on the zone's wall clock; '' for none. */
export function toZonedInput(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return ''
  let format = inputFormatters.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
    inputFormatters.set(timeZone, format)
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(iso)).map((p) => [p.type, p.value]))
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`
}

/** A `datetime-local` value on the zone's wall clock as a UTC ISO instant; null for ''. */
export function fromZonedInput(value: string, timeZone: string): string | null {
  if (!value) return null
  const [date = '', time = '00:00'] = value.split('T')
  return zonedToUtc(date, time.slice(0, 5), timeZone).toISOString()
}
