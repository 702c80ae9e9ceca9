// Ambient transactions. An idempotent request runs its handler inside one database transaction that
// also stores its response (http/idempotency.ts), so "committed" and "response stored" are one event.
// Route modules get a request-scoped view of the database for that: while a request's transaction is
// ambient (AsyncLocalStorage), every use of the view goes to that transaction — reads see the
// request's own uncommitted writes, and SQLite's single connection is never asked for a second time
// by the request that holds it — and a service's `db.transaction().execute(fn)` joins it as `fn(trx)`.
// In a request without one, the view is the database itself, at the cost of one getStore() per
// property access. Outside a request the view refuses to work (OutsideRequestError): background
// workers (dispatcher, plan runner, key resolver) are given the database, never the view.
//
// The single entry point is http/request-database.ts (installRequestDatabase), which opens the
// request scope for every request and hands the view to the route modules.
import { AsyncLocalStorage } from 'node:async_hooks'
import type { IsolationLevel, Kysely, Transaction, TransactionBuilder } from 'kysely'
import { isPostgres } from './dialect.js'
import { shareConnections } from './fast-path/index.js'
import type { Database } from './types.js'

interface Ambient {
  /**
   * The request's transaction; unset in a request without one, and once it has ended (a
   * continuation left behind uses the database again).
   */
  trx: Transaction<Database> | undefined
  afterCommit: (() => void)[]
}

const storage = new AsyncLocalStorage<Ambient>()

/** The request view of the database was used where no request is being handled. */
export class OutsideRequestError extends Error {
  constructor(property: PropertyKey) {
    super(
      `The request view of the database (ambientDatabase) was used outside a request (its ${String(property)}): ` +
        'background work must be given the database itself.',
    )
    this.name = 'OutsideRequestError'
  }
}

/** Runs `work` as the handling of one request: the view of the database works inside it. */
export function runInRequestScope<T>(work: () => T): T {
  return storage.run({ trx: undefined, afterCommit: [] }, work)
}

/** Kysely keeps its state in private fields: its methods must run on the real object, not the view. */
function isMethod(target: object, property: PropertyKey): boolean {
  for (let o: object | null = target; o !== null; o = Object.getPrototypeOf(o)) {
    const descriptor = Object.getOwnPropertyDescriptor(o, property)
    if (descriptor) return typeof descriptor.value === 'function'
  }
  return false
}

/** Kysely's isolation levels, weakest first ('snapshot' is SQL Server's, stronger than all but serializable). */
const ISOLATION_STRENGTH: Record<IsolationLevel, number> = {
  'read uncommitted': 0,
  'read committed': 1,
  'repeatable read': 2,
  snapshot: 3,
  serializable: 4,
}

/**
 * The isolation of the ambient transaction: PostgreSQL's default, READ COMMITTED; on SQLite every
 * transaction is serializable (one writer at a time, and a reader sees one snapshot).
 */
function ambientIsolation(trx: Transaction<Database>): IsolationLevel {
  return isPostgres(trx) ? 'read committed' : 'serializable'
}

/** A transaction asked for more than the request's transaction, which it would join, gives. */
export class JoinRefusedError extends Error {
  constructor(asked: string, ambient: string) {
    super(
      `A transaction asking for ${asked} cannot join the request's transaction (${ambient}, read write): ` +
        'run it outside the idempotent request, on the database itself.',
    )
    this.name = 'JoinRefusedError'
  }
}

/**
 * The transaction a service opens inside an ambient one: the same transaction. It is honoured when
 * the ambient transaction gives at least what it asks (an isolation level as strong, read-write or
 * no access mode), and refused otherwise (JoinRefusedError) — never silently weakened.
 */
function joined(trx: Transaction<Database>): TransactionBuilder<Database> {
  const ambient = ambientIsolation(trx)
  const builder = {
    setIsolationLevel: (level: IsolationLevel) => {
      if (ISOLATION_STRENGTH[level] > ISOLATION_STRENGTH[ambient]) throw new JoinRefusedError(level, ambient)
      return builder
    },
    setAccessMode: (mode: 'read only' | 'read write') => {
      if (mode !== 'read write') throw new JoinRefusedError(mode, ambient)
      return builder
    },
    execute: <T>(work: (trx: Transaction<Database>) => Promise<T>) => work(trx),
  }
  return builder as unknown as TransactionBuilder<Database>
}

/**
 * The view of `db` that route modules are given (see the top of this file); made once per app, by
 * installRequestDatabase (http/request-database.ts).
 */
export function ambientDatabase(db: Kysely<Database>): Kysely<Database> {
  const methods = new Map<PropertyKey, boolean>()
  const boundToDb = new Map<PropertyKey, unknown>()
  const method = (property: PropertyKey) => {
    let known = methods.get(property)
    if (known === undefined) {
      known = isMethod(db, property)
      methods.set(property, known)
    }
    return known
  }
  const view = new Proxy(db, {
    get(target, property) {
      const ambient = storage.getStore()
      if (ambient === undefined) throw new OutsideRequestError(property)
      const trx = ambient.trx
      if (trx === undefined) {
        const bound = boundToDb.get(property)
        if (bound !== undefined) return bound
        const value = Reflect.get(target, property, target)
        if (!method(property)) return value
        const fn = (value as (...args: unknown[]) => unknown).bind(target)
        boundToDb.set(property, fn)
        return fn
      }
      if (property === 'transaction') return () => joined(trx)
      const value = Reflect.get(trx, property, trx)
      return method(property) ? (value as (...args: unknown[]) => unknown).bind(trx) : value
    },
  })
  shareConnections(view, db)
  return view
}

/**
 * Runs `work` in a transaction of `db` that is ambient for everything it calls; resolves once the
 * transaction has committed (and, on SQLite, is durable), then runs what afterCommit() deferred.
 */
export async function inAmbientTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const ambient: Ambient = { trx: undefined, afterCommit: [] }
  let result: T
  try {
    result = await db.transaction().execute((trx) => {
      ambient.trx = trx
      return storage.run(ambient, () => work(trx))
    })
  } finally {
    ambient.trx = undefined
  }
  for (const callback of ambient.afterCommit) callback()
  return result
}

/** Runs `work` in the ambient transaction if there is one, else in a new one (inAmbientTransaction). */
export function inAmbientTransactionOrJoin<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const trx = storage.getStore()?.trx
  return trx ? work(trx) : inAmbientTransaction(db, work)
}

/**
 * Runs `callback` once what the caller wrote is committed: now, or after the ambient transaction
 * commits (never, if it rolls back). For nudging background workers that read the database.
 */
export function afterCommit(callback: () => void): void {
  const ambient = storage.getStore()
  if (ambient?.trx) ambient.afterCommit.push(callback)
  else callback()
}
