// Time zones without a date library: wall-clock times in a zone to UTC across DST changes, and the
// formats the pages show.
import { describe, expect, it } from 'vitest'
import { formatDateTime, todayIn, zonedToUtc, zoneOffsetMinutes } from './time'

describe('zonedToUtc', () => {
  it.each([
    ['2026-01-15', '09:30', 'Europe/London', '2026-01-15T09:30:00.000Z'],
    ['2026-07-15', '09:30', 'Europe/London', '2026-07-15T08:30:00.000Z'],
    ['2026-07-15', '09:30', 'America/New_York', '2026-07-15T13:30:00.000Z'],
    ['2026-12-31', '23:59', 'Australia/Sydney', '2026-12-31T12:59:00.000Z'],
    ['2026-03-29', '03:00', 'Europe/London', '2026-03-29T02:00:00.000Z'], // the first hour of summer time
    ['2026-10-25', '00:30', 'Europe/London', '2026-10-24T23:30:00.000Z'], // the night summer time ends
  ])('%s %s in %s is %s', (date, time, zone, expected) => {
    expect(zonedToUtc(date, time, zone).toISOString()).toBe(expected)
  })

  it('knows the offset on both sides of a change', () => {
    expect(zoneOffsetMinutes('Europe/Berlin', Date.parse('2026-03-29T00:59:00Z'))).toBe(60)
    expect(zoneOffsetMinutes('Europe/Berlin', Date.parse('2026-03-29T01:00:00Z'))).toBe(120)
  })
})

describe('formatting', () => {
  it('shows an instant as the zone’s wall clock with its abbreviation', () => {
    expect(formatDateTime('2026-07-15T08:30:27.000Z', 'Europe/London')).toBe('15 Jul 2026, 09:30 BST')
    expect(formatDateTime('2026-07-15T08:30:27.000Z', 'Europe/London', { seconds: true })).toBe(
      '15 Jul 2026, 09:30:27 BST',
    )
    expect(formatDateTime(null, 'Europe/London')).toBe('—')
  })

  it('gives today in a zone, which may not be UTC’s', () => {
    const now = new Date('2026-07-15T23:30:00Z')
    expect(todayIn('Europe/London', now)).toBe('2026-07-16')
    expect(todayIn('America/New_York', now)).toBe('2026-07-15')
  })
})
