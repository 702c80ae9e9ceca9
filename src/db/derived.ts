// Data derived from other columns and kept in step by triggers: job_counts (migration 0004), the
// day tables job_days, job_long_windows and job_day_counts (0005), customers' search columns (0006)
// and, on SQLite, the header search's trigram tables: customers_trigram (0007, with email and phone
// since 0026) and jobs_trigram (0026, with the job's address since 0028). A bulk load that bypasses
// the triggers, or a repair, recomputes them here with the triggers' rules. PostgreSQL's search uses
// pg_trgm indexes on the columns themselves, which need no rebuild.
import { type Kysely, sql, type Transaction } from 'kysely'
import { isPostgres } from './database.js'
import type { Database } from './types.js'

const MAX_BUCKETED_SPAN_DAYS = 31

/** Recomputes every derived table for every organisation, in one transaction. */
export async function rebuildDerivedCounts(db: Kysely<Database>): Promise<void> {
  const pg = isPostgres(db)
  const dateOf = (column: string) => (pg ? `((${column}) AT TIME ZONE 'UTC')::date` : `date(${column})`)
  const span = pg
    ? `(${dateOf('j.latest_end')} - ${dateOf('j.earliest_start')})`
    : `(julianday(${dateOf('j.latest_end')}) - julianday(${dateOf('j.earliest_start')}))`
  const dayPlus = pg
    ? `to_char(${dateOf('j.earliest_start')} + o.n, 'YYYY-MM-DD')`
    : `date(j.earliest_start, '+' || o.n || ' days')`
  const bounded = `j.earliest_start IS NOT NULL AND j.latest_end IS NOT NULL AND ${span} <= ${MAX_BUCKETED_SPAN_DAYS}`

  await db.transaction().execute(async (trx) => {
    await sql`UPDATE customers SET search_name = lower(name), search_address = lower(address)`.execute(trx)
    if (!pg) await rebuildTrigramTables(trx)
    for (const table of ['job_counts', 'job_days', 'job_long_windows', 'job_day_counts'] as const) {
      await trx.deleteFrom(table).execute()
    }
    await sql`
      INSERT INTO job_counts (organisation_id, status, priority, location_id, count)
      SELECT j.organisation_id,
             CASE WHEN k.s = 1 THEN j.status ELSE '*' END,
             CASE WHEN k.p = 1 THEN j.priority ELSE '*' END,
             CASE WHEN k.l = 1 THEN coalesce(j.location_id, '') ELSE '*' END,
             count(*)
      FROM jobs AS j
      CROSS JOIN (SELECT 0 AS s, 0 AS p, 0 AS l UNION ALL SELECT 1, 0, 0 UNION ALL SELECT 0, 1, 0
                  UNION ALL SELECT 0, 0, 1 UNION ALL SELECT 1, 1, 0 UNION ALL SELECT 1, 0, 1
                  UNION ALL SELECT 0, 1, 1 UNION ALL SELECT 1, 1, 1) AS k
      WHERE j.deleted_at IS NULL
      GROUP BY 1, 2, 3, 4`.execute(trx)
    await sql
      .raw(`
      INSERT INTO job_days (organisation_id, day, job_id, status, created_at)
      SELECT j.organisation_id, ${dayPlus}, j.id, j.status, j.created_at
      FROM jobs AS j CROSS JOIN calendar_offsets AS o
      WHERE j.deleted_at IS NULL AND ${bounded} AND o.n <= ${span}`)
      .execute(trx)
    await sql
      .raw(`
      INSERT INTO job_long_windows (organisation_id, job_id, status, created_at, earliest_start, latest_end)
      SELECT j.organisation_id, j.id, j.status, j.created_at, j.earliest_start, j.latest_end
      FROM jobs AS j
      WHERE j.deleted_at IS NULL AND (j.earliest_start IS NOT NULL OR j.latest_end IS NOT NULL)
        AND NOT (${bounded})`)
      .execute(trx)
    await sql`
      INSERT INTO job_day_counts (organisation_id, day, status, count)
      SELECT d.organisation_id, d.day, CASE WHEN s.specific = 1 THEN d.status ELSE '*' END, count(*)
      FROM job_days AS d CROSS JOIN (SELECT 0 AS specific UNION ALL SELECT 1) AS s
      GROUP BY 1, 2, 3`.execute(trx)
  })
}

/**
 * SQLite's FTS5 trigram tables, with the values their triggers write (migrations 0026 and 0028):
 * lower-case text, a missing email or address as '', a phone's digits without its '+'. Rowids follow
 * the source rows', as the migrations set them, so the newest rows keep the highest.
 */
async function rebuildTrigramTables(trx: Transaction<Database>): Promise<void> {
  await sql`DELETE FROM customers_trigram`.execute(trx)
  await sql`DELETE FROM customers_trigram_ids`.execute(trx)
  await sql`INSERT INTO customers_trigram (rowid, name, address, email, phone)
    SELECT rowid, search_name, search_address, lower(coalesce(email, '')), replace(coalesce(phone, ''), '+', '')
    FROM customers`.execute(trx)
  await sql`INSERT INTO customers_trigram_ids (trigram_rowid, customer_id) SELECT rowid, id FROM customers`.execute(
    trx,
  )

  await sql`DELETE FROM jobs_trigram`.execute(trx)
  await sql`DELETE FROM jobs_trigram_ids`.execute(trx)
  await sql`INSERT INTO jobs_trigram (rowid, title, address, organisation_id)
    SELECT rowid, lower(title), lower(coalesce(address, '')), organisation_id FROM jobs`.execute(trx)
  await sql`INSERT INTO jobs_trigram_ids (trigram_rowid, job_id) SELECT rowid, id FROM jobs`.execute(trx)
}
