// Row locks for a write that reads before it writes. PostgreSQL needs `FOR UPDATE` so a concurrent
// writer waits for this transaction; SQLite has one writer at a time, so its write transaction is
// already exclusive and the query stays as it is (SQLite has no FOR UPDATE).
import type { Kysely, SelectQueryBuilder } from 'kysely'
import { isPostgres } from './dialect.js'
import type { Database } from './types.js'

export interface LockOptions {
  /** Rows another transaction holds are left out rather than waited for (a queue's claim). */
  skipLocked?: boolean
}

/** `query` locking the rows it reads until the transaction of `db` ends (see above). */
export function lockForUpdate<Q extends SelectQueryBuilder<Database, any, any>>(
  db: Pick<Kysely<Database>, 'getExecutor'>,
  query: Q,
  options: LockOptions = {},
): Q {
  if (!isPostgres(db)) return query
  const locked = query.forUpdate()
  return (options.skipLocked ? locked.skipLocked() : locked) as Q
}
