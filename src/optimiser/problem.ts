// The model compiled into the flat, immutable arrays the search reads: one node per routable job
// ("customer"), plus each route's start, end and break nodes. A node has a matrix location (-1:
// "transparent", a break or an END_AT_LAST_JOB end, which the worker reaches without travel) and a
// window on its service start [E, L] with a service duration S.
import type { RoutingModel, UnassignedReason } from './model.js'
import { BIG } from './segment.js'
import { greatCircleMatrix } from './travel.js'

// Unassigned jobs are counted per tier and compared tier by tier before any cost (search.ts): pinned
// jobs first, then by priority. Under stability, a job already on a route before this plan (promised
// to its customer) outranks every waiting job, by priority among themselves: a re-plan never drops
// promised work to fit new work (re-planning freely, stability 0, may).
export const TIER_PINNED = 0
const TIER_PROMISED_HIGH = 1
export const TIER_HIGH = 4
export const TIER_NORMAL = 5
export const TIER_LOW = 6
export const TIERS = 7

export interface Problem {
  model: RoutingModel
  /** Routable jobs (customers) 0..n-1 are nodes 0..n-1. */
  n: number
  routes: number
  dims: number
  /** Matrix side, distances and durations (at speedFactor 1), row-major. */
  size: number
  dist: Float64Array
  dur: Float64Array
  /** customer → model job index; model job → customer (-1 when not routable). */
  jobOf: Int32Array
  customerOf: Int32Array
  /** Reasons of the jobs that are not routable at all (NO_LOCATION, NO_SHIFT, SKILL). */
  fixedReasons: Map<number, UnassignedReason>
  nodeLoc: Int32Array
  nodeE: Float64Array
  nodeL: Float64Array
  nodeS: Float64Array
  /** customer × dims */
  demand: Float64Array
  tier: Uint8Array
  /** SOFT customers: due (service end under VISIT_WITHIN, start under START_BY_DUE) for lateness. */
  soft: Uint8Array
  softDue: Float64Array
  penaltyPerSecond: number
  startByDue: boolean
  /** customer × routes: skills, pin, allowed routes and static capacity allow it. */
  allowed: Uint8Array
  routeStart: Int32Array
  routeEnd: Int32Array
  /** Break nodes of route r: breakNodes[breakOffset[r] .. breakOffset[r+1]), in time order. */
  breakOffset: Int32Array
  breakNodes: Int32Array
  /** Index into the model route's `breaks` of each break node (by node − first break node). */
  breakSpecIndex: Int32Array
  /** routes × dims */
  capacity: Float64Array
  invSpeed: Float64Array
  /** Cost per distance unit and per second. */
  distCoef: Float64Array
  timeCoef: Float64Array
  fixed: Float64Array
  unpaidBreak: Float64Array
  /**
   * Balance (cost.ts routeBaseCost). WORKLOAD: per paid second² beyond a route's limit, and each
   * route's limit in paid seconds (+∞ until the search sets it from the first plan: search.ts
   * `limitWorkload`). Both: what each route costs left idle (USE_ALL's `unusedRouteCost`, plus
   * WORKLOAD's price of a route's whole share), counted as a used route's saving so that an empty
   * route still costs 0 and a used one `fixed − idleCost`. The limit and WORKLOAD's idle price are
   * the one part of the problem the search writes. `balanced`: whether either price is on
   * (routeBaseCost's fast path when not).
   */
  balanced: boolean
  workloadCoef: number
  workloadTolerance: number
  workloadLimit: Float64Array
  idleCost: Float64Array
  /** Longest possible node sequence of a route (all customers, its breaks, start and end). */
  maxRouteNodes: number
  /** Routes with identical specifications share a class: one empty route per class is enough to try. */
  routeClass: Int32Array
  /** Customers sorted by distance from each customer: neighbours[c * k .. c * k + k). */
  neighbours: Int32Array
  neighbourCount: number
  /**
   * Stability (see cost.ts stabilityCost): whether any of it is priced; each customer's previous
   * route (−1: none); each route's previous first customer (−1: none; n: a job this plan cannot
   * route, so any first stop is a change); and the two prices.
   */
  stable: boolean
  previousRoute: Int32Array
  previousFirst: Int32Array
  moveCost: number
  nextStopChangeCost: number
}

const TIER_OF = { HIGH: TIER_HIGH, NORMAL: TIER_NORMAL, LOW: TIER_LOW } as const

/** Length of each customer's list of nearest customers (ruin walks it; the local search takes 30). */
const MAX_NEIGHBOURS = 100

export function compileProblem(model: RoutingModel): Problem {
  const options = model.options ?? {}
  const travel =
    model.travel ??
    greatCircleMatrix(model.locations, { detourFactor: options.detourFactor, speedKmh: options.speedKmh })
  const size = travel.size
  const startByDue = options.windowRule === 'START_BY_DUE'
  const R = model.routes.length
  const dims = model.dimensions
  const fixedReasons = new Map<number, UnassignedReason>()
  const customerOf = new Int32Array(model.jobs.length).fill(-1)
  const jobs: number[] = []
  model.routes.forEach((route, r) => {
    if (!(route.speedFactor > 0)) throw new RangeError(`route ${r}: speedFactor must be > 0`)
    if (route.start < 0 || route.start >= size) throw new RangeError(`route ${r}: start is not a location`)
    const end = route.endLocation
    if (end !== undefined && (end < 0 || end >= size))
      throw new RangeError(`route ${r}: endLocation is not a location`)
  })
  model.jobs.forEach((job, j) => {
    if (job.location === null) fixedReasons.set(j, 'NO_LOCATION')
    else if (job.location < 0 || job.location >= size) throw new RangeError(`job ${j}: location out of range`)
    else if (R === 0 || job.allowedRoutes?.length === 0) fixedReasons.set(j, 'NO_SHIFT')
    else if (!model.routes.some((route) => job.skills.every((s) => route.skills.includes(s))))
      fixedReasons.set(j, 'SKILL')
    else {
      customerOf[j] = jobs.length
      jobs.push(j)
    }
  })
  const n = jobs.length
  const stability = compileStability(model, customerOf, n)
  const breakCount = model.routes.map(
    (route) => route.breaks.filter((b) => b.start >= route.window[0] && b.end <= route.window[1]).length,
  )
  const totalBreaks = breakCount.reduce((a, b) => a + b, 0)
  const nodes = n + 2 * R + totalBreaks
  const nodeLoc = new Int32Array(nodes)
  const nodeE = new Float64Array(nodes)
  const nodeL = new Float64Array(nodes)
  const nodeS = new Float64Array(nodes)
  const demand = new Float64Array(n * dims)
  const tier = new Uint8Array(n)
  const soft = new Uint8Array(n)
  const softDue = new Float64Array(n)
  const allowed = new Uint8Array(n * R)
  for (let c = 0; c < n; c++) {
    const job = model.jobs[jobs[c]!]!
    nodeLoc[c] = job.location!
    nodeS[c] = job.serviceSeconds
    nodeE[c] = job.window ? job.window[0] : -BIG
    const hardLatest = job.window ? (startByDue ? job.window[1] : job.window[1] - job.serviceSeconds) : BIG
    if (job.window && job.windowType === 'SOFT') {
      soft[c] = 1
      softDue[c] = job.window[1]
      nodeL[c] = BIG
    } else nodeL[c] = hardLatest
    for (let d = 0; d < dims; d++) demand[c * dims + d] = job.demand[d] ?? 0
    const byPriority = TIER_OF[job.priority] - TIER_HIGH
    if (job.pinnedRoute !== undefined) tier[c] = TIER_PINNED
    else if (stability.previousRoute[c]! >= 0) tier[c] = TIER_PROMISED_HIGH + byPriority
    else tier[c] = TIER_OF[job.priority]
    const only = job.allowedRoutes ? new Set(job.allowedRoutes) : null
    for (let r = 0; r < R; r++) {
      const route = model.routes[r]!
      let ok = job.skills.every((s) => route.skills.includes(s))
      if (job.pinnedRoute !== undefined && job.pinnedRoute !== r) ok = false
      if (only !== null && !only.has(r)) ok = false
      for (let d = 0; d < dims && ok; d++) if (demand[c * dims + d]! > (route.capacity[d] ?? 0)) ok = false
      allowed[c * R + r] = ok ? 1 : 0
    }
  }
  const routeStart = new Int32Array(R)
  const routeEnd = new Int32Array(R)
  const breakOffset = new Int32Array(R + 1)
  const breakNodes = new Int32Array(totalBreaks)
  const breakSpecIndex = new Int32Array(totalBreaks)
  const capacity = new Float64Array(R * dims)
  const invSpeed = new Float64Array(R)
  const distCoef = new Float64Array(R)
  const timeCoef = new Float64Array(R)
  const fixed = new Float64Array(R)
  const unpaidBreak = new Float64Array(R)
  let next = n
  let nextBreak = 0
  for (let r = 0; r < R; r++) {
    const route = model.routes[r]!
    const [open, close] = route.window
    routeStart[r] = next
    nodeLoc[next] = route.start
    nodeE[next] = open
    nodeL[next] = close
    nodeS[next] = 0
    next++
    routeEnd[r] = next
    nodeLoc[next] = route.end === 'RETURN_TO_ORIGIN' ? (route.endLocation ?? route.start) : -1
    nodeE[next] = open
    nodeL[next] = close
    nodeS[next] = 0
    next++
    breakOffset[r] = nextBreak
    const breaks = route.breaks
      .map((b, index) => ({ ...b, index }))
      .filter((b) => b.start >= open && b.end <= close)
      .sort((a, b) => a.start - b.start)
    for (const b of breaks) {
      nodeLoc[next] = -1
      nodeE[next] = b.start
      nodeL[next] = b.start
      nodeS[next] = Math.max(0, b.end - b.start)
      if (!b.paid) unpaidBreak[r] = unpaidBreak[r]! + Math.max(0, b.end - b.start)
      breakSpecIndex[nextBreak] = b.index
      breakNodes[nextBreak++] = next++
    }
    for (let d = 0; d < dims; d++) capacity[r * dims + d] = route.capacity[d] ?? 0
    invSpeed[r] = 1 / route.speedFactor
    distCoef[r] = route.costPerKm / 1000
    timeCoef[r] = route.costPerHour / 3600
    fixed[r] = route.fixedCost
  }
  breakOffset[R] = nextBreak
  const classes = new Map<string, number>()
  const routeClass = new Int32Array(R)
  // Which of the jobs limited to some routes (allowedRoutes) each route takes: routes alike but for
  // that (the same shift on two days of a plan over several days) are not interchangeable.
  const takes = model.routes.map(() => [] as number[])
  model.jobs.forEach((job, j) => {
    for (const r of job.allowedRoutes ?? []) takes[r]?.push(j)
  })
  model.routes.forEach((route, r) => {
    const { id: _id, workerId: _worker, vehicleId: _vehicle, ...spec } = route
    // A route some job was on before is unlike any other: moving the job elsewhere has a price.
    const key = stability.held[r] === 1 ? `route ${r}` : `${JSON.stringify(spec)} ${takes[r]!.join(',')}`
    if (!classes.has(key)) classes.set(key, classes.size)
    routeClass[r] = classes.get(key)!
  })
  const k = Math.min(Math.max(n - 1, 0), MAX_NEIGHBOURS)
  const neighbours = nearestCustomers(n, k, nodeLoc, travel.distance, size)
  return {
    model,
    n,
    routes: R,
    dims,
    size,
    dist: travel.distance,
    dur: travel.duration,
    jobOf: Int32Array.from(jobs),
    customerOf,
    fixedReasons,
    nodeLoc,
    nodeE,
    nodeL,
    nodeS,
    demand,
    tier,
    soft,
    softDue,
    penaltyPerSecond: (options.latenessPenaltyPerMinute ?? 1) / 60,
    startByDue,
    allowed,
    routeStart,
    routeEnd,
    breakOffset,
    breakNodes,
    breakSpecIndex,
    capacity,
    invSpeed,
    distCoef,
    timeCoef,
    fixed,
    unpaidBreak,
    balanced: (options.workloadCostPerHourSquared ?? 0) > 0 || (options.unusedRouteCost ?? 0) > 0,
    workloadCoef: Math.max(0, options.workloadCostPerHourSquared ?? 0) / (3600 * 3600),
    workloadTolerance: Math.max(0, options.workloadTolerance ?? 0.15),
    workloadLimit: new Float64Array(R).fill(Number.POSITIVE_INFINITY),
    idleCost: new Float64Array(R).fill(Math.max(0, options.unusedRouteCost ?? 0)),
    maxRouteNodes: n + 2 + Math.max(0, ...breakCount),
    routeClass,
    neighbours,
    neighbourCount: k,
    stable: stability.stable,
    previousRoute: stability.previousRoute,
    previousFirst: stability.previousFirst,
    moveCost: stability.moveCost,
    nextStopChangeCost: stability.nextStopChangeCost,
  }
}

/** The stability part of the problem: who was where before this plan, and the prices of changing it. */
function compileStability(model: RoutingModel, customerOf: Int32Array, n: number) {
  const options = model.options ?? {}
  const moveCost = Math.max(0, options.moveCost ?? 0)
  const nextStopChangeCost = Math.max(0, options.nextStopChangeCost ?? 0)
  const R = model.routes.length
  const previousRoute = new Int32Array(n).fill(-1)
  const previousFirst = new Int32Array(R).fill(-1)
  const held = new Uint8Array(R)
  if (moveCost > 0) {
    model.jobs.forEach((job, j) => {
      const c = customerOf[j]!
      const r = job.previousRoute
      if (c < 0 || r === undefined || r < 0 || r >= R) return
      previousRoute[c] = r
      held[r] = 1
    })
  }
  if (nextStopChangeCost > 0) {
    model.routes.forEach((route, r) => {
      const j = route.previousFirstJob
      if (j === undefined || j < 0 || j >= model.jobs.length) return
      const c = customerOf[j]!
      previousFirst[r] = c >= 0 ? c : n
      held[r] = 1
    })
  }
  const stable = held.some((x) => x === 1)
  return { stable, previousRoute, previousFirst, moveCost, nextStopChangeCost, held }
}

/**
 * The k customers nearest to each customer (by distance from it; ties by index), nearest first:
 * result[c * k .. c * k + k). A bounded insertion per customer — O(n² + n·k·log(n/k)) in practice
 * where sorting every row was O(n² log n) (10 s of a 3,000-job day's 26 s before the search).
 */
function nearestCustomers(
  n: number,
  k: number,
  nodeLoc: Int32Array,
  distance: Float64Array,
  size: number,
): Int32Array {
  const result = new Int32Array(n * k)
  const kept = new Float64Array(k)
  for (let c = 0; c < n; c++) {
    const from = nodeLoc[c]! * size
    const row = c * k
    let count = 0
    for (let o = 0; o < n; o++) {
      if (o === c) continue
      const d = distance[from + nodeLoc[o]!]!
      // o comes after every kept customer of equal distance (they have smaller indices).
      if (count === k && !(d < kept[k - 1]!)) continue
      let j = count === k ? k - 1 : count++
      while (j > 0 && kept[j - 1]! > d) {
        kept[j] = kept[j - 1]!
        result[row + j] = result[row + j - 1]!
        j--
      }
      kept[j] = d
      result[row + j] = o
    }
  }
  return result
}
