// SQLite with group commit. SQLite has one connection and one writer, and with `synchronous=FULL`
// every COMMIT waits for the disk; one commit per request made a write cost about a millisecond
// however little it changed. Here the transactions of requests that queue behind each other share
// one database transaction: each runs inside its own SAVEPOINT (a failing one rolls back only its own
// work), and the shared transaction commits once the event loop has run the other requests that were
// ready (see scheduleCommit), or after MAX_BATCH members. A member's `commitTransaction` resolves only
// after that COMMIT is durable, so no write is acknowledged before it is on disk, and a failed COMMIT
// fails every member of the batch. Given a WalSync (wal-sync.ts), the driver makes the COMMIT durable
// with an fdatasync off the event loop.
//
// Nothing outside the batch ever sees its uncommitted rows: a query that runs outside a transaction
// commits the open batch before it runs, and the direct reads of the fast path (fast-path/run.ts)
// skip the connection only while no transaction is open.
import type { CompiledQuery, DatabaseConnection, Driver, QueryResult } from 'kysely'
import type { SqliteStatements } from './statement-cache.js'
import type { WalSync } from './wal-sync.js'

/** Upper bound on the requests one COMMIT makes durable: bounds the wait of the batch's first member. */
export const MAX_BATCH = 32

interface Batch {
  members: number
  done: Promise<void>
  resolve(): void
  reject(error: unknown): void
}

/** The lease each SQLite transaction runs on, learnt from its first statement (rememberLease). */
const leaseOfTransaction = new WeakMap<object, Lease>()

/**
 * The lease `trx` holds while it is open, once rememberLease has seen it: its statements can run on
 * the statement cache at once (the transaction holds the one connection from begin to commit).
 * Undefined once it has committed or rolled back: its statements then go through Kysely, which
 * refuses them as it should.
 */
export function openLeaseOf(trx: object): Lease | undefined {
  const lease = leaseOfTransaction.get(trx)
  return lease?.inTransaction && !lease.released ? lease : undefined
}

/** Remembers the connection `trx` runs on, when it is this driver's lease in a transaction. */
export function rememberLease(trx: object, connection: DatabaseConnection): void {
  if (connection instanceof Lease && connection.inTransaction) leaseOfTransaction.set(trx, connection)
}

/** One use of the connection, from acquireConnection to releaseConnection. */
class Lease implements DatabaseConnection {
  /** Inside this lease's own SAVEPOINT. */
  inTransaction = false
  /** Gave the connection back early, at commit, to wait for the batch's COMMIT. */
  released = false

  constructor(private readonly driver: GroupCommitSqliteDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.run<R>(this, query)
  }

  /** A statement of this lease's open transaction (see openLeaseOf); its error rejects, never throws. */
  executeNow<R>(sql: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    try {
      return Promise.resolve(this.driver.executeInTransaction<R>(sql, parameters))
    } catch (error) {
      return Promise.reject(error)
    }
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on SQLite')
  }
}

export class GroupCommitSqliteDriver implements Driver {
  private locked = false
  private readonly waiting: (() => void)[] = []
  private batch: Batch | null = null
  private commitScheduled = false
  /** COMMITs issued and transactions they made durable, for tests and diagnostics. */
  readonly stats = { commits: 0, transactions: 0 }

  constructor(
    private readonly database: SqliteStatements,
    private readonly walSync?: WalSync,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.locked) await new Promise<void>((resolve) => this.waiting.push(resolve))
    else this.locked = true
    return new Lease(this)
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease
    if (lease.released) return
    lease.released = true
    this.unlock()
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.batch) {
      this.exec('BEGIN IMMEDIATE')
      this.batch = openBatch()
    }
    this.exec('SAVEPOINT request')
    ;(connection as Lease).inTransaction = true
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease
    const batch = this.batch
    if (!batch) throw new Error('commit without a transaction')
    this.exec('RELEASE request')
    lease.inTransaction = false
    batch.members += 1
    if (batch.members >= MAX_BATCH) this.commitBatch()
    // Let the next request in while this one waits for the COMMIT that makes it durable.
    lease.released = true
    this.unlock()
    await batch.done
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease
    // A member whose batch failed to commit was already given up with the batch.
    if (!lease.inTransaction) return
    lease.inTransaction = false
    try {
      this.exec('ROLLBACK TO request')
      this.exec('RELEASE request')
    } catch (error) {
      // SQLite rolled the whole transaction back itself (disk full, I/O error): every member of the
      // batch has lost its work and must fail.
      this.abortBatch(error)
    }
    if (this.batch && !this.database.inTransaction)
      this.abortBatch(new Error('SQLite rolled back the transaction'))
  }

  async destroy(): Promise<void> {
    this.commitBatch()
    await this.walSync?.close()
    this.database.close()
  }

  /**
   * Runs one statement for `lease`; outside a transaction, the open batch is committed first, and a
   * statement that writes (SQLite commits it on its own) answers once it is durable.
   */
  async run<R>(lease: Lease, query: CompiledQuery): Promise<QueryResult<R>> {
    if (lease.released) throw new Error('query on a connection that was already released')
    if (lease.inTransaction) return this.executeInTransaction<R>(query.sql, query.parameters)
    this.commitBatch()
    // Asked before it runs: a statement that changes the schema cannot be prepared again after.
    const writes = this.walSync !== undefined && !this.database.isReadonly(query.sql)
    const result = this.database.execute<R>(query.sql, query.parameters)
    if (writes) await this.walSync?.sync()
    return result
  }

  /** A statement of the transaction that holds the connection: it runs as is, on its savepoint. */
  executeInTransaction<R>(sql: string, parameters: readonly unknown[]): QueryResult<R> {
    return this.database.execute<R>(sql, parameters)
  }

  private unlock(): void {
    const next = this.waiting.shift()
    if (next) {
      next() // the connection passes straight to the next in line; a writer joins the batch
      return
    }
    this.locked = false
    this.scheduleCommit()
  }

  /**
   * Requests arrive one socket event at a time and each runs its transaction to the end before the
   * next gets a turn, so the COMMIT waits until the event loop has handled the other requests that
   * were ready: those that open a transaction meanwhile join the batch.
   */
  private scheduleCommit(): void {
    if (!this.batch || this.commitScheduled) return
    this.commitScheduled = true
    setImmediate(() => {
      this.commitScheduled = false
      // Whoever holds the connection now commits or reschedules when it lets go.
      if (!this.locked) this.commitBatch()
    })
  }

  /** Makes the open batch durable; on failure its members fail, and the caller carries on. */
  private commitBatch(): void {
    const batch = this.batch
    if (!batch) return
    this.batch = null
    try {
      this.exec('COMMIT')
    } catch (error) {
      this.rollbackAll()
      batch.reject(error)
      return
    }
    this.stats.commits += 1
    this.stats.transactions += batch.members
    if (this.walSync) this.walSync.sync().then(batch.resolve, batch.reject)
    else batch.resolve()
  }

  private abortBatch(error: unknown): void {
    const batch = this.batch
    if (!batch) return
    this.batch = null
    this.rollbackAll()
    batch.reject(error)
  }

  private rollbackAll(): void {
    try {
      if (this.database.inTransaction) this.exec('ROLLBACK')
    } catch {
      // SQLite has already ended the transaction; there is nothing left to undo.
    }
  }

  private exec(sql: string): void {
    this.database.execute(sql)
  }
}

function openBatch(): Batch {
  let resolve!: () => void
  let reject!: (error: unknown) => void
  const done = new Promise<void>((yes, no) => {
    resolve = yes
    reject = no
  })
  // Members await `done` only once their own work is in; a batch that fails before anyone waits
  // must not become an unhandled rejection.
  done.catch(() => {})
  return { members: 0, done, resolve, reject }
}
