// The day a plan works on, read from the database in one consistent snapshot: one route per shift
// template that falls on the date (in its depot's time zone), the jobs to plan with their location,
// window (narrowed by the customer's opening hours), demands and skills, and the version of every
// row read. Pure data: model.ts turns it into the optimiser's model, apply.ts compares versions.
import type { Executor } from '../../db/types.js'
import { AppError, notFound } from '../../http/errors.js'
import { lastKnownPositions } from '../live/forecast-day.js'
import { findShiftsOfWeekday } from '../shifts/service.js'
import { type ShiftDay, shiftDaysOn } from '../shifts/shift-days.js'
import { DAY, localTime, minutesOf, weekdayOf } from '../shifts/zoned-time.js'
import type { JobInput, RouteInput } from './day-types.js'
import { isOnDate, planFromNow } from './from-now.js'
import * as inputs from './inputs-repository.js'
import { FRESH_POSITION_MS } from './route-start.js'
import type { PlanBalance, PlanMode } from './schemas.js'

export type { InProgressJob, JobInput, RouteInput } from './day-types.js'

/** What a plan read, with the version of each row: applying compares them with the database. */
export type InputVersions = Record<
  'jobs' | 'shifts' | 'vehicles' | 'users' | 'customers' | 'locations',
  Record<string, string>
>

export interface DayInputs {
  date: string
  mode: PlanMode
  /** The instant the plan was asked for (ms): "now", unless the request named another (`at`). */
  at: number
  /**
   * The instant the day is planned from when it is the plan's date (ms): no route starts before it,
   * and work done or in progress holds its time. Null for a future day, and for a past one, which is
   * planned as it was (from each shift's start).
   */
  cutoff: number | null
  /** 0–1: how much a job moved to another worker, or a changed next stop, costs (optimiser-model.ts). */
  stability: number
  /** NONE, WORKLOAD or USE_ALL: how evenly the work is spread over the routes (optimiser-model.ts). */
  balance: PlanBalance
  /** The organisation's travel and lateness settings. */
  routing: { detourFactor: number; speedKmh: number; latenessPenaltyPerMinute: number }
  routes: RouteInput[]
  /** Shifts of the date that do not happen (worker absent, or shift off that date): never planned. */
  offRoutes: (RouteInput & { off: Extract<ShiftDay, { off: true }> })[]
  jobs: JobInput[]
  /** Jobs whose HARD window closed before `cutoff`: reported unassigned, never planned in the past. */
  closedJobs: JobInput[]
  dimensions: { id: string; key: string; label: string }[]
  versions: InputVersions
}

export interface DayRequest {
  date: string
  /** A plan over several days: the last (plan-days.ts); null or missing: one day. */
  dateTo?: string | null
  mode: PlanMode
  /** The plan's instant (ms); default now. −∞: the whole day, as of no particular moment. */
  at?: number | null
  stability?: number | null
  balance?: PlanBalance | null
  locationId?: string | null
  jobIds?: readonly string[] | null
  shiftIds?: readonly string[] | null
}

/** Every date from `from` to `to`, both included (YYYY-MM-DD). */
export function planDates(from: string, to: string): string[] {
  const dates: string[] = []
  for (let at = Date.parse(`${from}T00:00:00.000Z`); at <= Date.parse(`${to}T00:00:00.000Z`); at += DAY)
    dates.push(new Date(at).toISOString().slice(0, 10))
  return dates
}

const decimal = (value: string | null) => (value === null ? null : Number(value))

/** The UTC day `YYYY-MM-DD` as ISO bounds, for the `targetDate` overlap rule. */
export function utcDayBounds(date: string): { start: string; end: string; startMs: number } {
  const startMs = Date.parse(`${date}T00:00:00.000Z`)
  return { start: new Date(startMs).toISOString(), end: new Date(startMs + DAY).toISOString(), startMs }
}

/**
 * The instant a plan is made as of: the request's `at`, which must fall on its date in the depot's
 * time zone (the organisation's without a depot), else `now`. REPLAN_REMAINING plans the rest of a
 * day that is going on: without `at`, its date must be today. 400 otherwise, naming the field.
 */
export async function resolvePlanInstant(
  db: Executor,
  organisationId: string,
  request: {
    date: string
    dateTo?: string | null
    mode: PlanMode
    locationId?: string | null
    at?: string | null
  },
  now: number,
): Promise<number> {
  const zone = request.locationId
    ? ((await inputs.findLocationTimezone(db, organisationId, request.locationId))?.timezone ?? 'UTC')
    : await inputs.findOrganisationTimezone(db, organisationId)
  if (request.at) {
    const at = Date.parse(request.at)
    const dates = request.dateTo ? planDates(request.date, request.dateTo) : [request.date]
    const days = request.dateTo ? `${request.date}..${request.dateTo}` : request.date
    if (!dates.some((date) => isOnDate(date, at, zone))) {
      throw new AppError('VALIDATION_ERROR', `at: ${request.at} is not on ${days} in ${zone}`, [
        {
          path: '/body/at',
          message: `must be an instant of ${days} in the depot’s time zone (${zone})`,
        },
      ])
    }
    return at
  }
  if (request.mode === 'REPLAN_REMAINING' && !isOnDate(request.date, now, zone)) {
    throw new AppError(
      'VALIDATION_ERROR',
      `date: REPLAN_REMAINING re-plans the rest of today; ${request.date} is not today in ${zone} (name an \`at\` on it)`,
      [
        {
          path: '/body/date',
          message: `REPLAN_REMAINING needs today’s date (${zone}) or an \`at\` on ${request.date}`,
        },
      ],
    )
  }
  return now
}

/** Checks a plan request against the database before it is queued: 404s and unplannable jobs. */
export async function assertPlannable(
  db: Executor,
  organisationId: string,
  request: DayRequest,
): Promise<void> {
  if (request.locationId) {
    const location = await inputs.findLocationTimezone(db, organisationId, request.locationId)
    if (!location) throw notFound('Location')
  }
  const dates = request.dateTo ? planDates(request.date, request.dateTo) : [request.date]
  const days = request.dateTo ? `${request.date}..${request.dateTo}` : request.date
  if (request.shiftIds) {
    const found = new Set<string>()
    const weekdays = [...new Set(dates.map(weekdayOf))]
    for (const weekday of weekdays) {
      const shifts = await findShiftsOfWeekday(db, organisationId, weekday, {
        workable: true,
        shiftIds: request.shiftIds,
        ...(request.locationId ? { locationId: request.locationId } : {}),
      })
      for (const shift of shifts) found.add(shift.id)
    }
    const missing = request.shiftIds.filter((id) => !found.has(id))
    if (missing.length > 0) {
      throw new AppError(
        'VALIDATION_ERROR',
        `shiftIds: ${missing.length} shift(s) cannot be used on ${days}: ${missing.join(', ')}`,
        missing.map((id) => ({
          path: '/body/shiftIds',
          message: `${id}: not found, not on ${weekdays.join(' or ')}${request.locationId ? ' at this depot' : ''}, or its worker, vehicle or depot is inactive`,
        })),
      )
    }
  }
  if (request.jobIds) {
    const day = {
      start: utcDayBounds(request.date).start,
      end: utcDayBounds(dates[dates.length - 1] ?? request.date).end,
    }
    const candidates = await inputs.findCandidateJobs(db, organisationId, day, {
      ids: request.jobIds,
      ...(request.locationId ? { locationId: request.locationId } : {}),
    })
    const plannable = new Set(candidates.map((j) => j.id))
    const rejected = request.jobIds.filter((id) => !plannable.has(id))
    if (rejected.length > 0) {
      const states = new Map((await inputs.findJobStates(db, organisationId, rejected)).map((j) => [j.id, j]))
      const why = (id: string) => {
        const job = states.get(id)
        if (!job) return 'not found'
        if (job.status !== 'CREATED' && job.status !== 'ASSIGNED') return `is ${job.status}`
        if (request.locationId && job.location_id !== request.locationId) return 'belongs to another depot'
        return `its time window does not overlap ${days}`
      }
      throw new AppError(
        'JOBS_NOT_PLANNABLE',
        `${rejected.length} job(s) cannot be planned on ${days}: ${rejected.map((id) => `${id} (${why(id)})`).join(', ')}`,
        rejected.map((id) => ({ path: '/body/jobIds', message: `${id} ${why(id)}` })),
      )
    }
  }
}

export async function loadDayInputs(
  db: Executor,
  organisationId: string,
  request: DayRequest,
): Promise<DayInputs> {
  const day = utcDayBounds(request.date)
  const locationId = request.locationId ?? undefined
  const shiftRows = await findShiftsOfWeekday(db, organisationId, weekdayOf(request.date), {
    workable: true,
    ...(locationId ? { locationId } : {}),
    ...(request.shiftIds ? { shiftIds: request.shiftIds } : {}),
  })
  // The date's one-off changes and the workers' absences (shifts/shift-days.ts): hours and breaks.
  const days = await shiftDaysOn(db, organisationId, request.date, shiftRows, (s) => s.location_timezone)
  const shiftIds = shiftRows.filter((s) => !days.get(s.id)?.off).map((s) => s.id)
  const vehicleIds = [...new Set(shiftRows.map((s) => s.vehicle_id))]
  const [capacities, vehicleTags, dimensions, settings] = await Promise.all([
    inputs.findVehicleCapacities(db, organisationId, vehicleIds),
    inputs.findVehicleTags(db, organisationId, vehicleIds),
    inputs.findCapacityDimensions(db, organisationId),
    inputs.findRoutingSettings(db, organisationId),
  ])
  const routing = routingOf(settings)
  const capacitiesOf = groupBy(capacities, (c) => c.vehicle_id)
  const vehicleTagsOf = groupBy(vehicleTags, (t) => t.vehicle_id)
  const versions: InputVersions = {
    jobs: {},
    shifts: {},
    vehicles: {},
    users: {},
    customers: {},
    locations: {},
  }

  const allRoutes = shiftRows.map((shift): RouteInput & { shiftDay: ShiftDay } => {
    const shiftDay = days.get(shift.id) as ShiftDay
    versions.shifts[shift.id] = shift.updated_at
    versions.vehicles[shift.vehicle_id] = shift.vehicle_updated_at
    versions.users[shift.user_id] = shift.user_updated_at
    versions.locations[shift.location_id] = shift.location_updated_at
    return {
      ...routeOfShift(
        shift,
        shiftDay,
        day.startMs,
        capacitiesOf.get(shift.vehicle_id) ?? [],
        vehicleTagsOf.get(shift.vehicle_id) ?? [],
      ),
      shiftDay,
    }
  })
  const routes: RouteInput[] = allRoutes.flatMap(({ shiftDay, ...route }) => (shiftDay.off ? [] : [route]))
  const offRoutes = allRoutes.flatMap(({ shiftDay, ...route }) =>
    shiftDay.off ? [{ ...route, off: shiftDay }] : [],
  )

  const routeShifts = new Set(shiftIds)
  const offShifts = new Set(offRoutes.map((route) => route.shiftId))
  const jobRows = (
    await inputs.findCandidateJobs(db, organisationId, day, {
      ...(locationId ? { locationId } : {}),
      ...(request.jobIds ? { ids: request.jobIds } : {}),
    })
  ).filter(
    // An ASSIGNED job on a shift outside this plan (another depot's, another day's) is left alone. One
    // on a shift of this plan that does not happen that date (its worker away, the shift off) is
    // planned again like a waiting job, in every mode: nobody will do it where it is.
    (job) =>
      job.status === 'CREATED' ||
      job.shift_id === null ||
      routeShifts.has(job.shift_id) ||
      offShifts.has(job.shift_id),
  )
  const jobIds = jobRows.map((j) => j.id)
  const [demands, jobTags] = await Promise.all([
    inputs.findJobDemands(db, organisationId, jobIds),
    inputs.findJobTags(db, organisationId, jobIds),
  ])
  const demandsOf = groupBy(demands, (d) => d.job_id)
  const tagsOf = groupBy(jobTags, (t) => t.job_id)
  const zoneOfDepot = new Map(shiftRows.map((s) => [s.location_id, s.location_timezone]))
  const defaultZone = locationId
    ? ((await inputs.findLocationTimezone(db, organisationId, locationId))?.timezone ?? 'UTC')
    : await inputs.findOrganisationTimezone(db, organisationId)

  const jobs: JobInput[] = jobRows.map((job) => {
    versions.jobs[job.id] = job.updated_at
    if (job.customer_id !== null && job.customer_updated_at !== null) {
      versions.customers[job.customer_id] = job.customer_updated_at
    }
    const latitude = decimal(job.job_latitude) ?? decimal(job.customer_latitude)
    const longitude = decimal(job.job_longitude) ?? decimal(job.customer_longitude)
    let earliest = job.earliest_start === null ? null : Date.parse(job.earliest_start)
    let latest = job.latest_end === null ? null : Date.parse(job.latest_end)
    // The customer's opening hours on the plan date, in the time zone of the job's depot.
    const opening = job.customer_operational_start
    const closing = job.customer_operational_end
    if (opening !== null && closing !== null && !(opening === '00:00' && closing === '23:59')) {
      const zone = (job.location_id && zoneOfDepot.get(job.location_id)) || defaultZone
      const opens = localTime(day.startMs, minutesOf(opening), zone)
      const closes = localTime(day.startMs, minutesOf(closing), zone)
      earliest = earliest === null ? opens : Math.max(earliest, opens)
      latest = latest === null ? closes : Math.min(latest, closes)
    }
    const pinned =
      request.mode === 'KEEP_ASSIGNED' && job.status === 'ASSIGNED' && routeShifts.has(job.shift_id ?? '')
        ? job.shift_id
        : null
    return {
      id: job.id,
      title: job.title,
      status: job.status as JobInput['status'],
      priority: job.priority as JobInput['priority'],
      position: latitude !== null && longitude !== null ? { latitude, longitude } : null,
      serviceSeconds: job.service_duration,
      windowType: job.time_window_type === 'SOFT' ? 'SOFT' : 'HARD',
      earliest,
      latest,
      demands: new Map((demandsOf.get(job.id) ?? []).map((d) => [d.capacity_dimension_id, d.required_value])),
      tagIds: (tagsOf.get(job.id) ?? []).map((t) => t.tag_id),
      pinnedShiftId: pinned,
      assignedUserId: job.assigned_user_id,
      shiftId: job.shift_id,
      scheduledStart:
        job.status === 'ASSIGNED' && job.scheduled_start ? Date.parse(job.scheduled_start) : null,
      dueBy: job.due_by,
    }
  })
  const at = request.at ?? Date.now()
  const inHand = await inputs.findWorkInHand(
    db,
    organisationId,
    shiftIds,
    new Date(day.startMs - DAY).toISOString(),
  )
  for (const job of inHand) versions.jobs[job.id] = job.updated_at
  // Where each worker's phone last was: a route of today starts there when it is fresh (route-start.ts).
  // Positions are not input versions: the workers keep moving, and a plan is not stale for it.
  const known = Number.isFinite(at)
    ? await lastKnownPositions(
        db,
        organisationId,
        routes.map((route) => route.userId),
        at - FRESH_POSITION_MS,
      )
    : new Map()
  const positions = new Map(
    [...known].map(([userId, p]) => [
      userId,
      { latitude: p.latitude, longitude: p.longitude, recordedAt: Date.parse(p.recordedAt) },
    ]),
  )
  const planned = planFromNow({ date: request.date, at, routes, jobs, inHand, positions, defaultZone })
  return {
    date: request.date,
    mode: request.mode,
    at,
    cutoff: planned.cutoff,
    stability: request.stability ?? DEFAULT_STABILITY,
    balance: request.balance ?? 'NONE',
    routing,
    routes: planned.routes,
    offRoutes,
    jobs: planned.jobs,
    closedJobs: planned.closedJobs,
    dimensions,
    versions,
  }
}

export const DEFAULT_STABILITY = 0.5

type RoutingSettings = Awaited<ReturnType<typeof inputs.findRoutingSettings>>

/** The organisation's travel and lateness settings, defaults filled in. */
function routingOf(settings: RoutingSettings): DayInputs['routing'] {
  return {
    detourFactor: settings?.routing_detour_factor ?? 1.3,
    speedKmh: settings?.routing_speed_kmh ?? 40,
    latenessPenaltyPerMinute: settings?.routing_lateness_penalty_per_minute ?? 1,
  }
}

type ShiftOfDay = Awaited<ReturnType<typeof findShiftsOfWeekday>>[number]

/** A shift template's route on the day starting at `dayStartMs` (UTC midnight of the date). */
export function routeOfShift(
  shift: ShiftOfDay,
  shiftDay: ShiftDay,
  dayStartMs: number,
  capacities: readonly { capacity_dimension_id: string; max_value: number }[],
  vehicleTags: readonly { tag_id: string }[],
): RouteInput {
  const zone = shift.location_timezone
  const at = (hhmm: string) => localTime(dayStartMs, minutesOf(hhmm), zone)
  const startLatitude = decimal(shift.start_latitude)
  const startLongitude = decimal(shift.start_longitude)
  const origin =
    startLatitude !== null && startLongitude !== null
      ? { latitude: startLatitude, longitude: startLongitude }
      : { latitude: Number(shift.location_latitude), longitude: Number(shift.location_longitude) }
  return {
    shiftId: shift.id,
    userId: shift.user_id,
    userName: shift.user_name,
    userColour: shift.user_colour,
    vehicleId: shift.vehicle_id,
    vehicleName: shift.vehicle_name,
    locationId: shift.location_id,
    start: shiftDay.off ? at(shift.start_time) : shiftDay.start,
    end: shiftDay.off ? at(shift.end_time) : shiftDay.end,
    breaks: shiftDay.off ? [] : shiftDay.breaks.map(({ start, end, isPaid }) => ({ start, end, isPaid })),
    partAbsences: shiftDay.off ? [] : shiftDay.absences,
    origin,
    startPosition: origin,
    zone,
    inProgress: null,
    previousFirstJobId: null,
    endPolicy: shift.end_policy === 'END_AT_LAST_JOB' ? 'END_AT_LAST_JOB' : 'RETURN_TO_ORIGIN',
    fixedCost: shift.fixed_cost,
    costPerKm: shift.cost_per_km,
    costPerHour: shift.cost_per_hour,
    speedFactor: shift.speed_factor,
    capacities: new Map(capacities.map((c) => [c.capacity_dimension_id, c.max_value])),
    tagIds: new Set(vehicleTags.map((t) => t.tag_id)),
  }
}

/** One shift's route on a date, as a plan of that date reads it, with what its model needs beside it. */
export interface ShiftRouteOfDay {
  route: RouteInput
  shiftDay: ShiftDay
  dimensions: DayInputs['dimensions']
  routing: DayInputs['routing']
}

/**
 * One shift's route on `date` (a date of its depot's calendar), read as loadDayInputs reads every
 * route of the day: hours, breaks and absences (shift-days.ts), start, capacities and tags. Null when
 * the shift does not fall on that weekday, or its worker, vehicle or depot is inactive. Manual
 * assignment checks a visit against it (jobs/assignment-check.ts).
 */
export async function loadShiftRoute(
  db: Executor,
  organisationId: string,
  date: string,
  shiftId: string,
): Promise<ShiftRouteOfDay | null> {
  const [shift] = await findShiftsOfWeekday(db, organisationId, weekdayOf(date), {
    workable: true,
    shiftIds: [shiftId],
  })
  if (!shift) return null
  const [days, capacities, vehicleTags, dimensions, settings] = await Promise.all([
    shiftDaysOn(db, organisationId, date, [shift], (s) => s.location_timezone),
    inputs.findVehicleCapacities(db, organisationId, [shift.vehicle_id]),
    inputs.findVehicleTags(db, organisationId, [shift.vehicle_id]),
    inputs.findCapacityDimensions(db, organisationId),
    inputs.findRoutingSettings(db, organisationId),
  ])
  const shiftDay = days.get(shift.id) as ShiftDay
  const route = routeOfShift(shift, shiftDay, utcDayBounds(date).startMs, capacities, vehicleTags)
  return { route, shiftDay, dimensions, routing: routingOf(settings) }
}

function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const row of rows) {
    const key = keyOf(row)
    const group = groups.get(key)
    if (group) group.push(row)
    else groups.set(key, [row])
  }
  return groups
}

/**
 * What a plan reads besides its shifts and jobs — the vehicles' capacities and tags, the capacity
 * dimensions and the routing settings — for other modules that build routes as a plan does (bookings).
 */
export async function routeReferences(db: Executor, organisationId: string, vehicleIds: readonly string[]) {
  const [capacities, vehicleTags, dimensions, settings] = await Promise.all([
    inputs.findVehicleCapacities(db, organisationId, vehicleIds),
    inputs.findVehicleTags(db, organisationId, vehicleIds),
    inputs.findCapacityDimensions(db, organisationId),
    inputs.findRoutingSettings(db, organisationId),
  ])
  return { capacities, vehicleTags, dimensions, routing: routingOf(settings) }
}

/** The jobs done or in progress on these shifts since `since`: what "planned from now" starts after. */
export function workInHand(db: Executor, organisationId: string, shiftIds: readonly string[], since: string) {
  return inputs.findWorkInHand(db, organisationId, shiftIds, since)
}
