import type { Transaction } from 'kysely'
import { isPostgres } from './database.js'
import type { Database } from './types.js'

/** Tenant tables other rows refer to by id. */
export type ReferencedTable = 'users' | 'locations' | 'vehicles' | 'shifts' | 'customers' | 'tags'

/**
 * Whether `id` is a row of `table` in the organisation, for a writer about to store a reference to
 * it. On PostgreSQL the row stays key-share locked until the transaction ends: a concurrent delete
 * waits, then sees the new reference, instead of the writer failing on the foreign key.
 */
export async function referenceExists(
  trx: Transaction<Database>,
  table: ReferencedTable,
  organisationId: string,
  id: string,
): Promise<boolean> {
  let query = trx
    .selectFrom(table as 'users')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
  if (isPostgres(trx)) query = query.forKeyShare()
  return (await query.executeTakeFirst()) !== undefined
}
