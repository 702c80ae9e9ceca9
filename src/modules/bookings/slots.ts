// Which arrival windows of a day some worker can still take a new job in, and what each costs.
//
// No second travel or window model: each shift's day is read as a route plan reads it
// (range-inputs.ts, for the whole range at once: the routes loadDayInputs would read — hours, breaks,
// absences, vehicle tags, and for today the route starting from now), turned into the optimiser's model by the plans' own toRoutingModel, and
// the optimiser's independent checker (optimiser/check.ts findFeasibleInsertion) decides whether the
// new job fits. The visits already on the shift are held at their scheduled times (a window as wide
// as the visit), so a booking never moves anyone, breaks a HARD window or runs past the shift's end —
// and the manual assignment check (jobs/assignment-check.ts) that the booking then passes judges the
// same day the same way.
//
// An arrival window [ws, we) becomes the job's HARD window [ws, we + service]: under the product's
// rule (VISIT_WITHIN, the whole visit inside the window) that is "arrive between ws and we".
import type { Executor } from '../../db/types.js'
import { findFeasibleInsertion, type RouteOrder } from '../../optimiser/check.js'
import type { RoutingModel } from '../../optimiser/model.js'
import { greatCircleMatrix } from '../../optimiser/travel.js'
import type { ShiftVisit } from '../jobs/shift-visits.js'
import type { DayInputs, JobInput, RouteInput } from '../route-plans/day-inputs.js'
import { toRoutingModel } from '../route-plans/optimiser-model.js'
import { localTime } from '../shifts/zoned-time.js'
import { loadBookableDays } from './range-inputs.js'

export interface SlotRequest {
  position: { latitude: number; longitude: number }
  serviceSeconds: number
  tagIds: readonly string[]
  windowSeconds: number
}

export interface Slot {
  date: string
  shiftId: string
  userId: string
  userName: string
  /** Instants in ms: the arrival window, and the earliest arrival the route allows in it. */
  windowStart: number
  windowEnd: number
  scheduledStart: number
  /** What the visit adds to the route: driving metres and seconds (service time not counted). */
  addedMetres: number
  addedSeconds: number
}

const HOUR_GRID = 60

/**
 * Every window from `range.from` to `range.to` in which a shift can take the job, one per shift and
 * window (the caller keeps the cheapest per window). `onlyShiftId`: that shift alone (re-checking a
 * booking). `now` in ms: a window that has begun is not offered.
 */
export async function findSlots(
  db: Executor,
  organisationId: string,
  range: { from: string; to: string },
  request: SlotRequest,
  now: number,
  onlyShiftId?: string,
): Promise<Slot[]> {
  const days = await loadBookableDays(db, organisationId, range, now, onlyShiftId)
  return days.flatMap(({ day, visitsOf }) =>
    day.routes.flatMap((route) => slotsOfRoute(day, route, visitsOf.get(route.shiftId) ?? [], request, now)),
  )
}

function slotsOfRoute(
  day: DayInputs,
  route: RouteInput,
  visits: ShiftVisit[],
  request: SlotRequest,
  now: number,
): Slot[] {
  const second = (ms: number) => Math.floor(ms / 1000) * 1000
  // Visits that end before the route starts (done, or in progress until its start) are behind it.
  const held = visits.filter((v) => v.end > route.start)
  const existing = held.map(
    (visit): JobInput => ({
      id: visit.jobId,
      title: '',
      status: 'ASSIGNED',
      priority: 'NORMAL',
      // A visit nobody placed is counted at the vehicle's start: no better guess of where it is.
      position: visit.position ?? route.origin,
      serviceSeconds: (second(visit.end) - second(visit.start)) / 1000,
      windowType: 'HARD',
      earliest: second(visit.start),
      latest: second(visit.end),
      demands: new Map(),
      tagIds: [],
      pinnedShiftId: null,
      assignedUserId: route.userId,
      shiftId: route.shiftId,
      scheduledStart: second(visit.start),
    }),
  )
  const candidate: JobInput = {
    id: 'booking',
    title: '',
    status: 'CREATED',
    priority: 'NORMAL',
    position: request.position,
    serviceSeconds: request.serviceSeconds,
    windowType: 'HARD',
    earliest: null,
    latest: null,
    demands: new Map(),
    tagIds: [...request.tagIds],
    pinnedShiftId: null,
    assignedUserId: null,
    shiftId: null,
    scheduledStart: null,
  }
  const model = toRoutingModel({ ...day, routes: [route], jobs: [...existing, candidate] }, day.routing)
  model.travel = greatCircleMatrix(model.locations, day.routing)
  const c = existing.length
  const spec = model.routes[0] as RoutingModel['routes'][number]
  const plan = routeAsPlanned(model)
  const elements = elementsOf(plan)
  toleratePastLateness(model, spec, elements)

  const out: Slot[] = []
  const dayUtc = Date.parse(`${day.date}T00:00:00.000Z`)
  const step = request.windowSeconds / 60
  for (let minutes = 0; minutes < 24 * HOUR_GRID; minutes += step) {
    const windowStart = localTime(dayUtc, minutes, route.zone)
    const windowEnd = windowStart + request.windowSeconds * 1000
    // A window mostly outside the shift is not offered, though arriving at its very end might fit:
    // "06:00–08:00" for a worker who starts at 08:00 promises what the day does not mean.
    const overlap = Math.min(windowEnd, route.end) - Math.max(windowStart, route.start)
    if (windowStart < now || overlap < (request.windowSeconds * 1000) / 2) continue
    const job = model.jobs[c] as RoutingModel['jobs'][number]
    job.window = [windowStart / 1000, windowEnd / 1000 + request.serviceSeconds]
    const fit = findFeasibleInsertion(model, plan, c)
    if (!fit) continue
    const cost = insertionAt(model, spec, elements, fit.position, c, windowStart / 1000)
    out.push({
      date: day.date,
      shiftId: route.shiftId,
      userId: route.userId,
      userName: route.userName,
      windowStart,
      windowEnd,
      scheduledStart: Math.ceil(cost.start) * 1000,
      addedMetres: cost.metres,
      addedSeconds: cost.seconds,
    })
  }
  return out
}

/**
 * The route as it stands, in the form the insertion search reads: the held visits in time order, the
 * breaks after the visits that start before them.
 */
function routeAsPlanned(model: RoutingModel): RouteOrder {
  const spec = model.routes[0] as RoutingModel['routes'][number]
  const stops = model.jobs
    .slice(0, -1)
    .map((job, index) => ({ job: index, serviceStart: job.window?.[0] ?? 0 }))
  const breaks = spec.breaks
    .map((b, index) => ({ break: index, start: b.start, end: b.end }))
    .filter((b) => b.start >= spec.window[0] && b.end <= spec.window[1] && b.end >= b.start)
    .map((b) => ({ ...b, afterStops: stops.filter((s) => s.serviceStart < b.start).length }))
  return { routes: [{ route: 0, stops, breaks }] }
}

type Element = { job: number } | { start: number; end: number }

/** Stops and breaks in the order findFeasibleInsertion numbers its positions. */
function elementsOf(plan: RouteOrder): Element[] {
  const planned = plan.routes[0] as RouteOrder['routes'][number]
  const out: Element[] = []
  planned.stops.forEach((stop, index) => {
    for (const b of planned.breaks.filter((x) => x.afterStops === index)) out.push(b)
    out.push({ job: stop.job })
  })
  for (const b of planned.breaks.filter((x) => x.afterStops === planned.stops.length)) out.push(b)
  return out
}

/**
 * A visit the route already cannot reach at its scheduled time (booked back to back across town, an
 * 08:00 visit away from the depot) is held at the time it can be reached instead: what was wrong with
 * the day before is not the new job's to fix, and it must not make any visit later than that.
 */
function toleratePastLateness(
  model: RoutingModel,
  spec: RoutingModel['routes'][number],
  elements: Element[],
) {
  const travel = model.travel as NonNullable<RoutingModel['travel']>
  let time = spec.window[0]
  let from = spec.start
  for (const element of elements) {
    if (!('job' in element)) {
      time = Math.max(time, element.end)
      continue
    }
    const job = model.jobs[element.job] as RoutingModel['jobs'][number]
    const window = job.window as [number, number]
    const to = job.location as number
    const start = Math.max(
      window[0],
      time + (travel.duration[from * travel.size + to] ?? 0) / spec.speedFactor,
    )
    job.window = [window[0], Math.max(window[1], Math.ceil(start) + job.serviceSeconds)]
    time = start + job.serviceSeconds
    from = to
  }
}

/**
 * The new visit's earliest start at `position` (model seconds) and the driving it adds there, from the
 * model's own matrix: the previous element's end and place, and the next visit (or the way home).
 */
function insertionAt(
  model: RoutingModel,
  spec: RoutingModel['routes'][number],
  elements: Element[],
  position: number,
  c: number,
  windowStart: number,
) {
  const travel = model.travel as NonNullable<RoutingModel['travel']>
  const locationOf = (job: number) => model.jobs[job]?.location as number
  const n = travel.size
  const metres = (a: number, b: number) => travel.distance[a * n + b] ?? 0
  const seconds = (a: number, b: number) => (travel.duration[a * n + b] ?? 0) / spec.speedFactor
  let time = spec.window[0]
  let from = spec.start
  for (const element of elements.slice(0, position)) {
    if ('job' in element) {
      const job = model.jobs[element.job] as RoutingModel['jobs'][number]
      const to = locationOf(element.job)
      time = Math.max(job.window?.[0] ?? time, time + seconds(from, to)) + job.serviceSeconds
      from = to
    } else time = Math.max(time, element.end)
  }
  const next = elements.slice(position).find((e): e is { job: number } => 'job' in e)
  const to =
    next !== undefined
      ? locationOf(next.job)
      : spec.end === 'RETURN_TO_ORIGIN'
        ? (spec.endLocation ?? spec.start)
        : null
  const here = locationOf(c)
  const start = Math.max(time + seconds(from, here), windowStart)
  return {
    start,
    metres: metres(from, here) + (to === null ? 0 : metres(here, to) - metres(from, to)),
    seconds: seconds(from, here) + (to === null ? 0 : seconds(here, to) - seconds(from, to)),
  }
}
