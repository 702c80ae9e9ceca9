import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  client,
  createKey,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../test/helpers.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: rate limits`, () => {
    let t: TestContext

    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    it('counts per key, sends X-RateLimit-* headers, and answers 429 RATE_LIMITED past the limit', async () => {
      const tenant = await createTenant(t, { rateLimitPerMinute: 3 })
      const api = client(t, tenant.headers)
      for (const remaining of [2, 1, 0]) {
        const response = await api.get('/jobs')
        expect(response.status).toBe(200)
        expect(response.headers['x-ratelimit-limit']).toBe('3')
        expect(response.headers['x-ratelimit-remaining']).toBe(String(remaining))
        const reset = Number(response.headers['x-ratelimit-reset'])
        expect(reset).toBeGreaterThan(0)
        expect(reset).toBeLessThanOrEqual(60)
      }
      const limited = await api.get('/jobs')
      expect(limited.status).toBe(429)
      expect(limited.body.code).toBe('RATE_LIMITED')
      expect(limited.body.error).toMatch(/3 requests per minute/)
      expect(limited.headers['x-ratelimit-remaining']).toBe('0')
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
      // Writes count against the same limit.
      expect((await api.post('/jobs', { title: 'Too many' })).status).toBe(429)
      expect((await api.get('/jobs')).body.data?.pagination?.total).toBeUndefined()

      // Another key of the same organisation has its own budget.
      const second = await createKey(t, tenant.organisationId, { rateLimitPerMinute: 5 })
      const response = await client(t, second.headers).get('/jobs')
      expect(response.status).toBe(200)
      expect(response.headers['x-ratelimit-limit']).toBe('5')
      expect(response.headers['x-ratelimit-remaining']).toBe('4')
    })

    it('counts a HEAD request once, as its GET', async () => {
      const tenant = await createTenant(t, { rateLimitPerMinute: 10 })
      const head = await t.app.inject({ method: 'HEAD', url: '/v1/public/jobs', headers: tenant.headers })
      expect(head.statusCode).toBe(200)
      expect(head.headers['x-ratelimit-remaining']).toBe('9')
      expect((await client(t, tenant.headers).get('/jobs')).headers['x-ratelimit-remaining']).toBe('8')
    })

    it('gives an admin key one budget across the public and the admin API', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'], rateLimitPerMinute: 4 })
      const publicApi = client(t, tenant.headers)
      const adminApi = client(t, tenant.headers, '/v1/admin')
      const sequence = [publicApi, adminApi, publicApi, adminApi]
      for (const [i, api] of sequence.entries()) {
        const response = await api.get(api === publicApi ? '/jobs' : '/api-keys')
        expect(response.status).toBe(200)
        expect(response.headers['x-ratelimit-limit']).toBe('4')
        expect(response.headers['x-ratelimit-remaining']).toBe(String(3 - i))
      }
      for (const limited of [await publicApi.get('/jobs'), await adminApi.get('/api-keys')]) {
        expect(limited.status).toBe(429)
        expect(limited.body.code).toBe('RATE_LIMITED')
      }
    })

    it('puts the headers on authenticated error responses too', async () => {
      const tenant = await createTenant(t, { rateLimitPerMinute: 50 })
      const response = await client(t, tenant.headers).get('/jobs/missing')
      expect(response.status).toBe(404)
      expect(response.headers['x-ratelimit-limit']).toBe('50')
      const invalid = await client(t, tenant.headers).post('/jobs', {})
      expect(invalid.status).toBe(400)
      expect(invalid.headers['x-ratelimit-remaining']).toBe('48')
    })

    it('also sends the IETF draft RateLimit-Policy and RateLimit fields, with the same figures', async () => {
      const tenant = await createTenant(t, { rateLimitPerMinute: 2 })
      const api = client(t, tenant.headers)
      for (const response of [
        await api.get('/jobs'),
        await api.get('/jobs/missing'),
        await api.get('/jobs'),
      ]) {
        const {
          'x-ratelimit-limit': limit,
          'x-ratelimit-remaining': left,
          'x-ratelimit-reset': reset,
        } = response.headers
        expect(response.headers['ratelimit-policy']).toBe(`"default";q=${limit};w=60`)
        expect(response.headers.ratelimit).toBe(`"default";r=${left};t=${reset}`)
      }
      const limited = await api.get('/jobs')
      expect(limited.status).toBe(429)
      expect(limited.headers['ratelimit-policy']).toBe('"default";q=2;w=60')
      expect(limited.headers.ratelimit).toMatch(/^"default";r=0;t=[1-9][0-9]*$/)
      // No key, no budget: a 401 carries neither kind.
      const anonymous = await t.app.inject({ method: 'GET', url: '/v1/public/jobs' })
      expect([anonymous.headers['x-ratelimit-limit'], anonymous.headers.ratelimit]).toEqual([
        undefined,
        undefined,
      ])
    })

    it('accepts very high per-key limits', async () => {
      const tenant = await createTenant(t, { rateLimitPerMinute: 1_000_000 })
      const response = await client(t, tenant.headers).get('/jobs')
      expect(response.headers['x-ratelimit-limit']).toBe('1000000')
    })
  })
}
