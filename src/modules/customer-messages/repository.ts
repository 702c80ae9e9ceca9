// The customer messages' SQL. The claim's reads span organisations on purpose (one dispatcher serves
// them all), as the webhook dispatcher's do; each row carries its organisation id.
import { sqlBool } from '../../db/database.js'
import type { CustomerMessageRow, Executor } from '../../db/types.js'

/** What a message about one job needs: where to send it, and whether the organisation wants it. */
export async function findMessageContexts(db: Executor, organisationId: string, jobIds: readonly string[]) {
  if (jobIds.length === 0) return []
  return db
    .selectFrom('jobs')
    .innerJoin('organisations', 'organisations.id', 'jobs.organisation_id')
    .innerJoin('customers', (join) =>
      join
        .onRef('customers.organisation_id', '=', 'jobs.organisation_id')
        .onRef('customers.id', '=', 'jobs.customer_id'),
    )
    .leftJoin('tracking_links', (join) =>
      join
        .onRef('tracking_links.organisation_id', '=', 'jobs.organisation_id')
        .onRef('tracking_links.job_id', '=', 'jobs.id'),
    )
    .select([
      'jobs.id as job_id',
      'jobs.title',
      'jobs.location_id',
      'customers.name as customer_name',
      'customers.email',
      'organisations.name as organisation_name',
      'organisations.notify_customer_en_route',
      'organisations.notify_customer_completed',
      'tracking_links.eta',
    ])
    .where('jobs.organisation_id', '=', organisationId)
    .where('jobs.id', 'in', jobIds)
    .where('customers.email', 'is not', null)
    .execute()
}

export type MessageContextRow = Awaited<ReturnType<typeof findMessageContexts>>[number]

/**
 * Inserts the messages; one an event already has (a second claim of it) is skipped by the unique
 * event_id. Answers the rows really inserted: only those are sent.
 */
export async function insertMessages(
  db: Executor,
  rows: readonly CustomerMessageRow[],
): Promise<CustomerMessageRow[]> {
  if (rows.length === 0) return []
  return db
    .insertInto('customer_messages')
    .values([...rows])
    .onConflict((c) => c.column('event_id').doNothing())
    .returningAll()
    .execute()
}

/** The outcome of a send; a message no longer PENDING (failed as interrupted meanwhile) is left. */
export async function completeMessage(
  db: Executor,
  id: string,
  outcome: Pick<CustomerMessageRow, 'status' | 'error' | 'duration_ms' | 'completed_at'>,
): Promise<void> {
  await db
    .updateTable('customer_messages')
    .set(outcome)
    .where('id', '=', id)
    .where('status', '=', 'PENDING')
    .execute()
}

/** Messages left PENDING by a process that stopped mid-send: failed, never sent again. */
export async function failInterruptedMessages(
  db: Executor,
  startedBefore: string,
  error: string,
  at: string,
): Promise<number> {
  const result = await db
    .updateTable('customer_messages')
    .set({ status: 'FAILED', error, completed_at: at })
    .where('status', '=', 'PENDING')
    .where('created_at', '<', startedBefore)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

export async function pruneMessagesBefore(db: Executor, cutoff: string): Promise<void> {
  await db.deleteFrom('customer_messages').where('created_at', '<', cutoff).execute()
}

export async function listMessages(
  db: Executor,
  organisationId: string,
  filters: { status?: string | undefined; jobId?: string | undefined },
  page: { limit: number; offset: number },
): Promise<CustomerMessageRow[]> {
  return db
    .selectFrom('customer_messages')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .$if(filters.status !== undefined, (q) => q.where('status', '=', filters.status as 'SENT'))
    .$if(filters.jobId !== undefined, (q) => q.where('job_id', '=', filters.jobId as string))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function countMessages(
  db: Executor,
  organisationId: string,
  filters: { status?: string | undefined; jobId?: string | undefined },
): Promise<number> {
  const row = await db
    .selectFrom('customer_messages')
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .where('organisation_id', '=', organisationId)
    .$if(filters.status !== undefined, (q) => q.where('status', '=', filters.status as 'SENT'))
    .$if(filters.jobId !== undefined, (q) => q.where('job_id', '=', filters.jobId as string))
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

/** Whether the organisation's switch for this kind of message is on (booleans are 0/1 on SQLite). */
export function isOn(value: boolean | number): boolean {
  return value === true || value === sqlBool(true)
}
