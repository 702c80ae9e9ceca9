// A webhook execution keeps the receiver's response headers (as a JSON object, at most a few KB) next
// to the start of its body, for the dashboard's delivery detail. Executions logged before this have
// none (null). Frozen in time: never import application code here.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_executions').addColumn('response_headers', 'text').execute()
}
