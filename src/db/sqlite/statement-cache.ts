// The one SQLite connection's prepared statements, kept by SQL text, and the reads the fast path makes
// outside any transaction (readCommitted).
import type SQLite from 'better-sqlite3'
import type { QueryResult } from 'kysely'

const STATEMENT_CACHE_SIZE = 500

interface CachedStatement {
  statement: SQLite.Statement
  /** For a statement that returns rows: turns one raw row (an array) into an object. */
  toObject?: (row: unknown[]) => Record<string, unknown>
  /** Changes the schema: the column lists of cached statements may no longer hold after it. */
  changesSchema?: boolean
}

/**
 * better-sqlite3 statements kept by SQL text: compiling SQL is the larger part of a point read's cost
 * (measured ≈ 2.3× on a primary-key read). Rows are read as arrays and turned into objects by a
 * function generated once per statement, from its column names: better-sqlite3's own row objects cost
 * about 0.1 µs more per value (a 20-job page: 170 µs → 107 µs, measured).
 */
export class SqliteStatements {
  private readonly statements = new Map<string, CachedStatement>()

  /** A read transaction opened by readCommitted, ended before any other use of the connection. */
  private snapshot = false
  private readonly endSnapshot = (): void => {
    if (!this.snapshot) return
    this.snapshot = false
    this.cached('COMMIT').statement.run()
  }

  constructor(private readonly raw: SQLite.Database) {}

  /** A transaction of the driver's is open (a write batch, or a request's); a read snapshot is not one. */
  get inTransaction(): boolean {
    return this.raw.inTransaction && !this.snapshot
  }

  /**
   * Rows of a read made outside any transaction, which sees committed data only. A statement run on
   * its own opens and closes a read transaction of its own — two fcntl locks and an fstat, ≈ 6 µs here,
   * more than a primary-key read itself (measured). The direct reads of one turn of the event loop
   * share one instead. It ends at the end of the turn, and before the driver runs anything (a write
   * of this process is never hidden from a later read); another process's write becomes visible from
   * the next turn, as it would a moment later anyway.
   */
  readCommitted<R>(sql: string, parameters: readonly unknown[]): R[] {
    if (!this.snapshot) {
      this.cached('BEGIN').statement.run()
      this.snapshot = true
      setImmediate(this.endSnapshot)
    }
    return this.rowsOf<R>(this.cached(sql), parameters)
  }

  /** Rows for a statement that returns them; otherwise the changes it made, as Kysely expects. */
  execute<R>(sql: string, parameters: readonly unknown[] = []): QueryResult<R> {
    this.endSnapshot()
    const entry = this.cached(sql)
    if (entry.toObject) return { rows: this.rowsOf<R>(entry, parameters) }
    const { changes, lastInsertRowid } = entry.statement.run(...parameters)
    if (entry.changesSchema) this.statements.clear()
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] }
  }

  /** False for a statement that may change the database (SQLite's sqlite3_stmt_readonly). */
  isReadonly(sql: string): boolean {
    return this.cached(sql).statement.readonly
  }

  close(): void {
    this.endSnapshot()
    this.statements.clear()
    this.raw.close()
  }

  private rowsOf<R>({ statement, toObject }: CachedStatement, parameters: readonly unknown[]): R[] {
    const rows = statement.all(...parameters) as unknown[][]
    const objects = new Array<R>(rows.length)
    for (let i = 0; i < rows.length; i++)
      objects[i] = (toObject as (row: unknown[]) => R)(rows[i] as unknown[])
    return objects
  }

  private cached(sql: string): CachedStatement {
    let entry = this.statements.get(sql)
    if (!entry) {
      if (this.statements.size >= STATEMENT_CACHE_SIZE) {
        this.statements.delete(this.statements.keys().next().value as string)
      }
      const statement = this.raw.prepare(sql)
      entry = statement.reader
        ? { statement: statement.raw(true), toObject: objectBuilder(statement.columns().map((c) => c.name)) }
        : { statement, changesSchema: /^\s*(create|alter|drop)\b/i.test(sql) }
      this.statements.set(sql, entry)
    }
    return entry
  }
}

/**
 * `(row) => ({ "id": row[0], "title": row[1], … })`, compiled: V8 gives every object the same shape.
 * The names are the statement's own columns, quoted with JSON.stringify; a repeated name keeps its
 * last value, as better-sqlite3's objects do.
 */
function objectBuilder(names: string[]): (row: unknown[]) => Record<string, unknown> {
  const fields = names.map((name, index) => `${JSON.stringify(name)}: row[${index}]`)
  return new Function('row', `return { ${fields.join(', ')} }`) as (row: unknown[]) => Record<string, unknown>
}
