// `npm run bench:availability`: how long POST /v1/public/availability takes for the size —
// 14 days × 10 workers × 8 jobs a day already planned (issue 32 §4: ≤ 300 ms). Seeds one organisation
// on SQLite (or PostgreSQL with --dialect postgres) through the API, then asks for 14 days of 2-hour
// windows --requests times through app.inject and prints p50/p99.
//
//   --requests N (default 60)   --workers N (default 10)   --jobs N per worker and day (default 8)
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { buildApp } from '../src/app.js'
import { createDatabase, type Dialect } from '../src/db/database.js'
import { migrateToLatest } from '../src/db/migrator.js'
import { createApiKey } from '../src/modules/api-keys/service.js'
import { loadBookableDays } from '../src/modules/bookings/range-inputs.js'
import { findSlots } from '../src/modules/bookings/slots.js'
import { createOrganisation } from '../src/modules/organisations/service.js'
import { makeLocation, makeShift, makeUser, makeVehicle } from '../test/factories.js'

const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name)
  return at >= 0 && args[at + 1] !== undefined ? (args[at + 1] as string) : fallback
}
const REQUESTS = Number(option('--requests', '60'))
const WORKERS = Number(option('--workers', '10'))
const JOBS_PER_DAY = Number(option('--jobs', '8'))
const DIALECT = option('--dialect', 'sqlite') as Dialect
const DAYS = 14
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
// 2026-12-07 is a Monday; the clock stands at the Sunday before, so every day asked about is ahead.
const FIRST = Date.parse('2026-12-07T00:00:00.000Z')
const NOW = FIRST - 12 * 3600_000
const WEEKDAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const
const iso = (ms: number) => new Date(ms).toISOString()

async function database() {
  if (DIALECT === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'availability-'))
    const handle = createDatabase(join(dir, 'bench.db'))
    await migrateToLatest(handle.db, 'sqlite')
    return { handle, drop: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  const name = `fs_availability_${randomBytes(4).toString('hex')}`
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: ADMIN_URL })
    await client.connect()
    await client.query(text)
    await client.end()
  }
  await admin(`CREATE DATABASE ${name}`)
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  const handle = createDatabase(url.toString())
  await migrateToLatest(handle.db, 'postgres')
  return { handle, drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

/**
 * The statements sent to PostgreSQL, counted at the driver (every pooled client's `query`): the
 * figure beside the timings. A measuring instrument of this script only; SQLite is not counted.
 */
const counted = { queries: 0 }
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  counted.queries++
  return query.apply(this, args)
} as typeof pg.Client.prototype.query

async function main() {
  const { handle, drop } = await database()
  const app = await buildApp({
    db: handle.db,
    dialect: DIALECT,
    clock: () => NOW,
    config: {
      authCacheTtlMs: 4000,
      defaultRateLimitPerMinute: 100_000_000,
      bodyLimitBytes: 1024 * 1024,
      webhookDispatcher: false,
      planWorkers: 0,
      ipRateLimitPerMinute: 100_000_000,
    },
  })
  await app.ready()
  const org = await createOrganisation(handle.db, { name: 'Bench availability', plan: 'PRO' })
  const { key } = await createApiKey(handle.db, {
    organisationId: org.id,
    name: 'bench',
    scopes: ['read', 'write', 'admin'],
    rateLimitPerMinute: 100_000_000,
    expiresAt: null,
  })
  const headers = { authorization: `Bearer ${key}` }
  const send = async (url: string, payload: unknown) => {
    const response = await app.inject({ method: 'POST', url, headers, payload: payload as object })
    if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`)
    return response.json()
  }

  // Ten workers on shifts 08:00–17:00 every day, each with 8 visits a day (30 min, on the hour, HARD
  // hour windows) spread around Manchester.
  const depot = await makeLocation(handle.db, org.id, { name: 'Manchester', isPrimary: true })
  const started = performance.now()
  for (let w = 0; w < WORKERS; w++) {
    const user = await makeUser(handle.db, org.id, { name: `Worker ${w + 1}`, email: `w${w}@bench.test` })
    const vehicle = await makeVehicle(handle.db, org.id, depot.id, { name: `Van ${w + 1}` })
    const shifts = new Map<string, string>()
    for (const day of WEEKDAYS) {
      const shift = await makeShift(
        handle.db,
        org.id,
        { userId: user.id, locationId: depot.id, vehicleId: vehicle.id },
        { day, startTime: '08:00', endTime: '17:00' },
      )
      shifts.set(day, shift.id)
    }
    for (let d = 0; d < DAYS; d++) {
      for (let j = 0; j < JOBS_PER_DAY; j++) {
        const start = FIRST + d * 86_400_000 + (8 + j) * 3600_000
        const job = await send('/v1/public/jobs', {
          title: `Visit ${w}-${d}-${j}`,
          jobLatitude: 53.44 + ((w * 7 + j * 3) % 8) * 0.01,
          jobLongitude: -2.28 + ((w * 5 + j * 11) % 8) * 0.01,
          serviceDuration: 1800,
          timeWindowType: 'HARD',
          earliestStart: iso(start),
          latestEnd: iso(start + 3600_000),
        })
        await send(`/v1/admin/jobs/${job.data.job.id}/assign`, {
          userId: user.id,
          shiftId: shifts.get(WEEKDAYS[d % 7] as string),
          scheduledStart: iso(start),
          scheduledEnd: iso(start + 1800_000),
        })
      }
    }
  }
  const seeded = (performance.now() - started) / 1000
  const body = {
    coordinates: { latitude: 53.48, longitude: -2.24 },
    serviceDuration: 1800,
    dateFrom: iso(FIRST).slice(0, 10),
    dateTo: iso(FIRST + (DAYS - 1) * 86_400_000).slice(0, 10),
    windowLength: 7200,
  }
  // Warm-up: the first requests compile queries and JIT the checker.
  for (let i = 0; i < 3; i++) await send('/v1/public/availability', body)
  const times: number[] = []
  let windows = 0
  const before = counted.queries
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now()
    const answer = await send('/v1/public/availability', body)
    times.push(performance.now() - t0)
    windows = answer.data.windows.length
  }
  const queries = DIALECT === 'postgres' ? `, ${(counted.queries - before) / REQUESTS} queries` : ''
  times.sort((a, b) => a - b)
  const pct = (p: number) =>
    times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)] as number
  console.log(
    `availability (${DIALECT}): ${DAYS} days × ${WORKERS} workers × ${JOBS_PER_DAY} jobs a day ` +
      `(seeded in ${seeded.toFixed(1)} s), ${REQUESTS} requests, ${windows} windows${queries} each: ` +
      `p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms, max ${(times.at(-1) as number).toFixed(1)} ms`,
  )
  // Where the time goes: the range read alone, then the read and the slot search, called directly.
  const range = { from: body.dateFrom, to: body.dateTo }
  const request = { position: body.coordinates, serviceSeconds: 1800, tagIds: [], windowSeconds: 7200 }
  const phase = async (run: () => Promise<unknown>) => {
    const spent: number[] = []
    for (let i = 0; i < Math.min(REQUESTS, 20); i++) {
      const t0 = performance.now()
      await run()
      spent.push(performance.now() - t0)
    }
    return (spent.sort((a, b) => a - b)[Math.floor(spent.length / 2)] as number).toFixed(1)
  }
  const read = await phase(() => loadBookableDays(handle.db, org.id, range, NOW))
  const search = await phase(() => findSlots(handle.db, org.id, range, request, NOW))
  console.log(`  median of the phases: range read ${read} ms; read + slot search ${search} ms`)
  await app.close()
  await handle.destroy()
  await drop()
}

await main()
