// `tsx bench/plan-apply.ts`: how long applying a big route plan holds the database, and how long
// another organisation's POST /v1/public/jobs waits meanwhile. One organisation gets a Monday of
// --jobs jobs on --routes shifts (a tenth of them already assigned, so REPLAN_ALL re-assigns,
// re-schedules and unassigns some), and a DONE plan that puts the rest on the routes in turn; the
// plan is applied through the admin API while a second organisation posts jobs, one at a time.
//
//   --jobs N (default 1900)   --routes N (default 40)   --dialects sqlite,postgres (default both)
//   --runs N: fresh days applied one after another (default 3)
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
import { createOrganisation } from '../src/modules/organisations/service.js'
import {
  makeDonePlan,
  makeLocation,
  makeShift,
  makeUser,
  makeVehicle,
  type PlannedRoute,
} from '../test/factories.js'

const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name)
  return at >= 0 && args[at + 1] !== undefined ? (args[at + 1] as string) : fallback
}
const JOBS = Number(option('--jobs', '1900'))
const ROUTES = Number(option('--routes', '40'))
const RUNS = Number(option('--runs', '3'))
const DIALECTS = option('--dialects', 'sqlite,postgres').split(',') as Dialect[]
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
// 2026-12-07 is a Monday.
const DATE = '2026-12-07'
const at = (minutes: number) => new Date(Date.parse(`${DATE}T07:00:00.000Z`) + minutes * 60_000).toISOString()

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: ADMIN_URL })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

async function openDatabase(dialect: Dialect) {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'plan-apply-'))
    const handle = createDatabase(join(dir, 'bench.db'))
    await migrateToLatest(handle.db, 'sqlite')
    return { handle, drop: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  const name = `fs_plan_apply_${randomBytes(4).toString('hex')}`
  await adminQuery(`CREATE DATABASE ${name}`)
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  const handle = createDatabase(url.toString())
  await migrateToLatest(handle.db, 'postgres')
  return { handle, drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

type App = Awaited<ReturnType<typeof buildApp>>

async function tenant(db: Parameters<typeof createOrganisation>[0], scopes: ('read' | 'write' | 'admin')[]) {
  const org = await createOrganisation(db, { name: `Bench ${randomBytes(3).toString('hex')}`, plan: 'PRO' })
  const { key } = await createApiKey(db, {
    organisationId: org.id,
    name: 'bench',
    scopes,
    rateLimitPerMinute: 100_000_000,
    expiresAt: null,
  })
  return { id: org.id, headers: { authorization: `Bearer ${key}` } }
}

async function request(app: App, headers: object, method: 'GET' | 'POST', url: string, payload?: object) {
  const response = await app.inject({ method, url, headers: headers as Record<string, string>, payload })
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
  return response.json()
}

/** A day of JOBS jobs on ROUTES shifts and a DONE REPLAN_ALL plan for it; answers the plan's id. */
async function seedDay(app: App, db: Parameters<typeof createOrganisation>[0]) {
  const owner = await tenant(db, ['read', 'write', 'admin'])
  const depot = await makeLocation(db, owner.id, { timezone: 'UTC' })
  const shifts = []
  for (let r = 0; r < ROUTES; r++) {
    const user = await makeUser(db, owner.id, { name: `Worker ${r}` })
    const vehicle = await makeVehicle(db, owner.id, depot.id, { name: `Van ${r}` })
    shifts.push(
      await makeShift(
        db,
        owner.id,
        { userId: user.id, locationId: depot.id, vehicleId: vehicle.id },
        { day: 'MONDAY', startTime: '07:00', endTime: '19:00' },
      ),
    )
  }
  const jobIds: string[] = []
  for (let i = 0; i < JOBS; i++) {
    const body = await request(app, owner.headers, 'POST', '/v1/public/jobs', {
      title: `Visit ${i + 1}`,
      jobLatitude: 53.4 + (i % 40) * 0.005,
      jobLongitude: -2.3 + Math.floor(i / 40) * 0.002,
      serviceDuration: 600,
      earliestStart: at(0),
      latestEnd: at(12 * 60),
    })
    jobIds.push(body.data.job.id)
  }
  // A tenth assigned already, to the route after the one the plan puts them on.
  for (let i = 0; i < JOBS; i += 10) {
    const shift = shifts[(i + 1) % ROUTES]!
    await request(app, owner.headers, 'POST', `/v1/admin/jobs/${jobIds[i]}/assign`, {
      userId: shift.user_id,
      shiftId: shift.id,
      scheduledStart: at(0),
      scheduledEnd: at(10),
    })
  }
  // Every 50th job is left out of the plan: an assigned one among them is unassigned.
  const planned = jobIds.filter((_, i) => i % 50 !== 0)
  const routes = shifts.map((shift) => ({ shift, stops: [] as PlannedRoute['stops'] }))
  planned.forEach((jobId, i) => {
    const route = routes[i % ROUTES] as (typeof routes)[number]
    const slot = route.stops.length
    route.stops.push({ jobId, serviceStart: at(slot * 12), serviceEnd: at(slot * 12 + 10) })
  })
  const planId = await makeDonePlan(db, owner.id, { date: DATE, mode: 'REPLAN_ALL', routes })
  return { owner, planId }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0

async function measure(dialect: Dialect) {
  const { handle, drop } = await openDatabase(dialect)
  const app = await buildApp({
    db: handle.db,
    dialect,
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
  try {
    const other = await tenant(handle.db, ['read', 'write'])
    const post = async () => {
      const started = performance.now()
      await request(app, other.headers, 'POST', '/v1/public/jobs', { title: 'Elsewhere' })
      return performance.now() - started
    }
    for (let i = 0; i < 200; i++) await post()
    const idle = []
    for (let i = 0; i < 200; i++) idle.push(await post())
    for (let run = 1; run <= RUNS; run++) {
      const { owner, planId } = await seedDay(app, handle.db)
      const waits: number[] = []
      let applying = true
      const started = performance.now()
      const cpu = process.cpuUsage()
      const applied = request(app, owner.headers, 'POST', `/v1/admin/route-plans/${planId}/apply`).finally(
        () => {
          applying = false
        },
      )
      // One post at a time, 2 ms apart: what a client of the other organisation sees, not a load.
      while (applying) {
        waits.push(await post())
        await new Promise((resolve) => setTimeout(resolve, 2))
      }
      const body = await applied
      const applyMs = performance.now() - started
      const { user, system } = process.cpuUsage(cpu)
      if (body.data.routePlan.status !== 'APPLIED') throw new Error(`plan is ${body.data.routePlan.status}`)
      waits.sort((a, b) => a - b)
      idle.sort((a, b) => a - b)
      console.log(
        `${dialect} run ${run}: ${JOBS} jobs applied in ${applyMs.toFixed(0)} ms ` +
          `(this process's CPU meanwhile: ${((user + system) / 1000).toFixed(0)} ms); ` +
          `another organisation's POST /v1/public/jobs during it: ${waits.length} posts, ` +
          `p50 ${percentile(waits, 50).toFixed(1)} ms, max ${percentile(waits, 100).toFixed(1)} ms ` +
          `(idle p50 ${percentile(idle, 50).toFixed(2)} ms)`,
      )
    }
  } finally {
    await app.close()
    await handle.destroy()
    await drop()
  }
}

for (const dialect of DIALECTS) await measure(dialect)
