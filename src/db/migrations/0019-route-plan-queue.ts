// The route plan queue served round-robin across organisations (issue 27): each plan takes a round
// when it is queued — the round being served, or the one after its organisation's latest waiting
// plan, whichever is later — and runners claim the lowest round first, oldest first within it. So
// fifty plans of one organisation take fifty rounds, and another's plan queued after them waits for
// one of them at most. Frozen in time: never import application code here.
import type { Kysely } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, _dialect: MigrationDialect): Promise<void> {
  // Plans queued before this migration share round 0: they are served oldest first, as before.
  await db.schema
    .alterTable('route_plans')
    .addColumn('queue_round', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  // The claim (QUEUED, lowest round, oldest), the round being served (RUNNING, highest round) and
  // the sweep of silent RUNNING plans all read this index; it replaces (status, created_at).
  await db.schema.dropIndex('route_plans_queue_idx').execute()
  await db.schema
    .createIndex('route_plans_queue_idx')
    .on('route_plans')
    .columns(['status', 'queue_round', 'created_at', 'id'])
    .execute()
  // An organisation's QUEUED and RUNNING plans, for the cap on them and its latest round.
  await db.schema
    .createIndex('route_plans_waiting_idx')
    .on('route_plans')
    .columns(['organisation_id', 'status', 'queue_round'])
    .execute()
}
