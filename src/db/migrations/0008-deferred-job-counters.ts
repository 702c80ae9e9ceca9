// Concurrent job writers in one organisation no longer queue behind each other (PostgreSQL).
// Every insert or status/priority/location/window change of a job updates the same few counter rows
// of its organisation (job_counts' '*' totals, job_day_counts' days), and a counter row stays locked
// until its transaction ends. Updated at the write, the lock was held across every later round trip
// of the transaction: writers of one organisation ran one at a time (~200-400 POST /jobs a second at
// 50 connections, most backends waiting on `Lock:transactionid`). Deferred to COMMIT, the same
// trigger functions run last, so each lock is held only for the commit itself.
// The functions and the tables are unchanged (an older build reads them the same way); only when the
// triggers fire moves. SQLite has a single writer and nothing to gain: it keeps its triggers.
// Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

const TRIGGERS: [name: string, event: string, fn: string][] = [
  ['jobs_count_insert', 'INSERT', 'job_counts_maintain'],
  [
    'jobs_count_update',
    'UPDATE OF status, priority, location_id, deleted_at, organisation_id',
    'job_counts_maintain',
  ],
  ['jobs_count_delete', 'DELETE', 'job_counts_maintain'],
  ['jobs_days_insert', 'INSERT', 'job_days_maintain'],
  [
    'jobs_days_update',
    'UPDATE OF organisation_id, status, earliest_start, latest_end, deleted_at, created_at',
    'job_days_maintain',
  ],
  ['jobs_days_delete', 'DELETE', 'job_days_maintain'],
]

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  if (dialect !== 'postgres') return
  for (const [name, event, fn] of TRIGGERS) {
    await sql.raw(`DROP TRIGGER ${name} ON jobs`).execute(db)
    // Deferred row triggers fire at COMMIT in the order of their events, each with the OLD and NEW
    // row of its own event, so a job changed twice in one transaction still nets out exactly.
    await sql
      .raw(
        `CREATE CONSTRAINT TRIGGER ${name} AFTER ${event} ON jobs
         DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
      )
      .execute(db)
  }
}
