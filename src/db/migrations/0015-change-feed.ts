// The change feeds: lists read with `updatedSince` walk (organisation_id, updated_at, id), and the
// event feed (GET /events) walks an organisation's outbox oldest first, which the outbox's
// (organisation_id, occurred_at desc, id desc) index already serves backwards.
// Frozen in time: never import application code here.
import type { Kysely } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

const TABLES = ['jobs', 'customers', 'vehicles', 'locations', 'shifts'] as const

export async function up(db: Kysely<any>, _dialect: MigrationDialect): Promise<void> {
  for (const table of TABLES) {
    await db.schema
      .createIndex(`${table}_organisation_changes_idx`)
      .on(table)
      .columns(['organisation_id', 'updated_at', 'id'])
      .execute()
  }
}
