// Job writers of one organisation commit side by side (PostgreSQL). Every job insert, and every change
// of a counted column, adds to the same counter rows of its organisation — job_counts' all-'*' row
// first of all, job_day_counts' '*' row of each day it spans — and a row lock is held until COMMIT
// has flushed the WAL. Deferred to COMMIT (0008), the triggers still queued every writer behind the
// previous one's WAL flush: under load most backends waited on `Lock:transactionid`, and each commit
// paid its own fsync where PostgreSQL would otherwise flush a group of them at once.
// Now each counter is kept in up to SLOTS rows (`slot`), a transaction adds to the slot of its own
// transaction id, and a reader sums a counter's slots; two concurrent writers share a row only when
// their ids fall in the same slot. Within one transaction the slot is fixed, so its locks are still
// taken in key order (no new deadlocks). SQLite has a single writer and keeps one row per counter.
// An older build still serving during a rolling deploy reads a single row of a counter: its list
// totals run low until it is replaced (its writes go through these triggers and stay exact).
// Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

const SLOTS = 16
const SLOT = `(txid_current() % ${SLOTS})::smallint`
const MAX_BUCKETED_SPAN_DAYS = 31

/** The eight (status, priority, location) keys a job row counts under; '' is "no location". */
const countKeys = (row: 'NEW' | 'OLD', delta: number) => `
  SELECT ${row}.organisation_id AS organisation_id,
         CASE WHEN k.s = 1 THEN ${row}.status ELSE '*' END AS status,
         CASE WHEN k.p = 1 THEN ${row}.priority ELSE '*' END AS priority,
         CASE WHEN k.l = 1 THEN coalesce(${row}.location_id, '') ELSE '*' END AS location_id,
         ${delta} AS delta
  FROM (SELECT 0 AS s, 0 AS p, 0 AS l UNION ALL SELECT 1, 0, 0 UNION ALL SELECT 0, 1, 0
        UNION ALL SELECT 0, 0, 1 UNION ALL SELECT 1, 1, 0 UNION ALL SELECT 1, 0, 1
        UNION ALL SELECT 0, 1, 1 UNION ALL SELECT 1, 1, 1) AS k
  WHERE ${row}.deleted_at IS NULL`

/** Adds the net change of the contributions to this transaction's slot, in key order. */
const applyCounts = (contributions: string) => `
  INSERT INTO job_counts (organisation_id, status, priority, location_id, slot, count)
  SELECT organisation_id, status, priority, location_id, ${SLOT}, sum(delta)
  FROM (${contributions}) AS d
  GROUP BY organisation_id, status, priority, location_id
  HAVING sum(delta) <> 0
  ORDER BY organisation_id, status, priority, location_id
  ON CONFLICT (organisation_id, status, priority, location_id, slot)
  DO UPDATE SET count = job_counts.count + excluded.count`

const dateOf = (value: string) => `((${value}) AT TIME ZONE 'UTC')::date`
const span = (row: string) => `(${dateOf(`${row}.latest_end`)} - ${dateOf(`${row}.earliest_start`)})`
const bounded = (row: string) =>
  `${row}.earliest_start IS NOT NULL AND ${row}.latest_end IS NOT NULL AND ${span(row)} <= ${MAX_BUCKETED_SPAN_DAYS}`

/** The day rows of a job row (NEW or OLD), as a SELECT (as 0005). */
const dayRows = (row: string) => `
  SELECT ${row}.organisation_id AS organisation_id,
         to_char(${dateOf(`${row}.earliest_start`)} + o.n, 'YYYY-MM-DD') AS day, ${row}.id AS job_id,
         ${row}.status AS status, ${row}.created_at AS created_at
  FROM calendar_offsets AS o
  WHERE ${row}.deleted_at IS NULL AND ${bounded(row)} AND o.n <= ${span(row)}`
const longRow = (row: string) => `
  SELECT ${row}.organisation_id, ${row}.id, ${row}.status, ${row}.created_at, ${row}.earliest_start, ${row}.latest_end
  WHERE ${row}.deleted_at IS NULL AND (${row}.earliest_start IS NOT NULL OR ${row}.latest_end IS NOT NULL)
    AND NOT (${bounded(row)})`
/** Count contributions of a row's days: each day under its status and under '*'. */
const dayKeys = (row: string, delta: number) => `
  SELECT d.organisation_id, d.day, CASE WHEN s.specific = 1 THEN d.status ELSE '*' END AS status, ${delta} AS delta
  FROM (${dayRows(row)}) AS d CROSS JOIN (SELECT 0 AS specific UNION ALL SELECT 1) AS s`
const applyDayCounts = (contributions: string) => `
  INSERT INTO job_day_counts (organisation_id, day, status, slot, count)
  SELECT organisation_id, day, status, ${SLOT}, sum(delta) FROM (${contributions}) AS c
  GROUP BY organisation_id, day, status HAVING sum(delta) <> 0
  ORDER BY organisation_id, day, status
  ON CONFLICT (organisation_id, day, status, slot) DO UPDATE SET count = job_day_counts.count + excluded.count`
const insertDayRows = (row: string) => `
  INSERT INTO job_days (organisation_id, day, job_id, status, created_at) ${dayRows(row)};
  INSERT INTO job_long_windows (organisation_id, job_id, status, created_at, earliest_start, latest_end) ${longRow(row)}`
const deleteDayRows = (row: string) => `
  DELETE FROM job_days WHERE organisation_id = ${row}.organisation_id AND job_id = ${row}.id;
  DELETE FROM job_long_windows WHERE organisation_id = ${row}.organisation_id AND job_id = ${row}.id`

const trigger = (name: string, onInsert: string, onUpdate: string, onDelete: string) => `
  CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN ${onInsert};
    ELSIF TG_OP = 'UPDATE' THEN ${onUpdate};
    ELSE ${onDelete};
    END IF;
    RETURN NULL;
  END $$`

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  if (dialect !== 'postgres') return
  // The existing rows become slot 0; the new key takes the old key's place.
  for (const [table, key] of [
    ['job_counts', 'organisation_id, status, priority, location_id'],
    ['job_day_counts', 'organisation_id, day, status'],
  ]) {
    await sql.raw(`ALTER TABLE ${table} ADD COLUMN slot smallint NOT NULL DEFAULT 0`).execute(db)
    await sql.raw(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey`).execute(db)
    await sql.raw(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_pkey PRIMARY KEY (${key}, slot)`).execute(db)
  }
  // The triggers (deferred, 0008) call these functions by name: replacing them is enough.
  await sql
    .raw(
      trigger(
        'job_counts_maintain',
        applyCounts(countKeys('NEW', 1)),
        applyCounts(`${countKeys('OLD', -1)} UNION ALL ${countKeys('NEW', 1)}`),
        applyCounts(countKeys('OLD', -1)),
      ),
    )
    .execute(db)
  await sql
    .raw(
      trigger(
        'job_days_maintain',
        `${applyDayCounts(dayKeys('NEW', 1))}; ${insertDayRows('NEW')}`,
        `${applyDayCounts(`${dayKeys('OLD', -1)} UNION ALL ${dayKeys('NEW', 1)}`)};
         ${deleteDayRows('OLD')}; ${insertDayRows('NEW')}`,
        `${applyDayCounts(dayKeys('OLD', -1))}; ${deleteDayRows('OLD')}`,
      ),
    )
    .execute(db)
}
