import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  client,
  createKey,
  createTenant,
  createTestApp,
  createTestDatabase,
  DIALECTS,
  type TestContext,
  type TestDatabase,
} from '../../test/helpers.js'
import { type App, buildApp } from '../app.js'
import { revokeApiKey } from '../modules/api-keys/service.js'
import { changePlan } from '../modules/organisations/service.js'
import { loggerOptions } from '../server.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: authentication and scopes`, () => {
    let t: TestContext

    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    const get = (headers: Record<string, string>) => client(t, headers).get('/jobs')

    it.each([
      ['no header', {}, /missing/i],
      ['empty header', { authorization: '' }, /missing/i],
      ['wrong scheme', { authorization: 'Basic dXNlcjpwYXNz' }, /malformed/i],
      ['bearer without key', { authorization: 'Bearer ' }, /malformed/i],
      ['wrong prefix', { authorization: `Bearer sk_live_${'a'.repeat(40)}` }, /malformed/i],
      ['too short', { authorization: 'Bearer svc_live_abc' }, /malformed/i],
      ['unknown key', { authorization: `Bearer svc_live_${'A'.repeat(40)}` }, /unknown/i],
    ])('answers 401 UNAUTHORIZED for %s', async (_case, headers, message) => {
      const response = await get(headers as Record<string, string>)
      expect(response.status).toBe(401)
      expect(response.body.code).toBe('UNAUTHORIZED')
      expect(response.body.error).toMatch(message)
      expect(response.headers['x-ratelimit-limit']).toBeUndefined()
    })

    it('accepts the scheme case-insensitively', async () => {
      const tenant = await createTenant(t)
      expect((await get({ authorization: `bearer ${tenant.key}` })).status).toBe(200)
    })

    it('refuses a revoked key and an expired key with 401', async () => {
      const tenant = await createTenant(t)
      const revoked = await createKey(t, tenant.organisationId)
      expect((await get(revoked.headers)).status).toBe(200)
      await revokeApiKey(t.database.db, tenant.organisationId, revoked.id)
      const afterRevoke = await get(revoked.headers)
      expect(afterRevoke.status).toBe(401)
      expect(afterRevoke.body.error).toMatch(/revoked/i)

      const expired = await createKey(t, tenant.organisationId, {
        expiresAt: new Date(Date.now() - 1000).toISOString(),
      })
      const response = await get(expired.headers)
      expect(response.status).toBe(401)
      expect(response.body.error).toMatch(/expired/i)
      const future = await createKey(t, tenant.organisationId, {
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
      })
      expect((await get(future.headers)).status).toBe(200)
    })

    it.each(['FREE', 'STARTER'] as const)(
      'refuses organisations on %s with 403 PLAN_UPGRADE_REQUIRED',
      async (plan) => {
        const tenant = await createTenant(t, { plan, scopes: ['admin'] })
        const response = await get(tenant.headers)
        expect(response.status).toBe(403)
        expect(response.body.code).toBe('PLAN_UPGRADE_REQUIRED')
      },
    )

    it.each(['PRO', 'ENTERPRISE'] as const)('serves organisations on %s', async (plan) => {
      expect((await get((await createTenant(t, { plan })).headers)).status).toBe(200)
    })

    it('applies a plan change on the next request', async () => {
      const tenant = await createTenant(t)
      expect((await get(tenant.headers)).status).toBe(200)
      await changePlan(t.database.db, tenant.organisationId, 'STARTER')
      expect((await get(tenant.headers)).status).toBe(403)
    })

    describe('scopes', () => {
      const requests = [
        ['GET', '/jobs', undefined],
        ['POST', '/jobs', { title: 'Scoped' }],
        ['PATCH', '/jobs/any', { title: 'x' }],
        ['DELETE', '/jobs/any', undefined],
        ['POST', '/customers', { name: 'x', latitude: 1, longitude: 1 }],
        ['GET', '/vehicles', undefined],
      ] as const
      const allowed: Record<string, (method: string) => boolean> = {
        read: (m) => m === 'GET',
        write: (m) => m !== 'GET',
        admin: () => true,
      }

      for (const scope of ['read', 'write', 'admin'] as const) {
        it(`a ${scope} key may do exactly what its scope permits`, async () => {
          const tenant = await createTenant(t, { scopes: [scope] })
          for (const [method, url, payload] of requests) {
            const response = await t.app.inject({
              method,
              url: `/v1/public${url}`,
              headers: tenant.headers,
              ...(payload ? { payload } : {}),
            })
            if (allowed[scope]?.(method)) {
              expect([200, 201, 404], `${scope} ${method} ${url}`).toContain(response.statusCode)
            } else {
              expect(response.statusCode, `${scope} ${method} ${url}`).toBe(403)
              expect(response.json().code).toBe('FORBIDDEN')
            }
          }
        })
      }

      it('checks the scope before validating the body', async () => {
        const tenant = await createTenant(t, { scopes: ['read'] })
        const response = await client(t, tenant.headers).post('/jobs', { nonsense: true })
        expect(response.status).toBe(403)
        expect(response.body.code).toBe('FORBIDDEN')
      })
    })
  })

  describe(`${dialect}: key cache`, () => {
    let t: TestContext

    beforeAll(async () => {
      t = await createTestApp(dialect, { authCacheTtlMs: 300 })
    })
    afterAll(() => t.close())

    it('honours a revocation once the cache entry expires', async () => {
      const tenant = await createTenant(t)
      const extra = await createKey(t, tenant.organisationId)
      expect((await client(t, extra.headers).get('/jobs')).status).toBe(200)
      await revokeApiKey(t.database.db, tenant.organisationId, extra.id)
      await new Promise((resolve) => setTimeout(resolve, 350))
      expect((await client(t, extra.headers).get('/jobs')).status).toBe(401)
    })

    it('records when a key was last used', async () => {
      const tenant = await createTenant(t)
      const extra = await createKey(t, tenant.organisationId)
      await client(t, extra.headers).get('/jobs')
      await new Promise((resolve) => setTimeout(resolve, 50))
      const row = await t.database.db
        .selectFrom('api_keys')
        .select('last_used_at')
        .where('id', '=', extra.id)
        .executeTakeFirstOrThrow()
      expect(row.last_used_at).not.toBeNull()
    })

    it('never stores the key itself', async () => {
      const tenant = await createTenant(t)
      const rows = await t.database.db.selectFrom('api_keys').selectAll().execute()
      expect(JSON.stringify(rows)).not.toContain(tenant.key)
      expect(tenant.key).toMatch(/^svc_live_[0-9A-Za-z]{40}$/)
    })
  })
}

/** Everything pino writes, one parsed line each. */
function captureLogs() {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
      callback()
    },
  })
  return { stream, lines }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: keys in URLs`, () => {
    let database: TestDatabase
    let app: App
    const logs = captureLogs()
    const context = () => ({ app, database, dialect, close: async () => {} })

    beforeAll(async () => {
      database = await createTestDatabase(dialect)
      app = await buildApp({
        db: database.db,
        dialect,
        config: { authCacheTtlMs: 0, defaultRateLimitPerMinute: 100, bodyLimitBytes: 1024 * 1024 },
        // The production logger options, at the production default level.
        logger: { ...loggerOptions('info'), stream: logs.stream },
      })
      await app.ready()
    })
    afterAll(async () => {
      await app.close()
      await database.cleanup()
    })

    const loggedUrls = () =>
      logs.lines.flatMap((line) => {
        const req = line.req as { url?: string } | undefined
        return req?.url ? [req.url] : []
      })

    it('refuses a key in the query string with 401 saying where it belongs, header or not', async () => {
      const tenant = await createTenant(context(), { scopes: ['admin'] })
      const encoded = encodeURIComponent(tenant.key)
      for (const [url, headers] of [
        [`/v1/public/jobs?api_key=${tenant.key}`, {}],
        [`/v1/public/jobs?access_token=${encoded}`, {}],
        [`/v1/public/jobs?limit=5&apiKey=${tenant.key}`, tenant.headers],
        [`/v1/admin/api-keys?key=${tenant.key}`, tenant.headers],
        [`/v1/public/jobs?anything=Bearer%20${tenant.key}`, {}],
        [`/v1/public/jobs?token=not-even-a-key`, tenant.headers],
      ] as const) {
        const response = await app.inject({ method: 'GET', url, headers })
        expect(response.statusCode, url).toBe(401)
        expect(response.json().code).toBe('UNAUTHORIZED')
        expect(response.json().error).toMatch(/only in the Authorization header .*never in the URL/)
      }
      // A key in the header, with ordinary query parameters, is served as always.
      const fine = await app.inject({
        method: 'GET',
        url: '/v1/public/jobs?limit=5',
        headers: tenant.headers,
      })
      expect(fine.statusCode).toBe(200)
    })

    it('never writes a key or a secret-named query value to the logs, on any route', async () => {
      const tenant = await createTenant(context(), { scopes: ['admin'] })
      const before = logs.lines.length
      for (const url of [
        `/v1/public/jobs?api_key=${tenant.key}`,
        `/v1/public/jobs?status=ASSIGNED&q=${encodeURIComponent(tenant.key)}`,
        `/v1/admin/api-keys?key=${tenant.key}`,
        `/v1/public/nowhere?api_key=${tenant.key}`,
        `/v1/public/docs?api_key=${tenant.key}`,
        `/v1/public/openapi.json?token=${tenant.key}`,
        `/v1/admin/nowhere?password=hunter2&signature=s1gn3d&session_id=abc123&page=2`,
      ]) {
        await app.inject({ method: 'GET', url })
      }
      const lines = logs.lines.slice(before)
      const written = JSON.stringify(lines)
      for (const secret of [tenant.key, tenant.key.slice(17), 'hunter2', 's1gn3d', 'abc123']) {
        expect(written).not.toContain(secret)
      }
      const urls = loggedUrls().slice(-7)
      expect(urls).toEqual([
        '/v1/public/jobs?api_key=[redacted]',
        '/v1/public/jobs?status=ASSIGNED&q=[redacted]',
        '/v1/admin/api-keys?key=[redacted]',
        '/v1/public/nowhere?api_key=[redacted]',
        '/v1/public/docs?api_key=[redacted]',
        '/v1/public/openapi.json?token=[redacted]',
        '/v1/admin/nowhere?password=[redacted]&signature=[redacted]&session_id=[redacted]&page=2',
      ])
    })
  })
}
