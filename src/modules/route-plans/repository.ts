// Route plans. Every query takes the organisation id, except the runners' claim and sweep and the
// queue's current round, which work across organisations by design (one queue serves them all).
import { sql, type Transaction, type Updateable } from 'kysely'
import { isPostgres, sqlBool } from '../../db/database.js'
import { lockForUpdate } from '../../db/locking.js'
import type { Database, Executor, RoutePlanRow, RoutePlansTable } from '../../db/types.js'

export type RoutePlanUpdate = Updateable<RoutePlansTable>

/** The plans that hold a place in an organisation's share of the queue. */
const WAITING = ['QUEUED', 'RUNNING']

export interface RoutePlanFilters {
  status?: string
  date?: string
}

export async function insertRoutePlan(
  db: Executor,
  row: RoutePlanRow & { cancel_requested: number },
): Promise<void> {
  await db.insertInto('route_plans').values(row).execute()
}

export async function findRoutePlan(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<RoutePlanRow | undefined> {
  return db
    .selectFrom('route_plans')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** The plan, locked until the transaction ends (PostgreSQL; SQLite's writer is alone anyway). */
export async function lockRoutePlan(
  trx: Transaction<Database>,
  organisationId: string,
  id: string,
): Promise<RoutePlanRow | undefined> {
  return lockForUpdate(
    trx,
    trx
      .selectFrom('route_plans')
      .selectAll()
      .where('organisation_id', '=', organisationId)
      .where('id', '=', id),
  ).executeTakeFirst()
}

function plansMatching(db: Executor, organisationId: string, filters: RoutePlanFilters) {
  let query = db.selectFrom('route_plans').where('organisation_id', '=', organisationId)
  if (filters.status !== undefined) query = query.where('status', '=', filters.status)
  // A plan over several days is listed under each of them.
  const date = filters.date
  if (date !== undefined)
    query = query.where((eb) =>
      eb.or([
        eb('plan_date', '=', date),
        eb.and([eb('plan_date', '<', date), eb('date_to', 'is not', null), eb('date_to', '>=', date)]),
      ]),
    )
  return query
}

export async function listRoutePlans(
  db: Executor,
  organisationId: string,
  filters: RoutePlanFilters,
  page: { limit: number; offset: number },
): Promise<RoutePlanRow[]> {
  return plansMatching(db, organisationId, filters)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function countRoutePlans(
  db: Executor,
  organisationId: string,
  filters: RoutePlanFilters,
): Promise<number> {
  const row = await plansMatching(db, organisationId, filters)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** Updates a plan only while it is in one of `statuses`; says whether it did. */
export async function updateRoutePlanIf(
  db: Executor,
  organisationId: string,
  id: string,
  statuses: readonly string[],
  changes: RoutePlanUpdate,
): Promise<boolean> {
  const result = await db
    .updateTable('route_plans')
    .set(changes)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .where('status', 'in', statuses)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/**
 * Serialises the queueing of one organisation's plans (PostgreSQL), so that two at once cannot both
 * take the last place under the cap. SQLite has one writer at a time already.
 */
export async function lockPlanQueue(trx: Transaction<Database>, organisationId: string): Promise<void> {
  if (!isPostgres(trx)) return
  await sql`select pg_advisory_xact_lock(hashtext(${`route-plan-queue:${organisationId}`}))`.execute(trx)
}

export interface QueuePosition {
  /** The organisation's QUEUED and RUNNING plans. */
  waiting: number
  /** The latest round among them; null when it has none. */
  lastRound: number | null
  /** The round being served: the highest of any RUNNING plan, else the lowest QUEUED one, else 0. */
  currentRound: number
}

/** Where a plan the organisation queues now would stand (one statement, four index probes). */
export async function findQueuePosition(db: Executor, organisationId: string): Promise<QueuePosition> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('route_plans')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .where('organisation_id', '=', organisationId)
        .where('status', 'in', WAITING)
        .as('waiting'),
      eb
        .selectFrom('route_plans')
        .select((e) => e.fn.max('queue_round').as('r'))
        .where('organisation_id', '=', organisationId)
        .where('status', 'in', WAITING)
        .as('last_round'),
      eb
        .selectFrom('route_plans')
        .select((e) => e.fn.max('queue_round').as('r'))
        .where('status', '=', 'RUNNING')
        .as('running_round'),
      eb
        .selectFrom('route_plans')
        .select((e) => e.fn.min('queue_round').as('r'))
        .where('status', '=', 'QUEUED')
        .as('queued_round'),
    ])
    .executeTakeFirstOrThrow()
  const round = (value: unknown) => (value === null || value === undefined ? null : Number(value))
  return {
    waiting: Number(row.waiting ?? 0),
    lastRound: round(row.last_round),
    currentRound: round(row.running_round) ?? round(row.queued_round) ?? 0,
  }
}

/** The organisation's QUEUED and RUNNING plans, for how long until one of them ends. */
export async function listWaitingPlans(db: Executor, organisationId: string) {
  return db
    .selectFrom('route_plans')
    .select(['status', 'started_at', 'time_limit_seconds'])
    .where('organisation_id', '=', organisationId)
    .where('status', 'in', WAITING)
    .execute()
}

/**
 * The queued plan of the lowest round (round-robin across organisations; see migration 0019), the
 * oldest of that round first, marked RUNNING for `runnerId` with its first `progress`, or undefined.
 * On PostgreSQL `FOR UPDATE SKIP LOCKED` lets every instance's runner claim a different plan, and the
 * status check in the UPDATE makes a claim exactly-once even without it.
 */
export async function claimQueuedPlan(
  db: Executor,
  runnerId: string,
  at: string,
  progress: string,
): Promise<RoutePlanRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const queued = trx
      .selectFrom('route_plans')
      .selectAll()
      .where('status', '=', 'QUEUED')
      .orderBy('queue_round')
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
    const plan = await lockForUpdate(trx, queued, { skipLocked: true }).executeTakeFirst()
    if (!plan) return undefined
    const changes = {
      status: 'RUNNING',
      claimed_by: runnerId,
      heartbeat_at: at,
      started_at: at,
      updated_at: at,
      progress,
    }
    const claimed = await updateRoutePlanIf(trx, plan.organisation_id, plan.id, ['QUEUED'], changes)
    return claimed ? { ...plan, ...changes } : undefined
  })
}

/** A runner says it is still working on the plan; false when the plan is no longer its own. */
export async function heartbeat(
  db: Executor,
  plan: Pick<RoutePlanRow, 'organisation_id' | 'id'>,
  runnerId: string,
  changes: RoutePlanUpdate,
): Promise<{ owned: boolean; cancelRequested: boolean }> {
  const result = await db
    .updateTable('route_plans')
    .set(changes)
    .where('organisation_id', '=', plan.organisation_id)
    .where('id', '=', plan.id)
    .where('status', '=', 'RUNNING')
    .where('claimed_by', '=', runnerId)
    .returning(['cancel_requested'])
    .executeTakeFirst()
  return { owned: result !== undefined, cancelRequested: Boolean(result?.cancel_requested) }
}

/** Ends a RUNNING plan, only while `runnerId` still owns it. */
export async function finishOwnedPlan(
  db: Executor,
  plan: Pick<RoutePlanRow, 'organisation_id' | 'id'>,
  runnerId: string,
  changes: RoutePlanUpdate,
): Promise<void> {
  await db
    .updateTable('route_plans')
    .set(changes)
    .where('organisation_id', '=', plan.organisation_id)
    .where('id', '=', plan.id)
    .where('status', '=', 'RUNNING')
    .where('claimed_by', '=', runnerId)
    .execute()
}

/**
 * RUNNING plans whose runner went silent before `staleBefore` (its process died): FAILED, never
 * left RUNNING. Returns how many.
 */
export async function failSilentPlans(db: Executor, staleBefore: string, at: string): Promise<number> {
  // Every runner sweeps on every poll: a read first, so an idle sweep never takes SQLite's write lock.
  const silent = await db
    .selectFrom('route_plans')
    .select('id')
    .where('status', '=', 'RUNNING')
    .where('heartbeat_at', '<', staleBefore)
    .limit(1)
    .executeTakeFirst()
  if (!silent) return 0
  const result = await db
    .updateTable('route_plans')
    .set({
      status: 'FAILED',
      error: 'The process running the plan stopped before it finished; run it again',
      finished_at: at,
      updated_at: at,
    })
    .where('status', '=', 'RUNNING')
    .where('heartbeat_at', '<', staleBefore)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

export async function requestCancel(db: Executor, organisationId: string, id: string, at: string) {
  return updateRoutePlanIf(db, organisationId, id, ['RUNNING'], {
    cancel_requested: sqlBool(true),
    updated_at: at,
  })
}
