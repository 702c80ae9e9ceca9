// The dispatcher's queries. They span organisations on purpose (one dispatcher serves them all);
// each row they touch carries its organisation id, and deliveries never mix one with another.
import type { Transaction } from 'kysely'
import { isPostgres, sqlBool } from '../../db/database.js'
import { fastPath, idList, inIdList, param } from '../../db/fast-path/index.js'
import { lockForUpdate } from '../../db/locking.js'
import type { AutomationRow, Database, Executor, OutboxEventRow } from '../../db/types.js'

/**
 * The oldest undelivered events, locked. On PostgreSQL `FOR UPDATE SKIP LOCKED` lets every
 * instance's dispatcher claim a different batch; SQLite has one writer, so there is nothing to skip.
 */
export async function claimPendingEvents(
  trx: Transaction<Database>,
  limit: number,
): Promise<OutboxEventRow[]> {
  // Prepared once, as are the claim's other statements: the dispatcher claims after every write.
  return fastPath.read<OutboxEventRow>(
    trx,
    'outbox.claim',
    () => {
      const pending = trx
        .selectFrom('outbox_events')
        .selectAll()
        .where('dispatched_at', 'is', null)
        .orderBy('occurred_at')
        .orderBy('id')
        .limit(param<number>('limit'))
      return lockForUpdate(trx, pending, { skipLocked: true })
    },
    { limit },
  )
}

/**
 * The active automations listening for any of these (organisation, event) pairs. Locked against
 * deletion (FOR KEY SHARE) until the claim commits, so their executions can always be inserted.
 */
export async function findActiveAutomations(
  trx: Transaction<Database>,
  events: readonly Pick<OutboxEventRow, 'organisation_id' | 'event'>[],
): Promise<AutomationRow[]> {
  if (events.length === 0) return []
  const organisations = [...new Set(events.map((e) => e.organisation_id))]
  const names = [...new Set(events.map((e) => e.event))]
  return fastPath.read<AutomationRow>(
    trx,
    'automations.listening',
    () => {
      const query = trx
        .selectFrom('automations')
        .selectAll()
        .where(inIdList(trx, 'organisation_id', 'organisations'))
        .where(inIdList(trx, 'event', 'names'))
        .where('is_active', '=', param<number>('active'))
      return isPostgres(trx) ? query.forKeyShare() : query
    },
    {
      organisations: idList(trx, organisations),
      names: idList(trx, names),
      active: sqlBool(true),
    },
  )
}

export async function markDispatched(trx: Executor, ids: readonly string[], at: string): Promise<void> {
  if (ids.length === 0) return
  await fastPath.write(
    trx,
    'outbox.markDispatched',
    () =>
      trx
        .updateTable('outbox_events')
        .set({ dispatched_at: param<string>('at') })
        .where(inIdList(trx, 'id', 'ids')),
    { at, ids: idList(trx, ids) },
  )
}

/** Executions left PENDING by a process that stopped mid-delivery: failed, never re-sent. */
export async function failInterruptedExecutions(
  db: Executor,
  startedBefore: string,
  error: string,
  at: string,
): Promise<number> {
  const result = await db
    .updateTable('webhook_executions')
    .set({ status: 'FAILED', error, completed_at: at })
    .where('status', '=', 'PENDING')
    .where('created_at', '<', startedBefore)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/**
 * Deletes up to `batch` rows older than `cutoff` — executions by creation, outbox events once
 * dispatched (never one still waiting) — and returns how many went.
 */
export async function pruneBefore(
  db: Executor,
  table: 'webhook_executions' | 'outbox_events',
  cutoff: string,
  batch: number,
): Promise<number> {
  const column = table === 'webhook_executions' ? 'created_at' : 'dispatched_at'
  const result = await db
    .deleteFrom(table)
    .where('id', 'in', db.selectFrom(table).select('id').where(column, '<', cutoff).limit(batch))
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
