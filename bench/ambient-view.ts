// What the request view of the database (src/db/ambient-transaction.ts) costs the code that
// route modules run for requests without an Idempotency-Key: the service calls behind
// GET /v1/public/jobs/:id and POST /v1/public/jobs, given the database itself or the view, in
// alternating blocks in one process (same machine state for both), and one property access alone.
//
//   npx tsx bench/ambient-view.ts [--rounds 8] [--block 2000] [--dialects sqlite,postgres]
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import type { Kysely } from 'kysely'
import pg from 'pg'
import { ambientDatabase, runInRequestScope } from '../src/db/ambient-transaction.js'
import { createDatabase, type Dialect } from '../src/db/database.js'
import { migrateToLatest } from '../src/db/migrator.js'
import type { Database } from '../src/db/types.js'
import { createJob, getJob } from '../src/modules/jobs/service.js'
import { createOrganisation } from '../src/modules/organisations/service.js'

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    block: { type: 'string', default: '2000' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
  },
})
const ROUNDS = Number(values.rounds)
const BLOCK = Number(values.block)
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

/** CPU nanoseconds per call of `work`, over `count` calls. */
async function cpuPerCall(count: number, work: () => Promise<unknown>): Promise<number> {
  const cpu = process.cpuUsage()
  for (let i = 0; i < count; i++) await work()
  const used = process.cpuUsage(cpu)
  return ((used.user + used.system) * 1000) / count
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

async function compare(
  label: string,
  count: number,
  work: (db: Kysely<Database>) => Promise<unknown>,
  db: Kysely<Database>,
) {
  const view = ambientDatabase(db)
  await cpuPerCall(200, () => work(db))
  await cpuPerCall(200, () => work(view))
  const raw: number[] = []
  const viewed: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so a drift in machine load favours neither.
    if (round % 2 === 0) {
      raw.push(await cpuPerCall(count, () => work(db)))
      viewed.push(await cpuPerCall(count, () => work(view)))
    } else {
      viewed.push(await cpuPerCall(count, () => work(view)))
      raw.push(await cpuPerCall(count, () => work(db)))
    }
  }
  const ratios = raw.map((r, i) => (viewed[i] as number) / r)
  const best = Math.min(...viewed) / Math.min(...raw)
  console.log(
    `${label}: database ${(median(raw) / 1000).toFixed(1)} µs CPU, view ${(median(viewed) / 1000).toFixed(1)} µs CPU; ` +
      `view/database per round ${ratios.map((r) => r.toFixed(3)).join(' ')}, median ${median(ratios).toFixed(3)}, ` +
      `best blocks ${best.toFixed(3)}`,
  )
}

async function bench(dialect: Dialect): Promise<void> {
  let url: string
  let cleanup: () => Promise<void>
  if (dialect === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'fieldservice-view-bench-'))
    url = join(dir, 'bench.db')
    cleanup = () => rm(dir, { recursive: true, force: true })
  } else {
    const name = `fs_bench_view_${process.pid}_${randomBytes(3).toString('hex')}`
    await adminQuery(`CREATE DATABASE ${name}`)
    const target = new URL(ADMIN_URL)
    target.pathname = `/${name}`
    url = target.toString()
    cleanup = () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  }
  const handle = createDatabase(url)
  try {
    await migrateToLatest(handle.db, dialect)
    const db = handle.db
    const org = await createOrganisation(db, { name: 'Bench', plan: 'PRO' })
    const job = await createJob(db, org.id, {
      title: 'Boiler service',
      priority: 'HIGH',
      serviceDuration: 1800,
    })

    const view = ambientDatabase(db)
    const accesses = 1_000_000
    const direct = await cpuPerCall(1, async () => {
      for (let i = 0; i < accesses; i++) if (db.selectFrom === undefined) throw new Error()
    })
    const through = await cpuPerCall(1, async () => {
      for (let i = 0; i < accesses; i++) if (view.selectFrom === undefined) throw new Error()
    })
    console.log(
      `${dialect}: one property access: database ${(direct / accesses).toFixed(1)} ns, view ${(through / accesses).toFixed(1)} ns`,
    )
    await compare(`${dialect} getJob (GET /jobs/:id)`, BLOCK, (d) => getJob(d, org.id, job.id), db)
    await compare(
      `${dialect} createJob (POST /jobs)`,
      Math.max(50, Math.round(BLOCK / 10)),
      (d) => createJob(d, org.id, { title: 'Boiler service', priority: 'HIGH', serviceDuration: 1800 }),
      db,
    )
  } finally {
    await handle.destroy()
    await cleanup()
  }
}

// As in the service, the view is used while a request is being handled (http/request-database.ts).
for (const dialect of values.dialects.split(',') as Dialect[]) await runInRequestScope(() => bench(dialect))
