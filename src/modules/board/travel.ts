// The travel a board row's day takes, as a plan would count it: the service's travel times (road
// times from ROUTING_OSRM_URL, else the optimiser's straight-line model — travel/travel-times.ts)
// divided by the vehicle's speed factor, as the solver and the live forecast divide it, over the
// row's stops in visiting order: from the route's origin, stop to stop, and back when the vehicle
// returns. A cancelled job is no stop; a job with no position is visited without travel counted.
import type { Coordinates } from '../../optimiser/model.js'
import type { LegTravel } from '../travel/travel-times.js'

export interface TravelStop {
  id: string
  /** Null: neither the job nor its customer has coordinates. */
  position: Coordinates | null
  /** Scheduled end of the visit (ms). */
  end: number
}

export interface TravelLeg {
  /** Null: from the route's origin. */
  fromJobId: string | null
  /** Null: back to the route's origin. */
  toJobId: string | null
  distanceMeters: number
  durationSeconds: number
}

export interface RouteTravel {
  legs: TravelLeg[]
  totals: { distanceMeters: number; driveSeconds: number; overtimeSeconds: number }
}

export function routeTravel(
  route: {
    origin: Coordinates
    returnsToOrigin: boolean
    speedFactor: number
    /** The shift's end (ms): overtime is counted past it. */
    end: number
  },
  stops: readonly TravelStop[],
  /** Travel between the origin and the stops' positions, at speed factor 1. */
  travel: LegTravel,
): RouteTravel {
  const located = stops.filter(
    (stop): stop is TravelStop & { position: Coordinates } => stop.position !== null,
  )
  const points = [route.origin, ...located.map((stop) => stop.position)]
  // As the model given to the solver (route-plans/optimiser-model.ts): a speed factor of 0 counts as 1.
  const speed = route.speedFactor > 0 ? route.speedFactor : 1
  const leg = (from: number, to: number, fromJobId: string | null, toJobId: string | null): TravelLeg => {
    const { distance, duration } = travel(points[from]!, points[to]!)
    return { fromJobId, toJobId, distanceMeters: distance, durationSeconds: Math.round(duration / speed) }
  }
  const legs = located.map((stop, i) => leg(i, i + 1, i === 0 ? null : (located[i - 1]?.id ?? null), stop.id))
  if (route.returnsToOrigin && located.length > 0) {
    legs.push(leg(located.length, 0, located[located.length - 1]?.id ?? null, null))
  }
  const back = route.returnsToOrigin ? (legs.find((l) => l.toJobId === null)?.durationSeconds ?? 0) : 0
  const lastEnd = stops.length === 0 ? null : Math.max(...stops.map((stop) => stop.end))
  const routeEnd = lastEnd === null ? null : lastEnd + back * 1000
  return {
    legs,
    totals: {
      distanceMeters: legs.reduce((sum, l) => sum + l.distanceMeters, 0),
      driveSeconds: legs.reduce((sum, l) => sum + l.durationSeconds, 0),
      overtimeSeconds: routeEnd === null ? 0 : Math.max(0, Math.round((routeEnd - route.end) / 1000)),
    },
  }
}
