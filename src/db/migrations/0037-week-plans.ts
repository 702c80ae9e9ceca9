// A week at a time (issue 32 §3): a job's `dueBy` — the last date (YYYY-MM-DD, its depot's calendar)
// it should be done on, so a plan over several days may place it on any of them up to that date —
// and a route plan's last date (`dateTo`; null: a plan of one day, `plan_date`). Both nullable, so
// SQLite adds them in place and rows written before read as they did.
// Frozen in time: never import application code here.
import type { Kysely } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, _dialect: MigrationDialect): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('due_by', 'text').execute()
  await db.schema.alterTable('route_plans').addColumn('date_to', 'text').execute()
}
