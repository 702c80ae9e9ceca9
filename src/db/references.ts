import type { Transaction } from 'kysely'
import { isPostgres } from './database.js'
import { fastPath, param } from './fast-path/index.js'
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
  const rows = await fastPath.read(
    trx,
    `${table}.reference`,
    () => {
      const query = trx
        .selectFrom(table as 'users')
        .select('id')
        .where('organisation_id', '=', param<string>('organisationId'))
        .where('id', '=', param<string>('id'))
      return isPostgres(trx) ? query.forKeyShare() : query
    },
    { organisationId, id },
  )
  return rows.length > 0
}
