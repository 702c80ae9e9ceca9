// "What is wrong with putting job J on worker U (shift S) at [start, end)?" — asked by a manual
// assignment (POST /jobs/:id/assign refuses the first HARD problem) and by the board before a drop
// (POST /jobs/:id/assignment-check lists them all). A route plan is not checked here: the optimiser
// only makes feasible routes, and applying one goes through bulk-dispatch.ts.
//
// The route rules are the optimiser's, not a copy: the shift's day is read as a plan reads it
// (route-plans/day-inputs.ts loadShiftRoute: hours, breaks, absences, start, capacities, vehicle
// tags), turned into a one-route RoutingModel by the plans' own toRoutingModel, the jobs already on it
// plus the candidate written as a Plan with their service starts fixed, and the optimiser's independent
// checker (optimiser/check.ts) judges it. Its violations that concern the candidate become problems;
// what was already wrong with the day before is not the candidate's problem. Windows are the job's own
// rule (VISIT_WITHIN, as the optimiser's), absences the shifts module's (assertWorkerPresent).
import type { Executor } from '../../db/types.js'
import { AppError, type ErrorCode, notFound } from '../../http/errors.js'
import { checkPlan } from '../../optimiser/check.js'
import type { Plan, PlannedBreak, PlannedStop, RoutingModel } from '../../optimiser/model.js'
import { greatCircleMatrix } from '../../optimiser/travel.js'
import { getUser } from '../organisations/users-service.js'
import { findTagsByIds } from '../reference-data/service.js'
import {
  type DayInputs,
  type JobInput,
  loadShiftRoute,
  type RouteInput,
  type ShiftRouteOfDay,
} from '../route-plans/day-inputs.js'
import { toRoutingModel } from '../route-plans/optimiser-model.js'
import { assertWorkerPresent, findWorkerZone } from '../shifts/absences-service.js'
import { DAY, localTime, weekdayOf } from '../shifts/zoned-time.js'
import * as repository from './assignment-check-repository.js'

/** In the order they are listed: hard first, then soft. */
export const ASSIGNMENT_PROBLEM_CODES = [
  'OUTSIDE_TIME_WINDOW',
  'WORKER_ABSENT',
  'OUTSIDE_SHIFT',
  'OVERLAP',
  'SKILL_MISSING',
  'CAPACITY_EXCEEDED',
  'SOFT_WINDOW_MISSED',
  'OVERTIME',
  'IN_THE_PAST',
] as const
export type AssignmentProblemCode = (typeof ASSIGNMENT_PROBLEM_CODES)[number]
/** The problems that refuse an assignment: each is also an error code of the catalogue (422). */
export type HardProblemCode = Extract<AssignmentProblemCode, ErrorCode>

const SOFT = new Set<AssignmentProblemCode>(['SOFT_WINDOW_MISSED', 'OVERTIME', 'IN_THE_PAST'])

export interface AssignmentProblem {
  code: AssignmentProblemCode
  severity: 'HARD' | 'SOFT'
  message: string
}

export interface ProposedAssignment {
  userId: string
  shiftId: string | null
  /** ISO instants, already validated (scheduledEnd after scheduledStart). */
  scheduledStart: string
  scheduledEnd: string
}

/** The window columns of a job. */
export interface JobWindow {
  time_window_type: 'HARD' | 'SOFT'
  earliest_start: string | null
  latest_end: string | null
}

/**
 * Why a visit breaks the job's HARD window, or null: a HARD-window job is visited inside
 * [earliestStart, latestEnd] or not at all (the optimiser drops it rather than break the window). A
 * missing bound is open; a SOFT window never refuses.
 */
export function hardWindowMessage(job: JobWindow, scheduledStart: string, scheduledEnd: string) {
  if (job.time_window_type !== 'HARD') return null
  const early = job.earliest_start !== null && Date.parse(scheduledStart) < Date.parse(job.earliest_start)
  const late = job.latest_end !== null && Date.parse(scheduledEnd) > Date.parse(job.latest_end)
  if (!early && !late) return null
  const window = `[${job.earliest_start ?? 'open'}, ${job.latest_end ?? 'open'}]`
  return (
    `The job has a HARD time window ${window}, which must be kept; the scheduled visit ${scheduledStart}–${scheduledEnd} ` +
    `${early ? 'starts before earliestStart' : 'ends after latestEnd'}. Schedule it inside the window, ` +
    'or change the window (or make it SOFT: preferred rather than must be kept) first'
  )
}

/** The first problem that refuses the assignment, or undefined. */
export const firstHardProblem = (problems: readonly AssignmentProblem[]) =>
  problems.find((problem) => problem.severity === 'HARD') as
    | (AssignmentProblem & { code: HardProblemCode })
    | undefined

/**
 * Every problem of the proposed visit, hard first (in ASSIGNMENT_PROBLEM_CODES order). The user and
 * shift must already have been checked to exist, be active and belong together (dispatch-service.ts
 * assertAssignable); the job must exist (404 otherwise). `now` in ms. Writes nothing.
 */
export async function checkAssignment(
  db: Executor,
  organisationId: string,
  jobId: string,
  proposal: ProposedAssignment,
  now: number,
): Promise<AssignmentProblem[]> {
  const job = await repository.findCheckedJob(db, organisationId, jobId)
  if (!job) throw notFound('Job')
  const problems: AssignmentProblem[] = []
  const add = (code: AssignmentProblemCode, message: string) => {
    if (problems.some((p) => p.code === code && p.message === message)) return
    problems.push({ code, severity: SOFT.has(code) ? 'SOFT' : 'HARD', message })
  }
  const start = Date.parse(proposal.scheduledStart)
  const end = Date.parse(proposal.scheduledEnd)

  try {
    await assertWorkerPresent(
      db,
      organisationId,
      proposal.userId,
      proposal.shiftId,
      proposal.scheduledStart,
      proposal.scheduledEnd,
    )
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'WORKER_ABSENT') throw error
    add('WORKER_ABSENT', error.message)
  }

  const zone = await findWorkerZone(db, organisationId, proposal.userId, proposal.shiftId)
  const date = localDate(start, zone)
  const when = timeWords(zone, date)
  const who = (await getUser(db, organisationId, proposal.userId)).name

  // The job's window (the rule of hardWindowMessage), worded for the dispatcher in the depot's time;
  // the API's 422 keeps the ISO instants integrators compare. HARD: "The window 13:00–17:00 must be
  // kept; this visit ends 2026-12-01 16:15". SOFT: "The customer asked for 13:00–15:00; …".
  const earliest = job.earliest_start === null ? null : Date.parse(job.earliest_start)
  const latest = job.latest_end === null ? null : Date.parse(job.latest_end)
  const early = earliest !== null && start < earliest
  const late = latest !== null && end > latest
  if (early || late) {
    const window = windowWords(earliest, latest, when, zone)
    const visit = `this visit ${early ? `starts ${when(start)}` : `ends ${when(end)}`}`
    if (job.time_window_type === 'HARD')
      add('OUTSIDE_TIME_WINDOW', `The window ${window} must be kept; ${visit}`)
    else add('SOFT_WINDOW_MISSED', `The customer asked for ${window}; ${visit}`)
  }
  if (start < now) add('IN_THE_PAST', `This visit starts ${when(start)}, which has passed (now ${when(now)})`)

  let shift: ShiftRouteOfDay | null = null
  if (proposal.shiftId !== null) {
    shift = await loadShiftRoute(db, organisationId, date, proposal.shiftId)
    if (shift === null) {
      add('OUTSIDE_SHIFT', `${who}'s shift does not run on ${weekdayWord(date)} ${date}`)
    } else if (shift.shiftDay.off) {
      if (shift.shiftDay.why === 'SHIFT_OFF') add('OUTSIDE_SHIFT', `${who}'s shift is off on ${date}`)
      else if (!problems.some((p) => p.code === 'WORKER_ABSENT'))
        add('WORKER_ABSENT', `${who} is away on ${date}`)
    }
    if (shift === null || shift.shiftDay.off) return sorted(problems)
  }

  const others = shift
    ? await repository.findScheduledJobs(
        db,
        organisationId,
        { shiftId: shift.route.shiftId },
        iso(localTime(Date.parse(`${date}T00:00:00Z`), 0, zone)),
        iso(localTime(Date.parse(`${date}T00:00:00Z`) + DAY, 0, zone)),
        jobId,
      )
    : await repository.findScheduledJobs(
        db,
        organisationId,
        { userId: proposal.userId },
        iso(start - DAY / 2),
        iso(end + DAY / 2),
        jobId,
      )
  const day = await dayOfCheck(db, organisationId, { job, start, end }, others, shift, proposal.userId, who)
  for (const [code, message] of routeProblems(day, who, when, shift !== null)) add(code, message)
  return sorted(problems)
}

const sorted = (problems: AssignmentProblem[]) =>
  problems.sort((a, b) => ASSIGNMENT_PROBLEM_CODES.indexOf(a.code) - ASSIGNMENT_PROBLEM_CODES.indexOf(b.code))

const iso = (ms: number) => new Date(ms).toISOString()

function localDate(at: number, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, dateStyle: 'short' }).format(new Date(at))
}

function weekdayWord(date: string): string {
  const day = weekdayOf(date)
  return day.charAt(0) + day.slice(1).toLowerCase()
}

/** "13:00–17:00", "by 17:00" or "from 13:00", the second date left out when both ends share one. */
function windowWords(
  earliest: number | null,
  latest: number | null,
  when: (ms: number) => string,
  zone: string,
): string {
  if (earliest === null) return latest === null ? 'open' : `by ${when(latest)}`
  if (latest === null) return `from ${when(earliest)}`
  const sameDay = localDate(earliest, zone) === localDate(latest, zone)
  return `${when(earliest)}–${sameDay ? when(latest).slice(-5) : when(latest)}`
}

/** "14:05" in the zone, with the date before it when it is not `date` there. */
function timeWords(zone: string, date: string): (ms: number) => string {
  const clock = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
  return (ms) => {
    const on = localDate(ms, zone)
    return on === date ? clock.format(ms) : `${on} ${clock.format(ms)}`
  }
}

/** The one-route model of the day, the plan with every service start fixed, and what names them. */
interface CheckedDay {
  model: RoutingModel
  plan: Plan
  /** The candidate's index among the model's jobs (and so among the plan's stops' `job`). */
  candidate: number
  rows: repository.CheckedJobRow[]
  route: RouteInput
  /** Unix seconds of the model's time 0. */
  base: number
  /** Per route break: the part-day absence it stands for, if any (WORKER_ABSENT speaks for those). */
  absenceBreak: boolean[]
  dimensions: DayInputs['dimensions']
  tagNames: Map<string, string>
  travelSeconds: (fromJob: number | 'start', toJob: number) => number
}

const EPS = 1e-6
const NO_PLACE = { latitude: 0, longitude: 0 }

function positionOf(row: repository.CheckedJobRow) {
  const latitude = row.job_latitude ?? row.customer_latitude
  const longitude = row.job_longitude ?? row.customer_longitude
  return latitude !== null && longitude !== null
    ? { latitude: Number(latitude), longitude: Number(longitude) }
    : null
}

/**
 * Without a shift there is no vehicle, so no capacity or tags (the optimiser's skill rule is the
 * vehicle's tags) and no hours: a route open all day that starts where its first visit is.
 */
function routeWithoutShift(userId: string, userName: string): RouteInput {
  return {
    shiftId: '',
    userId,
    userName,
    // Never drawn: the check reports problems, not a route.
    userColour: 1,
    vehicleId: '',
    vehicleName: '',
    locationId: '',
    start: 0,
    end: 2 ** 40 * 1000,
    breaks: [],
    partAbsences: [],
    origin: NO_PLACE,
    startPosition: NO_PLACE,
    zone: 'UTC',
    inProgress: null,
    previousFirstJobId: null,
    endPolicy: 'END_AT_LAST_JOB',
    fixedCost: 0,
    costPerKm: 0,
    costPerHour: 0,
    speedFactor: 1,
    capacities: new Map(),
    tagIds: new Set(),
  }
}

async function dayOfCheck(
  db: Executor,
  organisationId: string,
  candidate: { job: repository.CheckedJobRow; start: number; end: number },
  others: repository.CheckedJobRow[],
  shift: ShiftRouteOfDay | null,
  userId: string,
  userName: string,
): Promise<CheckedDay> {
  const rows = [...others, candidate.job]
  const ids = rows.map((row) => row.id)
  const [tags, demands] = shift
    ? await Promise.all([
        repository.findTagsOfJobs(db, organisationId, ids),
        repository.findDemandsOfJobs(db, organisationId, ids),
      ])
    : [[], []]
  const route = shift ? shift.route : routeWithoutShift(userId, userName)
  const dimensions = shift ? shift.dimensions : []
  const routing = shift ? shift.routing : { detourFactor: 1.3, speedKmh: 40, latenessPenaltyPerMinute: 1 }
  const visits = rows.map((row, index) =>
    index === rows.length - 1
      ? { start: candidate.start, end: candidate.end }
      : { start: Date.parse(row.scheduled_start as string), end: Date.parse(row.scheduled_end as string) },
  )
  // Each visit lasts as long as it is scheduled for (the board's block), windows left to the job's rule.
  const jobs = rows.map(
    (row, index): JobInput => ({
      id: row.id,
      title: row.title,
      status: 'ASSIGNED',
      priority: 'NORMAL',
      position: positionOf(row),
      serviceSeconds: ((visits[index]?.end ?? 0) - (visits[index]?.start ?? 0)) / 1000,
      windowType: row.time_window_type,
      earliest: null,
      latest: null,
      demands: new Map(
        demands.filter((d) => d.job_id === row.id).map((d) => [d.capacity_dimension_id, d.required_value]),
      ),
      tagIds: tags.filter((t) => t.job_id === row.id).map((t) => t.tag_id),
      pinnedShiftId: null,
      assignedUserId: null,
      shiftId: null,
      scheduledStart: null,
    }),
  )
  const day: DayInputs = {
    date: '',
    mode: 'KEEP_ASSIGNED',
    at: candidate.start,
    cutoff: null,
    stability: 0,
    balance: 'NONE',
    routing,
    routes: [route],
    offRoutes: [],
    jobs,
    closedJobs: [],
    dimensions,
    versions: { jobs: {}, shifts: {}, vehicles: {}, users: {}, customers: {}, locations: {} },
  }
  const unix = toRoutingModel(day)
  // The checker's tolerances are relative to the times' size (1e-6 of Unix seconds is half an hour):
  // its clock here starts at the shift's start (without one, a day before the first visit).
  const first = unix.routes[0] as RoutingModel['routes'][number]
  const base = shift
    ? first.window[0]
    : Math.floor(Math.min(...visits.map((v) => v.start)) / 1000) - DAY / 1000
  const model: RoutingModel = {
    ...unix,
    routes: unix.routes.map((route) => ({
      ...route,
      window: [route.window[0] - base, route.window[1] - base] as [number, number],
      breaks: route.breaks.map((b) => ({ ...b, start: b.start - base, end: b.end - base })),
    })),
  }
  // A place nobody knows (a job without coordinates, the start of a worker without a shift) is no
  // travel from or to anywhere, as the live forecast counts it.
  const nowhere = new Set<number>(shift ? [] : [model.routes[0]?.start ?? 0])
  model.jobs = model.jobs.map((spec) => {
    if (spec.location !== null) return spec
    model.locations.push({ lat: 0, lng: 0 })
    nowhere.add(model.locations.length - 1)
    return { ...spec, location: model.locations.length - 1 }
  })
  const travel = greatCircleMatrix(model.locations, routing)
  for (const place of nowhere) {
    for (let other = 0; other < travel.size; other++) {
      for (const cell of [place * travel.size + other, other * travel.size + place]) {
        travel.distance[cell] = 0
        travel.duration[cell] = 0
      }
    }
  }
  model.travel = travel
  const spec = model.routes[0] as RoutingModel['routes'][number]
  const locationOf = (job: number | 'start') =>
    job === 'start' ? spec.start : (model.jobs[job]?.location as number)
  const travelSeconds = (from: number | 'start', to: number) =>
    (travel.duration[locationOf(from) * travel.size + locationOf(to)] ?? 0) / spec.speedFactor

  const stops: PlannedStop[] = model.jobs
    .map((job, index) => ({ job, index, start: (visits[index]?.start ?? 0) / 1000 - base }))
    .sort((a, b) => a.start - b.start)
    .map(({ job, index, start }) => ({
      job: index,
      jobId: job.id,
      arrival: start,
      serviceStart: start,
      serviceEnd: start + job.serviceSeconds,
      travelDistance: 0,
      travelTime: 0,
      load: [],
      lateness: 0,
    }))
  // A break is taken after the visits that start before it; one a visit runs into is the checker's
  // BREAK_OVERLAP, a visit that starts in one its TRAVEL_TOO_FAST.
  const breaks: PlannedBreak[] = spec.breaks.flatMap((b, index) =>
    b.start >= spec.window[0] && b.end <= spec.window[1] && b.end >= b.start
      ? [
          {
            break: index,
            start: b.start,
            end: b.end,
            afterStops: stops.filter((s) => s.serviceStart < b.start).length,
          },
        ]
      : [],
  )
  const last = stops.at(-1) as PlannedStop
  let arrival = last.serviceEnd
  for (const b of breaks) if (b.afterStops === stops.length) arrival = Math.max(arrival, b.end)
  if (spec.end === 'RETURN_TO_ORIGIN') {
    const home = spec.endLocation ?? spec.start
    arrival += (travel.duration[locationOf(last.job) * travel.size + home] ?? 0) / spec.speedFactor
  }
  const noCost = { fixed: 0, distance: 0, time: 0, lateness: 0, total: 0 }
  const plan: Plan = {
    routes: [
      {
        route: 0,
        routeId: spec.id,
        departure: spec.window[0],
        arrival,
        stops,
        breaks,
        distance: 0,
        travelTime: 0,
        serviceTime: 0,
        waitingTime: 0,
        breakTime: 0,
        duration: arrival - spec.window[0],
        load: [],
        cost: noCost,
      },
    ],
    unassigned: [],
    cost: noCost,
    stats: {
      seed: 0,
      iterations: 0,
      elapsedMs: 0,
      bestIteration: 0,
      bestElapsedMs: 0,
      assigned: stops.length,
      unassigned: 0,
      cancelled: false,
      converged: true,
      operators: [],
    },
  }
  // Names for SKILL_MISSING's words: only tags the vehicle lacks are ever named (usually none).
  const lacking = (jobs.at(-1)?.tagIds ?? []).filter((tag) => !route.tagIds.has(tag))
  const tagNames = new Map(
    (await findTagsByIds(db, organisationId, lacking)).map((tag) => [tag.id, tag.name]),
  )
  return {
    model,
    plan,
    candidate: rows.length - 1,
    rows,
    route,
    base,
    absenceBreak: shift && !shift.shiftDay.off ? shift.shiftDay.breaks.map((b) => b.absenceId !== null) : [],
    dimensions,
    tagNames,
    travelSeconds,
  }
}

const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60 - EPS))

/** The checker's verdict on the day, as problems of the candidate (codes that concern it only). */
function routeProblems(
  day: CheckedDay,
  who: string,
  when: (ms: number) => string,
  onShift: boolean,
): [AssignmentProblemCode, string][] {
  const out: [AssignmentProblemCode, string][] = []
  const { model, plan, candidate: c } = day
  const planned = plan.routes[0] as Plan['routes'][number]
  const spec = model.routes[0] as RoutingModel['routes'][number]
  const stops = planned.stops
  const position = stops.findIndex((stop) => stop.job === c)
  const visit = stops[position] as PlannedStop
  const at = (seconds: number) => when((seconds + day.base) * 1000)
  const nameOf = (job: number) => {
    const row = day.rows[job] as repository.CheckedJobRow
    return `J-${row.number} “${row.title}”`
  }
  const drive = (seconds: number) => (seconds >= 30 ? `, ${minutes(seconds)} min drive away,` : '')

  const [opens, closes] = spec.window
  const inHours = !onShift || (visit.serviceStart >= opens && visit.serviceStart < closes)
  if (!inHours) {
    out.push([
      'OUTSIDE_SHIFT',
      visit.serviceStart < opens
        ? `${who}'s shift starts ${at(opens)}; this visit starts ${at(visit.serviceStart)}`
        : `${who}'s shift ends ${at(closes)}; this visit starts ${at(visit.serviceStart)}`,
    ])
  }
  const inBreak = planned.breaks.find(
    (b) => !day.absenceBreak[b.break] && visit.serviceStart >= b.start && visit.serviceStart < b.end,
  )
  if (inHours && inBreak) {
    out.push([
      'OUTSIDE_SHIFT',
      `This visit starts ${at(visit.serviceStart)}, during ${who}'s break ${at(inBreak.start)}–${at(inBreak.end)}`,
    ])
  }
  const said = !inHours || inBreak !== undefined

  /** The candidate cannot be reached in time: after the previous visit, a break, or the shift's start. */
  const fromBefore = () => {
    const previous = stops[position - 1]
    if (previous) {
      const driving = day.travelSeconds(previous.job, c)
      const short = previous.serviceEnd + driving - visit.serviceStart
      if (short > EPS) {
        out.push([
          'OVERLAP',
          `${who} is at ${nameOf(previous.job)} until ${at(previous.serviceEnd)}${drive(driving)} so this ` +
            `visit starts ${minutes(short)} min too early`,
        ])
        return
      }
    }
    if (said) return
    const breakBefore = planned.breaks.filter((b) => b.afterStops === position).at(-1)
    const driving = day.travelSeconds(previous ? previous.job : 'start', c)
    if (breakBefore) {
      if (day.absenceBreak[breakBefore.break]) return
      out.push([
        'OUTSIDE_SHIFT',
        `The drive here (${minutes(driving)} min) would cut into ${who}'s break ` +
          `${at(breakBefore.start)}–${at(breakBefore.end)}; this visit can start ${at(breakBefore.end + driving)} at the earliest`,
      ])
      return
    }
    if (!previous) {
      out.push([
        'OVERTIME',
        `${who} would leave at ${at(visit.serviceStart - driving)} to be here by ${at(visit.serviceStart)}, ` +
          `before the shift starts ${at(opens)}`,
      ])
    }
  }
  /** The next visit cannot be reached in time after the candidate. */
  const intoNext = () => {
    const next = stops[position + 1] as PlannedStop
    const driving = day.travelSeconds(c, next.job)
    const short = visit.serviceEnd + driving - next.serviceStart
    if (short > EPS) {
      out.push([
        'OVERLAP',
        `${who} must be at ${nameOf(next.job)} by ${at(next.serviceStart)}${drive(driving)} so this visit ` +
          `ends ${minutes(short)} min too late`,
      ])
    }
  }

  const missingTags: string[] = []
  for (const violation of checkPlan(model, plan)) {
    switch (violation.code) {
      case 'TRAVEL_TOO_FAST':
        if (violation.job === c) fromBefore()
        else if (violation.job !== undefined && violation.job === stops[position + 1]?.job) intoNext()
        break
      case 'BREAK_OVERLAP': {
        const taken = planned.breaks.find((b) => b.break === violation.break)
        if (!taken || said || day.absenceBreak[taken.break] || taken.afterStops !== position + 1) break
        out.push([
          'OUTSIDE_SHIFT',
          `This visit (${at(visit.serviceStart)}–${at(visit.serviceEnd)}) runs into ${who}'s break ` +
            `${at(taken.start)}–${at(taken.end)}`,
        ])
        break
      }
      case 'SKILL':
        if (violation.job === c) {
          for (const tag of model.jobs[c]?.skills ?? [])
            if (!spec.skills.includes(tag) && !missingTags.includes(tag)) missingTags.push(tag)
        }
        break
      case 'CAPACITY': {
        const d = violation.dimension ?? -1
        const demand = model.jobs[c]?.demand[d] ?? 0
        if (demand <= 0) break
        const load = model.jobs.reduce((sum, job) => sum + (job.demand[d] ?? 0), 0)
        const dimension = day.dimensions[d]
        out.push([
          'CAPACITY_EXCEEDED',
          `${day.route.vehicleName} would carry ${load} ${dimension?.label ?? dimension?.key ?? ''} that day ` +
            `with this job (${demand}); it holds ${spec.capacity[d] ?? 0}`,
        ])
        break
      }
      case 'SHIFT_END':
        if (!said && position === stops.length - 1) {
          const back = spec.end === 'RETURN_TO_ORIGIN' ? `, back at the start ${at(planned.arrival)}` : ''
          out.push([
            'OVERTIME',
            `${who}'s shift ends ${at(closes)}; this visit ends ${at(visit.serviceEnd)}${back}`,
          ])
        }
        break
    }
  }
  if (missingTags.length > 0) {
    const names = missingTags.map((tag) => day.tagNames.get(tag) ?? tag)
    out.push([
      'SKILL_MISSING',
      `The job needs ${names.join(', ')}; ${day.route.vehicleName} (${who}'s vehicle) lacks ${names.length === 1 ? 'it' : 'them'}`,
    ])
  }
  return out
}
