// Customer search by trigram index: `search=` finds its candidates through the index instead of
// reading every customer of the organisation (a LIKE over 5 000 customers cost ~1.5 ms a query).
// - PostgreSQL: pg_trgm GIN indexes on the lowercase search columns of 0006.
// - SQLite: an FTS5 table with the trigram tokenizer over the same lowercase text. FTS5 rowids are
//   its own INTEGER PRIMARY KEY (stable across VACUUM, unlike the customers table's implicit rowid),
//   so customers_trigram_ids maps them to customer ids; triggers keep both in step.
// The index only narrows the candidates: queries still apply the exact LIKE. Frozen in time: never
// import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db)
    await sql`CREATE INDEX customers_search_name_trgm ON customers USING gin (search_name gin_trgm_ops)`.execute(
      db,
    )
    await sql`CREATE INDEX customers_search_address_trgm ON customers USING gin (search_address gin_trgm_ops)`.execute(
      db,
    )
    return
  }
  await sql`CREATE VIRTUAL TABLE customers_trigram USING fts5(
      name, address, tokenize = 'trigram case_sensitive 1')`.execute(db)
  await sql`CREATE TABLE customers_trigram_ids (
      trigram_rowid INTEGER PRIMARY KEY,
      customer_id TEXT NOT NULL UNIQUE)`.execute(db)
  await sql`INSERT INTO customers_trigram (rowid, name, address)
      SELECT rowid, search_name, search_address FROM customers`.execute(db)
  await sql`INSERT INTO customers_trigram_ids (trigram_rowid, customer_id)
      SELECT rowid, id FROM customers`.execute(db)
  // lower() is the connection's Unicode-aware function, as in 0006's triggers.
  await sql`CREATE TRIGGER customers_trigram_insert AFTER INSERT ON customers BEGIN
      INSERT INTO customers_trigram (name, address) VALUES (lower(NEW.name), lower(NEW.address));
      INSERT INTO customers_trigram_ids (trigram_rowid, customer_id) VALUES (last_insert_rowid(), NEW.id);
    END`.execute(db)
  await sql`CREATE TRIGGER customers_trigram_update AFTER UPDATE OF name, address ON customers BEGIN
      UPDATE customers_trigram SET name = lower(NEW.name), address = lower(NEW.address)
      WHERE rowid = (SELECT trigram_rowid FROM customers_trigram_ids WHERE customer_id = OLD.id);
    END`.execute(db)
  await sql`CREATE TRIGGER customers_trigram_delete AFTER DELETE ON customers BEGIN
      DELETE FROM customers_trigram
      WHERE rowid = (SELECT trigram_rowid FROM customers_trigram_ids WHERE customer_id = OLD.id);
      DELETE FROM customers_trigram_ids WHERE customer_id = OLD.id;
    END`.execute(db)
}
