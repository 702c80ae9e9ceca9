import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: admin organisation`, () => {
    let t: TestContext

    // A long key cache: plan changes made through the API must apply on the next request anyway.
    beforeAll(async () => {
      t = await createTestApp(dialect, { authCacheTtlMs: 60_000 })
    })
    afterAll(() => t.close())

    it("returns the caller's organisation", async () => {
      const tenant = await createTenant(t, { scopes: ['admin'], plan: 'ENTERPRISE', name: 'Acme Heating' })
      const response = await adminClient(t, tenant.headers).get('/organisation')
      expect(response.status).toBe(200)
      expect(response.body).toEqual({
        data: {
          organisation: {
            id: tenant.organisationId,
            name: 'Acme Heating',
            plan: 'ENTERPRISE',
            routing: { detourFactor: 1.3, speedKmh: 40, latenessPenaltyPerMinute: 1 },
            notifications: { customerEmails: { enRoute: false, completed: false, smtpConfigured: false } },
            map: { tileUrl: null, attribution: null },
            createdAt: expect.any(String),
            updatedAt: expect.any(String),
          },
        },
        message: 'Success',
      })
    })

    it('renames, and changes nothing else', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const admin = adminClient(t, tenant.headers)
      const before = (await admin.get('/organisation')).body.data.organisation
      await new Promise((resolve) => setTimeout(resolve, 5))
      const response = await admin.patch('/organisation', { name: 'Renamed Ltd' })
      expect(response.status).toBe(200)
      expect(response.body.data.organisation).toEqual({
        ...before,
        name: 'Renamed Ltd',
        updatedAt: expect.any(String),
      })
      expect(response.body.data.organisation.updatedAt > before.updatedAt).toBe(true)
    })

    it('a downgrade to STARTER ends API access on the next request, for every key', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const other = await createTenant(t, { scopes: ['admin'] })
      expect((await client(t, tenant.headers).get('/jobs')).status).toBe(200)
      const response = await adminClient(t, tenant.headers).patch('/organisation', { plan: 'STARTER' })
      expect(response.status).toBe(200)
      expect(response.body.data.organisation.plan).toBe('STARTER')
      const refused = await client(t, tenant.headers).get('/jobs')
      expect(refused.status).toBe(403)
      expect(refused.body.code).toBe('PLAN_UPGRADE_REQUIRED')
      expect((await adminClient(t, tenant.headers).get('/organisation')).status).toBe(403)
      // Other organisations are untouched.
      expect((await adminClient(t, other.headers).get('/organisation')).body.data.organisation.plan).toBe(
        'PRO',
      )
    })

    it.each([
      ['empty name', { name: '' }],
      ['blank name', { name: '  ' }],
      ['unknown plan', { plan: 'GOLD' }],
      ['unknown field', { id: 'other-org' }],
      ['wrong type', { name: 7 }],
    ])('rejects %s with 400', async (_case, payload) => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const admin = adminClient(t, tenant.headers)
      const before = (await admin.get('/organisation')).body.data.organisation
      const response = await admin.patch('/organisation', payload)
      expect(response.status).toBe(400)
      expect(response.body.code).toBe('VALIDATION_ERROR')
      expect((await admin.get('/organisation')).body.data.organisation).toEqual(before)
    })

    it('refuses keys without the admin scope, and requests without a key', async () => {
      for (const scopes of [['read'], ['write'], ['read', 'write']] as const) {
        const tenant = await createTenant(t, { scopes: [...scopes] })
        for (const request of [
          () => adminClient(t, tenant.headers).get('/organisation'),
          () => adminClient(t, tenant.headers).patch('/organisation', { name: 'Nope' }),
        ]) {
          const response = await request()
          expect(response.status).toBe(403)
          expect(response.body.code).toBe('FORBIDDEN')
          expect(response.body.error).toMatch(/admin/)
        }
      }
      const anonymous = await adminClient(t, {}).get('/organisation')
      expect(anonymous.status).toBe(401)
    })

    it('rate-limits admin requests per key, with headers', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'], rateLimitPerMinute: 2 })
      const admin = adminClient(t, tenant.headers)
      expect((await admin.get('/organisation')).headers['x-ratelimit-remaining']).toBe('1')
      expect((await admin.get('/organisation')).status).toBe(200)
      const limited = await admin.get('/organisation')
      expect(limited.status).toBe(429)
      expect(limited.body.code).toBe('RATE_LIMITED')
    })
  })
}
