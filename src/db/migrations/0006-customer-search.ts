// Customer search without a function call per row: `search_name` and `search_address` hold the
// Unicode-lowercased name and address, kept in step by triggers, so `search=` is a plain LIKE
// (SQLite's lower() is a JavaScript function registered on the connection; calling it for every
// row of every search cost ~1 µs a row). Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  await db.schema
    .alterTable('customers')
    .addColumn('search_name', 'text', (c) => c.notNull().defaultTo(''))
    .execute()
  await db.schema
    .alterTable('customers')
    .addColumn('search_address', 'text', (c) => c.notNull().defaultTo(''))
    .execute()
  await sql`UPDATE customers SET search_name = lower(name), search_address = lower(address)`.execute(db)

  if (dialect === 'postgres') {
    await sql`
      CREATE FUNCTION customers_search_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.search_name := lower(NEW.name);
        NEW.search_address := lower(NEW.address);
        RETURN NEW;
      END $$`.execute(db)
    await sql`CREATE TRIGGER customers_search BEFORE INSERT OR UPDATE OF name, address ON customers
      FOR EACH ROW EXECUTE FUNCTION customers_search_maintain()`.execute(db)
  } else {
    for (const event of ['INSERT', 'UPDATE OF name, address']) {
      const name = event === 'INSERT' ? 'customers_search_insert' : 'customers_search_update'
      await sql
        .raw(`CREATE TRIGGER ${name} AFTER ${event} ON customers BEGIN
          UPDATE customers SET search_name = lower(NEW.name), search_address = lower(NEW.address)
          WHERE rowid = NEW.rowid;
        END`)
        .execute(db)
    }
  }
}
