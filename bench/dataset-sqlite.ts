// Bulk load into a migrated SQLite file: one raw better-sqlite3 handle, prepared INSERTs inside one
// transaction, synchronous=OFF, and the secondary indexes (and, when they can be rebuilt afterwards,
// the triggers) of the loaded tables dropped during the load and created again after it.
import SQLite from 'better-sqlite3'
import type { Row, RowSink } from './dataset-rows.js'

export interface BulkLoad {
  sink: RowSink
  /** Commits, recreates what was dropped and closes the handle. */
  finish(): Promise<void>
  /** Gives up after a failure: the caller deletes the half-built dataset. */
  abort(): Promise<void>
}

export function openSqliteBulkLoad(file: string, options: { dropTriggers: boolean }): BulkLoad {
  const raw = new SQLite(file)
  raw.pragma('journal_mode = WAL')
  raw.pragma('synchronous = OFF')
  raw.pragma('foreign_keys = OFF')
  raw.pragma('cache_size = -262144')
  // The service replaces lower() with a Unicode-aware one; an index on lower(...) must be built
  // with the same function or lookups through it would disagree.
  raw.function('lower', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  )

  const schemaObjects = raw
    .prepare(
      `SELECT type, name, sql FROM sqlite_master
       WHERE type IN ('index', 'trigger') AND sql IS NOT NULL AND tbl_name NOT LIKE 'kysely_%'`,
    )
    .all() as { type: 'index' | 'trigger'; name: string; sql: string }[]
  const dropped = schemaObjects.filter((o) => o.type === 'index' || options.dropTriggers)
  for (const object of dropped) raw.exec(`DROP ${object.type.toUpperCase()} "${object.name}"`)

  const statements = new Map<string, SQLite.Statement>()
  raw.exec('BEGIN')
  const sink: RowSink = {
    insert(table: string, row: Row) {
      let statement = statements.get(table)
      if (!statement) {
        const columns = Object.keys(row)
        statement = raw.prepare(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
        )
        statements.set(table, statement)
      }
      statement.run(row)
    },
    drain: async () => {},
  }

  return {
    sink,
    async finish() {
      raw.exec('COMMIT')
      // Indexes before triggers, in their original order.
      for (const object of dropped) raw.exec(object.sql)
      raw.pragma('wal_checkpoint(TRUNCATE)')
      raw.close()
    },
    async abort() {
      if (raw.open) raw.close()
    },
  }
}
