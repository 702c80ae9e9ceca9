// The live day of shifts: for each shift instance (a weekly template landing on a date in its depot's
// zone), where the worker is, what is under way, and when each remaining stop will be reached — the
// optimiser's forecastRoute fed from the database. Also the two doors other modules use: one job's
// eta (predictJobEta) and the workers' last known positions (lastKnownPositions).

import type { Executor } from '../../db/types.js'
import { type ForecastInput, forecastRoute, type StopForecast } from '../../optimiser/forecast.js'
import type { Coordinates } from '../../optimiser/model.js'
import { findShiftsOfWeekday } from '../shifts/service.js'
import { shiftDaysOn } from '../shifts/shift-days.js'
import { DAY, localTime, MINUTE, minutesOf, weekdayOf } from '../shifts/zoned-time.js'
import type { LiveJobRow, LiveShiftRow, PositionRow } from './repository.js'
import * as live from './repository.js'

/** A position younger than this says where the worker is. */
export const FRESH_POSITION_MS = 15 * MINUTE
/** Positions are taken this long before a shift starts and after it ends. */
export const SHIFT_GRACE_MS = 30 * MINUTE
/** How far back the live view looks for a worker's last position, fresh or not. */
const LAST_POSITION_LOOKBACK_MS = DAY

export interface ShiftInstance {
  shift: LiveShiftRow
  /** The calendar date (depot clock) it lands on. */
  date: string
  /** Instants in ms: the shift's start and end, and the depot's day around it. */
  start: number
  end: number
  dayStart: number
  dayEnd: number
  /** Breaks, and part-day absences inside the shift, as fixed intervals (ms). */
  breaks: { start: number; end: number }[]
}

export interface StopPrediction {
  job: LiveJobRow
  /** Instants in ms. */
  eta: number
  expectedStart: number
  expectedEnd: number
  risk: StopForecast['risk']
}

export interface ShiftPrediction {
  instance: ShiftInstance
  lastPosition: PositionRow | null
  currentJob: { job: LiveJobRow; expectedEnd: number } | null
  stops: StopPrediction[]
  /** When the route is expected to end, and how far past the shift's end (ms). */
  end: number
  overtime: number
}

const decimal = (value: string | null) => (value === null ? null : Number(value))
const point = (lat: string | null, lng: string | null): Coordinates | null => {
  const a = decimal(lat)
  const b = decimal(lng)
  return a === null || b === null ? null : { lat: a, lng: b }
}
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/**
 * The instances of `rows` (templates of the date's weekday) on `date`, with the date's one-off change
 * and the workers' absences applied (shifts/shift-days.ts): a shift off that date has no instance.
 */
async function instancesOn(
  db: Executor,
  date: string,
  rows: readonly LiveShiftRow[],
): Promise<ShiftInstance[]> {
  const dayUtc = Date.parse(`${date}T00:00:00.000Z`)
  const found: ShiftInstance[] = []
  for (const organisationId of new Set(rows.map((row) => row.organisation_id))) {
    const own = rows.filter((row) => row.organisation_id === organisationId)
    const days = await shiftDaysOn(db, organisationId, date, own, (row) => row.location_timezone)
    for (const shift of own) {
      const day = days.get(shift.id)
      if (!day || day.off) continue
      const zone = shift.location_timezone
      found.push({
        shift,
        date,
        start: day.start,
        end: day.end,
        dayStart: localTime(dayUtc, 0, zone),
        dayEnd: localTime(dayUtc + DAY, 0, zone),
        breaks: day.breaks.map(({ start, end }) => ({ start, end })),
      })
    }
  }
  return found
}

/** The shift instances of a calendar date (each on its depot's clock). */
export async function shiftsOn(
  db: Executor,
  organisationId: string,
  date: string,
  filters: { locationId?: string; userId?: string } = {},
): Promise<ShiftInstance[]> {
  const rows = await findShiftsOfWeekday(db, organisationId, weekdayOf(date), filters)
  return instancesOn(db, date, rows)
}

/**
 * The shift instances under way at `at` (from 30 min before their start to 30 min after their end):
 * of one organisation or worker, or of every organisation (organisationId null).
 */
export async function shiftsAround(
  db: Executor,
  organisationId: string | null,
  at: number,
  filters: { userId?: string } = {},
): Promise<ShiftInstance[]> {
  const instances = await shiftsBetween(db, organisationId, at, at, filters)
  return instances.filter((instance) => covers(instance, at))
}

/** Whether `at` falls within the instance, from 30 min before its start to 30 min after its end. */
export const covers = (instance: ShiftInstance, at: number) =>
  at >= instance.start - SHIFT_GRACE_MS && at <= instance.end + SHIFT_GRACE_MS

/** Every shift instance on the dates around [from, to] (a day either side: any zone's day). */
export async function shiftsBetween(
  db: Executor,
  organisationId: string | null,
  from: number,
  to: number,
  filters: { userId?: string } = {},
): Promise<ShiftInstance[]> {
  const found: ShiftInstance[] = []
  for (let day = Date.parse(utcDate(from - DAY)); day <= to + DAY; day += DAY) {
    const date = utcDate(day)
    const rows = await findShiftsOfWeekday(db, organisationId, weekdayOf(date), filters)
    found.push(...(await instancesOn(db, date, rows)))
  }
  return found
}

/** The job's window in ms, narrowed by its customer's opening hours on the shift's date. */
function windowOf(job: LiveJobRow, instance: ShiftInstance): [number | null, number | null] {
  let earliest = job.earliest_start === null ? null : Date.parse(job.earliest_start)
  let latest = job.latest_end === null ? null : Date.parse(job.latest_end)
  const opening = job.customer_operational_start
  const closing = job.customer_operational_end
  if (opening !== null && closing !== null && !(opening === '00:00' && closing === '23:59')) {
    const dayUtc = Date.parse(`${instance.date}T00:00:00.000Z`)
    const zone = instance.shift.location_timezone
    const opens = localTime(dayUtc, minutesOf(opening), zone)
    const closes = localTime(dayUtc, minutesOf(closing), zone)
    earliest = earliest === null ? opens : Math.max(earliest, opens)
    latest = latest === null ? closes : Math.min(latest, closes)
  }
  return [earliest, latest]
}

const placeOf = (job: LiveJobRow) =>
  point(job.job_latitude, job.job_longitude) ?? point(job.customer_latitude, job.customer_longitude)

function originOf(shift: LiveShiftRow): Coordinates {
  return (
    point(shift.start_latitude, shift.start_longitude) ??
    (point(shift.location_latitude, shift.location_longitude) as Coordinates)
  )
}

/**
 * Where the worker leaves from and when: the job under way (its place, at its expected end: started
 * at + service duration, or now when overdue), else a fresh position (now), else the last job done
 * today, else the route's origin — never before the shift starts.
 */
function startState(
  instance: ShiftInstance,
  jobs: LiveJobRow[],
  position: PositionRow | null,
  now: number,
): { from: Coordinates; freeAt: number; current: ShiftPrediction['currentJob'] } {
  const current = jobs.find((job) => job.status === 'IN_PROGRESS') ?? null
  const fresh = position && Date.parse(position.recorded_at) >= now - FRESH_POSITION_MS ? position : null
  const here = fresh ? point(fresh.latitude, fresh.longitude) : null
  const lastDone = jobs
    .filter((job) => job.status === 'COMPLETED' && job.completed_at !== null)
    .sort((a, b) => Date.parse(b.completed_at as string) - Date.parse(a.completed_at as string))[0]
  const fallback = here ?? (lastDone ? placeOf(lastDone) : null) ?? originOf(instance.shift)
  if (current) {
    const started = current.started_at === null ? now : Date.parse(current.started_at)
    const expectedEnd = Math.max(now, started + current.service_duration * 1000)
    return {
      from: placeOf(current) ?? fallback,
      freeAt: Math.max(expectedEnd, instance.start),
      current: { job: current, expectedEnd },
    }
  }
  return { from: fallback, freeAt: Math.max(now, instance.start), current: null }
}

const seconds = (ms: number) => ms / 1000
const ms = (s: number) => Math.round(s) * 1000

function predictInstance(
  instance: ShiftInstance,
  jobs: LiveJobRow[],
  position: PositionRow | null,
  routing: { detourFactor: number; speedKmh: number },
  now: number,
): ShiftPrediction {
  const { from, freeAt, current } = startState(instance, jobs, position, now)
  const remaining = jobs.filter((job) => job.status === 'ASSIGNED')
  const input: ForecastInput = {
    now: seconds(now),
    from,
    freeAt: seconds(freeAt),
    stops: remaining.map((job) => {
      const [earliest, latest] = windowOf(job, instance)
      return {
        jobId: job.id,
        location: placeOf(job),
        serviceSeconds: job.service_duration,
        window: [earliest === null ? null : seconds(earliest), latest === null ? null : seconds(latest)],
        windowType: job.time_window_type,
      }
    }),
    breaks: instance.breaks.map((b) => ({ start: seconds(b.start), end: seconds(b.end) })),
    shiftEnd: seconds(instance.end),
    returnTo: instance.shift.end_policy === 'END_AT_LAST_JOB' ? null : originOf(instance.shift),
    travel: { ...routing, speedFactor: instance.shift.speed_factor },
  }
  const forecast = forecastRoute(input)
  return {
    instance,
    lastPosition: position,
    currentJob: current,
    stops: forecast.stops.map((stop, i) => ({
      job: remaining[i] as LiveJobRow,
      eta: ms(stop.eta),
      expectedStart: ms(stop.expectedStart),
      expectedEnd: ms(stop.expectedEnd),
      risk: stop.risk,
    })),
    end: ms(forecast.end),
    overtime: ms(forecast.overtimeSeconds),
  }
}

/** Predicts each instance from what the database holds now (a handful of queries for them all). */
export async function predictShifts(
  db: Executor,
  organisationId: string,
  instances: readonly ShiftInstance[],
  now: number,
): Promise<ShiftPrediction[]> {
  if (instances.length === 0) return []
  const shiftIds = [...new Set(instances.map((i) => i.shift.id))]
  const from = new Date(Math.min(...instances.map((i) => i.dayStart))).toISOString()
  const to = new Date(Math.max(...instances.map((i) => i.dayEnd))).toISOString()
  const [jobs, settings, positions] = await Promise.all([
    live.findShiftJobs(db, organisationId, shiftIds, from, to),
    live.findRoutingSettings(db, organisationId),
    live.findLastPositions(
      db,
      organisationId,
      instances.map((i) => i.shift.user_id),
      new Date(now - LAST_POSITION_LOOKBACK_MS).toISOString(),
    ),
  ])
  const routing = {
    detourFactor: settings?.routing_detour_factor ?? 1.3,
    speedKmh: settings?.routing_speed_kmh ?? 40,
  }
  return instances.map((instance) => {
    const own = jobs.filter((job) => {
      const at = Date.parse(job.scheduled_start as string)
      return job.shift_id === instance.shift.id && at >= instance.dayStart && at < instance.dayEnd
    })
    return predictInstance(
      instance,
      own,
      positions.find((p) => p.user_id === instance.shift.user_id) ?? null,
      routing,
      now,
    )
  })
}

export interface JobEta {
  eta: string
  expectedStart: string
  risk: StopForecast['risk']
}

const iso = (at: number) => new Date(at).toISOString()

/**
 * One job's predicted arrival, service start and risk now, or null when it is not a remaining stop
 * of a shift (not assigned to one, already under way, done, or not found in this organisation).
 */
export async function predictJobEta(
  db: Executor,
  organisationId: string,
  jobId: string,
  now: number,
): Promise<JobEta | null> {
  const schedule = await live.findJobSchedule(db, organisationId, jobId)
  if (!schedule || schedule.scheduled_start === null) return null
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: schedule.timezone, dateStyle: 'short' }).format(
    new Date(schedule.scheduled_start),
  )
  const instances = (await shiftsOn(db, organisationId, date, { userId: schedule.user_id })).filter(
    (i) => i.shift.id === schedule.shift_id,
  )
  const [prediction] = await predictShifts(db, organisationId, instances, now)
  const stop = prediction?.stops.find((s) => s.job.id === jobId)
  return stop ? { eta: iso(stop.eta), expectedStart: iso(stop.expectedStart), risk: stop.risk } : null
}

export interface KnownPosition {
  latitude: number
  longitude: number
  accuracy: number | null
  recordedAt: string
}

/** Each worker's latest position recorded at or after `freshSince` (ms); workers without one are absent. */
export async function lastKnownPositions(
  db: Executor,
  organisationId: string,
  userIds: readonly string[],
  freshSince: number,
): Promise<Map<string, KnownPosition>> {
  const rows = await live.findLastPositions(db, organisationId, userIds, new Date(freshSince).toISOString())
  return new Map(
    rows.map((row) => [
      row.user_id,
      {
        latitude: Number(row.latitude),
        longitude: Number(row.longitude),
        accuracy: row.accuracy,
        recordedAt: row.recorded_at,
      },
    ]),
  )
}
