// One factory for both engines: the URL picks the dialect.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresAdapter, PostgresDialect } from 'kysely'
import pg from 'pg'
import { registerPool, registerSqliteHandle } from './hot-query.js'
import { GroupCommitSqliteDialect, SqliteStatements } from './sqlite-driver.js'
import type { Database } from './types.js'

export type Dialect = 'sqlite' | 'postgres'

export interface DatabaseHandle {
  db: Kysely<Database>
  dialect: Dialect
  destroy(): Promise<void>
}

export interface DatabaseOptions {
  sqliteSynchronous?: 'FULL' | 'NORMAL'
  pgPoolSize?: number
}

export function dialectOfUrl(url: string): Dialect {
  return /^postgres(ql)?:\/\//i.test(url) ? 'postgres' : 'sqlite'
}

/** True when the executor (a Kysely instance or a transaction) talks to PostgreSQL. */
export function isPostgres(db: Pick<Kysely<Database>, 'getExecutor'>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter
}

/** Booleans are written as 0/1: better-sqlite3 binds no JS booleans and PostgreSQL casts '1'. */
export function sqlBool(value: boolean): number {
  return value ? 1 : 0
}

export function createDatabase(url: string, options: DatabaseOptions = {}): DatabaseHandle {
  return dialectOfUrl(url) === 'postgres' ? createPostgres(url, options) : createSqlite(url, options)
}

function createSqlite(path: string, options: DatabaseOptions): DatabaseHandle {
  const file = path.replace(/^sqlite:(\/\/)?/i, '')
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const raw = new SQLite(file)
  raw.pragma('journal_mode = WAL')
  raw.pragma('foreign_keys = ON')
  raw.pragma('busy_timeout = 5000')
  raw.pragma(`synchronous = ${options.sqliteSynchronous ?? 'FULL'}`)
  // Planner statistics, as SQLite advises for long-lived connections: a bounded ANALYZE of the
  // tables that need it, so plans stay good as the data grows.
  raw.pragma('analysis_limit = 400')
  raw.pragma('optimize = 0x10002')
  // SQLite's lower() folds ASCII only; searches must be case-insensitive for every script.
  raw.function('lower', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  )

  const database = new SqliteStatements(raw)
  const db = new Kysely<Database>({ dialect: new GroupCommitSqliteDialect(database) })
  registerSqliteHandle(db, database)
  return { db, dialect: 'sqlite', destroy: () => db.destroy() }
}

const TIMESTAMPTZ_OID = 1184
const INT8_OID = 20

function createPostgres(url: string, options: DatabaseOptions): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.pgPoolSize ?? 10,
    // The hot reads run as named prepared statements (hot-query.ts). With the default plan cache
    // mode PostgreSQL kept re-planning them for every execution (custom plans: ≈ 0.5–1.7 ms of
    // planning for a 0.14 ms job page); their generic plans use the same indexes, so plan them once
    // per connection. One-off (unnamed) statements are planned per execution as before.
    options: '-c plan_cache_mode=force_generic_plan',
    types: {
      getTypeParser(oid: number, format?: 'text' | 'binary') {
        // Datetimes leave the database as the same ISO strings SQLite stores.
        if (oid === TIMESTAMPTZ_OID) return (value: string) => new Date(value).toISOString()
        // COUNT(*) is int8; our counts fit comfortably in a double.
        if (oid === INT8_OID) return (value: string) => Number(value)
        return pg.types.getTypeParser(oid, format as 'text')
      },
    } as pg.CustomTypesConfig,
  })
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  registerPool(db, pool)
  return { db, dialect: 'postgres', destroy: () => db.destroy() }
}
