// A job's own address (issue 30 §2): the visit's address as people write it, for a job whose place is
// not its customer's (a delivery, a one-off without a customer). Null: the customer's address is
// shown. Coordinates stay the routing truth; the address is only read by people and the header search.
// - jobs.address: nullable text, so an older build keeps serving meanwhile.
// - Search: PostgreSQL gets a pg_trgm GIN index on lower(address), beside 0026's title index. SQLite's
//   jobs_trigram gains an address column: an FTS5 table's columns cannot be altered, so it is rebuilt
//   from jobs (with its id map and triggers), as 0026 rebuilt customers_trigram.
// Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('address', 'text').execute()

  if (dialect === 'postgres') {
    await sql`CREATE INDEX jobs_address_trgm ON jobs USING gin (lower(address) gin_trgm_ops)
      WHERE deleted_at IS NULL AND address IS NOT NULL`.execute(db)
    return
  }

  for (const trigger of ['jobs_trigram_insert', 'jobs_trigram_update', 'jobs_trigram_delete']) {
    await sql`DROP TRIGGER ${sql.raw(trigger)}`.execute(db)
  }
  await sql`DROP TABLE jobs_trigram`.execute(db)
  await sql`DELETE FROM jobs_trigram_ids`.execute(db)
  // The organisation rides along unindexed, as in 0026.
  await sql`CREATE VIRTUAL TABLE jobs_trigram USING fts5(
      title, address, organisation_id UNINDEXED, tokenize = 'trigram case_sensitive 1')`.execute(db)
  // Rowids follow the jobs' own, so the newest jobs keep the highest (the search ranks among those).
  await sql`INSERT INTO jobs_trigram (rowid, title, address, organisation_id)
      SELECT rowid, lower(title), lower(coalesce(address, '')), organisation_id FROM jobs`.execute(db)
  await sql`INSERT INTO jobs_trigram_ids (trigram_rowid, job_id) SELECT rowid, id FROM jobs`.execute(db)
  await sql`CREATE TRIGGER jobs_trigram_insert AFTER INSERT ON jobs BEGIN
      INSERT INTO jobs_trigram (title, address, organisation_id)
        VALUES (lower(NEW.title), lower(coalesce(NEW.address, '')), NEW.organisation_id);
      INSERT INTO jobs_trigram_ids (trigram_rowid, job_id) VALUES (last_insert_rowid(), NEW.id);
    END`.execute(db)
  await sql`CREATE TRIGGER jobs_trigram_update AFTER UPDATE OF title, address ON jobs BEGIN
      UPDATE jobs_trigram SET (title, address) = (SELECT lower(NEW.title), lower(coalesce(NEW.address, '')))
      WHERE rowid = (SELECT trigram_rowid FROM jobs_trigram_ids WHERE job_id = OLD.id);
    END`.execute(db)
  await sql`CREATE TRIGGER jobs_trigram_delete AFTER DELETE ON jobs BEGIN
      DELETE FROM jobs_trigram WHERE rowid = (SELECT trigram_rowid FROM jobs_trigram_ids WHERE job_id = OLD.id);
      DELETE FROM jobs_trigram_ids WHERE job_id = OLD.id;
    END`.execute(db)
}
