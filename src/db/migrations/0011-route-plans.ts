// Route plans (issue "Route optimiser"): a request to plan one day, run by whichever instance claims
// it, and its result, kept until it is applied or discarded. Frozen in time: never import
// application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const pg = dialect === 'postgres'
  const timestamp = pg ? sql`timestamptz(3)` : sql`text`

  await db.schema
    .createTable('route_plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    /** QUEUED → RUNNING → DONE | FAILED | CANCELLED; DONE → APPLIED | STALE. */
    .addColumn('status', 'text', (c) => c.notNull())
    /** The day planned, YYYY-MM-DD, read in each depot's time zone. */
    .addColumn('plan_date', 'text', (c) => c.notNull())
    .addColumn('location_id', 'text')
    /** REPLAN_ALL | KEEP_ASSIGNED */
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('time_limit_seconds', 'integer', (c) => c.notNull())
    /** JSON arrays of ids, or null for "every one the day has". */
    .addColumn('job_ids', 'text')
    .addColumn('shift_ids', 'text')
    .addColumn('seed', 'integer', (c) => c.notNull())
    /** JSON: { elapsedMs, iterations, bestCost, assigned } while RUNNING. */
    .addColumn('progress', 'text')
    /** JSON: the plan (routes, stops, unassigned, cost) once DONE. */
    .addColumn('result', 'text')
    /** JSON: the version of every input the plan read (jobs, shifts, vehicles, …), for PLAN_STALE. */
    .addColumn('inputs', 'text')
    .addColumn('error', 'text')
    /** Set by POST …/cancel; the runner stops at its next progress tick. */
    .addColumn('cancel_requested', pg ? sql`boolean` : sql`integer`, (c) => c.notNull())
    /** The instance running it and when it last said so: a silent RUNNING plan is failed by others. */
    .addColumn('claimed_by', 'text')
    .addColumn('heartbeat_at', timestamp)
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('updated_at', timestamp, (c) => c.notNull())
    .addColumn('started_at', timestamp)
    .addColumn('finished_at', timestamp)
    .addColumn('applied_at', timestamp)
    .execute()
  await db.schema
    .createIndex('route_plans_list_idx')
    .on('route_plans')
    .columns(['organisation_id', 'created_at desc', 'id desc'])
    .execute()
  // The runners' queue: queued plans oldest first, and running ones for the heartbeat sweep.
  await db.schema
    .createIndex('route_plans_queue_idx')
    .on('route_plans')
    .columns(['status', 'created_at'])
    .execute()

  // How the default travel matrix and the SOFT-window penalty work for this organisation.
  const real = pg ? sql`double precision` : sql`real`
  for (const [column, value] of [
    ['routing_detour_factor', 1.3],
    ['routing_speed_kmh', 40],
    ['routing_lateness_penalty_per_minute', 1],
  ] as const) {
    await db.schema
      .alterTable('organisations')
      .addColumn(column, real, (c) => c.notNull().defaultTo(value))
      .execute()
  }
}
