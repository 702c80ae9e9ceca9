// How a fast-path statement runs: its SQL as is, past query building and compiling. On PostgreSQL,
// outside a transaction, it runs as a named prepared statement, so the server parses and plans it
// once per connection. On SQLite it still goes through Kysely's driver, whose single connection is
// guarded by a mutex: a read must never slip into another request's open transaction (its
// statements are memoised, see sqlite/statement-cache.ts) — except when no transaction is open at all, when
// it reads the handle directly, and in its own transaction, which holds the connection
// (runInTransaction).
import { CompiledQuery, Kysely, type QueryResult, Transaction } from 'kysely'
import { isPostgres } from '../dialect.js'
import { openLeaseOf, rememberLease } from '../sqlite/group-commit.js'
import type { Database, Executor } from '../types.js'
import { poolOf, sqliteHandleOf } from './connections.js'
import type { HotQuery } from './hot-query.js'
import { CACHED_PLAN_CHANGED, statementName, statements } from './statements.js'

export async function runStatement<R>(
  db: Executor,
  query: HotQuery,
  params: readonly unknown[],
): Promise<R[]> {
  const root = db instanceof Kysely && !db.isTransaction ? db : undefined
  // better-sqlite3 runs synchronously, so when no transaction is open on the connection nothing can
  // interleave with this read: it sees committed data only and needs neither the driver's mutex nor
  // its promises. During a transaction (another request's, between its awaits) it waits its turn.
  const sqlite = root ? sqliteHandleOf(root) : undefined
  // A write outside a transaction goes through the driver, which commits it (in a group).
  if (sqlite && !sqlite.inTransaction && sqlite.isReadonly(query.sqlite))
    return sqlite.readCommitted<R>(query.sqlite, params)
  const pool = root ? poolOf(root) : undefined
  if (pool) {
    const values = params as unknown[]
    try {
      const name = statementName(query.name)
      return (await pool.query({ name, text: query.postgres, values })).rows as R[]
    } catch (error) {
      if ((error as { code?: string }).code !== CACHED_PLAN_CHANGED) throw error
      // A migration (a newer build's, during a rolling deploy) changed a table this statement reads
      // with `*`: PostgreSQL refuses the statement prepared before it. Prepare every fast-path
      // statement afresh, under new names, on every connection.
      statements.generation += 1
      return (await pool.query({ name: statementName(query.name), text: query.postgres, values })).rows as R[]
    }
  }
  const postgres = isPostgres(db)
  const text = postgres ? query.postgres : query.sqlite
  // In a transaction on PostgreSQL the statement goes through Kysely's connection, whose client
  // runs it by name all the same (pg-client.ts).
  if (postgres && !statements.namedTexts.has(text)) statements.namedTexts.set(text, query.name)
  if (db instanceof Transaction) return (await runInTransaction<R>(db, text, params)).rows as R[]
  const result = await db.executeQuery<R>(CompiledQuery.raw(text, params as unknown[]))
  return result.rows as R[]
}

/**
 * A statement of `trx`, on its connection. Through `trx.executeQuery` each one also builds a query
 * id (a random string), a query executor and a result-plugin pass that a statement compiled once
 * does not need; the transaction's own connection provider still checks that it is open. On SQLite,
 * after its first statement, the open transaction's statements run on its connection at once
 * (openLeaseOf).
 */
function runInTransaction<R>(
  trx: Transaction<Database>,
  sql: string,
  parameters: readonly unknown[],
): Promise<QueryResult<R>> {
  const lease = openLeaseOf(trx)
  if (lease) return lease.executeNow<R>(sql, parameters)
  return trx.getExecutor().provideConnection((connection) => {
    rememberLease(trx, connection)
    // The drivers read a compiled query's text and parameters only.
    return connection.executeQuery<R>({ sql, parameters } as CompiledQuery)
  })
}
