// Route plans (issue "Route optimiser"): queue a day to plan, follow it, cancel it, apply it. The
// search itself runs in a runner (runner.ts) on whichever instance claims the plan; applying goes
// through the job lifecycle, in one transaction, and only while every input is as the plan read it.
import { randomInt } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import { sqlBool } from '../../db/database.js'
import { newId, nowIso } from '../../db/ids.js'
import type { Database, Executor, JobRow, RoutePlanRow } from '../../db/types.js'
import { AppError, notFound } from '../../http/errors.js'
import { offsetOf, paginationOf } from '../../http/pagination.js'
import type { Pagination } from '../../http/schemas.js'
import { assignJobsIn, lockJobsIn } from '../jobs/bulk-dispatch.js'
import { dayChangesSince } from '../shifts/absences-service.js'
import {
  assertPlannable,
  DEFAULT_STABILITY,
  type InputVersions,
  planDates,
  resolvePlanInstant,
} from './day-inputs.js'
import * as inputs from './inputs-repository.js'
import { requestedDays } from './plan-days.js'
import * as repository from './repository.js'
import {
  type CreateRoutePlanBody,
  DEFAULT_TIME_LIMIT_SECONDS,
  type RoutePlan,
  type RoutePlanListQuery,
  type RoutePlanResult,
  type RoutePlanSummary,
} from './schemas.js'
import { serializeRoutePlan, serializeRoutePlanSummary } from './serialize.js'

type Db = Kysely<Database>

/** What the runner records beside the result: what the plan read, for PLAN_STALE, and the jobs it held. */
export interface PlanInputsRecord {
  versions: InputVersions
  /** Jobs that were ASSIGNED when the plan was made (REPLAN_ALL unassigns those it leaves out). */
  assignedJobIds: string[]
}

async function findOrThrow(db: Executor, organisationId: string, id: string): Promise<RoutePlanRow> {
  const row = await repository.findRoutePlan(db, organisationId, id)
  if (!row) throw notFound('Route plan')
  return row
}

/**
 * Queues a plan, in its organisation's turn: the round being served, or the round after its
 * latest waiting plan if later (round-robin across organisations; see migration 0019). An
 * organisation holds at most `queueMax` QUEUED and RUNNING plans (0: no cap); one more is refused
 * with 429 TOO_MANY_PLANS. Counted and inserted in one transaction under a per-organisation lock.
 */
export async function createRoutePlan(
  db: Db,
  organisationId: string,
  input: CreateRoutePlanBody,
  queueMax: number,
  clock: () => number = Date.now,
): Promise<RoutePlan> {
  const { date, dateTo } = requestedDays(input)
  const planAt = await resolvePlanInstant(db, organisationId, { ...input, date, dateTo }, clock())
  await assertPlannable(db, organisationId, {
    date,
    dateTo,
    mode: input.mode,
    locationId: input.locationId ?? null,
    jobIds: input.jobIds ?? null,
    shiftIds: input.shiftIds ?? null,
  })
  const now = nowIso()
  const row: RoutePlanRow & { cancel_requested: number } = {
    id: newId(),
    organisation_id: organisationId,
    status: 'QUEUED',
    plan_date: date,
    date_to: dateTo,
    location_id: input.locationId ?? null,
    mode: input.mode,
    time_limit_seconds: input.timeLimitSeconds ?? DEFAULT_TIME_LIMIT_SECONDS,
    job_ids: input.jobIds ? JSON.stringify(input.jobIds) : null,
    shift_ids: input.shiftIds ? JSON.stringify(input.shiftIds) : null,
    seed: randomInt(1, 2 ** 31 - 1),
    queue_round: 0,
    plan_at: new Date(planAt).toISOString(),
    stability: input.stability ?? DEFAULT_STABILITY,
    balance: input.balance ?? 'NONE',
    progress: null,
    result: null,
    inputs: null,
    error: null,
    cancel_requested: sqlBool(false),
    claimed_by: null,
    heartbeat_at: null,
    created_at: now,
    updated_at: now,
    started_at: null,
    finished_at: null,
    applied_at: null,
  }
  await db.transaction().execute(async (trx) => {
    await repository.lockPlanQueue(trx, organisationId)
    const queue = await repository.findQueuePosition(trx, organisationId)
    if (queueMax > 0 && queue.waiting >= queueMax) {
      throw await tooManyPlans(trx, organisationId, queueMax)
    }
    row.queue_round = Math.max(queue.currentRound, queue.lastRound === null ? 0 : queue.lastRound + 1)
    await repository.insertRoutePlan(trx, row)
  })
  return serializeRoutePlan(row)
}

/**
 * The refusal of a plan over the cap. Retry-After: until the time limit of the organisation's first
 * RUNNING plan to end (it may end sooner); with none running, the shortest time limit of its queued
 * plans (none can end sooner once started). Cancelling one frees a place at once.
 */
async function tooManyPlans(db: Executor, organisationId: string, queueMax: number): Promise<AppError> {
  const waiting = await repository.listWaitingPlans(db, organisationId)
  const running = waiting.filter((p) => p.status === 'RUNNING')
  const now = Date.now()
  const seconds =
    running.length > 0
      ? Math.min(...running.map((p) => Date.parse(p.started_at ?? '') + p.time_limit_seconds * 1000 - now)) /
        1000
      : Math.min(...waiting.map((p) => p.time_limit_seconds))
  const retryAfterSeconds = Math.max(1, Math.ceil(Number.isFinite(seconds) ? seconds : 1))
  return new AppError(
    'TOO_MANY_PLANS',
    `The organisation already has ${waiting.length} route plans queued or running ` +
      `(${waiting.length - running.length} queued, ${running.length} running); at most ${queueMax} may be ` +
      'at once. Retry once one has finished, or cancel one (POST /route-plans/{id}/cancel) to free a place.',
    undefined,
    { retryAfterSeconds },
  )
}

export async function getRoutePlan(db: Executor, organisationId: string, id: string): Promise<RoutePlan> {
  return serializeRoutePlan(await findOrThrow(db, organisationId, id))
}

export async function listRoutePlans(
  db: Executor,
  organisationId: string,
  query: RoutePlanListQuery,
): Promise<{ routePlans: RoutePlanSummary[]; pagination: Pagination }> {
  const filters = { status: query.status, date: query.date }
  const [rows, total] = await Promise.all([
    repository.listRoutePlans(db, organisationId, filters, { limit: query.limit, offset: offsetOf(query) }),
    repository.countRoutePlans(db, organisationId, filters),
  ])
  return { routePlans: rows.map(serializeRoutePlanSummary), pagination: paginationOf(query, total) }
}

/**
 * Stops a plan: a QUEUED or DONE one (discarding its result) at once; a RUNNING one at its runner's
 * next progress report (within about a second), after which it reads CANCELLED.
 */
export async function cancelRoutePlan(db: Db, organisationId: string, id: string): Promise<RoutePlan> {
  const plan = await findOrThrow(db, organisationId, id)
  const at = nowIso()
  if (plan.status === 'RUNNING') {
    await repository.requestCancel(db, organisationId, id, at)
  } else if (plan.status === 'QUEUED' || plan.status === 'DONE') {
    const done = await repository.updateRoutePlanIf(db, organisationId, id, [plan.status], {
      status: 'CANCELLED',
      finished_at: plan.finished_at ?? at,
      updated_at: at,
    })
    if (!done) return cancelRoutePlan(db, organisationId, id) // it moved on meanwhile: decide again
  } else {
    throw new AppError(
      'CONFLICT',
      `The plan is ${plan.status}; only a QUEUED, RUNNING or DONE plan can be cancelled`,
    )
  }
  return getRoutePlan(db, organisationId, id)
}

/**
 * Locks what the plan read, and the jobs it changes, and names what changed or went since it was
 * made: none means the plan holds, and goes on holding until the transaction ends. Jobs are locked for
 * update first, then the other rows share-locked, each table in id order — as a manual assign locks
 * its job, then share-locks its worker and shift — so an apply and a manual write wait for each other
 * and never deadlock. Checked before the locks were held, a job could be assigned by hand between the
 * check and the apply's write of it, and silently assigned again by the plan (PostgreSQL).
 */
async function lockInputs(
  trx: Transaction<Database>,
  organisationId: string,
  versions: InputVersions,
  changedJobIds: readonly string[],
): Promise<{ jobs: Map<string, JobRow>; changed: string[] }> {
  const jobIds = [...new Set([...Object.keys(versions.jobs), ...changedJobIds])]
  const jobs = await lockJobsIn(trx, organisationId, jobIds)
  const changed: string[] = []
  for (const table of Object.keys(versions) as (keyof InputVersions)[]) {
    const expected = versions[table]
    const ids = Object.keys(expected)
    const rows =
      table === 'jobs' ? [...jobs.values()] : await inputs.lockVersions(trx, organisationId, table, ids)
    const current = new Map(rows.map((row) => [row.id, row.updated_at]))
    for (const id of ids)
      if (current.get(id) !== expected[id]) changed.push(`${table.replace(/s$/, '')} ${id}`)
  }
  return { jobs, changed }
}

/** A pause in an apply, for tests that interleave another write with it. */
export interface ApplyOptions {
  /** Runs once the plan's inputs are locked and found unchanged, before anything is written. */
  beforeWrite?: () => Promise<void>
}

/**
 * Assigns every planned job (worker, shift, scheduled window) through the job lifecycle, and, for
 * REPLAN_ALL and REPLAN_REMAINING, unassigns the jobs the plan took off a route: one transaction, so either the whole plan
 * is applied, with its events in the outbox, or nothing is. A plan whose inputs changed since it was
 * made is marked STALE and refused with 409 PLAN_STALE. The jobs go through the lifecycle's bulk
 * dispatch (jobs/bulk-dispatch.ts): a manual assign's rules and events in a few statements, so the
 * transaction holds SQLite's only writer, or the plan's rows, for as short a time as it can.
 */
export async function applyRoutePlan(
  db: Db,
  organisationId: string,
  id: string,
  options: ApplyOptions = {},
): Promise<RoutePlan> {
  const outcome = await db.transaction().execute(async (trx) => {
    const plan = await repository.lockRoutePlan(trx, organisationId, id)
    if (!plan) throw notFound('Route plan')
    if (plan.status !== 'DONE' || plan.result === null || plan.inputs === null) {
      throw new AppError('PLAN_NOT_READY', `The plan is ${plan.status}; only a DONE plan can be applied`)
    }
    const recorded = JSON.parse(plan.inputs) as PlanInputsRecord
    const result = JSON.parse(plan.result) as RoutePlanResult
    // A job in progress is shown first on its route; the plan never changes it.
    const assignments = result.routes.flatMap((route) =>
      route.stops
        .filter((stop) => !stop.inProgress)
        .map((stop) => ({
          jobId: stop.jobId,
          userId: route.user.id,
          shiftId: route.shiftId,
          scheduledStart: stop.serviceStart,
          scheduledEnd: stop.serviceEnd,
        })),
    )
    const planned = new Set(assignments.map((assignment) => assignment.jobId))
    // KEEP_ASSIGNED unassigns only what its preview listed as going back to waiting: the jobs of a
    // worker away that day that no other route took (optimiser-model.ts changesOf).
    const unassignments =
      plan.mode !== 'KEEP_ASSIGNED'
        ? recorded.assignedJobIds.filter((jobId) => !planned.has(jobId))
        : (result.changes ?? []).filter((change) => change.to === null).map((change) => change.jobId)
    const { jobs, changed } = await lockInputs(trx, organisationId, recorded.versions, [
      ...planned,
      ...unassignments,
    ])
    // Absences and one-off changes of the days are not row versions: newer ones make the plan stale too.
    for (const date of planDates(plan.plan_date, plan.date_to ?? plan.plan_date)) {
      const routes = result.routes.filter((route) => (route.date ?? plan.plan_date) === date)
      if (routes.length === 0) continue
      changed.push(
        ...(await dayChangesSince(
          trx,
          organisationId,
          date,
          {
            userIds: [...new Set(routes.map((route) => route.user.id))],
            shiftIds: routes.map((route) => route.shiftId),
          },
          new Date(plan.started_at ?? plan.created_at).toISOString(),
        )),
      )
    }
    const at = nowIso()
    if (changed.length > 0) {
      await repository.updateRoutePlanIf(trx, organisationId, id, ['DONE'], {
        status: 'STALE',
        updated_at: at,
      })
      return { changed }
    }
    await options.beforeWrite?.()
    // Applying does what the preview listed: a stop kept on its worker within the same minute is not
    // assigned again (no write, no JOB_ASSIGNED, no new baseline for its eta). Plans made before the
    // list existed assign every stop.
    const listed = result.changes ? new Set(result.changes.map((change) => change.jobId)) : null
    const changedAssignments = listed ? assignments.filter((a) => listed.has(a.jobId)) : assignments
    await assignJobsIn(trx, organisationId, jobs, changedAssignments, unassignments)
    await repository.updateRoutePlanIf(trx, organisationId, id, ['DONE'], {
      status: 'APPLIED',
      applied_at: at,
      updated_at: at,
    })
    return { changed: [] }
  })
  if (outcome.changed.length > 0) {
    const shown = outcome.changed.slice(0, 20).join(', ')
    const more = outcome.changed.length > 20 ? ` and ${outcome.changed.length - 20} more` : ''
    throw new AppError(
      'PLAN_STALE',
      `The plan is stale: ${shown}${more} changed after it was made; nothing was applied. Run a new plan.`,
    )
  }
  return getRoutePlan(db, organisationId, id)
}
