import { sql } from 'kysely'
import { isPostgres } from '../../db/database.js'
import { fastPath, type HotQuery, param } from '../../db/fast-path/index.js'
import type { Executor, OutboxEventsTable } from '../../db/types.js'

export async function insertOutboxEvent(
  db: Executor,
  row: Omit<OutboxEventsTable, 'dispatched_at'>,
): Promise<void> {
  // Prepared once: every write of the service ends with this insert.
  await fastPath.deferrableWrite(
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
    row,
  )
}

// Any number of events of one organisation and instant in one statement: the rows travel as one
// parameter (a JSON array of [id, event, data] on SQLite, one array per column on PostgreSQL).
const INSERT_OUTBOX_EVENTS: HotQuery = {
  name: 'outbox_insert_many',
  sqlite: `INSERT INTO outbox_events (id, organisation_id, event, data, occurred_at)
    SELECT value ->> 0, ?, value ->> 1, value ->> 2, ? FROM json_each(?)`,
  postgres: `INSERT INTO outbox_events (id, organisation_id, event, data, occurred_at)
    SELECT e.id, $1::text, e.event, e.data, $2::timestamptz
    FROM unnest($3::text[], $4::text[], $5::text[]) AS e (id, event, data)`,
}

export async function insertOutboxEvents(
  db: Executor,
  organisationId: string,
  occurredAt: string,
  rows: readonly Pick<OutboxEventsTable, 'id' | 'event' | 'data'>[],
): Promise<void> {
  if (rows.length === 0) return
  const params = isPostgres(db)
    ? [organisationId, occurredAt, rows.map((r) => r.id), rows.map((r) => r.event), rows.map((r) => r.data)]
    : [organisationId, occurredAt, JSON.stringify(rows.map((r) => [r.id, r.event, r.data]))]
  await fastPath.writeSql(db, INSERT_OUTBOX_EVENTS, params)
}

/**
 * One page of the organisation's outbox in (occurred_at, id) order: of these types (all when
 * undefined), from `since`, up to `end`, after the `after` position; `limit` rows at most.
 */
export async function findOutboxPage(
  db: Executor,
  organisationId: string,
  filter: {
    types: readonly string[] | undefined
    since: string | undefined
    end: { at: string; inclusive: boolean }
    after: { at: string; id: string } | undefined
    limit: number
  },
): Promise<{ id: string; event: string; data: string; occurred_at: string }[]> {
  const { types, since, end, after } = filter
  return (await db
    .selectFrom('outbox_events')
    .select(['id', 'event', 'data', 'occurred_at'])
    .where('organisation_id', '=', organisationId)
    .$if(types !== undefined, (q) => q.where('event', 'in', types as string[]))
    .$if(since !== undefined, (q) => q.where('occurred_at', '>=', since as string))
    .where('occurred_at', end.inclusive ? '<=' : '<', end.at)
    .$if(after !== undefined, (q) => q.where(sql<boolean>`(occurred_at, id) > (${after?.at}, ${after?.id})`))
    .orderBy('occurred_at', 'asc')
    .orderBy('id', 'asc')
    .limit(filter.limit)
    .execute()) as { id: string; event: string; data: string; occurred_at: string }[]
}
