// Completion requirements (issue 31 §3): what a job needs before it can be completed — a signature,
// so many photos, notes — set per form template (every job the template applies to needs it) and per
// job; and the notes a worker writes when completing.
// - form_templates.requires: JSON text { signature, photos, notes }, checked by the form templates'
//   schema before it is stored; NOT NULL with the "nothing required" default, so SQLite adds it in
//   place and an older build still serving meanwhile writes templates that require nothing.
// - job_requirements: a job's own requirements, one row per job that has any (no row: nothing).
// - job_completion_notes: what the worker wrote on completing, one row per completed job that has any.
// Both keyed by (organisation_id, job_id) with a foreign key to the job, like form submissions.
// Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const timestamp = dialect === 'postgres' ? sql`timestamptz(3)` : sql`text`
  await db.schema
    .alterTable('form_templates')
    .addColumn('requires', 'text', (c) =>
      c.notNull().defaultTo('{"signature":false,"photos":0,"notes":false}'),
    )
    .execute()

  await db.schema
    .createTable('job_requirements')
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('signature', 'integer', (c) => c.notNull().check(sql`signature in (0, 1)`))
    .addColumn('photos', 'integer', (c) => c.notNull().check(sql`photos between 0 and 20`))
    .addColumn('notes', 'integer', (c) => c.notNull().check(sql`notes in (0, 1)`))
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('job_requirements_pk', ['organisation_id', 'job_id'])
    .addForeignKeyConstraint('job_requirements_job_fk', ['organisation_id', 'job_id'], 'jobs', [
      'organisation_id',
      'id',
    ])
    .execute()

  await db.schema
    .createTable('job_completion_notes')
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('written_by_user_id', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('job_completion_notes_pk', ['organisation_id', 'job_id'])
    .addForeignKeyConstraint('job_completion_notes_job_fk', ['organisation_id', 'job_id'], 'jobs', [
      'organisation_id',
      'id',
    ])
    .execute()
}
