// Between the database's day and the optimiser: DayInputs → RoutingModel (times in Unix seconds,
// one location per route origin and per located job), and the optimiser's Plan → the API's result.
import type { ModelOptions, Plan, RoutingModel } from '../../optimiser/model.js'
import type { DayInputs } from './day-inputs.js'
import type { RoutePlanResult } from './schemas.js'

/** An open window bound, far outside any shift. */
const OPEN_START = 0
const OPEN_END = 2 ** 40

const seconds = (ms: number) => Math.floor(ms / 1000)
const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString()
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits

export function toRoutingModel(day: DayInputs, options: Partial<ModelOptions> = {}): RoutingModel {
  const locations: RoutingModel['locations'] = []
  const routeIndex = new Map<string, number>()
  const routes = day.routes.map((route, index) => {
    routeIndex.set(route.shiftId, index)
    locations.push({ lat: route.origin.latitude, lng: route.origin.longitude })
    return {
      id: route.shiftId,
      workerId: route.userId,
      vehicleId: route.vehicleId,
      start: locations.length - 1,
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
    }
  })
  return {
    dimensions: day.dimensions.length,
    dimensionNames: day.dimensions.map((d) => d.key),
    locations,
    routes,
    jobs,
    options: { windowRule: 'VISIT_WITHIN', ...options },
  }
}

export function toPlanResult(day: DayInputs, plan: Plan): RoutePlanResult {
  const loadOf = (values: number[]) =>
    day.dimensions.map((d, i) => ({ capacityDimensionId: d.id, key: d.key, value: values[i] ?? 0 }))
  const routes = plan.routes.map((planned) => {
    const route = day.routes[planned.route]
    if (!route) throw new Error(`the plan names route ${planned.route}, which the day does not have`)
    const stopsDistance = planned.stops.reduce((sum, s) => sum + s.travelDistance, 0)
    const stopsTime = planned.stops.reduce((sum, s) => sum + s.travelTime, 0)
    return {
      shiftId: route.shiftId,
      user: { id: route.userId, name: route.userName },
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
  const assignedJobs = routes.reduce((sum, r) => sum + r.stops.length, 0)
  return {
    routes,
    unassigned: plan.unassigned.map((u) => ({
      jobId: u.jobId,
      title: day.jobs[u.job]?.title ?? '',
      reason: u.reason,
    })),
    totals: {
      assignedJobs,
      unassignedJobs: plan.unassigned.length,
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
  }
}
