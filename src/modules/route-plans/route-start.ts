// Where a worker's route starts when the rest of a day is planned: the one place that decides it,
// so the positions the phones send plug in here.
export interface Coordinates {
  latitude: number
  longitude: number
}

/** A position the worker's phone reported, with when it was recorded (ms). */
export interface ReportedPosition extends Coordinates {
  recordedAt: number
}

export type RouteStartSource = 'CURRENT_JOB' | 'POSITION' | 'LAST_JOB' | 'VEHICLE_START'

// A position counts as where the worker is for this long after it was recorded: the live day's rule.
import { FRESH_POSITION_MS } from '../live/forecast-day.js'

export { FRESH_POSITION_MS }

export interface RouteStartFacts {
  /** The instant the day is planned from (ms). */
  at: number
  /** Where the vehicle starts its day (its own start, else its depot). */
  vehicleStart: Coordinates
  /** The location of the job the worker has in progress, when it has one. */
  currentJob: Coordinates | null
  /** The location of the last job the worker completed today, when any. */
  lastJob: Coordinates | null
  /** The worker's last reported position, when one is known. */
  lastPosition?: ReportedPosition | null
}

/**
 * Where the route starts: a job in progress (the route goes on from there once it ends, wherever
 * the worker is meanwhile); else the last position if fresh (at most 15 min old, not after `at`);
 * else the last job completed; else the vehicle's start.
 */
export function routeStartFor(facts: RouteStartFacts): Coordinates & { source: RouteStartSource } {
  if (facts.currentJob) return { ...pick(facts.currentJob), source: 'CURRENT_JOB' }
  const position = facts.lastPosition
  if (position && position.recordedAt <= facts.at && facts.at - position.recordedAt <= FRESH_POSITION_MS)
    return { ...pick(position), source: 'POSITION' }
  if (facts.lastJob) return { ...pick(facts.lastJob), source: 'LAST_JOB' }
  return { ...pick(facts.vehicleStart), source: 'VEHICLE_START' }
}

const pick = ({ latitude, longitude }: Coordinates): Coordinates => ({ latitude, longitude })
