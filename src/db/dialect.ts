// Which engine an executor talks to. Its own file so that the database factory (database.ts) and
// the fast path (fast-path/) can both ask without importing each other.
import { type Kysely, PostgresAdapter } from 'kysely'
import type { Database } from './types.js'

/** True when the executor (a Kysely instance or a transaction) talks to PostgreSQL. */
export function isPostgres(db: Pick<Kysely<Database>, 'getExecutor'>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter
}
