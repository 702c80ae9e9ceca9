// Exact, cheap job totals. `job_counts` holds, per organisation, the number of live jobs for every
// combination of status, priority and location, each either a value or '*' (any): eight rows per
// job. Triggers keep it in step in the same transaction as every insert, update and delete of a
// job, whoever writes it, so a list's `pagination.total` is one primary-key read at any size.
// Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

/** The eight (status, priority, location) keys a job row counts under; '' is "no location". */
const keysOf = (row: 'NEW' | 'OLD', delta: number) => `
  SELECT ${row}.organisation_id AS organisation_id,
         CASE WHEN k.s = 1 THEN ${row}.status ELSE '*' END AS status,
         CASE WHEN k.p = 1 THEN ${row}.priority ELSE '*' END AS priority,
         CASE WHEN k.l = 1 THEN coalesce(${row}.location_id, '') ELSE '*' END AS location_id,
         ${delta} AS delta
  FROM (SELECT 0 AS s, 0 AS p, 0 AS l UNION ALL SELECT 1, 0, 0 UNION ALL SELECT 0, 1, 0
        UNION ALL SELECT 0, 0, 1 UNION ALL SELECT 1, 1, 0 UNION ALL SELECT 1, 0, 1
        UNION ALL SELECT 0, 1, 1 UNION ALL SELECT 1, 1, 1) AS k
  WHERE ${row}.deleted_at IS NULL`

/**
 * Applies the net change of the given contributions, in key order: concurrent writers on
 * PostgreSQL take the counter rows' locks in the same order and so cannot deadlock on them.
 */
const applyDeltas = (contributions: string) => `
  INSERT INTO job_counts (organisation_id, status, priority, location_id, count)
  SELECT organisation_id, status, priority, location_id, sum(delta)
  FROM (${contributions}) AS d
  GROUP BY organisation_id, status, priority, location_id
  HAVING sum(delta) <> 0
  ORDER BY organisation_id, status, priority, location_id
  ON CONFLICT (organisation_id, status, priority, location_id)
  DO UPDATE SET count = job_counts.count + excluded.count`

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  await db.schema
    .createTable('job_counts')
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('location_id', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_counts_pkey', ['organisation_id', 'status', 'priority', 'location_id'])
    .execute()

  const inserted = applyDeltas(keysOf('NEW', 1))
  const updated = applyDeltas(`${keysOf('OLD', -1)} UNION ALL ${keysOf('NEW', 1)}`)
  const deleted = applyDeltas(keysOf('OLD', -1))
  const counted = 'status, priority, location_id, deleted_at, organisation_id'

  if (dialect === 'postgres') {
    await sql
      .raw(`
      CREATE FUNCTION job_counts_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN ${inserted};
        ELSIF TG_OP = 'UPDATE' THEN ${updated};
        ELSE ${deleted};
        END IF;
        RETURN NULL;
      END $$`)
      .execute(db)
    await sql
      .raw(
        `CREATE TRIGGER jobs_count_insert AFTER INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION job_counts_maintain()`,
      )
      .execute(db)
    await sql
      .raw(
        `CREATE TRIGGER jobs_count_update AFTER UPDATE OF ${counted} ON jobs FOR EACH ROW EXECUTE FUNCTION job_counts_maintain()`,
      )
      .execute(db)
    await sql
      .raw(
        `CREATE TRIGGER jobs_count_delete AFTER DELETE ON jobs FOR EACH ROW EXECUTE FUNCTION job_counts_maintain()`,
      )
      .execute(db)
  } else {
    await sql.raw(`CREATE TRIGGER jobs_count_insert AFTER INSERT ON jobs BEGIN ${inserted}; END`).execute(db)
    await sql
      .raw(`CREATE TRIGGER jobs_count_update AFTER UPDATE OF ${counted} ON jobs BEGIN ${updated}; END`)
      .execute(db)
    await sql.raw(`CREATE TRIGGER jobs_count_delete AFTER DELETE ON jobs BEGIN ${deleted}; END`).execute(db)
  }

  // Jobs that exist already.
  await sql
    .raw(applyDeltas(keysOf('NEW', 1).replaceAll('NEW.', 'j.').replace('AS k', 'AS k CROSS JOIN jobs AS j')))
    .execute(db)
}
