// Route plans made "as of" an instant (issue 29): a plan of today starts from the moment it was
// asked for (or the `at` it named), however long it waited in the queue; and the stability it was
// asked for (0–1), which prices moving jobs between workers. Plans made before keep a null instant
// (planned from each shift's start, as they were) and the default stability. Frozen in time: never
// import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const pg = dialect === 'postgres'
  const timestamp = pg ? sql`timestamptz(3)` : sql`text`
  const double = pg ? sql`double precision` : sql`real`
  await db.schema.alterTable('route_plans').addColumn('plan_at', timestamp).execute()
  await db.schema
    .alterTable('route_plans')
    .addColumn('stability', double, (c) => c.notNull().defaultTo(0.5))
    .execute()
}
