// Independent feasibility checker: recomputes every route of a plan from the model alone — travel
// from the matrix, windows by the model's rule, breaks, shift windows, capacities, skills, pins —
// and the cost from the plan's own times, never trusting the engine's totals. Deliberately written
// as plain loops over plain objects, sharing no code with the engine beyond the types.
import type { Plan, PlannedRoute, RouteSpec, RoutingModel, WindowRule } from './model.js'
import { greatCircleMatrix } from './travel.js'

const EPS = 1e-6
/**
 * Times are compared within a millisecond, absolutely: they are absolute seconds (Unix seconds in the
 * product, ~1.8e9), where a tolerance relative to their size would let a stop be half an hour late.
 * A millisecond is far above double rounding at that size (an ulp is ~2.4e-7 s) and far below anything
 * a plan could gain by it.
 */
const TIME_EPS = 1e-3

export interface Violation {
  code: string
  message: string
  /** The model job index of the stop it concerns, when it concerns one. */
  job?: number
  /** The route's break index (BREAK_OVERLAP). */
  break?: number
  /** The capacity dimension (CAPACITY). */
  dimension?: number
}

interface Context {
  model: RoutingModel
  n: number
  distance: Float64Array
  duration: Float64Array
  rule: WindowRule
  penaltyPerSecond: number
}

function context(model: RoutingModel): Context {
  const options = model.options ?? {}
  const travel =
    model.travel ??
    greatCircleMatrix(model.locations, { detourFactor: options.detourFactor, speedKmh: options.speedKmh })
  return {
    model,
    n: travel.size,
    distance: travel.distance,
    duration: travel.duration,
    rule: options.windowRule ?? 'VISIT_WITHIN',
    penaltyPerSecond: (options.latenessPenaltyPerMinute ?? 1) / 60,
  }
}

/** Breaks that count: wholly inside the route's window, in time order. */
function routeBreaks(route: RouteSpec): { index: number; start: number; end: number; paid: boolean }[] {
  return route.breaks
    .map((b, index) => ({ index, ...b }))
    .filter((b) => b.start >= route.window[0] && b.end <= route.window[1] && b.end >= b.start)
    .sort((a, b) => a.start - b.start)
}

/** Distances and costs: equal within a relative 1e-6 (they are sums, not positions on a clock). */
function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= EPS * Math.max(1, Math.abs(a), Math.abs(b))
}

function sameTime(a: number, b: number): boolean {
  return Math.abs(a - b) <= TIME_EPS
}

/** Latest allowed service start of a HARD job under the rule, or +Infinity for SOFT / no window. */
function latestStart(ctx: Context, job: number): number {
  const spec = ctx.model.jobs[job]!
  if (!spec.window || spec.windowType === 'SOFT') return Number.POSITIVE_INFINITY
  return ctx.rule === 'START_BY_DUE' ? spec.window[1] : spec.window[1] - spec.serviceSeconds
}

function lateness(ctx: Context, job: number, serviceStart: number): number {
  const spec = ctx.model.jobs[job]!
  if (!spec.window || spec.windowType === 'HARD') return 0
  const late =
    ctx.rule === 'START_BY_DUE'
      ? serviceStart - spec.window[1]
      : serviceStart + spec.serviceSeconds - spec.window[1]
  return Math.max(0, late)
}

function checkRoute(ctx: Context, planned: PlannedRoute, out: Violation[]): number {
  const { model } = ctx
  const route = model.routes[planned.route]
  const where = `route ${planned.route}`
  if (!route) {
    out.push({ code: 'UNKNOWN_ROUTE', message: `${where} is not in the model` })
    return 0
  }
  if (planned.stops.length === 0)
    out.push({ code: 'EMPTY_ROUTE', message: `${where} is listed with no stop` })
  const speed = route.speedFactor
  const breaks = routeBreaks(route)
  const byIndex = new Map(planned.breaks.map((b) => [b.break, b]))
  if (planned.breaks.length !== breaks.length || breaks.some((b) => !byIndex.has(b.index))) {
    out.push({ code: 'BREAK_MISSING', message: `${where} does not take exactly its ${breaks.length} breaks` })
  }
  for (const b of breaks) {
    const taken = byIndex.get(b.index)
    if (taken && (!sameTime(taken.start, b.start) || !sameTime(taken.end, b.end)))
      out.push({ code: 'BREAK_MOVED', message: `${where} break ${b.index} is not at its fixed time` })
  }
  const breaksAfter = (stops: number) =>
    planned.breaks.filter((b) => b.afterStops === stops).sort((a, b) => a.start - b.start)

  if (planned.departure < route.window[0] - TIME_EPS)
    out.push({ code: 'SHIFT_START', message: `${where} leaves before its window opens` })
  let location = route.start
  let time = planned.departure
  let distance = 0
  let lateSeconds = 0
  const load = new Array<number>(model.dimensions).fill(0)
  const takeBreaks = (stops: number) => {
    for (const b of breaksAfter(stops)) {
      if (b.start < time - TIME_EPS)
        out.push({
          code: 'BREAK_OVERLAP',
          message: `${where} break ${b.break} overlaps work before it`,
          break: b.break,
        })
      time = Math.max(time, b.end)
    }
  }
  planned.stops.forEach((stop, index) => {
    const job = model.jobs[stop.job]
    const at = `${where} stop ${index} (job ${stop.job})`
    const flag = (code: string, message: string) => out.push({ code, message, job: stop.job })
    if (!job || job.location === null) {
      flag('UNROUTABLE_JOB', `${at} has no job or no location`)
      return
    }
    takeBreaks(index)
    const leg = location * ctx.n + job.location
    const travelTime = ctx.duration[leg]! / speed
    distance += ctx.distance[leg]!
    if (stop.arrival < time + travelTime - TIME_EPS) flag('TRAVEL_TOO_FAST', `${at} arrives before it could`)
    const earliest = job.window ? job.window[0] : Number.NEGATIVE_INFINITY
    if (stop.serviceStart < Math.max(stop.arrival, earliest) - TIME_EPS)
      flag('EARLY_START', `${at} starts before arrival or its window`)
    if (stop.serviceStart > latestStart(ctx, stop.job) + TIME_EPS)
      flag('TIME_WINDOW', `${at} misses its HARD window`)
    if (!sameTime(stop.serviceEnd, stop.serviceStart + job.serviceSeconds))
      flag('SERVICE_LENGTH', `${at} does not last its service time`)
    lateSeconds += lateness(ctx, stop.job, stop.serviceStart)
    for (const skill of job.skills)
      if (!route.skills.includes(skill)) flag('SKILL', `${at} lacks tag ${skill}`)
    if (job.pinnedRoute !== undefined && job.pinnedRoute !== planned.route)
      flag('PINNED', `${at} is pinned to route ${job.pinnedRoute}`)
    if (job.allowedRoutes && !job.allowedRoutes.includes(planned.route))
      flag('ROUTE_NOT_ALLOWED', `${at} may only go on routes ${job.allowedRoutes.join(', ')}`)
    for (let d = 0; d < model.dimensions; d++) load[d]! += job.demand[d] ?? 0
    time = stop.serviceEnd
    location = job.location
  })
  takeBreaks(planned.stops.length)
  if (route.end === 'RETURN_TO_ORIGIN') {
    const leg = location * ctx.n + (route.endLocation ?? route.start)
    distance += ctx.distance[leg]!
    time += ctx.duration[leg]! / speed
  }
  if (planned.arrival < time - TIME_EPS)
    out.push({ code: 'TRAVEL_TOO_FAST', message: `${where} reaches its end before it could` })
  if (planned.arrival > route.window[1] + TIME_EPS)
    out.push({ code: 'SHIFT_END', message: `${where} ends after its window closes` })
  for (let d = 0; d < model.dimensions; d++) {
    if (load[d]! > (route.capacity[d] ?? 0) + EPS)
      out.push({
        code: 'CAPACITY',
        message: `${where} carries ${load[d]} > ${route.capacity[d] ?? 0} (dim ${d})`,
        dimension: d,
      })
  }
  if (!near(distance, planned.distance))
    out.push({ code: 'DISTANCE', message: `${where} distance ${planned.distance} ≠ recomputed ${distance}` })
  const unpaid = breaks.filter((b) => !b.paid).reduce((sum, b) => sum + b.end - b.start, 0)
  const hours = (planned.arrival - planned.departure - unpaid) / 3600
  const cost =
    route.fixedCost +
    (route.costPerKm * distance) / 1000 +
    route.costPerHour * hours +
    lateSeconds * ctx.penaltyPerSecond
  if (!near(cost, planned.cost.total))
    out.push({ code: 'COST', message: `${where} cost ${planned.cost.total} ≠ recomputed ${cost}` })
  return cost
}

/** Every violation of the model's constraints by the plan; an empty list means feasible. */
export function checkPlan(model: RoutingModel, plan: Plan): Violation[] {
  const ctx = context(model)
  const out: Violation[] = []
  const seen = new Array<number>(model.jobs.length).fill(0)
  const usedRoutes = new Set<number>()
  let total = 0
  for (const planned of plan.routes) {
    if (usedRoutes.has(planned.route))
      out.push({ code: 'ROUTE_TWICE', message: `route ${planned.route} appears twice` })
    usedRoutes.add(planned.route)
    for (const stop of planned.stops) if (stop.job >= 0 && stop.job < seen.length) seen[stop.job]!++
    total += checkRoute(ctx, planned, out)
  }
  for (const u of plan.unassigned) {
    if (u.job >= 0 && u.job < seen.length) seen[u.job]!++
    const job = model.jobs[u.job]
    if (job && (job.location === null) !== (u.reason === 'NO_LOCATION'))
      out.push({ code: 'REASON', message: `job ${u.job} is unassigned for ${u.reason}` })
  }
  seen.forEach((count, job) => {
    if (count !== 1)
      out.push({
        code: count === 0 ? 'JOB_MISSING' : 'JOB_TWICE',
        message: `job ${job} appears ${count} times`,
      })
  })
  if (!near(total, plan.cost.total))
    out.push({ code: 'COST', message: `plan cost ${plan.cost.total} ≠ recomputed ${total}` })
  return out
}

/** Sum of the planned routes' recomputed distances. */
export function planDistance(model: RoutingModel, plan: Plan): number {
  const ctx = context(model)
  let total = 0
  for (const planned of plan.routes) {
    const route = model.routes[planned.route]!
    let location = route.start
    for (const stop of planned.stops) {
      const to = model.jobs[stop.job]!.location!
      total += ctx.distance[location * ctx.n + to]!
      location = to
    }
    if (route.end === 'RETURN_TO_ORIGIN')
      total += ctx.distance[location * ctx.n + (route.endLocation ?? route.start)]!
  }
  return total
}

type Element = { job: number } | { break: number; start: number; end: number }

/** Whether the earliest schedule of this sequence on the route respects every HARD constraint. */
function sequenceFits(ctx: Context, routeIndex: number, elements: Element[]): boolean {
  const route = ctx.model.routes[routeIndex]!
  let time = route.window[0]
  let location = route.start
  const load = new Array<number>(ctx.model.dimensions).fill(0)
  for (const element of elements) {
    if ('break' in element) {
      if (time > element.start + TIME_EPS) return false
      time = element.end
      continue
    }
    const job = ctx.model.jobs[element.job]!
    if (job.location === null) return false
    if (job.pinnedRoute !== undefined && job.pinnedRoute !== routeIndex) return false
    if (job.allowedRoutes && !job.allowedRoutes.includes(routeIndex)) return false
    if (job.skills.some((skill) => !route.skills.includes(skill))) return false
    const arrival = time + ctx.duration[location * ctx.n + job.location]! / route.speedFactor
    const start = Math.max(arrival, job.window ? job.window[0] : arrival)
    if (start > latestStart(ctx, element.job) + TIME_EPS) return false
    time = start + job.serviceSeconds
    location = job.location
    for (let d = 0; d < ctx.model.dimensions; d++) load[d]! += job.demand[d] ?? 0
  }
  if (route.end === 'RETURN_TO_ORIGIN')
    time += ctx.duration[location * ctx.n + (route.endLocation ?? route.start)]! / route.speedFactor
  if (time > route.window[1] + TIME_EPS) return false
  return load.every((value, d) => value <= (route.capacity[d] ?? 0) + EPS)
}

/**
 * The order of a plan's routes, which is all findFeasibleInsertion reads: a Plan is one, and so is a
 * day's routes as they stand (bookings: the visits already on a shift, in time order).
 */
export interface RouteOrder {
  routes: readonly {
    route: number
    stops: readonly { job: number }[]
    breaks: readonly { break: number; start: number; end: number; afterStops: number }[]
  }[]
}

/**
 * Where an unassigned job could still go: every route (used or not) and every position among its
 * stops and breaks, tried by the checker's own schedule. Returns the first fit found, else null.
 */
export function findFeasibleInsertion(
  model: RoutingModel,
  plan: RouteOrder,
  job: number,
): { route: number; position: number } | null {
  const ctx = context(model)
  for (let r = 0; r < model.routes.length; r++) {
    const planned = plan.routes.find((p) => p.route === r)
    const elements: Element[] = []
    const breaks = routeBreaks(model.routes[r]!)
    if (planned) {
      planned.stops.forEach((stop, index) => {
        for (const b of planned.breaks.filter((x) => x.afterStops === index)) elements.push(b)
        elements.push({ job: stop.job })
      })
      for (const b of planned.breaks.filter((x) => x.afterStops === planned.stops.length)) elements.push(b)
    } else {
      for (const b of breaks) elements.push({ break: b.index, start: b.start, end: b.end })
    }
    for (let position = 0; position <= elements.length; position++) {
      const candidate = [...elements.slice(0, position), { job }, ...elements.slice(position)]
      if (sequenceFits(ctx, r, candidate)) return { route: r, position }
    }
  }
  return null
}
