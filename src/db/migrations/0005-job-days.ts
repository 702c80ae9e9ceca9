// Cheap `targetDate` lists and totals. Jobs whose window [earliestStart, latestEnd] is bounded and
// spans at most 32 UTC days get one `job_days` row per day it overlaps; jobs with one open bound or a
// longer window get a `job_long_windows` row instead (jobs with no window match no date).
// `job_day_counts` counts the day rows per (day, status | '*'). Triggers keep all three in step with
// `jobs` in the same transaction, so a date's first page and total cost the same at any size.
// Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export const MAX_BUCKETED_SPAN_DAYS = 31

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const pg = dialect === 'postgres'
  const timestamp = pg ? sql`timestamptz(3)` : sql`text`

  await db.schema
    .createTable('calendar_offsets')
    .addColumn('n', 'integer', (c) => c.primaryKey())
    .execute()
  await db
    .insertInto('calendar_offsets')
    .values(Array.from({ length: MAX_BUCKETED_SPAN_DAYS + 1 }, (_, n) => ({ n })))
    .execute()

  await db.schema
    .createTable('job_days')
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    /** A UTC day, YYYY-MM-DD. */
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('job_days_pkey', ['organisation_id', 'day', 'job_id'])
    .execute()
  const order = ['created_at desc', 'job_id desc']
  await db.schema
    .createIndex('job_days_list_idx')
    .on('job_days')
    .columns(['organisation_id', 'day', ...order])
    .execute()
  await db.schema
    .createIndex('job_days_status_idx')
    .on('job_days')
    .columns(['organisation_id', 'day', 'status', ...order])
    .execute()
  await db.schema
    .createIndex('job_days_job_idx')
    .on('job_days')
    .columns(['organisation_id', 'job_id'])
    .execute()

  await db.schema
    .createTable('job_long_windows')
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('earliest_start', timestamp)
    .addColumn('latest_end', timestamp)
    .addPrimaryKeyConstraint('job_long_windows_pkey', ['organisation_id', 'job_id'])
    .execute()
  await db.schema
    .createIndex('job_long_windows_list_idx')
    .on('job_long_windows')
    .columns(['organisation_id', ...order])
    .execute()

  await db.schema
    .createTable('job_day_counts')
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_day_counts_pkey', ['organisation_id', 'day', 'status'])
    .execute()

  // Day arithmetic, per dialect: the UTC date of a timestamp, and whole days between two of them.
  const dateOf = (value: string) => (pg ? `((${value}) AT TIME ZONE 'UTC')::date` : `date(${value})`)
  const span = (row: string) =>
    pg
      ? `(${dateOf(`${row}.latest_end`)} - ${dateOf(`${row}.earliest_start`)})`
      : `(julianday(${dateOf(`${row}.latest_end`)}) - julianday(${dateOf(`${row}.earliest_start`)}))`
  const dayPlus = (row: string) =>
    pg
      ? `to_char(${dateOf(`${row}.earliest_start`)} + o.n, 'YYYY-MM-DD')`
      : `date(${row}.earliest_start, '+' || o.n || ' days')`
  const bounded = (row: string) =>
    `${row}.earliest_start IS NOT NULL AND ${row}.latest_end IS NOT NULL AND ${span(row)} <= ${MAX_BUCKETED_SPAN_DAYS}`

  /** The day rows of a job row (NEW or OLD), as a SELECT. */
  const dayRows = (row: string) => `
    SELECT ${row}.organisation_id AS organisation_id, ${dayPlus(row)} AS day, ${row}.id AS job_id,
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
  // Net changes applied in key order, so concurrent writers lock counter rows in one order.
  const applyDayCounts = (contributions: string) => `
    INSERT INTO job_day_counts (organisation_id, day, status, count)
    SELECT organisation_id, day, status, sum(delta) FROM (${contributions}) AS c
    GROUP BY organisation_id, day, status HAVING sum(delta) <> 0
    ORDER BY organisation_id, day, status
    ON CONFLICT (organisation_id, day, status) DO UPDATE SET count = job_day_counts.count + excluded.count`
  const insertRows = (row: string) => `
    INSERT INTO job_days (organisation_id, day, job_id, status, created_at) ${dayRows(row)};
    INSERT INTO job_long_windows (organisation_id, job_id, status, created_at, earliest_start, latest_end) ${longRow(row)}`
  const deleteRows = (row: string) => `
    DELETE FROM job_days WHERE organisation_id = ${row}.organisation_id AND job_id = ${row}.id;
    DELETE FROM job_long_windows WHERE organisation_id = ${row}.organisation_id AND job_id = ${row}.id`

  const onInsert = `${applyDayCounts(dayKeys('NEW', 1))}; ${insertRows('NEW')}`
  const onUpdate = `${applyDayCounts(`${dayKeys('OLD', -1)} UNION ALL ${dayKeys('NEW', 1)}`)};
    ${deleteRows('OLD')}; ${insertRows('NEW')}`
  const onDelete = `${applyDayCounts(dayKeys('OLD', -1))}; ${deleteRows('OLD')}`
  const watched = 'organisation_id, status, earliest_start, latest_end, deleted_at, created_at'

  if (pg) {
    await sql
      .raw(`
      CREATE FUNCTION job_days_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN ${onInsert};
        ELSIF TG_OP = 'UPDATE' THEN ${onUpdate};
        ELSE ${onDelete};
        END IF;
        RETURN NULL;
      END $$`)
      .execute(db)
    for (const [name, event] of [
      ['jobs_days_insert', 'INSERT'],
      ['jobs_days_update', `UPDATE OF ${watched}`],
      ['jobs_days_delete', 'DELETE'],
    ]) {
      await sql
        .raw(
          `CREATE TRIGGER ${name} AFTER ${event} ON jobs FOR EACH ROW EXECUTE FUNCTION job_days_maintain()`,
        )
        .execute(db)
    }
  } else {
    await sql.raw(`CREATE TRIGGER jobs_days_insert AFTER INSERT ON jobs BEGIN ${onInsert}; END`).execute(db)
    await sql
      .raw(`CREATE TRIGGER jobs_days_update AFTER UPDATE OF ${watched} ON jobs BEGIN ${onUpdate}; END`)
      .execute(db)
    await sql.raw(`CREATE TRIGGER jobs_days_delete AFTER DELETE ON jobs BEGIN ${onDelete}; END`).execute(db)
  }

  // Jobs that exist already.
  const existing = (statement: string) => statement.replaceAll('NEW.', 'j.')
  await sql
    .raw(
      existing(
        applyDayCounts(dayKeys('NEW', 1)).replace(
          'FROM calendar_offsets AS o',
          'FROM calendar_offsets AS o CROSS JOIN jobs AS j',
        ),
      ),
    )
    .execute(db)
  await sql
    .raw(
      existing(
        `INSERT INTO job_days (organisation_id, day, job_id, status, created_at) ${dayRows('NEW')}`,
      ).replace('FROM calendar_offsets AS o', 'FROM calendar_offsets AS o CROSS JOIN jobs AS j'),
    )
    .execute(db)
  await sql
    .raw(
      existing(
        `INSERT INTO job_long_windows (organisation_id, job_id, status, created_at, earliest_start, latest_end) ${longRow('NEW')}`,
      ).replace(/\n\s*WHERE/, ' FROM jobs AS j WHERE'),
    )
    .execute(db)
}
