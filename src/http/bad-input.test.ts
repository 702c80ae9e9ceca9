import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../test/helpers.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: bad input never breaks anything`, () => {
    let t: TestContext
    let tenant: TestTenant

    beforeAll(async () => {
      t = await createTestApp(dialect)
      tenant = await createTenant(t)
    })
    afterAll(() => t.close())

    const raw = (
      payload: string | Buffer,
      contentType = 'application/json',
      method: 'POST' | 'PATCH' = 'POST',
    ) =>
      t.app.inject({
        method,
        url: '/v1/public/jobs',
        headers: { ...tenant.headers, 'content-type': contentType },
        payload,
      })
    const jobCount = async () => (await client(t, tenant.headers).get('/jobs')).body.data.pagination.total

    it.each([
      ['malformed JSON', '{"title": "x",'],
      ['a JSON string', '"just a string"'],
      ['a JSON array', '[{"title":"x"}]'],
      ['null', 'null'],
      ['an empty body', ''],
      ['whitespace', '   '],
      ['an empty object', '{}'],
      ['a __proto__ key', '{"title":"x","__proto__":{"admin":true}}'],
      ['a constructor.prototype key', '{"title":"x","constructor":{"prototype":{"a":1}}}'],
      ['a NUL character', '{"title":"bad\\u0000title"}'],
      ['a NUL in a key', '{"ti\\u0000tle":"x"}'],
      ['an unpaired surrogate', '{"title":"\\ud800x"}'],
      ['an unpaired low surrogate in a key', '{"title":"x","\\uDC00":1}'],
      ['deep nesting', `{"title":${'['.repeat(5000)}${']'.repeat(5000)}}`],
      ['a huge number', '{"title":"x","serviceDuration":1e400}'],
      ['duplicate-looking fields', '{"title":"x","Title":"y"}'],
    ])('answers 400 VALIDATION_ERROR for %s and stores nothing', async (_case, payload) => {
      const before = await jobCount()
      const response = await raw(payload)
      expect(response.statusCode).toBe(400)
      expect(response.json().code).toBe('VALIDATION_ERROR')
      expect(response.body).not.toMatch(/ at .*\.(ts|js):\d+/)
      expect(await jobCount()).toBe(before)
    })

    it('answers 415 UNSUPPORTED_MEDIA_TYPE for other content types', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
        const response = await raw('title=x', type)
        expect(response.statusCode).toBe(415)
        expect(response.json().code).toBe('UNSUPPORTED_MEDIA_TYPE')
      }
    })

    it('treats an empty JSON body on DELETE as no body', async () => {
      const created = await client(t, tenant.headers).post('/jobs', { title: 'Delete with a content type' })
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/v1/public/jobs/${created.body.data.job.id}`,
        headers: { ...tenant.headers, 'content-type': 'application/json' },
      })
      expect(response.statusCode).toBe(200)
    })

    it('ignores a trailing slash', async () => {
      expect((await client(t, tenant.headers).get('/jobs/')).status).toBe(200)
    })

    it('accepts a charset parameter on the JSON content type', async () => {
      expect((await raw('{"title":"charset"}', 'application/json; charset=utf-8')).statusCode).toBe(201)
    })

    it('answers 413 PAYLOAD_TOO_LARGE over 1 MiB', async () => {
      const response = await raw(JSON.stringify({ title: 'x', description: 'y'.repeat(1024 * 1024) }))
      expect(response.statusCode).toBe(413)
      expect(response.json().code).toBe('PAYLOAD_TOO_LARGE')
    })

    it('rejects over-long strings with 400', async () => {
      const response = await raw(JSON.stringify({ title: 'x', description: 'y'.repeat(10_001) }))
      expect(response.statusCode).toBe(400)
    })

    it('keeps unicode, quotes and SQL-looking text verbatim', async () => {
      // 🚐 also arrives as an escaped surrogate pair: a paired surrogate is fine.
      expect((await raw('{"title":"\\ud83d\\ude90"}')).statusCode).toBe(201)
      const title = `Robert'); DROP TABLE jobs;-- 🚐 ☃ "quoted" \\ ../../etc/passwd`
      const created = await client(t, tenant.headers).post('/jobs', { title })
      expect(created.status).toBe(201)
      expect(
        (await client(t, tenant.headers).get(`/jobs/${created.body.data.job.id}`)).body.data.job.title,
      ).toBe(title)
    })

    it('answers JSON 404 for unknown routes and 405 for unknown methods', async () => {
      for (const [method, url, status, code] of [
        ['GET', '/v1/public/nothing', 404, 'NOT_FOUND'],
        ['GET', '/v2/public/jobs', 404, 'NOT_FOUND'],
        ['PUT', '/v1/public/jobs/abc', 405, 'METHOD_NOT_ALLOWED'],
        ['POST', '/', 405, 'METHOD_NOT_ALLOWED'],
      ] as const) {
        const response = await t.app.inject({ method, url, headers: tenant.headers })
        expect(response.statusCode).toBe(status)
        expect(response.json().code).toBe(code)
      }
    })

    it('never answers 5xx to odd query strings, paths and headers', async () => {
      const urls = [
        '/v1/public/jobs?page=99999999999',
        '/v1/public/jobs?page=2147483647&limit=100',
        '/v1/public/jobs?limit=1&limit=2',
        '/v1/public/jobs?status[]=CREATED',
        '/v1/public/jobs?customerId=%00',
        '/v1/public/jobs/%00',
        '/v1/public/jobs/%E0%A4%A',
        '/v1/public/customers?search=%25%00%25',
        '/v1/public/customers?search=%F0%9F%9A%90',
        `/v1/public/jobs/${'%F0%9F%9A%90'.repeat(40)}`,
        '/v1/public/jobs?targetDate=9999-12-31',
        '/v1/public/jobs?targetDate=0000-01-01',
        '/v1/public/jobs?targetDate=0001-01-01',
      ]
      for (const url of urls) {
        const response = await t.app.inject({ method: 'GET', url, headers: tenant.headers })
        expect(response.statusCode, url).toBeLessThan(500)
        if (response.statusCode >= 400) expect(response.json()).toHaveProperty('code')
      }
      const odd = await t.app.inject({
        method: 'GET',
        url: '/v1/public/jobs',
        headers: { ...tenant.headers, 'content-type': 'application/json', 'x-forwarded-for': 'not-an-ip' },
      })
      expect(odd.statusCode).toBe(200)
    })

    it('rejects a NUL in a path id or filter without touching the database error path', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/v1/public/jobs?customerId=a%00b',
        headers: tenant.headers,
      })
      expect(response.statusCode).toBe(400)
      const byId = await t.app.inject({
        method: 'GET',
        url: '/v1/public/customers/a%00b',
        headers: tenant.headers,
      })
      expect(byId.statusCode).toBe(400)
    })

    it('names the request id on every answer, errors included, and keeps one the client sent', async () => {
      const answers = await Promise.all([
        t.app.inject({ method: 'GET', url: '/v1/public/jobs', headers: tenant.headers }),
        t.app.inject({ method: 'GET', url: '/v1/public/jobs?limit=0', headers: tenant.headers }),
        t.app.inject({ method: 'GET', url: '/v1/public/jobs/a%00b', headers: tenant.headers }),
        t.app.inject({ method: 'GET', url: '/v1/public/jobs' }),
        t.app.inject({ method: 'GET', url: '/v1/public/nowhere', headers: tenant.headers }),
        t.app.inject({
          method: 'POST',
          url: '/v1/public/jobs',
          headers: { ...tenant.headers, 'content-type': 'application/json' },
          payload: '{',
        }),
      ])
      expect(answers.map((a) => a.statusCode)).toEqual([200, 400, 400, 401, 404, 400])
      const ids = answers.map((a) => a.headers['x-request-id'])
      for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/)
      expect(new Set(ids).size).toBe(ids.length)
      const echoed = await t.app.inject({
        method: 'GET',
        url: '/v1/public/jobs',
        headers: { ...tenant.headers, 'x-request-id': 'trace-42' },
      })
      expect(echoed.headers['x-request-id']).toBe('trace-42')
    })
  })
}
