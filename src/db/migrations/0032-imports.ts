// CSV imports (issue 31 §4).
// - customers.external_id / jobs.external_id: the caller's own reference for a record (an ERP or CRM
//   key), nullable, unique per organisation where set. An import upserts by it, so the same file
//   imported twice changes nothing. Soft-deleted jobs keep theirs, so a re-import never makes a
//   deleted job again.
// - imports: one row per CSV import, its progress and result, so any instance can answer
//   GET /v1/admin/imports/:id while another reads the file. `errors` and `sample` are JSON text
//   (the first 100 row errors, the first 20 mapped rows).
// Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const timestamp = dialect === 'postgres' ? sql`timestamptz(3)` : sql`text`

  await db.schema.alterTable('customers').addColumn('external_id', 'text').execute()
  await db.schema.alterTable('jobs').addColumn('external_id', 'text').execute()
  await sql`CREATE UNIQUE INDEX customers_external_id_key ON customers (organisation_id, external_id)
    WHERE external_id IS NOT NULL`.execute(db)
  await sql`CREATE UNIQUE INDEX jobs_external_id_key ON jobs (organisation_id, external_id)
    WHERE external_id IS NOT NULL`.execute(db)

  await db.schema
    .createTable('imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    /** customers | jobs; dry_run 0 or 1 on both dialects (one reader for both) */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('dry_run', 'integer', (c) => c.notNull())
    /** JSON text: our field name → the CSV's header name. */
    .addColumn('mapping', 'text', (c) => c.notNull())
    /** PENDING | RUNNING | SUCCEEDED | FAILED */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('processed', 'integer', (c) => c.notNull())
    .addColumn('created', 'integer', (c) => c.notNull())
    .addColumn('updated', 'integer', (c) => c.notNull())
    .addColumn('unchanged', 'integer', (c) => c.notNull())
    .addColumn('failed', 'integer', (c) => c.notNull())
    .addColumn('bytes_read', 'integer', (c) => c.notNull())
    /** The upload's Content-Length, when it had one: with bytes_read, a progress bar. */
    .addColumn('bytes_total', 'integer')
    .addColumn('errors', 'text', (c) => c.notNull())
    .addColumn('sample', 'text', (c) => c.notNull())
    /** Why a FAILED import stopped (a file that is not CSV, a missing column). */
    .addColumn('failure', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .addColumn('finished_at', timestamp)
    .execute()
  await db.schema
    .createIndex('imports_list_idx')
    .on('imports')
    .columns(['organisation_id', 'created_at', 'id'])
    .execute()
}
