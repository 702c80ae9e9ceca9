// How much disk a cached dataset takes, for --prepare-only and the report.
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { DATA_DIR, postgresDatabaseName, withPostgresAdmin } from './dataset.js'
import { type BenchDialect, sizeLabel } from './options.js'

export async function datasetDiskUsage(dialect: BenchDialect, size: number): Promise<string> {
  if (dialect === 'sqlite') {
    const bytes = statSync(join(DATA_DIR, `sqlite-${sizeLabel(size)}.db`)).size
    return `${(bytes / 2 ** 20).toFixed(0)} MB on disk`
  }
  return withPostgresAdmin(async (client) => {
    const { rows } = await client.query<{ size: string }>(
      'SELECT pg_size_pretty(pg_database_size($1)) AS size',
      [postgresDatabaseName(size)],
    )
    return `${rows[0]?.size ?? '?'} on disk`
  })
}
