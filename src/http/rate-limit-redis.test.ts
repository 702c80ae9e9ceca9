// Rate limits shared through Redis by several app instances, and the per-instance fallback while
// Redis is down, stalled or unreachable at start-up. Redis sits behind a TCP proxy the tests cut;
// the machine's Redis itself is never touched. Every key lives under a prefix unique to this file.
import { randomBytes } from 'node:crypto'
import { Writable } from 'node:stream'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  type ApiResponse,
  client,
  createTenant,
  createTestDatabase,
  DIALECTS,
  type TestContext,
  type TestDatabase,
} from '../../test/helpers.js'
import { waitUntil } from '../../test/processes.js'
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy.js'
import { type App, buildApp } from '../app.js'
import type { Dialect } from '../db/database.js'

const REDIS_URL = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379')
const PREFIX = `fieldservice-test:${process.pid}:${randomBytes(4).toString('hex')}:`

// Generous for a loaded 2-core machine; the bound itself is the 500 ms command timeout.
const QUICK_MS = 2500
const OUTAGE_WARNING = /Redis is unreachable/
const RECOVERY_INFO = /Redis answers again/

interface Instance extends TestContext {
  logs: { level: number; msg: string }[]
}

async function startInstance(dialect: Dialect, database: TestDatabase, redisPort: number) {
  const logs: Instance['logs'] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line))
      done()
    },
  })
  const app: App = await buildApp({
    db: database.db,
    dialect,
    config: {
      authCacheTtlMs: 0,
      defaultRateLimitPerMinute: 100,
      bodyLimitBytes: 1024 * 1024,
      webhookDispatcher: false,
      webhookAllowPrivate: true,
      redisUrl: `redis://127.0.0.1:${redisPort}`,
      redisKeyPrefix: PREFIX,
    },
    logger: { level: 'info', stream },
  })
  await app.ready()
  // The database belongs to the describe block, which cleans it up once.
  return { app, database, dialect, logs, close: () => app.close() } satisfies Instance
}

const count = (instance: Instance, pattern: RegExp) =>
  instance.logs.filter((line) => pattern.test(line.msg)).length

/** One GET /jobs, with how long it took. */
async function timedGet(instance: Instance, headers: Record<string, string>) {
  const started = performance.now()
  const response = await client(instance, headers).get('/jobs')
  return { response, ms: performance.now() - started }
}

function expectAllowed(response: ApiResponse, limit: number, remaining: number): void {
  expect(response.status).toBe(200)
  expect(response.headers['x-ratelimit-limit']).toBe(String(limit))
  expect(response.headers['x-ratelimit-remaining']).toBe(String(remaining))
  const reset = Number(response.headers['x-ratelimit-reset'])
  expect(reset).toBeGreaterThan(0)
  expect(reset).toBeLessThanOrEqual(60)
}

function expectLimited(response: ApiResponse, limit: number): void {
  expect(response.status).toBe(429)
  expect(response.body.code).toBe('RATE_LIMITED')
  expect(response.headers['x-ratelimit-limit']).toBe(String(limit))
  expect(response.headers['x-ratelimit-remaining']).toBe('0')
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0)
}

/** A fresh key with `limit`, spent by alternating between the instances: exactly `limit` pass. */
async function expectSharedBudget(instances: Instance[], limit: number): Promise<void> {
  const tenant = await createTenant(instances[0] as Instance, { rateLimitPerMinute: limit })
  for (let i = 0; i < limit; i++) {
    const { response } = await timedGet(instances[i % instances.length] as Instance, tenant.headers)
    expectAllowed(response, limit, limit - 1 - i)
  }
  for (const instance of instances) {
    expectLimited((await timedGet(instance, tenant.headers)).response, limit)
  }
}

/**
 * A fresh admin key with `limit`, spent on both APIs: public on one instance, admin on the next, so
 * exactly `limit` pass across both APIs and every instance given (one instance: its own counters).
 */
async function expectOneBudgetAcrossApis(instances: Instance[], limit: number): Promise<void> {
  const tenant = await createTenant(instances[0] as Instance, {
    scopes: ['admin'],
    rateLimitPerMinute: limit,
  })
  const apis = instances.flatMap((instance) => [
    () => client(instance, tenant.headers).get('/jobs'),
    () => client(instance, tenant.headers, '/v1/admin').get('/api-keys'),
  ])
  for (let i = 0; i < limit; i++)
    expectAllowed(await (apis[i % apis.length] as () => Promise<ApiResponse>)(), limit, limit - 1 - i)
  for (const api of apis) expectLimited(await api(), limit)
}

/** A fresh key with `limit`: each instance grants it the whole budget on its own, answering quickly. */
async function expectPerInstanceBudget(instances: Instance[], limit: number): Promise<void> {
  const tenant = await createTenant(instances[0] as Instance, { rateLimitPerMinute: limit })
  for (const instance of instances) {
    for (let i = 0; i < limit; i++) {
      const { response, ms } = await timedGet(instance, tenant.headers)
      expectAllowed(response, limit, limit - 1 - i)
      expect(ms).toBeLessThan(QUICK_MS)
    }
    const { response, ms } = await timedGet(instance, tenant.headers)
    expectLimited(response, limit)
    expect(ms).toBeLessThan(QUICK_MS)
  }
}

const waitForStatus = (instances: Instance[], redis: 'connected' | 'unreachable', timeoutMs = 8000) =>
  waitUntil(
    `rate limits ${redis}`,
    async () => (instances.every((i) => i.app.rateLimits.status().redis === redis) ? true : undefined),
    timeoutMs,
  )

afterAll(async () => {
  const redis = new Redis(REDIS_URL.toString())
  try {
    const keys = await redis.keys(`${PREFIX}*`)
    if (keys.length > 0) await redis.del(...keys)
  } finally {
    redis.disconnect()
  }
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: rate limits shared through Redis`, () => {
    let database: TestDatabase
    let proxy: TcpProxy
    let a: Instance
    let b: Instance

    beforeAll(async () => {
      database = await createTestDatabase(dialect)
      proxy = await startTcpProxy(REDIS_URL.hostname, Number(REDIS_URL.port || 6379))
      // Two instances of the service on one database and one Redis.
      a = await startInstance(dialect, database, proxy.port)
      b = await startInstance(dialect, database, proxy.port)
    })
    // A failed assertion mid-outage must not leave Redis "down" for the next test.
    afterEach(() => proxy?.restore())
    afterAll(async () => {
      await a?.close()
      await b?.close()
      await proxy?.close()
      await database?.cleanup()
    })

    it('holds a key to its limit across instances, exactly, with the right headers on both', async () => {
      expect(a.app.rateLimits.status()).toEqual({ store: 'redis', redis: 'connected' })
      expect(b.app.rateLimits.status()).toEqual({ store: 'redis', redis: 'connected' })
      await expectSharedBudget([a, b], 5)
      // The counters are in Redis under the configured prefix.
      const redis = new Redis(REDIS_URL.toString())
      try {
        expect((await redis.keys(`${PREFIX}key:*`)).length).toBeGreaterThan(0)
      } finally {
        redis.disconnect()
      }
    })

    it('gives an admin key one budget across the public and the admin API, on every instance', async () => {
      await expectOneBudgetAcrossApis([a, b], 6)
    })

    it('keeps answering with per-instance limits while Redis is down, and shares again once it is back', async () => {
      expect(a.app.rateLimits.status()).toEqual({ store: 'redis', redis: 'connected' })
      proxy.cut()
      // The first requests after the cut discover it; none fails or waits.
      await expectPerInstanceBudget([a, b], 3)
      expect(a.app.rateLimits.status()).toEqual({ store: 'memory', redis: 'unreachable' })
      expect(b.app.rateLimits.status()).toEqual({ store: 'memory', redis: 'unreachable' })
      // Reconnection attempts keep failing meanwhile; the switch is logged once.
      await new Promise((resolve) => setTimeout(resolve, 1500))
      await expectPerInstanceBudget([a, b], 2)
      // Counted in memory, an admin key still has one budget for both APIs.
      await expectOneBudgetAcrossApis([a], 4)
      expect(count(a, OUTAGE_WARNING)).toBe(1)
      expect(count(b, OUTAGE_WARNING)).toBe(1)
      expect(count(a, RECOVERY_INFO)).toBe(0)

      proxy.restore()
      const started = Date.now()
      await waitForStatus([a, b], 'connected')
      expect(Date.now() - started).toBeLessThan(6000)
      expect(a.app.rateLimits.status()).toEqual({ store: 'redis', redis: 'connected' })
      await expectSharedBudget([a, b], 4)
      expect(count(a, RECOVERY_INFO)).toBe(1)
      expect(count(b, RECOVERY_INFO)).toBe(1)
      expect(count(a, OUTAGE_WARNING)).toBe(1)
    })

    it('does not hold requests while Redis stalls, and shares again once it answers', async () => {
      expect(a.app.rateLimits.status()).toEqual({ store: 'redis', redis: 'connected' })
      proxy.stall()
      const tenant = await createTenant(a, { rateLimitPerMinute: 3 })
      // The first request waits at most the command timeout, then everything is counted locally.
      for (const remaining of [2, 1, 0]) {
        const { response, ms } = await timedGet(a, tenant.headers)
        expectAllowed(response, 3, remaining)
        expect(ms).toBeLessThan(QUICK_MS)
      }
      const { response, ms } = await timedGet(a, tenant.headers)
      expectLimited(response, 3)
      expect(ms).toBeLessThan(QUICK_MS)
      expect(a.app.rateLimits.status()).toEqual({ store: 'memory', redis: 'unreachable' })

      proxy.restore()
      await waitForStatus([a], 'connected')
      // b may never have noticed the stall (it sent nothing meanwhile); both share again.
      await waitForStatus([a, b], 'connected')
      await expectSharedBudget([a, b], 3)
    })

    it('starts with per-instance limits when Redis is unreachable, then shares once it is reachable', async () => {
      const late = await startTcpProxy(REDIS_URL.hostname, Number(REDIS_URL.port || 6379))
      late.cut()
      let c: Instance | undefined
      try {
        const started = Date.now()
        c = await startInstance(dialect, database, late.port)
        expect(Date.now() - started).toBeLessThan(10_000)
        expect(c.app.rateLimits.status()).toEqual({ store: 'memory', redis: 'unreachable' })
        await expectPerInstanceBudget([c], 2)
        expect(count(c, OUTAGE_WARNING)).toBe(1)

        late.restore()
        await waitForStatus([c], 'connected')
        expect(count(c, RECOVERY_INFO)).toBe(1)
        // c now counts with a and b in the one Redis.
        await expectSharedBudget([c, a, b], 4)
      } finally {
        await c?.close()
        await late.close()
      }
    })
  })
}
