// The plan runner: every instance runs one. It claims QUEUED plans (exactly once across instances:
// FOR UPDATE SKIP LOCKED and a status-checked update), reads the day, solves it off the event loop,
// reports progress as a heartbeat, and stores the result. Progress is written from the claim on —
// LOADING while the day is read, BUILDING while the first plan is, then SEARCHING — and with every
// heartbeat, so its elapsed time never stands still while the plan runs. A plan whose runner goes
// silent (its process died) is failed by any other runner's sweep, so none stays RUNNING for ever;
// one running when this process shuts down is put back in the queue for the next instance.
import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import { nowIso } from '../../db/ids.js'
import type { Database, RoutePlanRow } from '../../db/types.js'
import type { DayInputs } from './day-inputs.js'
import { loadPlanInputs } from './plan-days.js'
import * as repository from './repository.js'
import type { PlanBalance, PlanMode, PlanPhase, RoutePlanProgress, RoutePlanResult } from './schemas.js'
import type { PlanInputsRecord } from './service.js'

/** What the solver reports; the runner adds the phases around it and the time since the claim. */
export interface SolveProgress {
  phase: Exclude<PlanPhase, 'LOADING'>
  iterations: number
  bestCost: number | null
  assignedJobs: number
}

/** Solves a day (off the event loop); resolves with the best plan found when time is up or on abort. */
export type DaySolver = (
  day: DayInputs,
  options: {
    /** Whose day it is: road travel times are cached per organisation and date. */
    organisationId: string
    timeLimitMs: number
    seed: number
    signal: AbortSignal
    onProgress(progress: SolveProgress): void
  },
) => Promise<RoutePlanResult>

export interface PlanRunnerOptions {
  /** Plans solved at once by this process (PLAN_WORKERS). */
  concurrency: number
  /** How often the queue is polled when nothing wakes the runner. */
  pollMs: number
  /** How often a running plan writes its progress (its heartbeat). */
  heartbeatMs: number
  /** A RUNNING plan silent for this long is failed. */
  staleAfterMs: number
}

export const PLAN_RUNNER_DEFAULTS: PlanRunnerOptions = {
  concurrency: 1,
  pollMs: 2000,
  heartbeatMs: 1000,
  staleAfterMs: 30_000,
}

export class PlanRunner {
  readonly id = randomUUID()
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>()
  private timer: NodeJS.Timeout | undefined
  private polling: Promise<void> | undefined
  private again = false
  private closed = false

  constructor(
    private readonly db: Kysely<Database>,
    private readonly solve: DaySolver,
    private readonly log: FastifyBaseLogger,
    private readonly options: PlanRunnerOptions = PLAN_RUNNER_DEFAULTS,
  ) {}

  start(): void {
    this.schedule(0)
  }

  /** A plan was queued: look now rather than at the next poll. */
  wake(): void {
    if (!this.closed) this.schedule(0)
  }

  /** Stops claiming; plans still running go back to the queue for another instance. */
  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.timer)
    await this.polling
    for (const { controller } of this.running.values()) controller.abort(new Error('shutting down'))
    await Promise.all([...this.running.values()].map((r) => r.done))
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => this.poll(), delayMs)
    this.timer.unref()
  }

  private poll(): void {
    if (this.polling) {
      this.again = true
      return
    }
    this.polling = this.claimAndRun()
      .catch((error) => this.log.warn({ err: error }, 'route plan runner: polling the queue failed'))
      .finally(() => {
        this.polling = undefined
        if (this.closed) return
        if (this.again) {
          this.again = false
          this.schedule(0)
        } else {
          this.schedule(this.options.pollMs)
        }
      })
  }

  private async claimAndRun(): Promise<void> {
    const at = Date.now()
    const failed = await repository.failSilentPlans(
      this.db,
      new Date(at - this.options.staleAfterMs).toISOString(),
      new Date(at).toISOString(),
    )
    if (failed > 0) this.log.warn({ failed }, 'route plans whose runner stopped were marked FAILED')
    while (!this.closed && this.running.size < this.options.concurrency) {
      const plan = await repository.claimQueuedPlan(this.db, this.id, nowIso(), CLAIMED_PROGRESS)
      if (!plan) return
      const controller = new AbortController()
      const done = this.run(plan, controller).finally(() => {
        this.running.delete(plan.id)
        this.wake()
      })
      this.running.set(plan.id, { controller, done })
    }
  }

  private async run(plan: RoutePlanRow, controller: AbortController): Promise<void> {
    const log = this.log.child({ routePlanId: plan.id, organisationId: plan.organisation_id })
    const claimedAt = Date.parse(plan.started_at ?? nowIso())
    let last: SolveProgress | null = null
    let phase: PlanPhase = 'LOADING'
    const progress = (): string => JSON.stringify(progressOf(claimedAt, phase, last))
    let lastBeat = 0
    let beating: Promise<unknown> = Promise.resolve()
    const beat = () => {
      lastBeat = Date.now()
      const at = nowIso()
      const changes = { heartbeat_at: at, updated_at: at, progress: progress() }
      beating = beating
        .then(() => repository.heartbeat(this.db, plan, this.id, changes))
        .then(({ owned, cancelRequested }) => {
          if (!owned) controller.abort(new Error('the plan is no longer this runner’s'))
          else if (cancelRequested) controller.abort(new Error('cancelled'))
        })
        .catch((error) => log.warn({ err: error }, 'route plan heartbeat failed'))
    }
    // The heartbeat also runs while the day is read and when the solver is quiet.
    const ticker = setInterval(() => {
      if (Date.now() - lastBeat >= this.options.heartbeatMs) beat()
    }, this.options.heartbeatMs)
    ticker.unref()
    try {
      const { day, finish } = await loadPlanInputs(this.db, plan.organisation_id, {
        date: plan.plan_date,
        dateTo: plan.date_to ?? null,
        mode: plan.mode as PlanMode,
        // Plans queued before migration 0023 have no instant: planned from each shift's start, as then.
        at: plan.plan_at === null ? Number.NEGATIVE_INFINITY : Date.parse(plan.plan_at),
        stability: plan.stability,
        balance: plan.balance as PlanBalance,
        locationId: plan.location_id,
        jobIds: plan.job_ids === null ? null : (JSON.parse(plan.job_ids) as string[]),
        shiftIds: plan.shift_ids === null ? null : (JSON.parse(plan.shift_ids) as string[]),
      })
      const record: PlanInputsRecord = {
        versions: day.versions,
        assignedJobIds: day.jobs.filter((j) => j.status === 'ASSIGNED').map((j) => j.id),
      }
      phase = 'BUILDING'
      beat()
      const solved = await this.solve(day, {
        organisationId: plan.organisation_id,
        timeLimitMs: plan.time_limit_seconds * 1000,
        seed: plan.seed,
        signal: controller.signal,
        onProgress: (reported) => {
          const changed = reported.phase !== phase
          last = reported
          phase = reported.phase
          if (changed || Date.now() - lastBeat >= this.options.heartbeatMs) beat()
        },
      })
      clearInterval(ticker)
      await beating
      const result = finish(solved)
      const at = nowIso()
      const reason = controller.signal.aborted ? String((controller.signal.reason as Error)?.message) : null
      if (reason === 'shutting down') {
        await repository.updateRoutePlanIf(this.db, plan.organisation_id, plan.id, ['RUNNING'], {
          status: 'QUEUED',
          claimed_by: null,
          heartbeat_at: null,
          progress: null,
          updated_at: at,
        })
        return
      }
      const finished = { progress: progress(), finished_at: at, updated_at: at }
      if (reason === 'cancelled') {
        await repository.finishOwnedPlan(this.db, plan, this.id, { status: 'CANCELLED', ...finished })
      } else if (reason === null) {
        await repository.finishOwnedPlan(this.db, plan, this.id, {
          status: 'DONE',
          result: JSON.stringify(result),
          inputs: JSON.stringify(record),
          ...finished,
        })
        log.info(
          { assigned: result.totals.assignedJobs, unassigned: result.totals.unassignedJobs },
          'route plan done',
        )
      }
    } catch (error) {
      clearInterval(ticker)
      log.error({ err: error }, 'route plan failed')
      const at = nowIso()
      await repository
        .finishOwnedPlan(this.db, plan, this.id, {
          status: 'FAILED',
          error: 'The optimiser failed on this plan; the error is in the service log',
          finished_at: at,
          updated_at: at,
        })
        .catch((e) => log.warn({ err: e }, 'could not record the failure of a route plan'))
    }
  }
}

/** The progress a plan is claimed with: non-null from the first moment it is RUNNING. */
export const CLAIMED_PROGRESS = JSON.stringify({
  phase: 'LOADING',
  elapsedSeconds: 0,
  iterations: 0,
  bestCost: null,
  assignedJobs: 0,
} satisfies RoutePlanProgress)

function progressOf(claimedAt: number, phase: PlanPhase, solver: SolveProgress | null): RoutePlanProgress {
  return {
    phase,
    elapsedSeconds: Math.max(0, Date.now() - claimedAt) / 1000,
    iterations: solver?.iterations ?? 0,
    bestCost: solver?.bestCost == null ? null : Math.round(solver.bestCost * 100) / 100,
    assignedJobs: solver?.assignedJobs ?? 0,
  }
}
