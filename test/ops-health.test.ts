// Liveness, readiness, security headers and log redaction, through app.inject() on both databases.
import { Writable } from 'node:stream'
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../src/app.js'
import { CONTENT_SECURITY_POLICY } from '../src/http/security-headers.js'
import { loggerOptions } from '../src/server.js'
import { createTenant, createTestApp, createTestDatabase, DIALECTS, type TestContext } from './helpers.js'
import { waitUntil } from './processes.js'

const APP_CONFIG = { authCacheTtlMs: 0, defaultRateLimitPerMinute: 100, bodyLimitBytes: 1024 * 1024 }
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'content-security-policy': CONTENT_SECURITY_POLICY,
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: health and readiness`, () => {
    let t: TestContext

    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(async () => {
      await t.close()
    })

    it('GET /healthz answers ok without a key', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/healthz' })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({ status: 'ok' })
    })

    it('GET /readyz is ready when the database answers and migrations are current', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/readyz' })
      expect(response.statusCode).toBe(200)
      const body = response.json()
      expect(body).toMatchObject({
        status: 'ready',
        checks: {
          database: { status: 'ok' },
          migrations: { status: 'ok' },
          rateLimit: { store: 'memory', redis: 'disabled' },
        },
      })
      expect(body.checks.migrations.applied).toBe(body.checks.migrations.expected)
      expect(body.checks.migrations.expected).toBeGreaterThan(0)
    })

    it('neither probe counts against a key limit, even when called far beyond one', async () => {
      for (let i = 0; i < 150; i++) {
        const response = await t.app.inject({ method: 'GET', url: i % 2 ? '/healthz' : '/readyz' })
        expect(response.statusCode).toBe(200)
        expect(response.headers['x-ratelimit-limit']).toBeUndefined()
      }
    })

    it('neither probe is in the OpenAPI documents', async () => {
      for (const url of ['/v1/public/openapi.json', '/v1/admin/openapi.json']) {
        const paths = Object.keys((await t.app.inject({ method: 'GET', url })).json().paths)
        expect(paths.length).toBeGreaterThan(0)
        expect(paths.filter((p) => /healthz|readyz/.test(p))).toEqual([])
      }
    })

    it('API answers carry the security headers, and no HSTS (TLS ends at the load balancer)', async () => {
      const tenant = await createTenant(t)
      const answers = [
        await t.app.inject({ method: 'GET', url: '/v1/public/jobs', headers: tenant.headers }),
        await t.app.inject({ method: 'GET', url: '/v1/public/jobs' }), // 401
        await t.app.inject({ method: 'GET', url: '/v1/public/nowhere' }), // 404
        await t.app.inject({ method: 'POST', url: '/v1/public/jobs', headers: tenant.headers, payload: {} }), // 400
        await t.app.inject({ method: 'GET', url: '/readyz' }),
      ]
      expect(answers.map((a) => a.statusCode)).toEqual([200, 401, 404, 400, 200])
      for (const answer of answers) {
        expect(answer.headers).toMatchObject({ ...SECURITY_HEADERS, 'cache-control': 'no-store' })
        expect(answer.headers['strict-transport-security']).toBeUndefined()
        expect(answer.headers.connection).not.toBe('close')
      }
    })

    it('the docs playground still works: its page, its document and its static assets', async () => {
      const page = await t.app.inject({ method: 'GET', url: '/v1/public/docs/' })
      expect(page.statusCode).toBe(200)
      expect(page.headers['content-type']).toMatch(/text\/html/)
      expect(page.body).toContain('swagger-ui')
      // The page is HTML under the policy that forbids inline scripts: it has none, only files.
      expect(page.headers).toMatchObject(SECURITY_HEADERS)
      expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/)
      const asset = await t.app.inject({ method: 'GET', url: '/v1/public/docs/static/swagger-ui-bundle.js' })
      expect(asset.statusCode).toBe(200)
      expect(asset.headers['content-type']).toMatch(/javascript/)
      expect(asset.headers).toMatchObject(SECURITY_HEADERS)
      // Static assets keep their own caching; API answers are never cached.
      expect(asset.headers['cache-control']).not.toBe('no-store')
      const initializer = await t.app.inject({
        method: 'GET',
        url: '/v1/public/docs/static/swagger-initializer.js',
      })
      expect(initializer.statusCode).toBe(200)
    })
  })

  describe(`${dialect}: readiness failures`, () => {
    const apps: { app: App; cleanup(): Promise<void> }[] = []
    const build = async (config: Record<string, unknown> = {}) => {
      const database = await createTestDatabase(dialect)
      const app = await buildApp({
        db: database.db,
        dialect,
        config: { ...APP_CONFIG, webhookDispatcher: false, ...config },
      })
      await app.ready()
      const entry = { app, database, cleanup: async () => {} }
      entry.cleanup = async () => {
        await app.close()
        await database.cleanup()
      }
      apps.push(entry)
      return entry
    }
    afterEach(async () => {
      for (const entry of apps.splice(0)) await entry.cleanup()
    })

    it('answers 503 not_ready while shutting down, with no database call', async () => {
      const { app } = await build()
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
      app.lifecycle.drain()
      const response = await app.inject({ method: 'GET', url: '/readyz' })
      expect(response.statusCode).toBe(503)
      expect(response.json()).toMatchObject({
        status: 'not_ready',
        shuttingDown: true,
        checks: { database: { status: 'skipped' }, migrations: { status: 'skipped' } },
      })
      // Still alive, still serving, but every answer now closes its connection.
      const health = await app.inject({ method: 'GET', url: '/healthz' })
      expect(health.statusCode).toBe(200)
      expect(health.headers.connection).toBe('close')
    })

    it('answers 503 when a migration this build knows is not applied', async () => {
      const { app, database } = await build()
      const last = await database.db
        .selectFrom(sql.table('kysely_migration').as('m') as never)
        .select(sql<string>`max(name)`.as('name'))
        .executeTakeFirstOrThrow()
      await sql`delete from kysely_migration where name = ${(last as { name: string }).name}`.execute(
        database.db,
      )
      const response = await app.inject({ method: 'GET', url: '/readyz' })
      expect(response.statusCode).toBe(503)
      expect(response.json()).toMatchObject({
        status: 'not_ready',
        checks: {
          database: { status: 'ok' },
          migrations: { status: 'failed', pending: [(last as { name: string }).name] },
        },
      })
    })

    it('answers 503 when the database does not answer, naming no internals', async () => {
      const { app, database } = await build()
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
      await database.db.destroy()
      const response = await app.inject({ method: 'GET', url: '/readyz' })
      expect(response.statusCode).toBe(503)
      const body = response.json()
      expect(body).toMatchObject({ status: 'not_ready', checks: { database: { status: 'failed' } } })
      expect(body.checks.database.error).toMatch(/^[A-Za-z0-9_]+$/)
      // Liveness does not depend on the database.
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
    })

    it('stays ready when Redis is unreachable, and says so in the details', async () => {
      const { app } = await build({ redisUrl: 'redis://127.0.0.1:1' })
      const body = await waitUntil(
        'the rate-limit store to report Redis unreachable',
        async () => {
          const response = await app.inject({ method: 'GET', url: '/readyz' })
          expect(response.statusCode).toBe(200)
          const json = response.json()
          return json.checks.rateLimit.redis === 'unreachable' ? json : undefined
        },
        10_000,
      )
      expect(body).toMatchObject({ status: 'ready', checks: { rateLimit: { store: 'memory' } } })
      // The same state as gauges for alerting.
      const { body: metrics } = await app.metrics.scrape()
      expect(metrics).toMatch(/^fieldservice_rate_limit_fallback_active 1$/m)
      expect(metrics).toMatch(/^fieldservice_rate_limit_redis_connected 0$/m)
    })
  })

  describe(`${dialect}: logs`, () => {
    it('are JSON lines with the request id, and never show credentials or secrets', async () => {
      const lines: string[] = []
      const stream = new Writable({
        write(chunk, _encoding, callback) {
          lines.push(...String(chunk).split('\n').filter(Boolean))
          callback()
        },
      })
      const database = await createTestDatabase(dialect)
      const app = await buildApp({
        db: database.db,
        dialect,
        config: { ...APP_CONFIG, webhookDispatcher: false },
        logger: { ...loggerOptions('info'), stream },
      })
      try {
        const key = 'svc_live_ThisIsNotARealKeyButLooksLikeOne0123'
        const response = await app.inject({
          method: 'POST',
          url: '/v1/admin/automations',
          headers: { authorization: `Bearer ${key}`, 'x-api-key': key, cookie: 'session=abc123secret' },
          payload: { event: 'JOB_CREATED', url: 'https://example.com/hook', secret: 'whsec_topsecret' },
        })
        expect(response.statusCode).toBe(401)
        // Signing in, and a session's request: neither the password nor the cookie is logged.
        const signIn = await app.inject({
          method: 'POST',
          url: '/v1/admin/session',
          payload: { email: 'someone@example.com', password: 'sign-in-password-hunter3' },
        })
        expect(signIn.statusCode).toBe(401)
        const sessionCookie = `fs_session=${'S'.repeat(43)}`
        await app.inject({ method: 'DELETE', url: '/v1/admin/session', headers: { cookie: sessionCookie } })
        // Anything that logs a request's headers and body gets them redacted.
        app.log.info(
          {
            request: {
              headers: {
                authorization: `Bearer ${key}`,
                cookie: 'session=abc123secret',
                'x-api-key': key,
                'x-csrf-token': 'csrf-token-secret',
              },
            },
            body: {
              password: 'hunter2',
              secret: 'whsec_topsecret',
              name: 'kept',
              csrfToken: 'csrf-token-secret',
            },
          },
          'diagnostic',
        )
        const parsed = lines.map((line) => JSON.parse(line))
        const requestLines = parsed.filter((line) => line.reqId)
        expect(requestLines.length).toBeGreaterThanOrEqual(2)
        const firstRequest = requestLines.filter((line) => line.reqId === response.headers['x-request-id'])
        expect(firstRequest.length).toBeGreaterThanOrEqual(2)
        const text = lines.join('\n')
        for (const secret of [
          key,
          'abc123secret',
          'whsec_topsecret',
          'hunter2',
          'hunter3',
          'SSSSSSSS',
          'csrf-token-secret',
        ])
          expect(text).not.toContain(secret)
        const diagnostic = parsed.find((line) => line.msg === 'diagnostic')
        expect(diagnostic.request.headers).toEqual({
          authorization: '[redacted]',
          cookie: '[redacted]',
          'x-api-key': '[redacted]',
          'x-csrf-token': '[redacted]',
        })
        expect(diagnostic.body).toEqual({
          password: '[redacted]',
          secret: '[redacted]',
          name: 'kept',
          csrfToken: '[redacted]',
        })
      } finally {
        await app.close()
        await database.cleanup()
      }
    })
  })
}
