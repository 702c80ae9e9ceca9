// Work done offline reaches the server late (issue 29): a job's startedAt and completedAt now say when
// the worker did it, as the phone sends it, and these columns when the server received it. Jobs started
// or completed before this have none (null): their startedAt/completedAt were the time received.
// Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const timestamp = dialect === 'postgres' ? sql`timestamptz(3)` : sql`text`
  await db.schema.alterTable('jobs').addColumn('start_recorded_at', timestamp).execute()
  await db.schema.alterTable('jobs').addColumn('complete_recorded_at', timestamp).execute()
}
