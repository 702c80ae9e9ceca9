// The header search (GET /v1/admin/search) at 100k jobs: builds one organisation with 100,000 jobs
// and 5,000 customers (plus a second organisation with the same phones and titles, so the tenant
// filter has rows to skip) in a scratch database of each dialect, then times the search service —
// the two indexed queries it runs — for typical queries: median and p95 of 30 runs after 5 warm-ups.
// Usage: npx tsx bench/search-latency.ts [sqlite|postgres] [jobs]
// Scratch data: a SQLite file under the OS temp folder, or PostgreSQL database fs_bench_search
// (dropped first); neither is the benchmark suite's cached dataset (bench/dataset.ts).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { Kysely } from 'kysely'
import pg from 'pg'
import { createDatabase, type Dialect } from '../src/db/database.js'
import { newId } from '../src/db/ids.js'
import { migrateToLatest } from '../src/db/migrator.js'
import type { Database } from '../src/db/types.js'
import { createOrganisation } from '../src/modules/organisations/service.js'
import { search } from '../src/modules/search/service.js'

const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const TITLES = [
  'Annual boiler service',
  'Replace boiler pressure valve',
  'Leaking kitchen tap',
  'Blocked drain',
  'Radiator bleed and balance',
  'Install smart thermostat',
  'Gas safety certificate',
  'Burst pipe repair',
  'Replace immersion heater',
  'Shower pump fault',
  'Toilet cistern refill valve',
  'Fit outside tap',
  'Power flush central heating',
  'Unvented cylinder service',
  'Low water pressure',
  'Noisy pipes',
]
const FIRST = [
  'Olivia',
  'George',
  'Amelia',
  'Harry',
  'Isla',
  'Noah',
  'Ava',
  'Leo',
  'Mia',
  'Oscar',
  'Grace',
  'Jack',
]
const LAST = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Johnson',
  'Davies',
  'Patel',
  'Wright',
]
const STREETS = [
  'Oldham Street',
  'Deansgate',
  'Kingsway',
  'Mill Lane',
  'Church Road',
  'Station Road',
  'High Street',
]
const QUERIES = [
  'J-51234',
  '51234',
  'boiler',
  'pressure valve',
  'smith',
  'olivia smi',
  'oldham street',
  '7700 900123',
  '900123',
  'example.com',
  'mia.wright',
  'zzz no match',
]

async function main() {
  const dialect = (process.argv[2] ?? 'sqlite') as Dialect
  const jobs = Number(process.argv[3] ?? 100_000)
  const { url, dispose } = await scratchDatabase(dialect)
  const handle = createDatabase(url)
  try {
    await migrateToLatest(handle.db, dialect)
    const started = performance.now()
    const target = await load(handle.db, jobs, 5_000)
    await load(handle.db, 2_000, 500)
    // VACUUM as autovacuum would after a load: until then a GIN index's pending list (fastupdate) is
    // read whole by every search — 5–7 ms a trigram index at this size, measured.
    if (dialect === 'postgres') await (await import('kysely')).sql`VACUUM ANALYZE`.execute(handle.db)
    console.log(`${dialect}: loaded ${jobs} jobs in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    for (const q of QUERIES) {
      const times: number[] = []
      let found = { jobs: 0, customers: 0 }
      for (let i = 0; i < 35; i++) {
        const t0 = performance.now()
        const result = await search(handle.db, target, { q, limit: 10 })
        if (i >= 5) times.push(performance.now() - t0)
        found = { jobs: result.jobs.length, customers: result.customers.length }
      }
      times.sort((a, b) => a - b)
      const median = times[Math.floor(times.length / 2)] as number
      const p95 = times[Math.floor(times.length * 0.95)] as number
      console.log(
        `${dialect}\t${JSON.stringify(q).padEnd(16)}\tmedian ${median.toFixed(2)} ms\tp95 ${p95.toFixed(2)} ms\t` +
          `jobs ${found.jobs} customers ${found.customers}`,
      )
    }
  } finally {
    await handle.destroy()
    // BENCH_KEEP=1 leaves the scratch database for EXPLAIN.
    if (!process.env.BENCH_KEEP) await dispose()
  }
}

/** One organisation's customers and jobs, numbered from 1001 as the service would; returns its id. */
async function load(db: Kysely<Database>, jobCount: number, customerCount: number): Promise<string> {
  const org = await createOrganisation(db, { name: `Search bench ${newId()}`, plan: 'PRO' })
  let seed = 42
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
    return seed / 2 ** 31
  }
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T
  const customerIds: string[] = []
  const now = Date.UTC(2026, 10, 1)
  for (let start = 0; start < customerCount; start += 500) {
    const rows = []
    for (let i = start; i < Math.min(customerCount, start + 500); i++) {
      const id = newId(now - (customerCount - i) * 60_000)
      customerIds.push(id)
      const [first, last] = [pick(FIRST), pick(LAST)]
      const stamp = new Date(now - (customerCount - i) * 60_000).toISOString()
      rows.push({
        id,
        organisation_id: org.id,
        name: `${first} ${last}`,
        address: `${1 + (i % 200)} ${pick(STREETS)}, Manchester`,
        latitude: '53.48',
        longitude: '-2.24',
        service_duration: 900,
        priority: 'NORMAL' as const,
        time_window_type: 'SOFT' as const,
        operational_start: '08:00',
        operational_end: '18:00',
        email: `${first.toLowerCase()}.${last.toLowerCase()}${i}@example.com`,
        phone: `+447700${String(900000 + i * 37).slice(-6)}`,
        notes: null,
        created_at: stamp,
        updated_at: stamp,
      })
    }
    await db.insertInto('customers').values(rows).execute()
  }
  for (let start = 0; start < jobCount; start += 500) {
    const rows = []
    for (let i = start; i < Math.min(jobCount, start + 500); i++) {
      const created = now - (jobCount - i) * 30_000
      const stamp = new Date(created).toISOString()
      const day = new Date(created + 3 * 86_400_000).toISOString()
      rows.push({
        id: newId(created),
        organisation_id: org.id,
        title: pick(TITLES),
        description: null,
        status: 'CREATED' as const,
        priority: 'NORMAL' as const,
        customer_id: random() < 0.9 ? pick(customerIds) : null,
        location_id: null,
        job_latitude: null,
        job_longitude: null,
        service_duration: 900,
        time_window_type: 'SOFT' as const,
        earliest_start: day,
        latest_end: null,
        scheduled_start: null,
        scheduled_end: null,
        assigned_user_id: null,
        shift_id: null,
        started_at: null,
        completed_at: null,
        actual_duration: null,
        created_at: stamp,
        updated_at: stamp,
        deleted_at: null,
        start_recorded_at: null,
        complete_recorded_at: null,
        en_route_at: null,
        number: 1001 + i,
      })
    }
    await db.insertInto('jobs').values(rows).execute()
  }
  await db
    .insertInto('job_number_counters')
    .values({ organisation_id: org.id, last_number: 1000 + jobCount })
    .execute()
  return org.id
}

async function scratchDatabase(dialect: Dialect): Promise<{ url: string; dispose(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'fs-search-bench-'))
    return { url: join(dir, 'search.db'), dispose: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: ADMIN_URL })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }
  await admin('DROP DATABASE IF EXISTS fs_bench_search WITH (FORCE)')
  await admin('CREATE DATABASE fs_bench_search')
  const url = new URL(ADMIN_URL)
  url.pathname = '/fs_bench_search'
  return { url: url.toString(), dispose: () => admin('DROP DATABASE IF EXISTS fs_bench_search WITH (FORCE)') }
}

await main()
