// Turns the search state back into the plain plan: each used route scheduled from the earliest
// departure that achieves its minimal duration, stop by stop, and a reason for every job left out.
import type {
  CostBreakdown,
  Plan,
  PlannedBreak,
  PlannedRoute,
  PlannedStop,
  SolveStats,
  UnassignedJob,
  UnassignedReason,
} from './model.js'
import type { Problem } from './problem.js'
import { fitsLoad } from './segment.js'
import type { SearchState } from './state.js'

function scheduleRoute(s: SearchState, r: number): PlannedRoute {
  const p = s.p
  const spec = p.model.routes[r]!
  const base = r * s.stride
  const len = s.len[r]!
  const inv = p.invSpeed[r]!
  const departure = s.pE[base + len - 1]!
  const stops: PlannedStop[] = []
  const breaks: PlannedBreak[] = []
  const load = new Array<number>(p.dims).fill(0)
  let time = departure
  let last = p.nodeLoc[s.nodes[base]!]!
  let distance = 0
  let travelTime = 0
  let serviceTime = 0
  let breakTime = 0
  let lateSeconds = 0
  let arrival = departure
  const firstBreakNode = p.breakOffset[r]! < p.breakOffset[r + 1]! ? p.breakNodes[p.breakOffset[r]!]! : -1
  for (let i = 1; i < len; i++) {
    const v = s.nodes[base + i]!
    const loc = p.nodeLoc[v]!
    if (v >= p.n && v !== p.routeEnd[r]) {
      // A break: fixed in time, taken where the worker is.
      const start = Math.max(time, p.nodeE[v]!)
      const specIndex = p.breakSpecIndex[p.breakOffset[r]! + (v - firstBreakNode)]!
      breaks.push({ break: specIndex, start, end: start + p.nodeS[v]!, afterStops: stops.length })
      breakTime += p.nodeS[v]!
      time = start + p.nodeS[v]!
      continue
    }
    let legTime = 0
    let legDistance = 0
    if (loc >= 0) {
      legTime = p.dur[last * p.size + loc]! * inv
      legDistance = p.dist[last * p.size + loc]!
      last = loc
    }
    distance += legDistance
    travelTime += legTime
    if (v === p.routeEnd[r]) {
      arrival = time + legTime
      break
    }
    const reach = time + legTime
    const start = Math.max(reach, p.nodeE[v]!)
    const end = start + p.nodeS[v]!
    let lateness = 0
    if (p.soft[v] === 1) lateness = Math.max(0, (p.startByDue ? start : end) - p.softDue[v]!)
    lateSeconds += lateness
    serviceTime += p.nodeS[v]!
    for (let d = 0; d < p.dims; d++) load[d]! += p.demand[v * p.dims + d]!
    const job = p.jobOf[v]!
    stops.push({
      job,
      jobId: p.model.jobs[job]!.id,
      arrival: reach,
      serviceStart: start,
      serviceEnd: end,
      travelDistance: legDistance,
      travelTime: legTime,
      load: load.slice(),
      lateness,
    })
    time = end
  }
  const duration = arrival - departure
  const cost: CostBreakdown = {
    fixed: p.fixed[r]!,
    distance: p.distCoef[r]! * distance,
    time: p.timeCoef[r]! * (duration - p.unpaidBreak[r]!),
    lateness: lateSeconds * p.penaltyPerSecond,
    total: 0,
  }
  cost.total = cost.fixed + cost.distance + cost.time + cost.lateness
  return {
    route: r,
    routeId: spec.id,
    ...(spec.workerId !== undefined ? { workerId: spec.workerId } : {}),
    ...(spec.vehicleId !== undefined ? { vehicleId: spec.vehicleId } : {}),
    departure,
    arrival,
    stops,
    breaks,
    distance,
    travelTime,
    serviceTime,
    waitingTime: Math.max(0, duration - travelTime - serviceTime - breakTime),
    breakTime,
    duration,
    load,
    cost,
  }
}

/** Why customer c fits nowhere (called only once no feasible position exists). */
function reasonFor(s: SearchState, c: number): UnassignedReason {
  const p = s.p
  const job = p.model.jobs[p.jobOf[c]!]!
  let skillOk = false
  let capacityOk = false
  for (let r = 0; r < p.routes; r++) {
    const route = p.model.routes[r]!
    if (job.pinnedRoute !== undefined && job.pinnedRoute !== r) continue
    if (job.allowedRoutes && !job.allowedRoutes.includes(r)) continue
    if (!job.skills.every((tag) => route.skills.includes(tag))) continue
    skillOk = true
    let fits = true
    for (let d = 0; d < p.dims; d++) {
      if (!fitsLoad(p, r, d, s.load[r * p.dims + d]! + p.demand[c * p.dims + d]!)) fits = false
    }
    if (fits) capacityOk = true
  }
  if (!skillOk) return 'SKILL'
  return capacityOk ? 'TIME_WINDOW' : 'CAPACITY'
}

export function buildPlan(
  p: Problem,
  s: SearchState,
  stats: Omit<SolveStats, 'assigned' | 'unassigned'>,
): Plan {
  const routes: PlannedRoute[] = []
  for (let r = 0; r < p.routes; r++) if (s.count[r]! > 0) routes.push(scheduleRoute(s, r))
  const unassigned: UnassignedJob[] = []
  p.model.jobs.forEach((job, j) => {
    const fixedReason = p.fixedReasons.get(j)
    const c = p.customerOf[j]!
    if (fixedReason) unassigned.push({ job: j, jobId: job.id, reason: fixedReason })
    else if (s.custRoute[c] === -1) unassigned.push({ job: j, jobId: job.id, reason: reasonFor(s, c) })
  })
  const cost: CostBreakdown = { fixed: 0, distance: 0, time: 0, lateness: 0, total: 0 }
  for (const route of routes) {
    cost.fixed += route.cost.fixed
    cost.distance += route.cost.distance
    cost.time += route.cost.time
    cost.lateness += route.cost.lateness
    cost.total += route.cost.total
  }
  return {
    routes,
    unassigned,
    cost,
    stats: { ...stats, assigned: p.model.jobs.length - unassigned.length, unassigned: unassigned.length },
  }
}
