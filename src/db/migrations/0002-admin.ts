// The admin API's schema: the domain-event outbox (written in the same transaction as the change it
// describes; the webhooks issue delivers it) and one primary depot per organisation.
// Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const pg = dialect === 'postgres'
  const timestamp = pg ? sql`timestamptz(3)` : sql`text`

  await db.schema
    .createTable('outbox_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('event', 'text', (c) => c.notNull())
    /** The webhook payload's `data`, as JSON text. */
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('occurred_at', timestamp, (c) => c.notNull())
    .addColumn('dispatched_at', timestamp)
    .execute()
  await db.schema
    .createIndex('outbox_events_pending_idx')
    .on('outbox_events')
    .columns(['occurred_at', 'id'])
    .where(sql.ref('dispatched_at'), 'is', null)
    .execute()
  await db.schema
    .createIndex('outbox_events_organisation_idx')
    .on('outbox_events')
    .columns(['organisation_id', 'occurred_at desc', 'id desc'])
    .execute()

  await db.schema
    .createIndex('locations_one_primary_idx')
    .on('locations')
    .column('organisation_id')
    .unique()
    .where(pg ? sql<boolean>`is_primary` : sql<boolean>`is_primary = 1`)
    .execute()
}
