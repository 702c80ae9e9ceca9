// Planning the plan's own date from the moment it is asked for (issue 29): no route starts before
// now; a job in progress stays first on its worker's route until its expected end; completed work
// is behind the worker, who goes on from where they are (route-start.ts); breaks already passed are
// gone; and a job whose HARD window has closed is reported, never placed in the past. A future day
// is planned whole, and a past day as it was (from each shift's start): there is no "now" in it.
import { DAY, localTime } from '../shifts/zoned-time.js'
import type { InProgressJob, JobInput, RouteInput } from './day-types.js'
import { type Coordinates, type ReportedPosition, routeStartFor } from './route-start.js'

/** A job done or in progress on one of the plan's shifts (inputs-repository findWorkInHand). */
export interface WorkInHandRow {
  id: string
  title: string
  status: string
  shift_id: string | null
  service_duration: number
  started_at: string | null
  completed_at: string | null
  job_latitude: string | null
  job_longitude: string | null
  customer_latitude: string | null
  customer_longitude: string | null
}

export interface FromNowInput {
  date: string
  /** The plan's instant (ms). */
  at: number
  routes: RouteInput[]
  jobs: JobInput[]
  inHand: readonly WorkInHandRow[]
  /** Each worker's last reported position (by user id), fresh or not: route-start.ts decides. */
  positions?: ReadonlyMap<string, ReportedPosition>
  /** The zone the date is read in when there is no route. */
  defaultZone: string
}

export interface FromNow {
  cutoff: number | null
  routes: RouteInput[]
  jobs: JobInput[]
  closedJobs: JobInput[]
}

/** Whether `at` falls on `date` in `zone`. */
export function isOnDate(date: string, at: number, zone: string): boolean {
  const dayUtc = Date.parse(`${date}T00:00:00.000Z`)
  return localTime(dayUtc, 0, zone) <= at && at < localTime(dayUtc + DAY, 0, zone)
}

export function planFromNow(input: FromNowInput): FromNow {
  const { date, at } = input
  const routes = input.routes.map((route) => ({
    ...route,
    previousFirstJobId: firstAssignedJob(route.shiftId, input.jobs),
  }))
  const today =
    routes.length > 0
      ? routes.some((route) => isOnDate(date, at, route.zone))
      : isOnDate(date, at, input.defaultZone)
  if (!today) return { cutoff: null, routes, jobs: input.jobs, closedJobs: [] }
  const inHandOf = new Map<string, WorkInHandRow[]>()
  for (const row of input.inHand) {
    if (row.shift_id === null) continue
    const list = inHandOf.get(row.shift_id) ?? []
    list.push(row)
    inHandOf.set(row.shift_id, list)
  }
  const dayUtc = Date.parse(`${date}T00:00:00.000Z`)
  const cutRoutes = routes.map((route) =>
    startRouteAt(
      route,
      at,
      inHandOf.get(route.shiftId) ?? [],
      localTime(dayUtc, 0, route.zone),
      input.positions?.get(route.userId) ?? null,
    ),
  )
  const closed = (job: JobInput) =>
    job.windowType === 'HARD' && job.latest !== null && job.latest - job.serviceSeconds * 1000 < at
  return {
    cutoff: at,
    routes: cutRoutes,
    jobs: input.jobs.filter((job) => !closed(job)),
    closedJobs: input.jobs.filter(closed),
  }
}

/** The route from `at`: after its job in progress, from where its worker is, without past breaks. */
function startRouteAt(
  route: RouteInput,
  at: number,
  inHand: WorkInHandRow[],
  dayStart: number,
  lastPosition: ReportedPosition | null,
): RouteInput {
  const inProgress = currentJob(inHand, at)
  const lastJob = lastCompleted(inHand, dayStart, at)
  const start = Math.min(route.end, Math.max(route.start, at, inProgress?.job.expectedEnd ?? at))
  const position = routeStartFor({
    at,
    vehicleStart: route.origin,
    currentJob: inProgress?.position ?? null,
    lastJob: lastJob?.position ?? null,
    lastPosition,
  })
  return {
    ...route,
    start,
    startPosition: { latitude: position.latitude, longitude: position.longitude },
    breaks: route.breaks.filter((b) => b.start >= start),
    inProgress: inProgress?.job ?? null,
  }
}

/** The route's first ASSIGNED job by scheduled start (its next stop before the plan), if any. */
function firstAssignedJob(shiftId: string, jobs: readonly JobInput[]): string | null {
  let first: JobInput | null = null
  for (const job of jobs) {
    if (job.status !== 'ASSIGNED' || job.shiftId !== shiftId || job.scheduledStart === null) continue
    if (first === null || job.scheduledStart < (first.scheduledStart ?? Number.POSITIVE_INFINITY)) first = job
  }
  return first?.id ?? null
}

/** The job in progress started last (a worker has one), ending at start + duration, or now if overdue. */
function currentJob(
  inHand: WorkInHandRow[],
  at: number,
): { job: InProgressJob; position: Coordinates | null } | null {
  let current: WorkInHandRow | null = null
  for (const row of inHand) {
    if (row.status !== 'IN_PROGRESS') continue
    if (current === null || (row.started_at ?? '') > (current.started_at ?? '')) current = row
  }
  if (current === null) return null
  const startedAt = current.started_at === null ? at : Date.parse(current.started_at)
  return {
    job: {
      id: current.id,
      title: current.title,
      startedAt,
      expectedEnd: Math.max(at, startedAt + current.service_duration * 1000),
    },
    position: positionOf(current),
  }
}

/** The job completed last today, before `at`. */
function lastCompleted(
  inHand: WorkInHandRow[],
  dayStart: number,
  at: number,
): { position: Coordinates | null } | null {
  let last: WorkInHandRow | null = null
  for (const row of inHand) {
    if (row.status !== 'COMPLETED' || row.completed_at === null) continue
    const done = Date.parse(row.completed_at)
    if (done < dayStart || done > at) continue
    if (last === null || row.completed_at > (last.completed_at ?? '')) last = row
  }
  return last === null ? null : { position: positionOf(last) }
}

function positionOf(row: WorkInHandRow): Coordinates | null {
  const latitude = row.job_latitude ?? row.customer_latitude
  const longitude = row.job_longitude ?? row.customer_longitude
  if (latitude === null || longitude === null) return null
  return { latitude: Number(latitude), longitude: Number(longitude) }
}
