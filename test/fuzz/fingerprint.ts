// A cheap fingerprint of everything the routes can write, read straight from the database in one
// query: per table a row count plus whatever moves when a row changes (latest updated_at, flags and
// totals for tables without one). Equal before and after a rejected write ⇒ it changed nothing.
// Whole tables, not one organisation: a request must not touch anyone else's rows either.
// api_keys.last_used_at and user_sessions.last_seen_at are left out on purpose: authenticating a key
// or a session may stamp them.
import { sql } from 'kysely'
import type { TestContext } from '../helpers.js'

const flag = (column: string) => `sum(CASE WHEN ${column} THEN 1 ELSE 0 END)`

const AGGREGATES: Record<string, string[]> = {
  organisations: ['count(*)', 'max(updated_at)', 'max(name)', 'min(plan)'],
  users: ['count(*)', 'max(updated_at)', flag('is_active'), 'count(password_hash)'],
  user_sessions: ['count(*)'],
  locations: ['count(*)', 'max(updated_at)', flag('is_active'), flag('is_primary')],
  capacity_dimensions: ['count(*)', 'max(updated_at)'],
  tags: ['count(*)', 'max(updated_at)'],
  vehicles: ['count(*)', 'max(updated_at)', flag('is_active')],
  vehicle_tags: ['count(*)'],
  vehicle_capacities: ['count(*)', 'sum(max_value)'],
  shifts: ['count(*)', 'max(updated_at)'],
  shift_breaks: ['count(*)', 'max(created_at)'],
  customers: ['count(*)', 'max(updated_at)'],
  jobs: ['count(*)', 'max(updated_at)', 'count(deleted_at)', 'count(assigned_user_id)'],
  job_tags: ['count(*)'],
  job_demands: ['count(*)', 'sum(required_value)'],
  api_keys: ['count(*)', 'max(created_at)', 'count(revoked_at)', 'max(expires_at)'],
  outbox_events: ['count(*)', 'count(dispatched_at)'],
  automations: ['count(*)', 'max(updated_at)', flag('is_active'), 'count(previous_secret)'],
  webhook_executions: ['count(*)', 'max(completed_at)'],
  form_submissions: ['count(*)'],
  route_plans: ['count(*)', 'max(updated_at)'],
  job_counts: ['sum(count)'],
  job_days: ['count(*)'],
  job_long_windows: ['count(*)'],
  absences: ['count(*)', 'max(created_at)'],
  shift_date_changes: ['count(*)', 'max(updated_at)', flag('is_off')],
  job_series: ['count(*)', 'max(updated_at)', 'count(end_date)'],
  job_series_exceptions: ['count(*)', 'max(created_at)', 'max(moved_to)'],
}

const QUERY = Object.entries(AGGREGATES)
  .flatMap(([table, aggregates]) =>
    aggregates.map((aggregate, i) => `(SELECT ${aggregate} FROM ${table}) AS "${table}.${i}:${aggregate}"`),
  )
  .join(',\n')

export type Fingerprint = Record<string, string>

export async function fingerprint(t: TestContext): Promise<Fingerprint> {
  const { rows } = await sql<Record<string, unknown>>`SELECT ${sql.raw(QUERY)}`.execute(t.database.db)
  const row = rows[0] ?? {}
  // PostgreSQL returns bigints as text and timestamps as Dates; compare everything as text.
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : String(v)]),
  )
}

/** The entries that differ, as `name: before → after`; empty when equal. */
export function diffFingerprints(before: Fingerprint, after: Fingerprint): string[] {
  return Object.keys(after)
    .filter((k) => before[k] !== after[k])
    .map((k) => `${k}: ${before[k]} → ${after[k]}`)
}
