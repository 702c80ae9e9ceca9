// Idempotency keys belong to the credential that sent them (issue 27): the same Idempotency-Key from
// two API keys of one organisation, or from two signed-in users, is two keys, and neither is ever
// answered with the other's stored response. A new table keyed (organisation, credential, key), not a
// new primary key on idempotency_keys: an older build still serving during a rolling deploy (or after
// a rollback) keeps claiming `ON CONFLICT (organisation_id, key)` in its own table, which a changed key
// would turn into an error on every write sent with a key. So nothing is copied (the credential of an
// existing row is not recorded anywhere, and a row without one must never answer a live credential)
// and the migration costs nothing however many keys there are. The price: a retry that crosses the
// upgrade, or lands on an instance of the other build meanwhile, runs again instead of being replayed.
// idempotency_keys is no longer written by this build; its rows expire within 24 hours and a later
// release drops it. Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const pg = dialect === 'postgres'
  const timestamp = pg ? sql`timestamptz(3)` : sql`text`

  await db.schema
    .createTable('idempotency_claims')
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    /** `key:<API key id>` or `user:<user id>` (a signed-in user, whichever of their sessions). */
    .addColumn('credential', 'text', (c) => c.notNull())
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
    .addPrimaryKeyConstraint('idempotency_claims_pkey', ['organisation_id', 'credential', 'key'])
    .execute()
  // The pruner deletes expired rows oldest first.
  await db.schema
    .createIndex('idempotency_claims_expiry_idx')
    .on('idempotency_claims')
    .column('expires_at')
    .execute()
}
