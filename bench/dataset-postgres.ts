// Bulk load into a migrated PostgreSQL database: rows are buffered per table and written as
// `INSERT … SELECT * FROM unnest($1::type[], …)` (one array parameter per column, any number of
// rows), while the generator goes on. Secondary indexes are dropped during the load and built after
// it (dataset.ts vacuums and analyses once the derived tables are rebuilt too); with
// `session_replication_role = replica` neither foreign-key nor user triggers fire.
import pg from 'pg'
import type { Row, RowSink } from './dataset-rows.js'
import type { BulkLoad } from './dataset-sqlite.js'

const BATCH_ROWS = 10_000

interface Buffer {
  table: string
  columns: string[]
  values: unknown[][]
  count: number
}

export async function openPostgresBulkLoad(
  url: string,
  options: { disableTriggers: boolean },
): Promise<BulkLoad> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query('SET synchronous_commit = off')
  if (options.disableTriggers) await client.query('SET session_replication_role = replica')

  const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i
     WHERE i.schemaname = current_schema() AND i.tablename NOT LIKE 'kysely_%'
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c
                       WHERE c.conindid = format('%I.%I', i.schemaname, i.indexname)::regclass)`,
  )
  for (const index of indexes) await client.query(`DROP INDEX "${index.indexname}"`)

  const { rows: columnRows } = await client.query<{
    table_name: string
    column_name: string
    udt_name: string
  }>(
    `SELECT table_name, column_name, udt_name FROM information_schema.columns
     WHERE table_schema = current_schema()`,
  )
  const typeOf = new Map(columnRows.map((c) => [`${c.table_name}.${c.column_name}`, c.udt_name]))

  // Tables in the order they were first written: flushing in that order never inserts a row
  // before the row it references, should foreign keys be checked.
  const buffers = new Map<string, Buffer>()
  let writing: Promise<void> = Promise.resolve()
  let failure: unknown

  const write = async (batch: Buffer) => {
    const casts = batch.columns.map((column, i) => {
      const type = typeOf.get(`${batch.table}.${column}`)
      if (!type) throw new Error(`dataset: ${batch.table}.${column} is not a column of the schema`)
      return `$${i + 1}::${type}[]`
    })
    await client.query(
      `INSERT INTO ${batch.table} (${batch.columns.join(', ')}) SELECT * FROM unnest(${casts.join(', ')})`,
      batch.values,
    )
  }
  const flushAll = () => {
    const batches = [...buffers.values()].filter((b) => b.count > 0)
    for (const buffer of buffers.values()) {
      buffers.set(buffer.table, { ...buffer, values: buffer.columns.map(() => []), count: 0 })
    }
    writing = writing.then(async () => {
      if (failure) return
      try {
        for (const batch of batches) await write(batch)
      } catch (error) {
        failure = error
      }
    })
  }

  const sink: RowSink = {
    insert(table: string, row: Row) {
      let buffer = buffers.get(table)
      if (!buffer) {
        const columns = Object.keys(row)
        buffer = { table, columns, values: columns.map(() => []), count: 0 }
        buffers.set(table, buffer)
      }
      const { columns, values } = buffer
      for (let i = 0; i < columns.length; i++) values[i]!.push(row[columns[i]!])
      if (++buffer.count >= BATCH_ROWS) flushAll()
    },
    async drain() {
      await writing
      if (failure) throw failure
    },
  }

  return {
    sink,
    async finish() {
      flushAll()
      await sink.drain()
      await client.query("SET maintenance_work_mem = '512MB'")
      for (const index of indexes) await client.query(index.indexdef)
      await client.query('RESET session_replication_role')
      await client.end()
    },
    async abort() {
      await writing
      await client.end().catch(() => {})
    },
  }
}
