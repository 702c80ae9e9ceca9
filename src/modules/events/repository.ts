import { param, prepareOnce } from '../../db/hot-query.js'
import type { Executor, OutboxEventsTable } from '../../db/types.js'

export async function insertOutboxEvent(
  db: Executor,
  row: Omit<OutboxEventsTable, 'dispatched_at'>,
): Promise<void> {
  // Prepared once: every write of the service ends with this insert.
  await prepareOnce(
    db,
    'outbox.insert',
    () =>
      db.insertInto('outbox_events').values({
        id: param('id'),
        organisation_id: param('organisation_id'),
        event: param('event'),
        data: param('data'),
        occurred_at: param('occurred_at'),
      }),
    { deferrable: true },
  ).run(row)
}
