// Hot read paths skip query building and compiling: their SQL is written once per dialect and run
// as is. On PostgreSQL, outside a transaction, it runs as a named prepared statement, so the server
// parses and plans it once per connection. On SQLite it still goes through Kysely's driver, whose
// single connection is guarded by a mutex: a read must never slip into another request's open
// transaction (its statements are memoised, see sqlite-driver.ts) — except when no transaction
// is open at all, when it reads the handle directly, and in its own transaction, which holds the
// connection (runInTransaction).
import {
  CompiledQuery,
  Kysely,
  type QueryResult,
  type RawBuilder,
  type SqlBool,
  sql,
  Transaction,
} from 'kysely'
import type pg from 'pg'
import { isPostgres } from './database.js'
import { openLeaseOf, rememberLease, type SqliteStatements } from './sqlite-driver.js'
import type { Database, Executor } from './types.js'

const pools = new WeakMap<Kysely<Database>, pg.Pool>()
const sqliteHandles = new WeakMap<Kysely<Database>, SqliteStatements>()

/** Called by createDatabase for PostgreSQL: the pool behind `db`, for named prepared statements. */
export function registerPool(db: Kysely<Database>, pool: pg.Pool): void {
  pools.set(db, pool)
}

/** Called by createDatabase for SQLite: the handle behind `db`, for reads that skip the driver. */
export function registerSqliteHandle(db: Kysely<Database>, handle: SqliteStatements): void {
  sqliteHandles.set(db, handle)
}

/** `alias` (a view of `db`, see ambient-transaction.ts) reads through the same pool or handle as `db`. */
export function shareHandles(alias: Kysely<Database>, db: Kysely<Database>): void {
  const pool = pools.get(db)
  if (pool) pools.set(alias, pool)
  const handle = sqliteHandles.get(db)
  if (handle) sqliteHandles.set(alias, handle)
}

export interface HotQuery {
  /** Unique per query text: PostgreSQL keeps a prepared statement by this name on each connection. */
  name: string
  sqlite: string
  postgres: string
}

/** "cached plan must not change result type" */
const CACHED_PLAN_CHANGED = '0A000'
let statementGeneration = 0

function statementName(name: string): string {
  return statementGeneration === 0 ? name : `${name}_g${statementGeneration}`
}

export async function runHotQuery<R>(
  db: Executor,
  query: HotQuery,
  params: readonly unknown[],
): Promise<R[]> {
  const root = db instanceof Kysely && !db.isTransaction ? db : undefined
  // better-sqlite3 runs synchronously, so when no transaction is open on the connection nothing can
  // interleave with this read: it sees committed data only and needs neither the driver's mutex nor
  // its promises. During a transaction (another request's, between its awaits) it waits its turn.
  const sqlite = root ? sqliteHandles.get(root) : undefined
  // A write outside a transaction goes through the driver, which commits it (in a group).
  if (sqlite && !sqlite.inTransaction && sqlite.isReadonly(query.sqlite))
    return sqlite.readCommitted<R>(query.sqlite, params)
  const pool = root ? pools.get(root) : undefined
  if (pool) {
    const values = params as unknown[]
    try {
      const name = statementName(query.name)
      return (await pool.query({ name, text: query.postgres, values })).rows as R[]
    } catch (error) {
      if ((error as { code?: string }).code !== CACHED_PLAN_CHANGED) throw error
      // A migration (a newer build's, during a rolling deploy) changed a table this statement reads
      // with `*`: PostgreSQL refuses the statement prepared before it. Prepare every hot statement
      // afresh, under new names, on every connection.
      statementGeneration += 1
      return (await pool.query({ name: statementName(query.name), text: query.postgres, values })).rows as R[]
    }
  }
  const postgres = isPostgres(db)
  const text = postgres ? query.postgres : query.sqlite
  // In a transaction on PostgreSQL the statement goes through Kysely's connection, whose client
  // runs it by name all the same (preparedClient below).
  if (postgres && !namedTexts.has(text)) namedTexts.set(text, query.name)
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

/** The SQL text of every hot statement run in a transaction on PostgreSQL → its name. */
const namedTexts = new Map<string, string>()
/** The texts of statements whose result nobody reads (prepareOnce's `deferrable`). */
const deferrableTexts = new Set<string>()

type ClientQuery = (...args: unknown[]) => Promise<unknown>

/** "current transaction is aborted, commands ignored until end of transaction block" */
const TRANSACTION_ABORTED = '25P02'
/** What a deferred statement answers at once: nobody reads it (see prepareOnce). */
const DEFERRED_RESULT = Object.freeze({ command: 'DEFERRED', rowCount: 0, rows: Object.freeze([]) })

/**
 * Patches a pooled PostgreSQL client (once, when the pool connects it; the pool runs its clients in
 * pg's pipeline mode) for a transaction's round trips:
 * - The text of a hot statement runs as a named prepared statement even when it comes through
 *   Kysely, as in a transaction: PostgreSQL parses and plans it once per connection, not per request.
 * - Kysely's `begin` is sent and answered at once, so the transaction's first statement travels
 *   with it; a statement prepareOnce marked deferrable (its result is never read) is sent and
 *   answered at once too, so a write's last statements travel with its `commit`. Statements still
 *   run in order on the connection. A deferred statement's error is thrown in place of whatever the
 *   transaction runs next (PostgreSQL refuses everything after it), or by the commit — which
 *   PostgreSQL then turns into a rollback — so a write that failed is never reported as done.
 * - Whatever is sent in one turn of the event loop leaves in one socket write.
 * Anything else (other texts, query configs, the pool's callback calls) goes through unchanged.
 */
export function preparedClient(client: pg.PoolClient): void {
  const query = client.query.bind(client) as unknown as ClientQuery
  const stream = (client as unknown as { connection?: { stream?: NodeJS.WritableStream & Corkable } })
    .connection?.stream
  let inTransaction = false
  let deferred: Promise<void>[] = []
  let failure: { error: unknown } | undefined
  let corked = false

  const oneWrite = () => {
    if (corked || !stream?.cork) return
    corked = true
    stream.cork()
    process.nextTick(() => {
      corked = false
      stream.uncork()
    })
  }
  const send = (text: string, values: unknown): Promise<unknown> => {
    const name = namedTexts.get(text)
    if (name === undefined) return query(text, values)
    return query({ name: statementName(name), text, values }).catch((error: unknown) => {
      // See runHotQuery: a migration changed a table the statement reads. This transaction fails
      // (it cannot be replayed from here); later ones prepare the statement afresh.
      if ((error as { code?: string }).code === CACHED_PLAN_CHANGED) statementGeneration += 1
      throw error
    })
  }
  const defer = (sent: Promise<unknown>): Promise<unknown> => {
    deferred.push(
      sent.then(
        () => {},
        (error: unknown) => {
          failure ??= { error }
        },
      ),
    )
    return Promise.resolve(DEFERRED_RESULT)
  }
  /** Waits for every deferred statement; the first one's error if any failed. */
  const settle = async (): Promise<{ error: unknown } | undefined> => {
    await Promise.all(deferred)
    return failure
  }
  const end = () => {
    inTransaction = false
    deferred = []
    failure = undefined
  }

  const patched: ClientQuery = (...args) => {
    const [text, values] = args
    if (args.length !== 2 || typeof text !== 'string') return query(...args)
    if (text === 'begin') {
      end()
      inTransaction = true
      oneWrite()
      return defer(query(text, values))
    }
    if (!inTransaction) return send(text, values)
    if (text === 'commit' || text === 'rollback') {
      const done = send(text, values)
      // Its answer comes after every deferred one's; awaited below, never left unhandled meanwhile.
      done.catch(() => {})
      return settle().then(async (failed) => {
        end()
        const result = await done
        if (failed && text === 'commit') throw failed.error
        return result
      })
    }
    if (deferrableTexts.has(text)) {
      oneWrite()
      return defer(send(text, values))
    }
    return send(text, values).catch(async (error: unknown) => {
      const failed = (error as { code?: string }).code === TRANSACTION_ABORTED ? await settle() : undefined
      throw failed ? failed.error : error
    })
  }
  client.query = patched as unknown as typeof client.query
}

interface Corkable {
  cork?(): void
  uncork(): void
}

const PARAM_PREFIX = '\u0000param:'

/** A named placeholder for `prepareOnce`: Kysely carries it into the compiled parameters. */
export function param<T>(name: string): T {
  return `${PARAM_PREFIX}${name}` as T
}

const prepared = new Map<string, { query: HotQuery; order: string[] }>()

/**
 * Builds a Kysely query once per dialect and `shape` (whatever changes the SQL text, such as which
 * filters are present), with param() placeholders for every value, and reruns its SQL after that:
 * query building and compiling cost nothing on the hot path. `deferrable`: the caller never reads the
 * result, so on PostgreSQL, in a transaction, the statement need not be waited for (preparedClient).
 */
export function prepareOnce(
  db: Executor,
  shape: string,
  build: () => { compile(): CompiledQuery },
  options: { deferrable?: boolean } = {},
): { run<R>(values: Record<string, unknown>): Promise<R[]> } {
  const key = `${isPostgres(db) ? 'postgres' : 'sqlite'}:${shape}`
  let entry = prepared.get(key)
  if (!entry) {
    const compiled = build().compile()
    const order = compiled.parameters.map((value) => {
      if (typeof value !== 'string' || !value.startsWith(PARAM_PREFIX)) {
        throw new Error(`prepareOnce(${shape}): every value must be a param(), found ${String(value)}`)
      }
      return value.slice(PARAM_PREFIX.length)
    })
    const name = `q${prepared.size}_${shape.replace(/[^a-z0-9]+/gi, '_')}`.slice(0, 60)
    entry = { query: { name, sqlite: compiled.sql, postgres: compiled.sql }, order }
    prepared.set(key, entry)
    if (options.deferrable && isPostgres(db)) deferrableTexts.add(compiled.sql)
  }
  const { query, order } = entry
  return {
    run: <R>(values: Record<string, unknown>) =>
      runHotQuery<R>(
        db,
        query,
        // A value left out (an optional column) binds as NULL on both databases.
        order.map((name) => values[name] ?? null),
      ),
  }
}

/**
 * `column IN (…ids)` with one SQL text for any number of ids, for `prepareOnce`: SQLite reads them
 * from a JSON array, PostgreSQL from one text[] parameter. Pass `idList(db, ids)` as the value.
 */
export function inIdList(db: Executor, column: string, name: string): RawBuilder<SqlBool> {
  return isPostgres(db)
    ? sql<SqlBool>`${sql.ref(column)} = any(cast(${param(name)} as text[]))`
    : sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${param(name)}))`
}

export function idList(db: Executor, ids: readonly string[]): unknown {
  return isPostgres(db) ? ids : JSON.stringify(ids)
}

/** The filters that are set, by name: the part of a prepareOnce shape that changes the SQL. */
export function presentFilters<F extends object>(filters: F): (keyof F & string)[] {
  return (Object.keys(filters) as (keyof F & string)[]).filter((name) => filters[name] !== undefined)
}
