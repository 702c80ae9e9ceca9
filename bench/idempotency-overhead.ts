// What Idempotency-Key support costs requests that do not use it, and what it costs those that do:
// app.inject() loops (no sockets: the app's own work) on GET /v1/public/jobs/:id and POST
// /v1/public/jobs, on a fresh SQLite file and a fresh PostgreSQL database.
//
//   npx tsx bench/idempotency-overhead.ts [--against ../other-checkout] [--rounds 6] [--requests 2000]
//                                         [--dialects sqlite,postgres]
//
// With --against, the same process also builds the app of another checkout (say, the commit before
// this feature, extracted with `git archive`), each on its own database, and runs the two in
// alternating blocks: on a shared, busy machine only ratios measured side by side mean anything.
// Each block reports requests per second and CPU microseconds per request (user + system).
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import pg from 'pg'

const { values } = parseArgs({
  options: {
    against: { type: 'string' },
    rounds: { type: 'string', default: '6' },
    requests: { type: 'string', default: '2000' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
  },
})
const ROUNDS = Number(values.rounds)
const REQUESTS = Number(values.requests)
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
type Dialect = 'sqlite' | 'postgres'

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

async function database(dialect: Dialect): Promise<{ url: string; cleanup(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'fieldservice-idem-bench-'))
    return { url: join(dir, 'bench.db'), cleanup: () => rm(dir, { recursive: true, force: true }) }
  }
  const name = `fs_bench_idem_${process.pid}_${randomBytes(3).toString('hex')}`
  await adminQuery(`CREATE DATABASE ${name}`)
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  return { url: url.toString(), cleanup: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

interface Inject {
  inject(options: object): Promise<{ statusCode: number; json(): unknown }>
  close(): Promise<unknown>
}

/** The app of the checkout at `root`, on a database of its own, with one tenant. */
async function appOf(root: string, dialect: Dialect) {
  const load = (path: string) => import(pathToFileURL(join(root, path)).href)
  const [{ buildApp }, { createDatabase }, { migrateToLatest }, apiKeys, organisations] = await Promise.all([
    load('src/app.ts'),
    load('src/db/database.ts'),
    load('src/db/migrator.ts'),
    load('src/modules/api-keys/service.ts'),
    load('src/modules/organisations/service.ts'),
  ])
  const target = await database(dialect)
  const handle = createDatabase(target.url)
  await migrateToLatest(handle.db, dialect)
  const org = await organisations.createOrganisation(handle.db, { name: 'Bench', plan: 'PRO' })
  const { key } = await apiKeys.createApiKey(handle.db, {
    organisationId: org.id,
    name: 'bench',
    scopes: ['read', 'write'],
    rateLimitPerMinute: 100_000_000,
  })
  const app = (await buildApp({
    db: handle.db,
    dialect,
    config: {
      authCacheTtlMs: 60_000,
      defaultRateLimitPerMinute: 100,
      bodyLimitBytes: 1024 * 1024,
      webhookDispatcher: false,
      planWorkers: 0,
    },
  })) as Inject & { ready(): Promise<unknown> }
  await app.ready()
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  const body = JSON.stringify({ title: 'Boiler service', priority: 'HIGH', serviceDuration: 1800 })
  const created = await app.inject({ method: 'POST', url: '/v1/public/jobs', headers, payload: body })
  const jobId = (created.json() as { data: { job: { id: string } } }).data.job.id
  const scenarios: Record<string, () => Promise<number>> = {
    'GET /jobs/:id': async () =>
      (await app.inject({ method: 'GET', url: `/v1/public/jobs/${jobId}`, headers })).statusCode,
    'POST /jobs': async () =>
      (await app.inject({ method: 'POST', url: '/v1/public/jobs', headers, payload: body })).statusCode,
    'POST /jobs + Idempotency-Key': async () =>
      (
        await app.inject({
          method: 'POST',
          url: '/v1/public/jobs',
          headers: { ...headers, 'idempotency-key': randomUUID() },
          payload: body,
        })
      ).statusCode,
  }
  return {
    scenarios,
    async close() {
      await app.close()
      await handle.destroy()
      await target.cleanup()
    },
  }
}

async function measure(count: number, request: () => Promise<number>) {
  const started = process.hrtime.bigint()
  const cpu = process.cpuUsage()
  for (let i = 0; i < count; i++) {
    const status = await request()
    if (status >= 300) throw new Error(`answered ${status}`)
  }
  const used = process.cpuUsage(cpu)
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  return { perSecond: count / seconds, cpuMicros: (used.user + used.system) / count }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

async function bench(dialect: Dialect): Promise<void> {
  const here = await appOf(resolve(import.meta.dirname, '..'), dialect)
  const other = values.against ? await appOf(resolve(values.against), dialect) : undefined
  try {
    for (const name of Object.keys(here.scenarios)) {
      const mine = here.scenarios[name] as () => Promise<number>
      const theirs = other?.scenarios[name]
      const count = name.startsWith('GET') ? REQUESTS : Math.max(100, Math.round(REQUESTS / 4))
      await measure(100, mine)
      if (theirs) await measure(100, theirs)
      const rows: { mine: number; theirs?: number; mineRate: number; theirRate?: number }[] = []
      for (let round = 0; round < ROUNDS; round++) {
        // Alternate which goes first, so a drift in machine load favours neither.
        const first = round % 2 === 0 || !theirs ? await measure(count, mine) : undefined
        const b = theirs ? await measure(count, theirs) : undefined
        const a = first ?? (await measure(count, mine))
        rows.push({ mine: a.cpuMicros, theirs: b?.cpuMicros, mineRate: a.perSecond, theirRate: b?.perSecond })
      }
      const line = [
        `${dialect} ${name}: ${Math.round(median(rows.map((r) => r.mineRate)))}/s, ` +
          `${Math.round(median(rows.map((r) => r.mine)))} µs CPU`,
      ]
      if (theirs) {
        const ratios = rows.map((r) => r.mine / (r.theirs as number))
        // Contention only ever adds time: the best block of each is the least disturbed estimate.
        const best = Math.min(...rows.map((r) => r.mine)) / Math.min(...rows.map((r) => r.theirs as number))
        line.push(
          `against: ${Math.round(median(rows.map((r) => r.theirRate as number)))}/s, ` +
            `${Math.round(median(rows.map((r) => r.theirs as number)))} µs CPU; CPU ratio per round ` +
            `${ratios.map((r) => r.toFixed(2)).join(' ')}, median ${median(ratios).toFixed(3)}, ` +
            `best blocks ${best.toFixed(3)}`,
        )
      }
      console.log(line.join(' | '))
    }
  } finally {
    await here.close()
    await other?.close()
  }
}

for (const dialect of values.dialects.split(',') as Dialect[]) await bench(dialect)
