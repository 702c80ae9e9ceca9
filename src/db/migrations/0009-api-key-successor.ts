// A rotated API key records its successor, so a key is rotated at most once: rotating it again (a
// retry, a second operator, two concurrent requests) is refused instead of issuing another key, and
// the grace-period expiry written by the first rotation can never pass on to a new key as its own.
// Keys rotated before this migration have no successor recorded and are treated as not rotated.
// Frozen in time: never import application code here.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('replaced_by_id', 'text', (c) => c.references('api_keys.id'))
    .execute()
}
