// What the fast path reads through, per database: on PostgreSQL its pool (named prepared statements
// outside a transaction), on SQLite its handle (reads that skip the driver when no transaction is
// open). The database factory attaches them (database.ts); the request's view of the database
// (ambient-transaction.ts) shares its database's.
import type { Kysely } from 'kysely'
import type pg from 'pg'
import type { SqliteStatements } from '../sqlite/statement-cache.js'
import type { Database } from '../types.js'

const pools = new WeakMap<Kysely<Database>, pg.Pool>()
const sqliteHandles = new WeakMap<Kysely<Database>, SqliteStatements>()

/** Called by createDatabase for PostgreSQL: the pool behind `db`, for named prepared statements. */
export function attachPool(db: Kysely<Database>, pool: pg.Pool): void {
  pools.set(db, pool)
}

/** Called by createDatabase for SQLite: the handle behind `db`, for reads that skip the driver. */
export function attachSqliteHandle(db: Kysely<Database>, handle: SqliteStatements): void {
  sqliteHandles.set(db, handle)
}

/** `alias` (a view of `db`, see ambient-transaction.ts) reads through the same pool or handle as `db`. */
export function shareConnections(alias: Kysely<Database>, db: Kysely<Database>): void {
  const pool = pools.get(db)
  if (pool) pools.set(alias, pool)
  const handle = sqliteHandles.get(db)
  if (handle) sqliteHandles.set(alias, handle)
}

export function poolOf(db: Kysely<Database>): pg.Pool | undefined {
  return pools.get(db)
}

export function sqliteHandleOf(db: Kysely<Database>): SqliteStatements | undefined {
  return sqliteHandles.get(db)
}
