import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  adminClient,
  createKey,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'

// Public literals need no DNS, so these tests run offline.
const PUBLIC_URL = 'https://[2606:4700::1111]/hook'

for (const dialect of DIALECTS) {
  describe(`${dialect}: automation input, URL policy and access`, () => {
    // `dev` allows private targets (the test default); `prod` is the production policy.
    let dev: TestContext
    let prod: TestContext
    beforeAll(async () => {
      dev = await createTestApp(dialect)
      prod = await createTestApp(dialect, { webhookAllowPrivate: false })
    })
    afterAll(async () => {
      await dev.close()
      await prod.close()
    })

    async function adminOf(t: TestContext) {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const admin = adminClient(t, tenant.headers)
      const total = async () => (await admin.get('/automations')).body.data.pagination.total as number
      const create = async () => {
        const response = await admin.post('/automations', {
          event: 'JOB_CREATED',
          url: 'http://127.0.0.1:1/x',
        })
        expect(response.status).toBe(201)
        return response.body.data.automation
      }
      return { tenant, admin, total, create }
    }

    const valid = { event: 'JOB_COMPLETED', url: 'https://erp.example.com/hooks' }
    it.each([
      ['a missing event', { url: valid.url }, '/body/event'],
      ['an unknown event', { ...valid, event: 'JOB_EXPLODED' }, '/body/event'],
      ['a lower-case event', { ...valid, event: 'job_completed' }, '/body/event'],
      ['a missing url', { event: valid.event }, '/body/url'],
      ['an empty url', { ...valid, url: '' }, '/body/url'],
      ['a relative url', { ...valid, url: '/hooks' }, '/body/url'],
      ['a url without a scheme', { ...valid, url: 'erp.example.com/hooks' }, '/body/url'],
      ['a non-http scheme', { ...valid, url: 'ftp://erp.example.com/hooks' }, '/body/url'],
      [
        'a url over 2048 characters',
        { ...valid, url: `https://example.com/${'a'.repeat(2030)}` },
        '/body/url',
      ],
      ['credentials in the url', { ...valid, url: 'https://user:pass@example.com/hooks' }, '/body/url'],
      ['a user name in the url', { ...valid, url: 'https://user@example.com/hooks' }, '/body/url'],
      ['a #fragment', { ...valid, url: 'https://example.com/hooks#part' }, '/body/url'],
      ['an unknown field', { ...valid, secret: 'whsec_mine' }, '/body/secret'],
      ['an empty name', { ...valid, name: '' }, '/body/name'],
      ['a blank name', { ...valid, name: '   ' }, '/body/name'],
      ['a name over 200 characters', { ...valid, name: 'x'.repeat(201) }, '/body/name'],
      ['a numeric name', { ...valid, name: 42 }, '/body/name'],
      ['a numeric url', { ...valid, url: 42 }, '/body/url'],
      ['a string isActive', { ...valid, isActive: 'true' }, '/body/isActive'],
      ['a null isActive', { ...valid, isActive: null }, '/body/isActive'],
      ['an unknown action', { ...valid, action: 'SEND_EMAIL' }, '/body/action'],
    ])('refuses %s with 400 and creates nothing', async (_case, body, path) => {
      const { admin, total } = await adminOf(dev)
      const response = await admin.post('/automations', body)
      expect(response.status, JSON.stringify(response.body)).toBe(400)
      expect(response.body.code).toBe('VALIDATION_ERROR')
      expect(response.body.error).toEqual(expect.any(String))
      expect(response.body.details.map((d: { path: string }) => d.path)).toContain(path)
      expect(await total()).toBe(0)
    })

    it('refuses a body that is not an object, and no body at all', async () => {
      const { admin, total } = await adminOf(dev)
      // A JSON string or array is not an object; a text/plain string is 415, not this test's business.
      for (const body of [[], null, ['https://example.com']]) {
        const response = await admin.post('/automations', body)
        expect(response.status, JSON.stringify(body)).toBe(400)
        expect(response.body.code).toBe('VALIDATION_ERROR')
      }
      expect((await admin.post('/automations')).status).toBe(400)
      expect(await total()).toBe(0)
    })

    it('accepts http and loopback targets when private targets are allowed', async () => {
      const { admin } = await adminOf(dev)
      const response = await admin.post('/automations', { event: 'JOB_CREATED', url: 'http://127.0.0.1:1/x' })
      expect(response.status).toBe(201)
      expect(response.body.data.automation.url).toBe('http://127.0.0.1:1/x')
    })

    it('refuses http when private targets are not allowed', async () => {
      const { admin, total } = await adminOf(prod)
      const response = await admin.post('/automations', { ...valid, url: 'http://93.184.216.34/hook' })
      expect(response.status).toBe(400)
      expect(response.body.details).toEqual([
        { path: '/body/url', message: expect.stringContaining('https') },
      ])
      expect(await total()).toBe(0)
    })

    it.each([
      ['https://127.0.0.1/', '127.0.0.1'],
      ['https://127.1/', '127.0.0.1'],
      ['https://2130706433/', '127.0.0.1'],
      ['https://0.0.0.0/', '0.0.0.0'],
      ['https://10.1.2.3/', '10.1.2.3'],
      ['https://172.16.0.1/', '172.16.0.1'],
      ['https://192.168.1.1:8443/hook', '192.168.1.1'],
      ['https://169.254.169.254/latest/meta-data/', '169.254.169.254'],
      ['https://100.64.0.1/', '100.64.0.1'],
      ['https://[::1]/', '::1'],
      ['https://[::]/', '::'],
      ['https://[fe80::1]/', 'fe80::1'],
      ['https://[fd00::1]/', 'fd00::1'],
      // The URL parser writes an IPv4-mapped address in hex: ::ffff:7f00:1.
      ['https://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
      ['https://localhost/', /127\.0\.0\.1|::1/],
    ])('refuses %s, naming the address', async (url, address) => {
      const { admin, total } = await adminOf(prod)
      const response = await admin.post('/automations', { ...valid, url })
      expect(response.status, JSON.stringify(response.body)).toBe(400)
      expect(response.body.code).toBe('VALIDATION_ERROR')
      const [detail] = response.body.details
      expect(detail.path).toBe('/body/url')
      if (typeof address === 'string') expect(detail.message).toContain(`resolves to ${address},`)
      else expect(detail.message).toMatch(address)
      expect(response.body.error).toContain(detail.message)
      expect(await total()).toBe(0)
    })

    it('refuses a host that does not resolve', async () => {
      const { admin, total } = await adminOf(prod)
      const response = await admin.post('/automations', { ...valid, url: 'https://nonexistent.invalid/hook' })
      expect(response.status).toBe(400)
      expect(response.body.details).toEqual([
        { path: '/body/url', message: 'host nonexistent.invalid could not be resolved' },
      ])
      expect(await total()).toBe(0)
    })

    it.each(['https://93.184.216.34/hook', 'https://8.8.8.8:8443/events', 'https://[2606:4700::1111]/hook'])(
      'accepts the public address in %s',
      async (url) => {
        const { admin, total } = await adminOf(prod)
        const response = await admin.post('/automations', { ...valid, url })
        expect(response.status, JSON.stringify(response.body)).toBe(201)
        expect(response.body.data.automation.url).toBe(url)
        expect(await total()).toBe(1)
      },
    )

    it('refuses to PATCH a public URL to a private one, and changes nothing', async () => {
      const { admin, total } = await adminOf(prod)
      const created = await admin.post('/automations', { ...valid, url: PUBLIC_URL })
      expect(created.status).toBe(201)
      const automation = created.body.data.automation
      expect(automation.url).toBe(PUBLIC_URL)
      for (const url of ['https://10.0.0.1/hook', 'http://93.184.216.34/hook', 'https://localhost/', 'x']) {
        const refused = await admin.patch(`/automations/${automation.id}`, { url, name: 'Changed' })
        expect(refused.status, url).toBe(400)
        expect(refused.body.code).toBe('VALIDATION_ERROR')
        expect(refused.body.details[0].path).toBe('/body/url')
      }
      const after = await admin.get(`/automations/${automation.id}`)
      expect(after.body.data.automation).toEqual(automation)
      expect(await total()).toBe(1)
      // Changing other fields needs no URL check and still works.
      const renamed = await admin.patch(`/automations/${automation.id}`, { name: 'Renamed' })
      expect(renamed.status).toBe(200)
      expect(renamed.body.data.automation.url).toBe(PUBLIC_URL)
    })
    it("answers 404 for unknown ids and for another organisation's automation, and changes nothing", async () => {
      const mine = await adminOf(dev)
      const theirs = await adminOf(dev)
      const automation = await theirs.create()
      for (const id of [randomUUID(), 'not-an-id', automation.id]) {
        for (const [method, url, body] of [
          ['get', `/automations/${id}`, undefined],
          ['patch', `/automations/${id}`, { name: 'Hijacked', isActive: false }],
          ['delete', `/automations/${id}`, undefined],
          ['post', `/automations/${id}/activate`, undefined],
          ['post', `/automations/${id}/deactivate`, undefined],
          ['post', `/automations/${id}/rotate-secret`, {}],
          ['get', `/automations/${id}/executions`, undefined],
          ['get', `/automations/${id}/executions/${randomUUID()}`, undefined],
          ['post', `/automations/${id}/executions/${randomUUID()}/redeliver`, undefined],
        ] as const) {
          const response = await (
            mine.admin[method] as (u: string, b?: unknown) => ReturnType<typeof mine.admin.get>
          )(url, body)
          expect(response.status, `${method} ${url}`).toBe(404)
          expect(response.body.code).toBe('NOT_FOUND')
        }
      }
      expect((await mine.admin.get('/automations')).body.data.pagination.total).toBe(0)
      const still = await theirs.admin.get(`/automations/${automation.id}`)
      expect(still.status).toBe(200)
      expect(still.body.data.automation).toEqual(automation)
    })

    it('refuses keys without the admin scope (403) and requests without a key (401)', async () => {
      const { tenant, create } = await adminOf(dev)
      const automation = await create()
      const readWrite = await createKey(dev, tenant.organisationId, { scopes: ['read', 'write'] })
      const id = automation.id
      const routes = [
        ['GET', '/automations'],
        ['POST', '/automations'],
        ['GET', `/automations/${id}`],
        ['PATCH', `/automations/${id}`],
        ['DELETE', `/automations/${id}`],
        ['POST', `/automations/${id}/activate`],
        ['POST', `/automations/${id}/deactivate`],
        ['POST', `/automations/${id}/rotate-secret`],
        ['GET', '/executions'],
        ['GET', `/automations/${id}/executions`],
        ['GET', `/automations/${id}/executions/${randomUUID()}`],
        ['POST', `/automations/${id}/executions/${randomUUID()}/redeliver`],
      ] as const
      for (const [method, url] of routes) {
        const payload = method === 'POST' || method === 'PATCH' ? { payload: {} } : {}
        const forbidden = await dev.app.inject({
          method,
          url: `/v1/admin${url}`,
          headers: readWrite.headers,
          ...payload,
        })
        expect(forbidden.statusCode, `${method} ${url}`).toBe(403)
        expect(forbidden.json().code).toBe('FORBIDDEN')
        const anonymous = await dev.app.inject({ method, url: `/v1/admin${url}`, ...payload })
        expect(anonymous.statusCode, `${method} ${url}`).toBe(401)
      }
      const still = await adminClient(dev, tenant.headers).get(`/automations/${id}`)
      expect(still.body.data.automation).toEqual(automation)
    })
  })
}
