// Job numbers, customer notes and the header search (issue 30 §4). Every change only adds (nullable
// columns, new tables and indexes), so an older build keeps serving meanwhile.
// - jobs.number: a per-organisation sequence a customer can quote on the phone (shown as J-1042).
//   job_number_counters holds each organisation's last number; the jobs service takes the next one
//   with one upsert … RETURNING in the create's transaction, so N instances never hand out a number
//   twice (the counter row is locked until that transaction ends). Existing jobs are numbered here
//   in createdAt order, per organisation, deleted ones included (a number is never reused).
// - customers.notes: free text for whoever visits (gate codes, "call 30 minutes before").
// - Search indexes: job titles, and customers' email and phone beside the name and address of 0007.
//   PostgreSQL: pg_trgm GIN indexes on the exact expressions the search repository tests.
//   SQLite: FTS5 trigram tables kept in step by triggers, as 0007 does for customers — triggers, not
//   the repositories' writes, because jobs are also written by bulk statements (a plan applied, the
//   demo seed) and a trigger cannot be forgotten by the next one. customers_trigram is rebuilt with
//   the email and the phone's digits (E.164 without its +), so "7700 900123" finds +447700900123.
// Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

/** Short numbers read like quantities ("job 12" vs "12 jobs"): every organisation starts at 1001. */
const FIRST_JOB_NUMBER = 1001

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const pg = dialect === 'postgres'

  await db.schema.alterTable('customers').addColumn('notes', 'text').execute()
  await db.schema.alterTable('jobs').addColumn('number', 'integer').execute()
  await db.schema
    .createTable('job_number_counters')
    .addColumn('organisation_id', 'text', (c) => c.primaryKey().references('organisations.id'))
    /** The last number handed out. */
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .execute()

  await sql`UPDATE jobs SET number = numbered.number
    FROM (SELECT id, ${sql.lit(FIRST_JOB_NUMBER - 1)} + row_number() OVER (
            PARTITION BY organisation_id ORDER BY created_at, id) AS number
          FROM jobs) AS numbered
    WHERE jobs.id = numbered.id`.execute(db)
  await sql`INSERT INTO job_number_counters (organisation_id, last_number)
    SELECT organisation_id, max(number) FROM jobs GROUP BY organisation_id`.execute(db)
  await db.schema
    .createIndex('jobs_number_idx')
    .on('jobs')
    .columns(['organisation_id', 'number'])
    .unique()
    .execute()

  if (pg) {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db)
    await sql`CREATE INDEX jobs_title_trgm ON jobs USING gin (lower(title) gin_trgm_ops)
      WHERE deleted_at IS NULL`.execute(db)
    await sql`CREATE INDEX customers_email_trgm ON customers USING gin (lower(email) gin_trgm_ops)`.execute(
      db,
    )
    await sql`CREATE INDEX customers_phone_trgm ON customers
      USING gin (replace(phone, '+', '') gin_trgm_ops)`.execute(db)
    return
  }

  // The organisation rides along unindexed, so a search can stop after enough of its own matches.
  await sql`CREATE VIRTUAL TABLE jobs_trigram USING fts5(
      title, organisation_id UNINDEXED, tokenize = 'trigram case_sensitive 1')`.execute(db)
  await sql`CREATE TABLE jobs_trigram_ids (
      trigram_rowid INTEGER PRIMARY KEY,
      job_id TEXT NOT NULL UNIQUE)`.execute(db)
  await sql`INSERT INTO jobs_trigram (rowid, title, organisation_id)
      SELECT rowid, lower(title), organisation_id FROM jobs`.execute(db)
  await sql`INSERT INTO jobs_trigram_ids (trigram_rowid, job_id) SELECT rowid, id FROM jobs`.execute(db)
  await sql`CREATE TRIGGER jobs_trigram_insert AFTER INSERT ON jobs BEGIN
      INSERT INTO jobs_trigram (title, organisation_id) VALUES (lower(NEW.title), NEW.organisation_id);
      INSERT INTO jobs_trigram_ids (trigram_rowid, job_id) VALUES (last_insert_rowid(), NEW.id);
    END`.execute(db)
  await sql`CREATE TRIGGER jobs_trigram_update AFTER UPDATE OF title ON jobs BEGIN
      UPDATE jobs_trigram SET title = lower(NEW.title)
      WHERE rowid = (SELECT trigram_rowid FROM jobs_trigram_ids WHERE job_id = OLD.id);
    END`.execute(db)
  await sql`CREATE TRIGGER jobs_trigram_delete AFTER DELETE ON jobs BEGIN
      DELETE FROM jobs_trigram WHERE rowid = (SELECT trigram_rowid FROM jobs_trigram_ids WHERE job_id = OLD.id);
      DELETE FROM jobs_trigram_ids WHERE job_id = OLD.id;
    END`.execute(db)

  // customers_trigram again, with email and phone (0007's table had name and address only).
  for (const trigger of [
    'customers_trigram_insert',
    'customers_trigram_update',
    'customers_trigram_delete',
  ]) {
    await sql`DROP TRIGGER ${sql.raw(trigger)}`.execute(db)
  }
  await sql`DROP TABLE customers_trigram`.execute(db)
  await sql`DELETE FROM customers_trigram_ids`.execute(db)
  await sql`CREATE VIRTUAL TABLE customers_trigram USING fts5(
      name, address, email, phone, tokenize = 'trigram case_sensitive 1')`.execute(db)
  await sql`INSERT INTO customers_trigram (rowid, name, address, email, phone)
      SELECT rowid, search_name, search_address, lower(coalesce(email, '')), replace(coalesce(phone, ''), '+', '')
      FROM customers`.execute(db)
  await sql`INSERT INTO customers_trigram_ids (trigram_rowid, customer_id) SELECT rowid, id FROM customers`.execute(
    db,
  )
  const values = `lower(NEW.name), lower(NEW.address), lower(coalesce(NEW.email, '')),
    replace(coalesce(NEW.phone, ''), '+', '')`
  await sql
    .raw(`CREATE TRIGGER customers_trigram_insert AFTER INSERT ON customers BEGIN
      INSERT INTO customers_trigram (name, address, email, phone) VALUES (${values});
      INSERT INTO customers_trigram_ids (trigram_rowid, customer_id) VALUES (last_insert_rowid(), NEW.id);
    END`)
    .execute(db)
  await sql
    .raw(`CREATE TRIGGER customers_trigram_update AFTER UPDATE OF name, address, email, phone ON customers BEGIN
      UPDATE customers_trigram SET (name, address, email, phone) = (SELECT ${values})
      WHERE rowid = (SELECT trigram_rowid FROM customers_trigram_ids WHERE customer_id = OLD.id);
    END`)
    .execute(db)
  await sql`CREATE TRIGGER customers_trigram_delete AFTER DELETE ON customers BEGIN
      DELETE FROM customers_trigram
      WHERE rowid = (SELECT trigram_rowid FROM customers_trigram_ids WHERE customer_id = OLD.id);
      DELETE FROM customers_trigram_ids WHERE customer_id = OLD.id;
    END`.execute(db)
}
