// PostgreSQL going away under a running service, simulated with a TCP proxy in front of the shared
// server (never by stopping it): requests fail fast with 503 SERVICE_UNAVAILABLE — no hang, no 500,
// no internals — the service recovers by itself once the database is back, data committed before the
// outage is intact, and the webhook dispatcher neither crashes nor floods the logs meanwhile.
import { once } from 'node:events'
import { createServer, type Socket } from 'node:net'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../src/app.js'
import { createDatabase, type DatabaseHandle, isDatabaseUnavailable } from '../src/db/database.js'
import { createApiKey } from '../src/modules/api-keys/service.js'
import { createOrganisation } from '../src/modules/organisations/service.js'
import { adminPostgresUrl } from './dialects.js'
import { createTestDatabaseUrl, DIALECTS } from './helpers.js'
import { freePort, waitUntil } from './processes.js'
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js'
import { type Receiver, startReceiver } from './webhook-receiver.js'

const POLL_INTERVAL_MS = 100
/** Loose on purpose (a loaded 2-core machine): the pool gives up on a connection after 2 s. */
const FAST_MS = 5000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface LogLine {
  level: number
  msg: string
}

interface Outcome {
  status: number
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
  body: any
  headers: Record<string, unknown>
  startedAt: number
  ms: number
}

/** One request through app.inject(), timed. */
async function send(
  app: App,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  headers: Record<string, string>,
  payload?: unknown,
): Promise<Outcome> {
  const startedAt = performance.now()
  const response = await app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  })
  let body: unknown = response.body
  try {
    body = response.json()
  } catch {
    // not JSON: keep the text, the assertions will show it
  }
  return {
    status: response.statusCode,
    body,
    headers: response.headers,
    startedAt,
    ms: performance.now() - startedAt,
  }
}

/** A server that accepts connections and never says a word, like a host that hangs mid-handshake. */
async function blackholeServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => {})
    socket.on('close', () => sockets.delete(socket))
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    port: (server.address() as { port: number }).port,
    async close() {
      for (const socket of sockets) socket.destroy()
      server.close()
      await once(server, 'close')
    },
  }
}

const pgTarget = () => {
  const url = new URL(adminPostgresUrl())
  return { host: url.hostname, port: Number(url.port || 5432) }
}

/** The same database through another port (a proxy, or nothing at all). */
function viaPort(databaseUrl: string, port: number): string {
  const url = new URL(databaseUrl)
  url.hostname = '127.0.0.1'
  url.port = String(port)
  return url.toString()
}

interface Service {
  app: App
  handle: DatabaseHandle
  logs: LogLine[]
  close(): Promise<void>
}

/** The whole app in this process on `url`, logging warn and above into `logs`. */
async function startApp(url: string, dispatcher: boolean): Promise<Service> {
  const handle = createDatabase(url, { pgPoolSize: 5 })
  const logs: LogLine[] = []
  const app = await buildApp({
    db: handle.db,
    dialect: handle.dialect,
    config: {
      authCacheTtlMs: 0,
      defaultRateLimitPerMinute: 100,
      bodyLimitBytes: 1024 * 1024,
      webhookDispatcher: dispatcher,
      webhookAllowPrivate: true,
      webhookTimeoutMs: 2000,
      webhookPollIntervalMs: POLL_INTERVAL_MS,
    },
    logger: { level: 'warn', stream: { write: (line: string) => logs.push(JSON.parse(line)) } },
  })
  await app.ready()
  return {
    app,
    handle,
    logs,
    async close() {
      await app.close()
      await handle.destroy()
    },
  }
}

/** What every answer given while the database is unreachable must look like. */
function expectUnavailable(outcome: Outcome): void {
  expect(outcome.status, JSON.stringify(outcome.body)).toBe(503)
  expect(outcome.body).toEqual({ error: expect.any(String), code: 'SERVICE_UNAVAILABLE' })
  expect(outcome.body.error).not.toMatch(/connect|terminated|ECONN|pg|postgres|at /i)
  expect(Number(outcome.headers['retry-after'])).toBeGreaterThanOrEqual(1)
  expect(Number(outcome.headers['retry-after'])).toBeLessThanOrEqual(5)
  expect(outcome.ms).toBeLessThan(FAST_MS)
}

describe('isDatabaseUnavailable', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code })
  it.each([
    ['connection refused', withCode('ECONNREFUSED')],
    ['connection reset', withCode('ECONNRESET')],
    ['refused on every address', new AggregateError([withCode('ECONNREFUSED')], 'connect failed')],
    ['connection failure (08006)', withCode('08006')],
    ['admin shutdown (57P01)', withCode('57P01')],
    ['crash shutdown (57P02)', withCode('57P02')],
    ['starting up (57P03)', withCode('57P03')],
    ['lost connection', new Error('Connection terminated unexpectedly')],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['new connection timeout', new Error('Connection terminated due to connection timeout')],
    ['wrapped', new Error('outer', { cause: withCode('ECONNREFUSED') })],
    ['SQLite locked', withCode('SQLITE_BUSY')],
    ['SQLite disk full', withCode('SQLITE_FULL')],
    ['SQLite I/O error', withCode('SQLITE_IOERR_WRITE')],
  ])('%s → unavailable', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true)
  })
  it.each([
    ['unique violation', withCode('23505')],
    ['syntax error', withCode('42601')],
    ['SQLite constraint', withCode('SQLITE_CONSTRAINT_UNIQUE')],
    ['a bug', new TypeError('cannot read properties of undefined')],
    ['not an error', 'ECONNREFUSED'],
  ])('%s → not unavailable', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false)
  })
})

const describePg = DIALECTS.includes('postgres') ? describe : describe.skip

describePg('postgres: the database goes away under load', () => {
  let database: { url: string; cleanup(): Promise<void> }
  let direct: DatabaseHandle
  let proxy: TcpProxy
  let service: Service
  let receiver: Receiver
  let headers: Record<string, string>

  beforeAll(async () => {
    database = await createTestDatabaseUrl('postgres')
    direct = createDatabase(database.url, { pgPoolSize: 2 })
    const org = await createOrganisation(direct.db, { name: 'Outage Heating', plan: 'PRO' })
    const { key } = await createApiKey(direct.db, {
      organisationId: org.id,
      name: 'outage test',
      scopes: ['admin'],
      rateLimitPerMinute: 1_000_000,
    })
    headers = { authorization: `Bearer ${key}` }
    const target = pgTarget()
    proxy = await startTcpProxy(target.host, target.port)
    service = await startApp(viaPort(database.url, proxy.port), true)
    receiver = await startReceiver()
  })
  afterAll(async () => {
    proxy?.restore()
    await service?.close()
    await proxy?.close()
    await receiver?.close()
    await direct?.destroy()
    await database?.cleanup()
  })

  const request = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    send(service.app, method, url, headers, payload)

  it('answers 503 quickly while PostgreSQL is cut and recovers by itself when it is back', async () => {
    const seeded: { id: string; title: string }[] = []
    for (let i = 0; i < 10; i++) {
      const created = await request('POST', '/v1/public/jobs', { title: `Before the outage ${i}` })
      expect(created.status).toBe(201)
      seeded.push({ id: created.body.data.job.id, title: `Before the outage ${i}` })
    }

    const outcomes: Outcome[] = []
    const acknowledged = new Map<string, string>()
    let stopping = false
    const worker = async (w: number) => {
      const mine: string[] = []
      for (let n = 0; !stopping; n++) {
        const title = `w${w}-${n}`
        const seed = seeded[n % seeded.length] as { id: string }
        const target = n % 5 !== 4 && n % 2 === 1 ? mine[n % mine.length] : undefined
        const outcome =
          n % 5 === 4
            ? await request('GET', `/v1/public/jobs/${seed.id}`)
            : target
              ? await request('PATCH', `/v1/public/jobs/${target}`, { title })
              : await request('POST', '/v1/public/jobs', { title })
        outcomes.push(outcome)
        if (outcome.status === 201) {
          mine.push(outcome.body.data.job.id)
          acknowledged.set(outcome.body.data.job.id, title)
        } else if (outcome.status === 200 && target) {
          acknowledged.set(target, title)
        } else if (outcome.status >= 300) {
          await sleep(20) // a polite client; also keeps this test's CPU use down
        }
      }
    }
    const workers = Array.from({ length: 16 }, (_, w) => worker(w))
    const successes = () => outcomes.filter((o) => o.status < 300).length
    await waitUntil('writes before the cut', async () => (successes() >= 150 ? true : undefined), 30_000)

    const cutAt = performance.now()
    proxy.cut()
    await sleep(2500)
    const restoredAt = performance.now()
    proxy.restore()
    await waitUntil(
      'a success after the restore',
      async () => (outcomes.some((o) => o.startedAt > restoredAt && o.status < 300) ? true : undefined),
      10_000,
    )
    const recoveredAt = performance.now()
    stopping = true
    await Promise.all(workers)

    // Never a 500 (nor anything else unexpected), before, during or after the outage.
    expect(new Set(outcomes.map((o) => o.status))).toEqual(new Set([200, 201, 503]))
    const duringOutage = outcomes.filter((o) => o.startedAt > cutAt + 50 && o.startedAt + o.ms < restoredAt)
    expect(duringOutage.length).toBeGreaterThan(16)
    for (const outcome of duringOutage) expectUnavailable(outcome)
    for (const outcome of outcomes.filter((o) => o.status === 503)) expectUnavailable(outcome)
    expect(recoveredAt - restoredAt).toBeLessThan(10_000)
    expect(service.logs.filter((line) => line.level >= 50)).toEqual([])

    // What was written before the cut, and every write acknowledged at any time, is there.
    for (const { id, title } of seeded) {
      const job = await request('GET', `/v1/public/jobs/${id}`)
      expect(job.status).toBe(200)
      expect(job.body.data.job.title).toBe(title)
    }
    const rows = await direct.db
      .selectFrom('jobs')
      .select(['id', 'title'])
      .where('id', 'in', [...acknowledged.keys()])
      .execute()
    const stored = new Map(rows.map((row) => [row.id, row.title]))
    for (const [id, title] of acknowledged) expect(stored.get(id), id).toBe(title)
  }, 60_000)

  it('answers 503 for a request whose query was running when its connection dropped', async () => {
    const created = await request('POST', '/v1/public/jobs', { title: 'Locked boiler' })
    expect(created.status).toBe(201)
    const id = created.body.data.job.id as string
    const dbName = new URL(database.url).pathname.slice(1)

    // Watches from outside the blocking transaction: pg_stat_activity is a snapshot per transaction.
    const observer = new pg.Client({ connectionString: database.url })
    // A session ended under it surfaces as the query's error; without a listener it would crash the run.
    observer.on('error', () => {})
    await observer.connect()
    for (const drop of ['proxy cut', 'pg_terminate_backend'] as const) {
      // Another session holds the row, so the PATCH waits inside PostgreSQL for its lock.
      const blocker = new pg.Client({ connectionString: database.url })
      blocker.on('error', () => {})
      await blocker.connect()
      const blockerPid = (await blocker.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number
      await blocker.query('BEGIN')
      await blocker.query('SELECT id FROM jobs WHERE id = $1 FOR UPDATE', [id])
      const patching = request('PATCH', `/v1/public/jobs/${id}`, { title: `Changed by ${drop}` })
      const waiting = await waitUntil('the PATCH to wait for the row lock', async () => {
        const { rows } = await observer.query(
          "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND pid <> $2",
          [dbName, blockerPid],
        )
        return rows.length === 1 ? (rows[0].pid as number) : undefined
      })
      const droppedAt = performance.now()
      // The proxy drops the connection as a network failure would; pg_terminate_backend is what
      // PostgreSQL does to its sessions on a fast shutdown or restart (57P01).
      if (drop === 'proxy cut') proxy.cut()
      else await observer.query('SELECT pg_terminate_backend($1)', [waiting])
      const outcome = await patching
      expect(performance.now() - droppedAt).toBeLessThan(FAST_MS)
      expectUnavailable(outcome)
      await blocker.query('ROLLBACK')
      await blocker.end()
      proxy.restore()
    }
    await observer.end()

    // The failed PATCHes changed nothing, and the service carries on without a restart.
    const job = await waitUntil('the job to be readable again', async () => {
      const response = await request('GET', `/v1/public/jobs/${id}`)
      return response.status === 200 ? response : undefined
    })
    expect(job.body.data.job.title).toBe('Locked boiler')
    const patched = await request('PATCH', `/v1/public/jobs/${id}`, { title: 'Fixed boiler' })
    expect(patched.status).toBe(200)
    expect(service.logs.filter((line) => line.level >= 50)).toEqual([])
  }, 60_000)

  it('keeps the webhook dispatcher alive and quiet while PostgreSQL is down', async () => {
    const automation = await request('POST', '/v1/admin/automations', {
      event: 'JOB_CREATED',
      url: `${receiver.url}/created`,
    })
    expect(automation.status).toBe(201)
    // An earlier test's outage may still be the dispatcher's last failed round: wait for a good one.
    await waitUntil('the dispatcher to recover from earlier outages', async () =>
      service.app.webhooks.dispatcher.isFailing ? undefined : true,
    )
    const before = service.logs.length
    const outageMs = 3000
    proxy.cut()
    await sleep(outageMs)
    const during = service.logs.slice(before)
    proxy.restore()

    // It says so once, at warn level, however many polls fail: no error-level flood.
    expect(during.filter((line) => line.level >= 50)).toEqual([])
    const dispatcherLines = during.filter((line) => /webhook|dispatch/i.test(line.msg))
    expect(dispatcherLines.map((line) => line.msg)).toEqual([
      'webhook dispatch failed; retrying at every poll',
    ])

    // Still running after the outage: a job created now is delivered.
    const job = await waitUntil('a write after the outage', async () => {
      const response = await request('POST', '/v1/public/jobs', { title: 'After the outage' })
      return response.status === 201 ? response : undefined
    })
    const [delivered] = await receiver.waitFor(1, 10_000)
    expect(delivered?.json.data.jobId).toBe(job.body.data.job.id)
  }, 60_000)

  it('answers 503 when PostgreSQL refuses connections and there is no pooled one', async () => {
    const port = await freePort() // nothing listens here: every connection attempt is refused
    const refused = await startApp(viaPort(database.url, port), false)
    let late: TcpProxy | undefined
    try {
      for (let i = 0; i < 3; i++)
        expectUnavailable(await send(refused.app, 'GET', '/v1/public/jobs', headers))
      expectUnavailable(await send(refused.app, 'POST', '/v1/public/jobs', headers, { title: 'Refused' }))
      expect(refused.logs.filter((line) => line.level >= 50)).toEqual([])

      // PostgreSQL comes up on that port: the same app serves without a restart.
      const target = pgTarget()
      late = await startTcpProxy(target.host, target.port, port)
      const created = await waitUntil('the first answer from the database', async () => {
        const response = await send(refused.app, 'POST', '/v1/public/jobs', headers, { title: 'Up at last' })
        return response.status === 201 ? response : undefined
      })
      expect(created.body.data.job.title).toBe('Up at last')
    } finally {
      await refused.close()
      await late?.close()
    }
  }, 60_000)

  it('answers 503 within the connection timeout when PostgreSQL accepts but never answers', async () => {
    const blackhole = await blackholeServer()
    const stalled = await startApp(viaPort(database.url, blackhole.port), false)
    try {
      const outcome = await send(stalled.app, 'GET', '/v1/public/jobs', headers)
      expectUnavailable(outcome)
      expect(outcome.ms).toBeGreaterThanOrEqual(1500) // it did wait for the 2 s connection timeout
    } finally {
      await stalled.close()
      await blackhole.close()
    }
  }, 60_000)
})
