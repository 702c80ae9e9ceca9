// Webhooks (spec §6): automations, their execution log, and form submissions (the source of the
// FORM_SUBMITTED event). Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const pg = dialect === 'postgres'
  const timestamp = pg ? sql`timestamptz(3)` : sql`text`
  const bool = pg ? sql`boolean` : sql`integer`
  const order = ['created_at desc', 'id desc']

  await db.schema
    .createTable('automations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** The trigger: one of the eight event names of spec §6. */
    .addColumn('event', 'text', (c) => c.notNull())
    /** What happens when it fires; SEND_WEBHOOK is the only action so far. */
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('is_active', bool, (c) => c.notNull())
    /** The signing secret (`whsec_…`). Kept readable: HMAC signing needs the secret itself. */
    .addColumn('secret', 'text', (c) => c.notNull())
    /** After a rotation, the old secret also signs until it expires, so receivers can switch over. */
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', timestamp)
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .addUniqueConstraint('automations_organisation_id_id_key', ['organisation_id', 'id'])
    .execute()
  await db.schema
    .createIndex('automations_list_idx')
    .on('automations')
    .columns(['organisation_id', ...order])
    .execute()
  await db.schema
    .createIndex('automations_trigger_idx')
    .on('automations')
    .columns(['organisation_id', 'event'])
    .execute()

  // One row per attempt to deliver an event to an automation's URL. The first delivery of an
  // (event, automation) pair is unique; redeliveries are extra rows pointing at the one they repeat.
  await db.schema
    .createTable('webhook_executions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('automation_id', 'text', (c) => c.notNull())
    /** The outbox event delivered (no foreign key: dispatched events are pruned on their own). */
    .addColumn('event_id', 'text', (c) => c.notNull())
    /** Standard Webhooks `webhook-id`: the same on every redelivery of one delivery. */
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    /** PENDING while the request is in flight, then SUCCESS (2xx) or FAILED. */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('request_body', 'text', (c) => c.notNull())
    /** The first 2 KB of the receiver's answer. */
    .addColumn('response_body', 'text')
    .addColumn('redelivery_of', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('completed_at', timestamp)
    .addForeignKeyConstraint(
      'webhook_executions_automation_fk',
      ['organisation_id', 'automation_id'],
      'automations',
      ['organisation_id', 'id'],
      (c) => c.onDelete('cascade'),
    )
    .execute()
  await db.schema
    .createIndex('webhook_executions_first_delivery_key')
    .on('webhook_executions')
    .columns(['event_id', 'automation_id'])
    .unique()
    .where(sql.ref('redelivery_of'), 'is', null)
    .execute()
  await db.schema
    .createIndex('webhook_executions_list_idx')
    .on('webhook_executions')
    .columns(['organisation_id', ...order])
    .execute()
  await db.schema
    .createIndex('webhook_executions_automation_idx')
    .on('webhook_executions')
    .columns(['automation_id', ...order])
    .execute()
  await db.schema
    .createIndex('webhook_executions_pending_idx')
    .on('webhook_executions')
    .columns(['created_at'])
    .where(sql.ref('status'), '=', 'PENDING')
    .execute()
  await db.schema
    .createIndex('webhook_executions_created_idx')
    .on('webhook_executions')
    .column('created_at')
    .execute()
  await db.schema
    .createIndex('outbox_events_dispatched_idx')
    .on('outbox_events')
    .column('dispatched_at')
    .where(sql.ref('dispatched_at'), 'is not', null)
    .execute()

  await db.schema
    .createTable('form_submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('form', 'text', (c) => c.notNull())
    /** The answers object, as JSON text. */
    .addColumn('answers', 'text', (c) => c.notNull())
    .addColumn('submitted_by_user_id', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addForeignKeyConstraint('form_submissions_job_fk', ['organisation_id', 'job_id'], 'jobs', [
      'organisation_id',
      'id',
    ])
    .addForeignKeyConstraint(
      'form_submissions_user_fk',
      ['organisation_id', 'submitted_by_user_id'],
      'users',
      ['organisation_id', 'id'],
    )
    .execute()
  await db.schema
    .createIndex('form_submissions_job_idx')
    .on('form_submissions')
    .columns(['organisation_id', 'job_id', ...order])
    .execute()
  await db.schema
    .createIndex('form_submissions_user_idx')
    .on('form_submissions')
    .column('submitted_by_user_id')
    .execute()
}
