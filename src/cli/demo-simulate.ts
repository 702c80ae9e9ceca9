// `fieldservice demo --simulate`: the demo's workers drive along their routes while the server runs,
// so a newcomer sees the board come alive. Each worker on shift acts as their phone would, through the
// same services: positions through the live module (ETAs recomputed, JOB_ETA_CHANGED as for phones),
// "On my way", start, the job's forms and complete through My day and the job lifecycle (events and
// webhooks as for a real phone).
//
// Whose clock: the server's, unchanged (simulated now = real now). `speed` only makes the workers
// drive and work faster. A clock offset or a fast clock injected into the server would keep the
// server's ETAs and My day consistent, but not the dashboard, which reads the browser's clock for
// its day, its now line and each position's age, nor the session, feed and lifecycle times, which
// read the system clock: the board would show positions hours old on the wrong day. With real time
// all of them agree; the cost is that only workers on shift now move, and a worker running ahead of
// the day waits at the customer until the job's window opens, as a technician would.
//
// One job overruns on purpose: of the jobs under way with a successor, the one whose successor has
// least time to spare takes twice its duration on the real clock, not sped up — the forecast reads the
// real clock, so only a real overrun pushes the successor towards AT_RISK — and goes on until that
// successor is AT_RISK (at most to the shift's end), for the dispatcher to try Re-plan rest of day.
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import type { Database } from '../db/types.js'
import type { LiveShift } from '../modules/live/schemas.js'
import { liveDay, recordPositions, refreshEtas } from '../modules/live/service.js'
import type { MyJob } from '../modules/my-day/schemas.js'
import { completeMyJob, myDay, setOffToMyJob, startMyJob, submitMyForm } from '../modules/my-day/service.js'
import { findOrganisation } from '../modules/organisations/service.js'
import type { Coordinates } from '../optimiser/model.js'
import { answersFor, moveTowards, type Routing, roundedDegrees } from './demo-simulate-motion.js'

export const DEFAULT_SIMULATION_SPEED = 20
export const SIMULATION_TICK_MS = 5000
/** A position this recent says where the worker is when the simulation starts (as the forecast's). */
const FRESH_POSITION_MS = 15 * 60_000
const DAY_MS = 86_400_000
/** Steps one worker may take in one tick (finish, drive, start…): a bound, never reached in practice. */
const MAX_STEPS = 12

export interface DaySimulatorOptions {
  db: Kysely<Database>
  organisationId: string
  clock: Clock
  /** Simulated seconds of driving and working per real second. */
  speed: number
  /** Where tracking links of "On my way" point (PUBLIC_BASE_URL). */
  publicBaseUrl: string
  etaChangeMinutes: number
  /** Called after a tick that wrote something (wakes the webhook dispatcher). */
  onWrite?: () => void
  log: { info(object: object, message: string): void; warn(object: object, message: string): void }
  tickMs?: number
}

export interface TickReport {
  /** Workers whose position was recorded. */
  moved: string[]
  enRoute: string[]
  started: string[]
  completed: string[]
}

interface WorkerState {
  at: Coordinates
  /** Simulated seconds of work done on each job under way. */
  worked: Map<string, number>
}

export interface WorkerDay {
  shift: LiveShift
  jobs: MyJob[]
}

const iso = (at: number) => new Date(at).toISOString()
const utcDate = (at: number) => iso(at).slice(0, 10)
const point = (lat: string | null | undefined, lng: string | null | undefined) =>
  lat == null || lng == null ? null : { lat: Number(lat), lng: Number(lng) }
const placeOf = (job: MyJob) => point(job.latitude, job.longitude)

export class DaySimulator {
  private lastTick: number | undefined
  /** The job chosen to overrun: undefined until one is chosen, then its id for the whole run. */
  private overrun: string | undefined
  private readonly workers = new Map<string, WorkerState>()
  private timer: NodeJS.Timeout | undefined
  private running: Promise<unknown> = Promise.resolve()
  private saidIdle = false

  constructor(private readonly options: DaySimulatorOptions) {}

  get overrunJobId(): string | undefined {
    return this.overrun
  }

  /** Ticks now, then every tickMs; one tick at a time (a slow one delays the next, never overlaps it). */
  start(): void {
    if (this.timer) return
    const next = () => {
      this.running = this.running.then(() =>
        this.tick().catch((error) => this.options.log.warn({ err: error }, 'simulation tick failed')),
      )
    }
    this.timer = setInterval(next, this.options.tickMs ?? SIMULATION_TICK_MS)
    this.timer.unref()
    next()
  }

  /** Stops ticking and waits for a tick under way, so nothing writes after the database closes. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    await this.running
  }

  /** One step of the day: every worker on shift moves, works, sets off, starts or completes. */
  async tick(): Promise<TickReport> {
    const { db, organisationId, clock, speed } = this.options
    const now = clock()
    const budget = this.lastTick === undefined ? 0 : (Math.max(0, now - this.lastTick) / 1000) * speed
    this.lastTick = now
    const report: TickReport = { moved: [], enRoute: [], started: [], completed: [] }
    const days = await this.workersOnShift(now)
    if (days.length === 0) {
      if (!this.saidIdle) this.options.log.info({}, 'simulation: nobody is on shift now; waiting for a shift')
      this.saidIdle = true
      return report
    }
    this.saidIdle = false
    if (this.overrun === undefined) this.overrun = chooseOverrun(days)
    const organisation = await findOrganisation(db, organisationId)
    const routing = {
      detourFactor: organisation?.routing_detour_factor ?? 1.3,
      speedKmh: organisation?.routing_speed_kmh ?? 40,
    }
    for (const day of days) {
      try {
        await this.advance(day, now, budget, routing, report)
      } catch (error) {
        // The dispatcher may have moved the job meanwhile (re-plan, cancel): the next tick re-reads.
        this.options.log.warn({ err: error, workerId: day.shift.worker.id }, 'simulation: a step was refused')
      }
    }
    if (report.moved.length > 0) {
      await refreshEtas(db, organisationId, { thresholdMinutes: this.options.etaChangeMinutes }, now)
      this.options.onWrite?.()
    }
    return report
  }

  /** The shifts under way now, with each worker's jobs of the day. */
  private async workersOnShift(now: number): Promise<WorkerDay[]> {
    const { db, organisationId } = this.options
    const days: WorkerDay[] = []
    for (const shift of await shiftsUnderWay(db, organisationId, now)) {
      // My day lists all the worker's jobs of the date; another shift's that day wait for that shift.
      const own = new Set([...shift.stops.map((stop) => stop.jobId), shift.currentJob?.id])
      const jobs = (await myDay(db, organisationId, shift.worker.id, shift.date, now)).filter(
        (job) => own.has(job.id) || (job.status !== 'ASSIGNED' && job.status !== 'IN_PROGRESS'),
      )
      days.push({ shift, jobs })
    }
    return days
  }

  private async advance(
    { shift, jobs }: WorkerDay,
    now: number,
    budget: number,
    routing: Routing,
    report: TickReport,
  ): Promise<void> {
    const { db, organisationId } = this.options
    const userId = shift.worker.id
    const state = this.workers.get(userId) ?? this.startingState(shift, jobs, now)
    if (!state) return
    this.workers.set(userId, state)
    let left = budget
    for (let step = 0; step < MAX_STEPS; step++) {
      const current = jobs.find((job) => job.status === 'IN_PROGRESS')
      if (current) {
        const done = this.work(state, current, now, left, this.overrunHolds(shift, now))
        left = done.left
        if (!done.finished) break
        for (const { template, submission } of current.forms) {
          if (submission) continue
          await submitMyForm(db, organisationId, userId, current.id, template.id, answersFor(template.fields))
        }
        await completeMyJob(db, organisationId, userId, current.id, now, { completedAt: iso(now) })
        current.status = 'COMPLETED'
        report.completed.push(current.id)
        continue
      }
      const next = jobs.find((job) => job.status === 'ASSIGNED')
      const to = next && placeOf(next)
      if (!next || !to) break
      if (next.enRouteAt === null) {
        await setOffToMyJob(db, organisationId, userId, next.id, this.options.publicBaseUrl, iso(now))
        next.enRouteAt = iso(now)
        report.enRoute.push(next.id)
      }
      const move = moveTowards(state.at, to, left, routing)
      state.at = move.at
      left = move.left
      // Arrived early: a technician waits for the window the customer was promised.
      if (!move.arrived || (next.earliestStart !== null && Date.parse(next.earliestStart) > now)) break
      await startMyJob(db, organisationId, userId, next.id, now, { startedAt: iso(now) })
      Object.assign(next, { status: 'IN_PROGRESS', startedAt: iso(now) })
      state.worked.set(next.id, 0)
      this.overrun ??= jobs.some((job) => job.status === 'ASSIGNED') ? next.id : undefined
      report.started.push(next.id)
    }
    await recordPositions(
      db,
      organisationId,
      userId,
      [
        {
          latitude: roundedDegrees(state.at.lat),
          longitude: roundedDegrees(state.at.lng),
          accuracy: 10,
          recordedAt: iso(now),
        },
      ],
      now,
    )
    report.moved.push(userId)
  }

  /**
   * Whether the overrunning job, once past twice its duration, must go on: until the forecast has its
   * next stop AT_RISK or LATE (what the overrun is there to show), and no longer than the shift.
   */
  private overrunHolds(shift: LiveShift, now: number): boolean {
    const next = shift.stops[0]
    return next !== undefined && next.risk === 'ON_TIME' && now < Date.parse(shift.end)
  }

  /**
   * Work on the job under way for `seconds`; whether it is finished and what is left of the budget.
   * The overrunning job runs on the real clock: twice its duration since it started, then while
   * `holds` says so.
   */
  private work(state: WorkerState, job: MyJob, now: number, seconds: number, holds: boolean) {
    const elapsed = (now - Date.parse(job.startedAt ?? iso(now))) / 1000
    if (job.id === this.overrun) {
      return { finished: elapsed >= 2 * job.serviceDuration && !holds, left: 0 }
    }
    // A job found under way has been worked on since it started; then the budget adds to it.
    const worked = (state.worked.get(job.id) ?? elapsed) + seconds
    state.worked.set(job.id, worked)
    if (worked < job.serviceDuration) return { finished: false, left: 0 }
    return { finished: true, left: worked - job.serviceDuration }
  }

  /**
   * Where the worker is when first seen: a fresh position, else the job under way, else the last job
   * done today, else the depot. Null when none is known (no jobs, no position): nothing to move.
   */
  private startingState(shift: LiveShift, jobs: MyJob[], now: number): WorkerState | null {
    const position = shift.lastPosition
    const fresh =
      position && Date.parse(position.recordedAt) >= now - FRESH_POSITION_MS
        ? point(position.latitude, position.longitude)
        : null
    const current = jobs.find((job) => job.status === 'IN_PROGRESS')
    const lastDone = jobs
      .filter((job) => job.status === 'COMPLETED' && job.completedAt !== null)
      .sort((a, b) => (b.completedAt as string).localeCompare(a.completedAt as string))[0]
    const depot = jobs.find((job) => job.depot)?.depot
    const at =
      fresh ??
      (current && placeOf(current)) ??
      (lastDone && placeOf(lastDone)) ??
      point(depot?.latitude, depot?.longitude)
    return at ? { at, worked: new Map() } : null
  }
}

/**
 * The job to overrun among those under way that have a successor: the one whose successor has the
 * least time to spare once the overrun ends (the latest start its window allows, minus then), so that
 * AT_RISK shows soonest. Undefined when none is under way (the first job the simulation starts with
 * a successor is chosen then).
 */
/** The shifts under way at `now`, from start to end on each depot's clock, with their forecast. */
export async function shiftsUnderWay(
  db: Kysely<Database>,
  organisationId: string,
  now: number,
): Promise<LiveShift[]> {
  const found: LiveShift[] = []
  // Every zone's date at `now` is the UTC date, the day before or the day after.
  for (const date of new Set([utcDate(now - DAY_MS), utcDate(now), utcDate(now + DAY_MS)])) {
    for (const shift of await liveDay(db, organisationId, { date }, now)) {
      if (now >= Date.parse(shift.start) && now <= Date.parse(shift.end)) found.push(shift)
    }
  }
  return found
}

export function chooseOverrun(days: readonly WorkerDay[]): string | undefined {
  let best: { id: string; slack: number } | undefined
  for (const { jobs } of days) {
    const current = jobs.find((job) => job.status === 'IN_PROGRESS')
    const successor = jobs.find((job) => job.status === 'ASSIGNED')
    if (!current || !successor || current.startedAt === null) continue
    const overrunEnds = Date.parse(current.startedAt) + 2 * current.serviceDuration * 1000
    const latestStart =
      successor.latestEnd === null
        ? Number.POSITIVE_INFINITY
        : Date.parse(successor.latestEnd) - successor.serviceDuration * 1000
    const slack = latestStart - overrunEnds
    if (!best || slack < best.slack) best = { id: current.id, slack }
  }
  return best?.id
}
