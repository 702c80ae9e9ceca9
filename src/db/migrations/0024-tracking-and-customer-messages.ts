// "On my way" and the customer's tracking page (issue 29 §3): customers' email and phone, the time a
// job's worker set off (en_route_at), one tracking link per job (only the SHA-256 of its token is
// kept, like API keys), the organisation's customer-email switches, and the customer messages the
// webhook dispatcher claims from the outbox and sends over SMTP. Every change only adds (nullable
// columns, or defaults that fit the rows already there), so an older build keeps serving meanwhile.
// Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const pg = dialect === 'postgres'
  const timestamp = pg ? sql`timestamptz(3)` : sql`text`
  const bool = pg ? sql`boolean` : sql`integer`
  const no = pg ? sql`false` : sql`0`

  await db.schema.alterTable('customers').addColumn('email', 'text').execute()
  await db.schema.alterTable('customers').addColumn('phone', 'text').execute()
  await db.schema.alterTable('jobs').addColumn('en_route_at', timestamp).execute()
  for (const column of ['notify_customer_en_route', 'notify_customer_completed']) {
    await db.schema
      .alterTable('organisations')
      .addColumn(column, bool, (c) => c.notNull().defaultTo(no))
      .execute()
  }

  await db.schema
    .createTable('tracking_links')
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('job_id', 'text', (c) => c.notNull())
    /** SHA-256 (hex) of the token in the link; the token itself is never stored. */
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    /** The arrival predicted when the worker set off; null when nothing said where they were. */
    .addColumn('eta', timestamp)
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('tracking_links_pkey', ['organisation_id', 'job_id'])
    .addForeignKeyConstraint('tracking_links_job_fk', ['organisation_id', 'job_id'], 'jobs', [
      'organisation_id',
      'id',
    ])
    .execute()

  // One message per outbox event at most (the unique event_id): the dispatcher's claim writes it, so
  // a second claim of the same event (after a crash) cannot send it again.
  await db.schema
    .createTable('customer_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    /** The outbox event the message is about (no foreign key: dispatched events are pruned). */
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('job_id', 'text', (c) => c.notNull())
    /** EN_ROUTE | COMPLETED */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    /** PENDING while being sent, then SENT (the SMTP server accepted it) or FAILED. */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('completed_at', timestamp)
    .execute()
  await db.schema
    .createIndex('customer_messages_list_idx')
    .on('customer_messages')
    .columns(['organisation_id', 'created_at desc', 'id desc'])
    .execute()
  await db.schema
    .createIndex('customer_messages_pending_idx')
    .on('customer_messages')
    .column('created_at')
    .where(sql.ref('status'), '=', 'PENDING')
    .execute()
}
