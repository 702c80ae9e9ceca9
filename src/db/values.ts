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

export function toNullableUtcIso(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : toUtcIso(value)
}
