// Ambient transactions. An idempotent request runs its handler inside one database transaction that
// also stores its response (http/idempotency.ts), so "committed" and "response stored" are one event.
// Route modules get an ambient-aware view of the database for that: while a request's transaction is
// ambient (AsyncLocalStorage), every use of the view goes to that transaction — reads see the
// request's own uncommitted writes, and SQLite's single connection is never asked for a second time
// by the request that holds it — and a service's `db.transaction().execute(fn)` joins it as `fn(trx)`.
// Without one, the view is the database itself, at the cost of one getStore() per property access.
// Background workers (dispatcher, plan runner, key resolver) are given the database, never the view.
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Kysely, Transaction, TransactionBuilder } from 'kysely'
import { shareHandles } from './hot-query.js'
import type { Database } from './types.js'

interface Ambient {
  /** Unset once the transaction has ended: a continuation left behind uses the database again. */
  trx: Transaction<Database> | undefined
  afterCommit: (() => void)[]
}

const storage = new AsyncLocalStorage<Ambient>()

/** Kysely keeps its state in private fields: its methods must run on the real object, not the view. */
function isMethod(target: object, property: PropertyKey): boolean {
  for (let o: object | null = target; o !== null; o = Object.getPrototypeOf(o)) {
    const descriptor = Object.getOwnPropertyDescriptor(o, property)
    if (descriptor) return typeof descriptor.value === 'function'
  }
  return false
}

/**
 * The transaction a service opens inside an ambient one: the same transaction. Its isolation level
 * and access mode are those of the ambient transaction (READ COMMITTED, read-write); no route
 * service asks for another.
 */
function joined(trx: Transaction<Database>): TransactionBuilder<Database> {
  const builder = {
    setIsolationLevel: () => builder,
    setAccessMode: () => builder,
    execute: <T>(work: (trx: Transaction<Database>) => Promise<T>) => work(trx),
  }
  return builder as unknown as TransactionBuilder<Database>
}

/** The view of `db` that route modules are given (see the top of this file). */
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
      const trx = storage.getStore()?.trx
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
  shareHandles(view, db)
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
