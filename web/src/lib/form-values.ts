// Turning form text into API values and back: numbers typed by people (a comma as the decimal mark
// too), minutes shown for durations the API keeps in seconds. A value that is not a number is NaN,
// so a form can say "must be a number" next to the field before sending anything.

/** '' → null; otherwise the number typed (NaN when it is not one). */
export function parseNumber(text: string): number | null {
  const trimmed = text.trim().replace(',', '.')
  if (trimmed === '') return null
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(trimmed) ? Number(trimmed) : Number.NaN
}

/** The field errors of the numbers that are not numbers ('' is fine: optional fields). */
export function numberProblems(values: Record<string, number | null>): Record<string, string> {
  const problems: Record<string, string> = {}
  for (const [field, value] of Object.entries(values)) {
    if (value !== null && Number.isNaN(value)) problems[field] = 'must be a number'
  }
  return problems
}

export const text = (value: number | string | null | undefined): string =>
  value === null || value === undefined ? '' : String(value)

/** Seconds → whole minutes for an input ("15"). */
export const minutesText = (seconds: number | null | undefined): string =>
  seconds === null || seconds === undefined ? '' : String(Math.round(seconds / 60))

/** "1 h 30 min", "45 min", "0 min". */
export function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60)
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  if (hours === 0) return `${rest} min`
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`
}
