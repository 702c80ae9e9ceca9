import type { Executor, OutboxEventsTable } from '../../db/types.js'

export async function insertOutboxEvent(
  db: Executor,
  row: Omit<OutboxEventsTable, 'dispatched_at'>,
): Promise<void> {
  await db
    .insertInto('outbox_events')
    .values({ ...row, dispatched_at: null })
    .execute()
}
