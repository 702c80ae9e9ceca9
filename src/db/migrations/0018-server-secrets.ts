// Secrets the service makes for itself (issue 27): one row per purpose, the value generated at first
// use by whichever instance gets there first (an insert that does nothing when the row exists), so
// every instance signs and checks with the same key and a restart keeps it. The first is the key of
// the dashboard's device cookies (sessions/device-cookies.ts). Frozen in time: never import
// application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const timestamp = dialect === 'postgres' ? sql`timestamptz(3)` : sql`text`

  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    /** Random bytes, base64url. */
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute()
}
