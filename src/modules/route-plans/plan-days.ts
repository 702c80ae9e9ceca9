// The days a plan covers (issue 32 §3, "a week at a time"). A plan of one day is that day's inputs. A
// plan of several days (dateFrom..dateTo, ≤ 7) is one optimiser model of all of them: every day is
// read as a plan of that day reads it (day-inputs.ts, so shifts, absences, one-off changes and
// "planned from now" hold per day), then each day's routes are moved back by whole days onto the first
// day's clock — the shift of Tuesday 08:00–17:00 and Monday's then have the same times — and a route
// is one shift on one day. A job that may be done on several of the days (its window spans them, it
// has none, or its `dueBy` allows them) may go on the routes of any of them (the model's
// `allowedRoutes`) in one window that holds on each of those days; the search places it on the day
// where it costs least. The result is moved forward again, route by route, so it reads as the days do.
import type { Executor } from '../../db/types.js'
import { AppError } from '../../http/errors.js'
import { DAY } from '../shifts/zoned-time.js'
import {
  type DayInputs,
  type DayRequest,
  type JobInput,
  loadDayInputs,
  planDates,
  type RouteInput,
} from './day-inputs.js'
import { isOnDate } from './from-now.js'
import { changesOf } from './optimiser-model.js'
import { MAX_PLAN_DAYS, type RoutePlanResult } from './schemas.js'

/** What the runner solves, and how its result becomes the plan's. */
export interface PlanInputs {
  /** The model's input: a day, or several days on the first one's clock. */
  day: DayInputs
  /** The solver's result of `day` as the plan's: routes on their days, each day's totals. */
  finish(result: RoutePlanResult): RoutePlanResult
}

/**
 * The days of a plan request: `date`, or `dateFrom`..`dateTo` (a range of one day is that day). 400
 * naming the field when neither or both are given, a bound is missing, the range runs backwards or is
 * longer than MAX_PLAN_DAYS, or REPLAN_REMAINING (the rest of today) is asked of several days.
 */
export function requestedDays(request: { date?: string; dateFrom?: string; dateTo?: string; mode: string }): {
  date: string
  dateTo: string | null
} {
  const invalid = (path: string, message: string) =>
    new AppError('VALIDATION_ERROR', `${path}: ${message}`, [{ path: `/body/${path}`, message }])
  const { date, dateFrom, dateTo } = request
  if (date !== undefined) {
    if (dateFrom !== undefined || dateTo !== undefined)
      throw invalid(
        dateFrom !== undefined ? 'dateFrom' : 'dateTo',
        'give either date, or dateFrom and dateTo',
      )
    return { date, dateTo: null }
  }
  if (dateFrom === undefined && dateTo === undefined)
    throw invalid('date', 'required: the day to plan (or dateFrom and dateTo for several days)')
  if (dateFrom === undefined) throw invalid('dateFrom', 'required with dateTo')
  if (dateTo === undefined) throw invalid('dateTo', 'required with dateFrom')
  if (dateTo < dateFrom) throw invalid('dateTo', `must be on or after dateFrom (${dateFrom})`)
  const days = planDates(dateFrom, dateTo).length
  if (days > MAX_PLAN_DAYS)
    throw invalid('dateTo', `at most ${MAX_PLAN_DAYS} days from dateFrom (${dateFrom}..${dateTo} is ${days})`)
  if (days > 1 && request.mode === 'REPLAN_REMAINING')
    throw invalid('mode', 'REPLAN_REMAINING re-plans the rest of today: give date, not a range')
  return { date: dateFrom, dateTo: days > 1 ? dateTo : null }
}

/** Reads what a plan of `request.date` (and, with `dateTo`, of every day to it) works on. */
export async function loadPlanInputs(
  db: Executor,
  organisationId: string,
  request: DayRequest & { dateTo: string | null },
): Promise<PlanInputs> {
  if (request.dateTo === null) {
    const day = await loadDayInputs(db, organisationId, request)
    return { day, finish: (result) => withDays(result, [request.date], () => request.date) }
  }
  const days: DayInputs[] = []
  for (const date of planDates(request.date, request.dateTo))
    days.push(await loadDayInputs(db, organisationId, { ...request, date }))
  return mergeDays(days)
}

/** The key of one shift's route on the k-th day of the plan, in the merged model. */
const routeKey = (shiftId: string, date: string) => `${shiftId}@${date}`

function shiftRoute(route: RouteInput, date: string, by: number): RouteInput {
  return {
    ...route,
    shiftId: routeKey(route.shiftId, date),
    start: route.start - by,
    end: route.end - by,
    breaks: route.breaks.map((b) => ({ ...b, start: b.start - by, end: b.end - by })),
    inProgress: route.inProgress && {
      ...route.inProgress,
      startedAt: route.inProgress.startedAt - by,
      expectedEnd: route.inProgress.expectedEnd - by,
    },
  }
}

interface Interval {
  lo: number
  hi: number
}

/**
 * The one window a job flexible over several days keeps in the merged model, and the days it may go on
 * with it. `windows[k]` is its window on day k on the first day's clock (±∞ where open), `spans[k]` the
 * times day k's routes can reach (null: no route that day). A day takes the window W when W holds
 * there exactly as the day's own window does within its routes' reach (W ∩ span ⊆ window, and not
 * empty), so the plan never breaks a day's window. Of the days' own windows as W, the one taken by
 * most days, then with the most time on them, then the earliest.
 */
export function chooseWindow(
  windows: readonly (Interval | null)[],
  spans: readonly (Interval | null)[],
): { window: Interval; days: number[] } | null {
  let best: { window: Interval; days: number[]; time: number } | null = null
  for (const candidate of windows) {
    if (candidate === null) continue
    const days: number[] = []
    let time = 0
    windows.forEach((own, k) => {
      const span = spans[k]
      if (own === null || !span) return
      const lo = Math.max(candidate.lo, span.lo)
      const hi = Math.min(candidate.hi, span.hi)
      if (lo >= hi) return
      if (lo < Math.max(own.lo, span.lo) || hi > Math.min(own.hi, span.hi)) return
      days.push(k)
      time += hi - lo
    })
    if (
      days.length > 0 &&
      (best === null ||
        days.length > best.days.length ||
        (days.length === best.days.length && time > best.time))
    )
      best = { window: candidate, days, time }
  }
  return best && { window: best.window, days: best.days }
}

/** Several days' inputs as one model's (module comment). */
export function mergeDays(days: readonly DayInputs[]): PlanInputs {
  const first = days[0]
  if (!first) throw new Error('a plan covers at least one day')
  const dates = days.map((day) => day.date)
  const offset = (k: number) => k * DAY
  const routes = days.flatMap((day, k) => day.routes.map((route) => shiftRoute(route, day.date, offset(k))))
  const offRoutes = days.flatMap((day, k) =>
    day.offRoutes.map((route) => ({ ...shiftRoute(route, day.date, offset(k)), off: route.off })),
  )
  const spans = days.map((day, k): Interval | null =>
    day.routes.length === 0
      ? null
      : {
          lo: Math.min(...day.routes.map((r) => r.start)) - offset(k),
          hi: Math.max(...day.routes.map((r) => r.end)) - offset(k),
        },
  )
  // Each route's key → its shift, its day, and whether it happens (a shift that is off that day does not).
  const keys = new Map<string, { shiftId: string; k: number; on: boolean }>(
    days.flatMap((d, k) => [
      ...d.routes.map((r) => [routeKey(r.shiftId, d.date), { shiftId: r.shiftId, k, on: true }] as const),
      ...d.offRoutes.map((r) => [routeKey(r.shiftId, d.date), { shiftId: r.shiftId, k, on: false }] as const),
    ]),
  )
  const happens = (key: string) => keys.get(key)?.on === true
  // The day a shift's job is assigned on: the date its scheduled start falls on in the depot's zone.
  const zoneOfShift = new Map(
    days.flatMap((d) => [...d.routes, ...d.offRoutes]).map((r) => [r.shiftId, r.zone]),
  )
  const assignedDay = (job: JobInput): number | null => {
    if (job.status !== 'ASSIGNED' || job.shiftId === null) return null
    const zone = zoneOfShift.get(job.shiftId)
    if (zone === undefined) return null
    if (job.scheduledStart === null)
      return Math.max(
        0,
        dates.findIndex((date) => happens(routeKey(job.shiftId as string, date))),
      )
    const k = dates.findIndex((date) => isOnDate(date, job.scheduledStart as number, zone))
    return k < 0 ? null : k
  }

  const closed = new Map(days.flatMap((day) => day.closedJobs.map((job) => [job.id, job])))
  const byJob = new Map<string, { k: number; job: JobInput }[]>()
  days.forEach((day, k) => {
    for (const job of day.jobs) {
      if (closed.has(job.id)) continue
      const seen = byJob.get(job.id)
      if (seen) seen.push({ k, job })
      else byJob.set(job.id, [{ k, job }])
    }
  })
  const routesOfDayList = days.map((day) => day.routes.map((r) => routeKey(r.shiftId, day.date)))
  const context = { spans, offset, dates, routesOfDay: (k: number) => routesOfDayList[k] ?? [] }
  const jobs: JobInput[] = []
  /** Each job as it stands, with its assigned route's key: what the plan's list of changes compares. */
  const before: JobInput[] = []
  for (const entries of byJob.values()) {
    const job = entries[0]!.job
    const onDay = assignedDay(job)
    // Assigned to a shift on a day outside the plan (or to a shift it does not have): left alone.
    if (job.status === 'ASSIGNED' && job.shiftId !== null && onDay === null) continue
    const assignedKey = onDay === null || job.shiftId === null ? null : routeKey(job.shiftId, dates[onDay]!)
    // KEEP_ASSIGNED keeps an assigned job on its route — unless that shift does not happen that day
    // (its worker away): then it is planned again like a waiting job, as a plan of one day does.
    const pinned =
      first.mode === 'KEEP_ASSIGNED' &&
      job.status === 'ASSIGNED' &&
      assignedKey !== null &&
      happens(assignedKey)
    jobs.push(mergedJob(job, entries, context, assignedKey, pinned ? onDay : null))
    before.push({ ...job, shiftId: assignedKey })
  }
  for (const route of routes) route.previousFirstJobId = firstAssigned(route.shiftId, before)

  const versions = { ...first.versions }
  for (const table of Object.keys(versions) as (keyof DayInputs['versions'])[]) {
    versions[table] = Object.assign({}, ...days.map((day) => day.versions[table]).reverse())
  }
  const day: DayInputs = {
    ...first,
    routes,
    offRoutes,
    jobs,
    closedJobs: [...closed.values()],
    versions,
  }
  return {
    day,
    finish(result) {
      // Forward again, route by route; the changes are worked out on the routes' keys (a shift on
      // another day is another route), then named by shift.
      const moved = result.routes.map((route) => {
        const { shiftId, k } = keys.get(route.shiftId) ?? { shiftId: route.shiftId, k: 0 }
        const by = offset(k)
        const later = (at: string) => new Date(Date.parse(at) + by).toISOString()
        return {
          shiftId,
          route: {
            ...route,
            start: later(route.start),
            end: later(route.end),
            breaks: route.breaks.map((b) => ({ ...b, start: later(b.start), end: later(b.end) })),
            stops: route.stops.map((stop) => ({
              ...stop,
              arrival: later(stop.arrival),
              serviceStart: later(stop.serviceStart),
              serviceEnd: later(stop.serviceEnd),
            })),
          },
        }
      })
      const keyed = moved.map((m) => m.route)
      const plain = { ...day, jobs: before, routes: [...routes], offRoutes }
      const shiftOf = (key: string | null) => (key === null ? null : (keys.get(key)?.shiftId ?? key))
      const changes = changesOf(plain, keyed).map((change) => ({
        ...change,
        from: change.from && { ...change.from, shiftId: shiftOf(change.from.shiftId) },
        to: change.to && { ...change.to, shiftId: shiftOf(change.to.shiftId) },
      }))
      const routesOut = moved.map(({ shiftId, route }) => ({
        ...route,
        shiftId,
        date: dates[keys.get(route.shiftId)?.k ?? 0]!,
      }))
      return withDays({ ...result, routes: routesOut, changes }, dates, (route) => route.date ?? dates[0]!)
    },
  }
}

/** The job as the merged model takes it: its one window, the routes it may go on, its pin. */
function mergedJob(
  job: JobInput,
  entries: readonly { k: number; job: JobInput }[],
  context: {
    spans: readonly (Interval | null)[]
    offset: (k: number) => number
    dates: readonly string[]
    routesOfDay: (k: number) => string[]
  },
  assignedKey: string | null,
  pinnedDay: number | null,
): JobInput {
  const { spans, offset, dates, routesOfDay } = context
  const windows: (Interval | null)[] = dates.map(() => null)
  for (const { k, job: onDay } of entries) {
    windows[k] = {
      lo: onDay.earliest === null ? Number.NEGATIVE_INFINITY : onDay.earliest - offset(k),
      hi: onDay.latest === null ? Number.POSITIVE_INFINITY : onDay.latest - offset(k),
    }
  }
  let chosen: { window: Interval; days: number[] }
  if (pinnedDay !== null) {
    // KEEP_ASSIGNED: on its shift, on its day, in that day's window.
    chosen = { window: windows[pinnedDay] ?? { lo: -Infinity, hi: Infinity }, days: [pinnedDay] }
  } else {
    // A dueBy keeps the job to the days up to it; when none of its days is (it is late already, or
    // its window opens after it), to the first of them: as soon as it can be done.
    let days = entries.map((e) => e.k)
    if (job.dueBy) {
      const onTime = days.filter((k) => dates[k]! <= (job.dueBy as string))
      days = onTime.length > 0 ? onTime : days.slice(0, 1)
    }
    const open = windows.map((w, k) => (days.includes(k) ? w : null))
    // No day where the window meets the routes: offered to them all, so the search says why (TIME_WINDOW).
    chosen = chooseWindow(open, spans) ?? { window: open[days[0]!]!, days }
  }
  const { lo, hi } = chosen.window
  return {
    ...job,
    earliest: Number.isFinite(lo) ? lo : null,
    latest: Number.isFinite(hi) ? hi : null,
    pinnedShiftId: pinnedDay === null ? null : assignedKey,
    shiftId: assignedKey,
    allowedShiftIds: chosen.days.flatMap(routesOfDay),
  }
}

/** The route's next stop before the plan: its first ASSIGNED job by time (as from-now.ts reads it). */
function firstAssigned(key: string, jobs: readonly JobInput[]): string | null {
  let first: JobInput | null = null
  for (const job of jobs) {
    if (job.status !== 'ASSIGNED' || job.shiftId !== key || job.scheduledStart === null) continue
    if (first === null || job.scheduledStart < (first.scheduledStart ?? Number.POSITIVE_INFINITY)) first = job
  }
  return first?.id ?? null
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits

/** Each route's date, and each day's totals (days without routes included). */
function withDays(
  result: RoutePlanResult,
  dates: readonly string[],
  dateOf: (route: RoutePlanResult['routes'][number]) => string,
): RoutePlanResult {
  const routes = result.routes.map((route) => ({ ...route, date: dateOf(route) }))
  const days = dates.map((date) => {
    const onDay = routes.filter((route) => route.date === date)
    const sum = (of: (route: (typeof routes)[number]) => number) =>
      onDay.reduce((total, r) => total + of(r), 0)
    return {
      date,
      routesUsed: onDay.length,
      assignedJobs: sum((r) => r.stops.filter((stop) => !stop.inProgress).length),
      km: round(
        sum((r) => r.totals.km),
        3,
      ),
      hours: round(
        sum((r) => r.totals.hours),
        3,
      ),
      cost: round(
        sum((r) => r.totals.cost),
        2,
      ),
    }
  })
  return { ...result, routes, days }
}
