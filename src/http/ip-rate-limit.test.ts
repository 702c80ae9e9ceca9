// Issue 13, point 4: every route that needs no key (documents, playgrounds, probes, landing page,
// 404/405/OPTIONS) is under a per-IP limit, counted in the store the key limits use.
import { randomBytes } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  createTenant,
  createTestApp,
  createTestDatabase,
  DIALECTS,
  type TestContext,
  type TestDatabase,
} from '../../test/helpers.js'
import { type App, buildApp } from '../app.js'

const LIMIT = 5
const KEYLESS = [
  '/healthz',
  '/readyz',
  '/',
  '/v1/public/openapi.json',
  '/v1/admin/docs/',
  '/v1/admin/docs/static/swagger-ui.css',
  '/nowhere',
]

for (const dialect of DIALECTS) {
  describe(`${dialect}: the per-IP limit of routes that need no key`, () => {
    const apps: TestContext[] = []
    const appWith = async (config: {
      ipRateLimitPerMinute: number
      trustProxy?: boolean | number | string
    }) => {
      const t = await createTestApp(dialect, config)
      apps.push(t)
      return t
    }
    afterEach(async () => {
      for (const t of apps.splice(0)) await t.close()
    })

    const get = (t: TestContext, url: string, from = '127.0.0.1', headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, remoteAddress: from, headers })

    it('counts every keyless route in one budget per address, then answers 429 RATE_LIMITED', async () => {
      const t = await appWith({ ipRateLimitPerMinute: LIMIT })
      for (const url of KEYLESS.slice(0, LIMIT)) {
        const response = await get(t, url)
        expect(response.statusCode, url).toBeLessThan(429)
        // Under the limit it shows nothing: X-RateLimit-* describe a key's budget.
        expect(response.headers['x-ratelimit-limit'], url).toBeUndefined()
      }
      const unrouted = [
        { method: 'DELETE', url: '/healthz' }, // 405
        { method: 'OPTIONS', url: '/v1/public/jobs' }, // 204
      ] as const
      for (const request of [...KEYLESS.map((url) => ({ method: 'GET', url }) as const), ...unrouted]) {
        const limited = await t.app.inject({ ...request, remoteAddress: '127.0.0.1' })
        expect(limited.statusCode, request.url).toBe(429)
        expect(limited.json()).toEqual({
          error: expect.stringMatching(/^Too many requests from this address: at most 5 a minute/),
          code: 'RATE_LIMITED',
        })
        const retryAfter = Number(limited.headers['retry-after'])
        expect(retryAfter).toBeGreaterThan(0)
        expect(retryAfter).toBeLessThanOrEqual(60)
        expect(limited.headers['x-request-id']).toEqual(expect.any(String))
      }
      // Another address has its own budget.
      expect((await get(t, '/healthz', '10.0.0.2')).statusCode).toBe(200)
      // IPv6 clients are counted per /64: one host cannot walk its own prefix.
      for (let i = 1; i <= LIMIT; i++)
        expect((await get(t, '/healthz', `2001:db8::${i}`)).statusCode).toBe(200)
      expect((await get(t, '/healthz', '2001:db8::ffff')).statusCode).toBe(429)
    })

    it('leaves the APIs to the per-key limit', async () => {
      const t = await appWith({ ipRateLimitPerMinute: 1 })
      const tenant = await createTenant(t)
      expect((await get(t, '/healthz')).statusCode).toBe(200)
      expect((await get(t, '/healthz')).statusCode).toBe(429)
      for (let i = 0; i < 3; i++) {
        const response = await get(t, '/v1/public/jobs', '127.0.0.1', tenant.headers)
        expect(response.statusCode).toBe(200)
        expect(response.headers['x-ratelimit-limit']).toBe('100000')
      }
      // A request without a key is refused by the API (401), whatever the address has used.
      expect((await get(t, '/v1/public/jobs')).statusCode).toBe(401)
    })

    it('believes X-Forwarded-For only from the proxies TRUST_PROXY names', async () => {
      const direct = await appWith({ ipRateLimitPerMinute: 1 })
      const forwarded = (client: string) => ({ 'x-forwarded-for': client })
      expect((await get(direct, '/healthz', '127.0.0.1', forwarded('203.0.113.1'))).statusCode).toBe(200)
      // Without TRUST_PROXY the header is the client's own claim: the peer is counted.
      expect((await get(direct, '/healthz', '127.0.0.1', forwarded('203.0.113.2'))).statusCode).toBe(429)

      for (const trustProxy of ['127.0.0.1', 1] as const) {
        const behindProxy = await appWith({ ipRateLimitPerMinute: 1, trustProxy })
        expect((await get(behindProxy, '/healthz', '127.0.0.1', forwarded('203.0.113.1'))).statusCode).toBe(
          200,
        )
        expect((await get(behindProxy, '/healthz', '127.0.0.1', forwarded('203.0.113.2'))).statusCode).toBe(
          200,
        )
        expect((await get(behindProxy, '/healthz', '127.0.0.1', forwarded('203.0.113.1'))).statusCode).toBe(
          429,
        )
        // A peer that is not the trusted proxy is the client, whatever it forwards.
        if (trustProxy === '127.0.0.1') {
          expect(
            (await get(behindProxy, '/healthz', '198.51.100.7', forwarded('203.0.113.3'))).statusCode,
          ).toBe(200)
          expect(
            (await get(behindProxy, '/healthz', '198.51.100.7', forwarded('203.0.113.4'))).statusCode,
          ).toBe(429)
        }
      }
    })

    it('is off at 0', async () => {
      const t = await appWith({ ipRateLimitPerMinute: 0 })
      for (let i = 0; i < 20; i++) expect((await get(t, '/nowhere')).statusCode).toBe(404)
    })
  })

  describe(`${dialect}: the per-IP limit shared through Redis`, () => {
    const prefix = `fieldservice-test:${process.pid}:${randomBytes(4).toString('hex')}:`
    let database: TestDatabase
    const apps: App[] = []
    beforeAll(async () => {
      database = await createTestDatabase(dialect)
    })
    afterAll(async () => {
      for (const app of apps) await app.close()
      await database.cleanup()
    })

    it('holds across instances, like the key limits', async () => {
      for (let i = 0; i < 2; i++) {
        const app = await buildApp({
          db: database.db,
          dialect,
          config: {
            authCacheTtlMs: 0,
            defaultRateLimitPerMinute: 100,
            bodyLimitBytes: 1024 * 1024,
            webhookDispatcher: false,
            redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
            redisKeyPrefix: prefix,
            ipRateLimitPerMinute: 4,
          },
        })
        await app.ready()
        expect(app.rateLimits.status()).toEqual({ store: 'redis', redis: 'connected' })
        apps.push(app)
      }
      const statuses: number[] = []
      for (let i = 0; i < 6; i++) {
        const app = apps[i % 2] as App
        statuses.push(
          (await app.inject({ method: 'GET', url: '/healthz', remoteAddress: '192.0.2.9' })).statusCode,
        )
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429])
    })
  })
}
