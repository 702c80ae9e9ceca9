// Forecasting a route already under way: given its fixed order of remaining stops and where and when
// the worker is free to leave, when each stop will be reached and served. Same travel model as the
// solver (great-circle × detour at the base speed ÷ the vehicle's speed factor), same window rule
// (VISIT_WITHIN: the visit must end by the window's end), same fixed breaks taken where the worker
// is, never during travel. Unlike the solver it never refuses: a stop that cannot be met is still
// forecast, and flagged. Pure: numbers in, numbers out (absolute seconds, metres).
import type { Coordinates, WindowType } from './model.js'
import { greatCircleMatrix } from './travel.js'

/** A stop whose expected start is this close to its latest start (or later, SOFT) is AT_RISK. */
export const AT_RISK_MARGIN_SECONDS = 15 * 60

export type StopRisk = 'ON_TIME' | 'AT_RISK' | 'LATE'

export interface ForecastStop {
  jobId: string
  /** null: neither the job nor its customer has coordinates (no travel is counted to it). */
  location: Coordinates | null
  serviceSeconds: number
  /** [earliest, latest] absolute seconds; null bounds are open. */
  window: [number | null, number | null]
  windowType: WindowType
}

export interface ForecastInput {
  /** Absolute seconds: the forecast's "now". */
  now: number
  /** Where the worker leaves from, and from when (now, the current job's expected end, the shift start). */
  from: Coordinates
  freeAt: number
  stops: ForecastStop[]
  /** Fixed breaks of the shift, absolute seconds. Those over before freeAt are gone. */
  breaks: { start: number; end: number }[]
  /** The shift's end (overtime is counted past it) and where its route ends. */
  shiftEnd: number
  returnTo: Coordinates | null
  travel: { detourFactor: number; speedKmh: number; speedFactor: number }
}

export interface StopForecast {
  jobId: string
  /** Absolute seconds. */
  eta: number
  expectedStart: number
  expectedEnd: number
  risk: StopRisk
}

export interface RouteForecast {
  stops: StopForecast[]
  /** When the route ends (back at its origin, or the last service end); seconds past the shift's end. */
  end: number
  overtimeSeconds: number
}

/** The service start by which the visit still ends inside its window (VISIT_WITHIN), or +∞. */
export function latestStart(stop: ForecastStop): number {
  const latest = stop.window[1]
  return latest === null ? Number.POSITIVE_INFINITY : latest - stop.serviceSeconds
}

/**
 * ON_TIME; AT_RISK when the expected start is within 15 min of the latest start that still fits the
 * window, or a SOFT window is already missed; LATE when a HARD window can no longer be met.
 */
export function stopRisk(stop: ForecastStop, expectedStart: number): StopRisk {
  const deadline = latestStart(stop)
  if (expectedStart > deadline) return stop.windowType === 'HARD' ? 'LATE' : 'AT_RISK'
  if (expectedStart > deadline - AT_RISK_MARGIN_SECONDS) return 'AT_RISK'
  return 'ON_TIME'
}

/** Breaks still to take, in time order: over before `freeAt` means taken or gone. */
function pendingBreaks(input: ForecastInput): { start: number; end: number }[] {
  return input.breaks
    .filter((b) => b.end > b.start && b.end > input.freeAt)
    .map((b) => ({ start: Math.max(b.start, input.freeAt), end: b.end }))
    .sort((a, b) => a.start - b.start)
}

export function forecastRoute(input: ForecastInput): RouteForecast {
  const points: Coordinates[] = [input.from]
  for (const stop of input.stops) if (stop.location) points.push(stop.location)
  if (input.returnTo) points.push(input.returnTo)
  const matrix = greatCircleMatrix(points, input.travel)
  const speed = input.travel.speedFactor > 0 ? input.travel.speedFactor : 1
  const travelSeconds = (from: number, to: number) => matrix.duration[from * matrix.size + to]! / speed

  const breaks = pendingBreaks(input)
  /** Takes the next break: from its start, or at once when the worker reaches it late. */
  const takeBreak = (time: number) => {
    const next = breaks.shift()!
    return Math.max(time, next.start) + (next.end - next.start)
  }
  let time = input.freeAt
  let at = 0
  let point = 0
  const stops: StopForecast[] = []
  for (const stop of input.stops) {
    const to = stop.location ? ++point : at
    let eta = time + travelSeconds(at, to)
    // A break that would begin during the drive is taken before leaving (travel never overlaps one).
    while (breaks.length > 0 && breaks[0]!.start < eta) {
      time = takeBreak(time)
      eta = time + travelSeconds(at, to)
    }
    let expectedStart = Math.max(eta, stop.window[0] ?? eta)
    // One that would begin while waiting or on site is taken on arrival, before the work starts.
    while (breaks.length > 0 && breaks[0]!.start < expectedStart + stop.serviceSeconds) {
      expectedStart = Math.max(expectedStart, takeBreak(eta))
    }
    const expectedEnd = expectedStart + stop.serviceSeconds
    stops.push({ jobId: stop.jobId, eta, expectedStart, expectedEnd, risk: stopRisk(stop, expectedStart) })
    time = expectedEnd
    at = to
  }
  let end = time
  if (input.returnTo) {
    const back = travelSeconds(at, points.length - 1)
    // A break that falls on the way back is taken before it, as between stops.
    while (breaks.length > 0 && breaks[0]!.start < time + back && breaks[0]!.start < input.shiftEnd) {
      time = takeBreak(time)
    }
    end = time + back
  }
  return { stops, end, overtimeSeconds: Math.max(0, end - input.shiftEnd) }
}
