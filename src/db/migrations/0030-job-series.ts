// Recurring job series (issue 31 §1): a job template plus an RFC 5545 recurrence rule, whose
// occurrences the generator turns into ordinary jobs a few weeks ahead.
// - job_series.template: the job's fields as the admin API takes them, JSON text validated by the
//   jobs module's own create schema (minus the window) before it is stored. A JSON column rather than
//   one column per job field, so every field a job gains round-trips through a series without a
//   migration here, and the template is checked by the same code as POST /jobs.
// - job_series.rrule: normalised RRULE text (no DTSTART: start_date is the floating DTSTART), dates
//   `YYYY-MM-DD` text and times `HH:MM` text on both dialects, read in the depot's time zone.
// - job_series_exceptions: one row per occurrence skipped or moved, by its date in the rule.
// - jobs.series_id / jobs.occurrence_date: nullable (an older build keeps writing jobs without them),
//   and unique together where series_id is set: the guarantee that an occurrence becomes a job once,
//   however many generators run. Soft-deleted jobs keep their key, so a deleted occurrence is never
//   made again. No foreign key: SQLite cannot add one to an existing table, and series are never
//   deleted.
// Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const timestamp = dialect === 'postgres' ? sql`timestamptz(3)` : sql`text`

  await db.schema
    .createTable('job_series')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('template', 'text', (c) => c.notNull())
    .addColumn('rrule', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    /** Null: no end of its own beyond the rule's COUNT or UNTIL (set by POST …/end). */
    .addColumn('end_date', 'text')
    /** All three null: any time that day; else HH:MM, HH:MM and HARD | SOFT. */
    .addColumn('window_start', 'text')
    .addColumn('window_end', 'text')
    .addColumn('window_type', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .addUniqueConstraint('job_series_organisation_id_key', ['organisation_id', 'id'])
    .execute()
  await db.schema
    .createIndex('job_series_list_idx')
    .on('job_series')
    .columns(['organisation_id', 'created_at', 'id'])
    .execute()

  await db.schema
    .createTable('job_series_exceptions')
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('series_id', 'text', (c) => c.notNull())
    /** The occurrence's date in the rule. */
    .addColumn('occurrence_date', 'text', (c) => c.notNull())
    /** SKIP | MOVE */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** MOVE: the date it happens instead, and optionally its own window (all three null: the series'). */
    .addColumn('moved_to', 'text')
    .addColumn('window_start', 'text')
    .addColumn('window_end', 'text')
    .addColumn('window_type', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('job_series_exceptions_pk', ['organisation_id', 'series_id', 'occurrence_date'])
    .addForeignKeyConstraint(
      'job_series_exceptions_series_fk',
      ['organisation_id', 'series_id'],
      'job_series',
      ['organisation_id', 'id'],
    )
    .execute()

  await db.schema.alterTable('jobs').addColumn('series_id', 'text').execute()
  await db.schema.alterTable('jobs').addColumn('occurrence_date', 'text').execute()
  await sql`CREATE UNIQUE INDEX jobs_series_occurrence_key ON jobs (series_id, occurrence_date)
    WHERE series_id IS NOT NULL`.execute(db)
}
