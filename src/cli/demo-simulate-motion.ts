// What the simulated day's workers do between two ticks, as pure functions: drive a straight line
// towards the next stop at the optimiser's travel model (so a leg takes as long as the ETAs say it
// will), and fill in a form as a careful technician would.
import type { Coordinates } from '../optimiser/model.js'
import { greatCircleMatrix } from '../optimiser/travel.js'

export interface Routing {
  detourFactor: number
  speedKmh: number
}

export interface Move {
  at: Coordinates
  arrived: boolean
  /** Simulated seconds not spent driving (the rest of the budget once arrived). */
  left: number
}

/** Seconds the travel model gives from one point to another (great circle × detour, at its speed). */
export function travelSeconds(from: Coordinates, to: Coordinates, routing: Routing): number {
  return greatCircleMatrix([from, to], routing).duration[1] ?? 0
}

/**
 * Where a worker driving from `from` to `to` is after `seconds` of driving: on the straight line
 * between them, the fraction of the leg the travel model's duration says is done.
 */
export function moveTowards(from: Coordinates, to: Coordinates, seconds: number, routing: Routing): Move {
  const leg = travelSeconds(from, to, routing)
  if (seconds >= leg) return { at: to, arrived: true, left: seconds - leg }
  const done = seconds / leg
  return {
    at: { lat: from.lat + (to.lat - from.lat) * done, lng: from.lng + (to.lng - from.lng) * done },
    arrived: false,
    left: 0,
  }
}

/** Six decimals (≈ 0.1 m) are all a phone's fix carries. */
export const roundedDegrees = (degrees: number) => Math.round(degrees * 1e6) / 1e6

export interface FormFieldLike {
  key: string
  type: string
  required: boolean
  min: number | null
  max: number | null
  options: string[]
}

/** Answers that pass the template's checks: every field answered, numbers in range, the first choice. */
export function answersFor(fields: readonly FormFieldLike[]): Record<string, string | number | boolean> {
  const answers: Record<string, string | number | boolean> = {}
  for (const field of fields) {
    if (field.type === 'NUMBER') {
      const low = field.min ?? 0
      answers[field.key] = field.max === null ? low + 20 : Math.min(field.max, low + 20)
    } else if (field.type === 'YES_NO') answers[field.key] = true
    else if (field.type === 'CHOICE' && field.options[0] !== undefined) answers[field.key] = field.options[0]
    else if (field.type === 'TEXT' || field.type === 'LONG_TEXT') answers[field.key] = 'Checked on the visit'
  }
  return answers
}
