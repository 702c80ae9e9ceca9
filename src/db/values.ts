// Conversions between API values and stored values, identical for both dialects.

/**
 * A JSON number as a canonical decimal string: 51.5 → "51.5", 1e-7 → "0.0000001". Stored as decimal
 * text (SQLite) or numeric (PostgreSQL), so responses never show binary floating-point noise.
 */
export function toDecimalString(value: number): string {
  const text = String(value)
  if (!/e/i.test(text)) return text
  const [mantissa = '', exponentText = '0'] = text.toLowerCase().split('e')
  const exponent = Number(exponentText)
  const negative = mantissa.startsWith('-')
  const unsigned = negative ? mantissa.slice(1) : mantissa
  const [whole = '', fraction = ''] = unsigned.split('.')
  const digits = whole + fraction
  const point = whole.length + exponent
  let result: string
  if (point <= 0) result = `0.${'0'.repeat(-point)}${digits}`
  else if (point >= digits.length) result = digits + '0'.repeat(point - digits.length)
  else result = `${digits.slice(0, point)}.${digits.slice(point)}`
  result = result.includes('.') ? result.replace(/0+$/, '').replace(/\.$/, '') : result
  return negative ? `-${result}` : result
}

export function toNullableDecimalString(value: number | null | undefined): string | null {
  return value === null || value === undefined ? null : toDecimalString(value)
}

/** Any ISO 8601 datetime with an offset → UTC with milliseconds. Input is validated beforehand. */
export function toUtcIso(value: string): string {
  return new Date(value).toISOString()
}

// Both engines store every instant in this range the same way; beyond it ISO 8601 needs expanded
// years, which PostgreSQL rejects and which would not sort as text in SQLite.
export const EARLIEST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z')
export const LATEST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z')

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** The number the ASCII digits of text[from, from + count) spell, or -1 when one is not a digit. */
function digitsAt(text: string, from: number, count: number): number {
  let value = 0
  for (let i = from; i < from + count; i++) {
    const digit = text.charCodeAt(i) - 48
    if (digit < 0 || digit > 9) return -1
    value = value * 10 + digit
  }
  return value
}

/**
 * Whether `text` is an instant exactly as stored: `YYYY-MM-DDTHH:MM:SS.mmmZ`, a date that exists (no
 * 30 February, no hour 24), years 0001–9999 — what `new Date(text).toISOString() === text` in range
 * says, read off the characters without a Date or a string per call (cursors are decoded on hot reads).
 */
export function isStoredInstant(text: string): boolean {
  if (text.length !== 24) return false
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':') return false
  if (text[16] !== ':' || text[19] !== '.' || text[23] !== 'Z') return false
  const year = digitsAt(text, 0, 4)
  const month = digitsAt(text, 5, 2)
  const day = digitsAt(text, 8, 2)
  if (year < 1 || month < 1 || month > 12 || day < 1) return false
  const leapDay = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 1 : 0
  if (day > (DAYS_IN_MONTH[month - 1] as number) + leapDay) return false
  const hour = digitsAt(text, 11, 2)
  const minute = digitsAt(text, 14, 2)
  const second = digitsAt(text, 17, 2)
  return (
    hour >= 0 &&
    hour < 24 &&
    minute >= 0 &&
    minute < 60 &&
    second >= 0 &&
    second < 60 &&
    digitsAt(text, 20, 3) >= 0
  )
}

/** What a query instant that toStoredInstant refuses is told. */
export const INSTANT_EXPECTED =
  'must be an ISO 8601 datetime between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z'

/** Any ISO 8601 datetime as stored, or undefined when it is not one or lies outside the range. */
export function toStoredInstant(value: string): string | undefined {
  const time = Date.parse(value)
  return time >= EARLIEST_INSTANT && time <= LATEST_INSTANT ? new Date(time).toISOString() : undefined
}

/** A bound of a time range compared with stored instants: beyond the range, its nearest end. */
export function storedBound(time: number): string {
  return new Date(Math.min(Math.max(time, EARLIEST_INSTANT), LATEST_INSTANT)).toISOString()
}
