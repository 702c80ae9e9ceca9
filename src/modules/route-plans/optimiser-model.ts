// Between the database's day and the optimiser: DayInputs → RoutingModel (times in Unix seconds,
// one location per route origin and per located job), and the optimiser's Plan → the API's result.
import type { ModelOptions, Plan, RoutingModel } from '../../optimiser/model.js'
import type { DayInputs, RouteInput } from './day-inputs.js'
import type { RoutePlanChange, RoutePlanResult } from './schemas.js'

type ResultRoute = RoutePlanResult['routes'][number]
type ResultStop = ResultRoute['stops'][number]

/** An open window bound, far outside any shift. */
const OPEN_START = 0
const OPEN_END = 2 ** 40

const seconds = (ms: number) => Math.floor(ms / 1000)
const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString()
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits

/** An hour of the day's average worker: its cost per hour, or per km at the organisation's speed; ≥ 1. */
function averageHour(day: DayInputs): number {
  const n = Math.max(1, day.routes.length)
  const perHour = day.routes.reduce((sum, r) => sum + r.costPerHour, 0) / n
  const perKmHour = (day.routes.reduce((sum, r) => sum + r.costPerKm, 0) / n) * day.routing.speedKmh
  return Math.max(1, perHour, perKmHour)
}

/**
 * What stability 1 costs, in hours of the day's average worker: a job moved to another worker two
 * hours, a changed next stop half an hour. Stability 0.5 (the default) halves both.
 */
export function stabilityPrices(day: DayInputs): { moveCost: number; nextStopChangeCost: number } {
  const hour = averageHour(day)
  return { moveCost: day.stability * 2 * hour, nextStopChangeCost: day.stability * 0.5 * hour }
}

/**
 * The prices of balance, in hours of the day's average worker. WORKLOAD: eight hours per hour² of
 * paid time beyond a route's fair share + 15 % (the optimiser's `workloadCostPerHourSquared`):
 * half an hour over costs two hours' worth, an hour over eight — more than a detour across a town.
 * USE_ALL: an empty route costs the largest fixed cost plus eight hours, more than using one more
 * route can cost on a day's scale.
 */
export function balancePrices(day: DayInputs): {
  workloadCostPerHourSquared: number
  unusedRouteCost: number
} {
  const hour = averageHour(day)
  const fixed = day.routes.reduce((most, r) => Math.max(most, r.fixedCost), 0)
  return {
    workloadCostPerHourSquared: day.balance === 'WORKLOAD' ? 8 * hour : 0,
    unusedRouteCost: day.balance === 'USE_ALL' ? fixed + 8 * hour : 0,
  }
}

export function toRoutingModel(day: DayInputs, options: Partial<ModelOptions> = {}): RoutingModel {
  const locations: RoutingModel['locations'] = []
  const routeIndex = new Map<string, number>()
  const jobIndex = new Map(day.jobs.map((job, index) => [job.id, index]))
  const routes = day.routes.map((route, index) => {
    routeIndex.set(route.shiftId, index)
    locations.push({ lat: route.startPosition.latitude, lng: route.startPosition.longitude })
    const start = locations.length - 1
    const moved =
      route.startPosition.latitude !== route.origin.latitude ||
      route.startPosition.longitude !== route.origin.longitude
    if (moved) locations.push({ lat: route.origin.latitude, lng: route.origin.longitude })
    const previousFirstJob =
      route.previousFirstJobId === null ? undefined : jobIndex.get(route.previousFirstJobId)
    return {
      id: route.shiftId,
      workerId: route.userId,
      vehicleId: route.vehicleId,
      start,
      ...(moved ? { endLocation: locations.length - 1 } : {}),
      ...(previousFirstJob === undefined ? {} : { previousFirstJob }),
      end: route.endPolicy,
      window: [seconds(route.start), seconds(route.end)] as [number, number],
      breaks: route.breaks.map((b) => ({ start: seconds(b.start), end: seconds(b.end), paid: b.isPaid })),
      capacity: day.dimensions.map((d) => route.capacities.get(d.id) ?? 0),
      skills: [...route.tagIds],
      fixedCost: route.fixedCost,
      costPerKm: route.costPerKm,
      costPerHour: route.costPerHour,
      speedFactor: route.speedFactor > 0 ? route.speedFactor : 1,
    }
  })
  const jobs = day.jobs.map((job) => {
    let location: number | null = null
    if (job.position) {
      locations.push({ lat: job.position.latitude, lng: job.position.longitude })
      location = locations.length - 1
    }
    const open = job.earliest === null && job.latest === null
    const pinnedRoute = job.pinnedShiftId === null ? undefined : routeIndex.get(job.pinnedShiftId)
    const previousRoute =
      job.status === 'ASSIGNED' && job.shiftId !== null ? routeIndex.get(job.shiftId) : undefined
    const allowedRoutes = job.allowedShiftIds?.flatMap((shiftId) => routeIndex.get(shiftId) ?? [])
    return {
      id: job.id,
      location,
      serviceSeconds: job.serviceSeconds,
      window: open
        ? null
        : ([
            job.earliest === null ? OPEN_START : Math.ceil(job.earliest / 1000),
            job.latest === null ? OPEN_END : seconds(job.latest),
          ] as [number, number]),
      windowType: job.windowType,
      priority: job.priority,
      demand: day.dimensions.map((d) => job.demands.get(d.id) ?? 0),
      skills: job.tagIds,
      ...(pinnedRoute === undefined ? {} : { pinnedRoute }),
      ...(previousRoute === undefined ? {} : { previousRoute }),
      ...(allowedRoutes === undefined ? {} : { allowedRoutes }),
    }
  })
  return {
    dimensions: day.dimensions.length,
    dimensionNames: day.dimensions.map((d) => d.key),
    locations,
    routes,
    jobs,
    options: { windowRule: 'VISIT_WITHIN', ...stabilityPrices(day), ...balancePrices(day), ...options },
  }
}

export function toPlanResult(day: DayInputs, plan: Plan): RoutePlanResult {
  const loadOf = (values: number[]) =>
    day.dimensions.map((d, i) => ({ capacityDimensionId: d.id, key: d.key, value: values[i] ?? 0 }))
  const planRoutes = plan.routes.map((planned) => {
    const route = day.routes[planned.route]
    if (!route) throw new Error(`the plan names route ${planned.route}, which the day does not have`)
    const stopsDistance = planned.stops.reduce((sum, s) => sum + s.travelDistance, 0)
    const stopsTime = planned.stops.reduce((sum, s) => sum + s.travelTime, 0)
    return {
      shiftId: route.shiftId,
      user: { id: route.userId, name: route.userName, colour: route.userColour },
      vehicle: { id: route.vehicleId, name: route.vehicleName },
      locationId: route.locationId,
      start: iso(planned.departure),
      end: iso(planned.arrival),
      breaks: planned.breaks.map((b) => ({
        start: iso(b.start),
        end: iso(b.end),
        isPaid: route.breaks[b.break]?.isPaid ?? false,
      })),
      stops: planned.stops.map((stop) => {
        const job = day.jobs[stop.job]
        return {
          jobId: stop.jobId,
          title: job?.title ?? '',
          arrival: iso(stop.arrival),
          serviceStart: iso(stop.serviceStart),
          serviceEnd: iso(stop.serviceEnd),
          travelKm: round(stop.travelDistance / 1000, 3),
          travelMinutes: round(stop.travelTime / 60, 1),
          lateMinutes: round(stop.lateness / 60, 1),
          load: loadOf(stop.load),
        }
      }),
      returnTravelKm: round(Math.max(0, planned.distance - stopsDistance) / 1000, 3),
      returnTravelMinutes: round(Math.max(0, planned.travelTime - stopsTime) / 60, 1),
      totals: {
        jobs: planned.stops.length,
        km: round(planned.distance / 1000, 3),
        hours: round(planned.duration / 3600, 3),
        cost: round(planned.cost.total, 2),
      },
    }
  })
  const routes = withJobsInProgress(day, planRoutes, loadOf([]))
  // A job in progress is shown on its route but was assigned before: the plan assigns the others.
  const assignedJobs = routes.reduce((sum, r) => sum + r.stops.filter((s) => !s.inProgress).length, 0)
  const unassigned = [
    ...plan.unassigned.map((u) => ({
      jobId: u.jobId,
      title: day.jobs[u.job]?.title ?? '',
      reason: u.reason,
    })),
    ...day.closedJobs.map((job) => ({ jobId: job.id, title: job.title, reason: 'WINDOW_PASSED' as const })),
  ]
  return {
    routes,
    unassigned,
    totals: {
      assignedJobs,
      unassignedJobs: unassigned.length,
      routesUsed: routes.length,
      km: round(
        routes.reduce((sum, r) => sum + r.totals.km, 0),
        3,
      ),
      hours: round(
        routes.reduce((sum, r) => sum + r.totals.hours, 0),
        3,
      ),
    },
    cost: {
      fixed: round(plan.cost.fixed, 2),
      distance: round(plan.cost.distance, 2),
      time: round(plan.cost.time, 2),
      lateness: round(plan.cost.lateness, 2),
      total: round(plan.cost.total, 2),
    },
    changes: changesOf(day, routes),
  }
}

/**
 * Planned from now, a job in progress is its route's first stop, from its start to its expected end;
 * a route with nothing else to do is listed with it alone.
 */
function withJobsInProgress(
  day: DayInputs,
  routes: ResultRoute[],
  noLoad: ResultStop['load'],
): ResultRoute[] {
  const byShift = new Map(routes.map((route) => [route.shiftId, route]))
  const out: ResultRoute[] = []
  for (const input of day.routes) {
    const route = byShift.get(input.shiftId) ?? (input.inProgress ? emptyRoute(input) : undefined)
    if (!route) continue
    const current = input.inProgress
    if (current) {
      route.stops.unshift({
        jobId: current.id,
        title: current.title,
        arrival: new Date(current.startedAt).toISOString(),
        serviceStart: new Date(current.startedAt).toISOString(),
        serviceEnd: new Date(current.expectedEnd).toISOString(),
        travelKm: 0,
        travelMinutes: 0,
        lateMinutes: 0,
        load: noLoad,
        inProgress: true,
      })
      route.start = new Date(Math.min(Date.parse(route.start), current.startedAt)).toISOString()
      route.totals.jobs = route.stops.length
    }
    out.push(route)
  }
  return out
}

function emptyRoute(input: RouteInput): ResultRoute {
  const at = new Date(input.start).toISOString()
  return {
    shiftId: input.shiftId,
    user: { id: input.userId, name: input.userName, colour: input.userColour },
    vehicle: { id: input.vehicleId, name: input.vehicleName },
    locationId: input.locationId,
    start: at,
    end: at,
    breaks: [],
    stops: [],
    returnTravelKm: 0,
    returnTravelMinutes: 0,
    totals: { jobs: 0, km: 0, hours: 0, cost: 0 },
  }
}

/** Same minute: a time moved by seconds is not a change anyone acts on. */
const sameMinute = (a: number | null, b: number | null) =>
  a === null || b === null ? a === b : Math.floor(a / 60_000) === Math.floor(b / 60_000)

/**
 * What applying the plan would change, job by job: assigned, moved to another worker, re-timed, or
 * (REPLAN_ALL, REPLAN_REMAINING) taken off its route. Jobs in progress never change.
 */
export function changesOf(day: DayInputs, routes: ResultRoute[]): RoutePlanChange[] {
  const after = new Map<string, { route: ResultRoute; start: number }>()
  for (const route of routes)
    for (const stop of route.stops)
      if (!stop.inProgress) after.set(stop.jobId, { route, start: Date.parse(stop.serviceStart) })
  const nameOf = new Map([...day.routes, ...day.offRoutes].map((r) => [r.userId, r.userName]))
  const offShifts = new Set(day.offRoutes.map((r) => r.shiftId))
  const changes: RoutePlanChange[] = []
  // (A job whose HARD window has closed is reported, not changed: applying leaves it where it is.)
  for (const job of day.jobs) {
    const before =
      job.status === 'ASSIGNED' && job.assignedUserId !== null
        ? {
            user: { id: job.assignedUserId, name: nameOf.get(job.assignedUserId) ?? '' },
            shiftId: job.shiftId,
            start: job.scheduledStart,
          }
        : null
    const planned = after.get(job.id)
    // KEEP_ASSIGNED leaves an assigned job it could not plan where it is — unless its shift does not
    // happen that date (the worker away): then it goes back to waiting, where the board shows it.
    const stranded = before !== null && before.shiftId !== null && offShifts.has(before.shiftId)
    if (!planned && (before === null || (day.mode === 'KEEP_ASSIGNED' && !stranded))) continue
    const to = planned
      ? { user: planned.route.user, shiftId: planned.route.shiftId, start: planned.start }
      : null
    if (before && to && before.shiftId === to.shiftId && sameMinute(before.start, to.start)) continue
    changes.push({
      jobId: job.id,
      title: job.title,
      from: before && {
        ...before,
        start: before.start === null ? null : new Date(before.start).toISOString(),
      },
      to: to && { ...to, start: new Date(to.start).toISOString() },
      movedWorker: (before?.user.id ?? null) !== (to?.user.id ?? null),
    })
  }
  return changes
}
