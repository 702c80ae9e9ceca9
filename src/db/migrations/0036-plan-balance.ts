// Balanced routes (issue 32 §2): a route plan's `balance` — NONE (cheapest plan), WORKLOAD (even
// working time across the day's routes) or USE_ALL (every available worker gets work when there is
// enough). NOT NULL with the default of every plan made before, so SQLite adds it in place and an
// older build still serving meanwhile writes plans that do not balance.
// Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, _dialect: MigrationDialect): Promise<void> {
  await db.schema
    .alterTable('route_plans')
    .addColumn('balance', 'text', (c) =>
      c.notNull().defaultTo('NONE').check(sql`balance in ('NONE', 'WORKLOAD', 'USE_ALL')`),
    )
    .execute()
}
