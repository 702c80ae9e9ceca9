// Benchmark datasets, built once and cached: a SQLite file under bench/.data/ or a PostgreSQL
// database `fs_bench_<size>`, each with a marker (bench/.data/<dialect>-<size>.json) written only
// once the load is complete. A dataset is reused while its marker matches DATASET_VERSION and every
// migration of the code is applied to it; otherwise it is built again. Runs measure a working copy,
// so the writes of one run never change the next run's data.
import { createHash } from 'node:crypto'
import { constants, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { type Kysely, sql } from 'kysely'
import pg from 'pg'
import { createDatabase } from '../src/db/database.js'
import { createMigrator, migrateToLatest } from '../src/db/migrator.js'
import type { Database } from '../src/db/types.js'
import { createApiKey } from '../src/modules/api-keys/service.js'
import { generateDataset } from './dataset-jobs.js'
import { openPostgresBulkLoad } from './dataset-postgres.js'
import { openSqliteBulkLoad } from './dataset-sqlite.js'
import type { BenchDialect } from './options.js'
import { sizeLabel } from './options.js'
import { BENCH_DIR, ROOT_DIR } from './paths.js'

/** Bump when the generator changes what it writes: cached datasets are then rebuilt. */
export const DATASET_VERSION = 2
export const DATA_DIR = join(BENCH_DIR, '.data')
export const POSTGRES_ADMIN_URL =
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

export interface DatasetMarker {
  version: number
  dialect: BenchDialect
  size: number
  targetOrganisationId: string
  /** A read+write key of the target organisation, rate limit out of reach. */
  apiKey: string
  /** Jobs of every organisation. */
  jobs: number
  migrations: string[]
  /** Fingerprint of src/db/derived.ts when rebuildDerivedCounts last ran on it; null: never. */
  derivedFingerprint: string | null
  builtAt: string
  buildSeconds: number
  /** Also the PostgreSQL database's comment: ties the marker to the database it describes. */
  token: string
}

export interface Dataset {
  marker: DatasetMarker
  /** DATABASE_URL of the cached dataset (never measured directly: see createWorkingCopy). */
  url: string
}

const markerPath = (dialect: BenchDialect, size: number) =>
  join(DATA_DIR, `${dialect}-${sizeLabel(size)}.json`)
const sqlitePath = (size: number, work = false) =>
  join(DATA_DIR, `${work ? 'work-' : ''}sqlite-${sizeLabel(size)}.db`)
export const postgresDatabaseName = (size: number, work = false) =>
  `fs_bench_${sizeLabel(size)}${work ? '_run' : ''}`

export function postgresUrl(database: string): string {
  const url = new URL(POSTGRES_ADMIN_URL)
  url.pathname = `/${database}`
  return url.toString()
}

/** Runs `work` with a client on the server's maintenance database. */
export async function withPostgresAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 5_000 })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** What autovacuum would do after a bulk load: statistics, and a visibility map for index-only scans. */
async function vacuumAnalyse(db: Kysely<Database>, dialect: BenchDialect): Promise<void> {
  if (dialect === 'postgres') await sql`VACUUM (ANALYZE)`.execute(db)
}

type RebuildDerivedCounts = (db: Kysely<Database>) => Promise<unknown>

/** `rebuildDerivedCounts` from src/db/derived.ts, where that module exists. */
async function findRebuildDerivedCounts(): Promise<RebuildDerivedCounts | undefined> {
  const specifier = '../src/db/derived.js'
  try {
    const module = await import(specifier)
    return typeof module.rebuildDerivedCounts === 'function' ? module.rebuildDerivedCounts : undefined
  } catch (error) {
    const missing = (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND'
    if (missing && String((error as Error).message).includes('derived')) return undefined
    throw error
  }
}

/** Changes whenever derived.ts does, so a cached dataset gets the current rebuild run on it. */
function derivedFingerprint(): string | null {
  try {
    const source = readFileSync(join(ROOT_DIR, 'src', 'db', 'derived.ts'))
    return createHash('sha256').update(source).digest('hex').slice(0, 16)
  } catch {
    return null
  }
}

function readMarker(dialect: BenchDialect, size: number): DatasetMarker | undefined {
  try {
    const marker = JSON.parse(readFileSync(markerPath(dialect, size), 'utf8')) as DatasetMarker
    return marker.version === DATASET_VERSION && marker.size === size ? marker : undefined
  } catch {
    return undefined
  }
}

function urlOf(dialect: BenchDialect, size: number): string {
  return dialect === 'sqlite' ? sqlitePath(size) : postgresUrl(postgresDatabaseName(size))
}

/**
 * Pending migrations make a dataset stale. A changed (or new) derived.ts is simply run again: the
 * bulk load bypassed the triggers, so the derived tables are only as right as the last rebuild.
 */
async function stillValid(dialect: BenchDialect, size: number, marker: DatasetMarker): Promise<boolean> {
  if (dialect === 'sqlite' && !existsSync(sqlitePath(size))) return false
  if (dialect === 'postgres') {
    const comment = await withPostgresAdmin(async (client) => {
      const { rows } = await client.query<{ comment: string | null }>(
        'SELECT shobj_description(oid, $2) AS comment FROM pg_database WHERE datname = $1',
        [postgresDatabaseName(size), 'pg_database'],
      )
      return rows[0]?.comment
    })
    if (comment !== marker.token) return false
  }
  const database = createDatabase(urlOf(dialect, size))
  try {
    const migrations = await createMigrator(database.db, database.dialect).getMigrations()
    if (migrations.some((m) => m.executedAt === undefined)) return false
    const fingerprint = derivedFingerprint()
    if (fingerprint === marker.derivedFingerprint) return true
    const rebuild = await findRebuildDerivedCounts()
    if (!rebuild) return marker.derivedFingerprint === null
    process.stderr.write(
      `dataset ${dialect} ${sizeLabel(size)}: derived.ts changed, rebuilding derived tables…\n`,
    )
    await rebuild(database.db)
    await vacuumAnalyse(database.db, dialect)
    marker.derivedFingerprint = fingerprint
    writeFileSync(markerPath(dialect, size), `${JSON.stringify(marker, null, 2)}\n`)
    return true
  } finally {
    await database.destroy()
  }
}

/** The cached dataset of this dialect and size, built first if missing, incomplete or stale. */
export async function ensureDataset(
  dialect: BenchDialect,
  size: number,
  options: { rebuild?: boolean; log?: (line: string) => void } = {},
): Promise<Dataset> {
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`))
  const marker = options.rebuild ? undefined : readMarker(dialect, size)
  if (marker && (await stillValid(dialect, size, marker))) return { marker, url: urlOf(dialect, size) }
  log(`dataset ${dialect} ${sizeLabel(size)}: building…`)
  return { marker: await buildDataset(dialect, size, log), url: urlOf(dialect, size) }
}

async function buildDataset(dialect: BenchDialect, size: number, log: (line: string) => void) {
  const started = Date.now()
  mkdirSync(DATA_DIR, { recursive: true })
  rmSync(markerPath(dialect, size), { force: true })
  const url = urlOf(dialect, size)
  if (dialect === 'sqlite') {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${url}${suffix}`, { force: true })
  } else {
    await withPostgresAdmin(async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${postgresDatabaseName(size)} WITH (FORCE)`)
      await client.query(`CREATE DATABASE ${postgresDatabaseName(size)}`)
    })
  }

  let database = createDatabase(url)
  const migrations = await migrateToLatest(database.db, database.dialect)
  await database.destroy()

  const fingerprint = derivedFingerprint()
  const rebuild = await findRebuildDerivedCounts()
  const load =
    dialect === 'sqlite'
      ? openSqliteBulkLoad(url, { dropTriggers: rebuild !== undefined })
      : await openPostgresBulkLoad(url, { disableTriggers: rebuild !== undefined })
  if (!rebuild) log('  (no rebuildDerivedCounts in src/db/derived.ts: triggers stay on during the load)')
  let reported = 0
  let generated: Awaited<ReturnType<typeof generateDataset>>
  try {
    generated = await generateDataset(load.sink, size, (done, total) => {
      const tenth = Math.floor((done / total) * 10)
      if (tenth > reported) {
        reported = tenth
        log(`  ${tenth * 10} % of ${total} jobs (${((Date.now() - started) / 1000).toFixed(0)} s)`)
      }
    })
    log(`  rows written (${((Date.now() - started) / 1000).toFixed(0)} s); building indexes…`)
    await load.finish()
  } catch (error) {
    await load.abort()
    throw error
  }

  database = createDatabase(url)
  let apiKey: string
  try {
    ;({ key: apiKey } = await createApiKey(database.db, {
      organisationId: generated.targetOrganisationId,
      name: 'benchmark (read+write)',
      scopes: ['read', 'write'],
      rateLimitPerMinute: 100_000_000,
    }))
    if (rebuild) await rebuild(database.db)
    await vacuumAnalyse(database.db, dialect)
  } finally {
    await database.destroy()
  }

  const marker: DatasetMarker = {
    version: DATASET_VERSION,
    dialect,
    size,
    targetOrganisationId: generated.targetOrganisationId,
    apiKey,
    jobs: generated.jobs,
    migrations,
    derivedFingerprint: rebuild ? fingerprint : null,
    builtAt: new Date().toISOString(),
    buildSeconds: Math.round((Date.now() - started) / 100) / 10,
    token: `${DATASET_VERSION}:${generated.targetOrganisationId}:${Date.now()}`,
  }
  if (dialect === 'postgres') {
    await withPostgresAdmin((client) =>
      client.query(`COMMENT ON DATABASE ${postgresDatabaseName(size)} IS '${marker.token}'`),
    )
  }
  writeFileSync(markerPath(dialect, size), `${JSON.stringify(marker, null, 2)}\n`)
  log(`dataset ${dialect} ${sizeLabel(size)}: built in ${marker.buildSeconds} s`)
  return marker
}

export interface WorkingCopy {
  url: string
  drop(): Promise<void>
}

/** A throw-away copy of the dataset for one run (file copy; PostgreSQL `TEMPLATE` clone). */
export async function createWorkingCopy(dataset: Dataset): Promise<WorkingCopy> {
  const { dialect, size } = dataset.marker
  if (dialect === 'sqlite') {
    const work = sqlitePath(size, true)
    const remove = () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${work}${suffix}`, { force: true })
    }
    remove()
    // Everything committed must be in the main file before it alone is copied.
    const cached = new SQLite(dataset.url)
    cached.pragma('wal_checkpoint(TRUNCATE)')
    cached.close()
    // A reflink where the file system has them (instant), a plain copy elsewhere.
    copyFileSync(dataset.url, work, constants.COPYFILE_FICLONE)
    return { url: work, drop: async () => remove() }
  }
  const name = postgresDatabaseName(size, true)
  const drop = () => withPostgresAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
  await drop()
  await withPostgresAdmin(async (client) => {
    const { rows } = await client.query<{ server_version_num: string }>('SHOW server_version_num')
    // FILE_COPY (PostgreSQL 15+) copies the files instead of WAL-logging every block of the clone.
    const strategy = Number(rows[0]?.server_version_num) >= 150000 ? ' STRATEGY FILE_COPY' : ''
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${postgresDatabaseName(size)}${strategy}`)
  })
  return { url: postgresUrl(name), drop: async () => void (await drop()) }
}
