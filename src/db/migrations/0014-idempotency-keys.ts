// Idempotency keys (issue 16): the first response to each (organisation, Idempotency-Key) pair, kept
// 24 hours so a retried write is answered with it instead of being done again. The row is claimed
// (RUNNING) in a statement of its own before the request runs, and marked DONE with the response in
// the request's own transaction. Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const pg = dialect === 'postgres'
  const timestamp = pg ? sql`timestamptz(3)` : sql`text`

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('key', 'text', (c) => c.notNull())
    /** SHA-256 (hex) of the method, the path with its query and the canonical JSON of the body. */
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    /** RUNNING → DONE */
    .addColumn('status', 'text', (c) => c.notNull())
    /** Random per claim: only the request holding the current claim may complete or release it. */
    .addColumn('claim_id', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    /** The response body exactly as it was sent (JSON text). */
    .addColumn('response_body', 'text')
    .addColumn('locked_at', timestamp, (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addColumn('expires_at', timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['organisation_id', 'key'])
    .execute()
  // The pruner deletes expired rows oldest first.
  await db.schema
    .createIndex('idempotency_keys_expiry_idx')
    .on('idempotency_keys')
    .column('expires_at')
    .execute()
}
