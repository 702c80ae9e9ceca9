// One factory for both engines: the URL picks the dialect.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { attachPool, attachSqliteHandle, preparedClient } from './fast-path/index.js'
import { GroupCommitSqliteDialect } from './sqlite/dialect.js'
import { SqliteStatements } from './sqlite/statement-cache.js'
import { BACKSTOP_CHECKPOINT_PAGES, WalCheckpointer } from './sqlite/wal-checkpointer.js'
import { WalSync, walFile } from './sqlite/wal-sync.js'
import type { Database } from './types.js'

export type Dialect = 'sqlite' | 'postgres'

export interface DatabaseHandle {
  db: Kysely<Database>
  dialect: Dialect
  destroy(): Promise<void>
  /** PostgreSQL: the pool's live counters (for /metrics). */
  pool?: { readonly totalCount: number; readonly idleCount: number; readonly waitingCount: number }
  /** SQLite: COMMITs issued and the transactions they carried (group commit, for /metrics). */
  groupCommit?: { readonly commits: number; readonly transactions: number }
}

export interface DatabaseOptions {
  sqliteSynchronous?: 'FULL' | 'NORMAL'
  pgPoolSize?: number
  /** How long a query waits for a PostgreSQL connection, new or from a full pool, before failing. */
  pgConnectionTimeoutMs?: number
}

/**
 * A request never waits long for PostgreSQL: a connection not made (or freed) within this fails the
 * request with 503 SERVICE_UNAVAILABLE instead of holding it until the client gives up.
 */
export const PG_CONNECTION_TIMEOUT_MS = 2000

export function dialectOfUrl(url: string): Dialect {
  return /^postgres(ql)?:\/\//i.test(url) ? 'postgres' : 'sqlite'
}

export { isPostgres } from './dialect.js'

/** Booleans are written as 0/1: better-sqlite3 binds no JS booleans and PostgreSQL casts '1'. */
export function sqlBool(value: boolean): number {
  return value ? 1 : 0
}

export function createDatabase(url: string, options: DatabaseOptions = {}): DatabaseHandle {
  return dialectOfUrl(url) === 'postgres' ? createPostgres(url, options) : createSqlite(url, options)
}

/** The file a SQLite DATABASE_URL names: a path, or the same behind `sqlite:` / `sqlite://`. */
export function sqliteFileOfUrl(url: string): string {
  return url.replace(/^sqlite:(\/\/)?/i, '')
}

function createSqlite(url: string, options: DatabaseOptions): DatabaseHandle {
  const file = sqliteFileOfUrl(url)
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const raw = new SQLite(file)
  const wal = raw.pragma('journal_mode = WAL', { simple: true }) === 'wal'
  raw.pragma('foreign_keys = ON')
  raw.pragma('busy_timeout = 5000')
  // FULL durability without blocking the event loop on the disk: SQLite appends each COMMIT to the WAL
  // (synchronous=NORMAL) and the group-commit driver fdatasyncs the WAL on libuv's thread pool before
  // it acknowledges the batch. The same guarantee as synchronous=FULL: no write is answered before it
  // would survive a power loss. SQLITE_SYNCHRONOUS=NORMAL skips that fdatasync. See sqlite/wal-sync.ts.
  const synchronous = options.sqliteSynchronous ?? 'FULL'
  const walSync = wal && synchronous === 'FULL' ? new WalSync(...walFile(`${file}-wal`)) : undefined
  raw.pragma(`synchronous = ${walSync ? 'NORMAL' : synchronous}`)
  const checkpointer = wal ? new WalCheckpointer(file) : undefined
  if (checkpointer) raw.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`)
  // Statement journals (every statement that fires a trigger, every request's SAVEPOINT) in memory,
  // not in temporary files: each journalled page was a pwrite system call, and a job insert with its
  // counter and day triggers cost 190 µs instead of 85 µs (measured). They hold only the pages one
  // statement changes; our queries sort by index, so no large sort spills here either.
  raw.pragma('temp_store = MEMORY')
  // Planner statistics, as SQLite advises for long-lived connections: a bounded ANALYZE of the
  // tables that need it, so plans stay good as the data grows.
  raw.pragma('analysis_limit = 400')
  raw.pragma('optimize = 0x10002')
  // SQLite's lower() folds ASCII only; searches must be case-insensitive for every script.
  raw.function('lower', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  )

  const database = new SqliteStatements(raw)
  const dialect = new GroupCommitSqliteDialect(database, walSync)
  const db = new Kysely<Database>({ dialect })
  attachSqliteHandle(db, database)
  const destroy = async () => {
    await db.destroy()
    await checkpointer?.close()
  }
  return { db, dialect: 'sqlite', destroy, groupCommit: dialect.driver.stats }
}

const TIMESTAMPTZ_OID = 1184
const INT8_OID = 20

function createPostgres(url: string, options: DatabaseOptions): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.pgPoolSize ?? 10,
    connectionTimeoutMillis: options.pgConnectionTimeoutMs ?? PG_CONNECTION_TIMEOUT_MS,
    // Lets the kernel notice a peer that vanished without closing the connection (a host that died,
    // a dropped route), so a pooled connection to it errors and is discarded rather than kept.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // Statements are written without waiting for the previous one's answer (they still run in
    // order): a transaction's `begin` and deferrable writes share round trips (fast-path/pg-client.ts).
    pipeline: true,
    // The fast path's statements run as named prepared statements (fast-path/). With the default plan cache
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
  // An idle client that loses its connection must not crash the process; the pool discards it and
  // connects a new one when next needed.
  pool.on('error', () => {})
  // A checked-out client whose connection drops (PostgreSQL restarted, network cut mid-query) emits
  // 'error' as well, and the pool listens only while the client is idle: unheard, the event would
  // crash the process. The query in flight has already failed with the same error (→ 503), and the
  // pool discards the client when it is released, as it is no longer queryable.
  pool.on('connect', (client) => {
    client.on('error', () => {})
    preparedClient(client)
  })
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  attachPool(db, pool)
  return { db, dialect: 'postgres', destroy: () => db.destroy(), pool }
}

const UNAVAILABLE_SYSTEM_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

// PostgreSQL SQLSTATEs: admin_shutdown, crash_shutdown, cannot_connect_now (starting up or shutting
// down) and too_many_connections. Class 08 (connection exceptions) is matched by prefix.
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300'])

// node-postgres reports a lost or never-made connection with plain Errors (no code).
const UNAVAILABLE_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
]

/**
 * True when the database could not be reached or could not take the write right now — PostgreSQL
 * down, restarting or unreachable, a connection lost mid-query, no connection within the timeout;
 * SQLite locked by another process, out of disk or failing I/O — rather than the query being wrong.
 * The request may succeed if retried later: the API answers 503 SERVICE_UNAVAILABLE.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let depth = 0; depth < 5 && typeof error === 'object' && error !== null; depth++) {
    const { code, message, errors, cause } = error as {
      code?: unknown
      message?: unknown
      errors?: unknown
      cause?: unknown
    }
    if (typeof code === 'string') {
      if (UNAVAILABLE_SYSTEM_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true
      if (/^08[0-9A-Z]{3}$/.test(code)) return true
      if (/^SQLITE_(BUSY|LOCKED|FULL|IOERR)/.test(code)) return true
    }
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.startsWith(m))) return true
    // Connecting to a name with several addresses fails with an AggregateError of each attempt.
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true
    error = cause
  }
  return false
}
