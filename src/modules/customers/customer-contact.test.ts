// Customers' email and phone (issue 29): optional on create, update and every response of both APIs;
// an email must be an address and a phone E.164 (+ and 8–15 digits), else 400 naming the field and
// nothing changes; null clears either; another organisation's customer stays 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.js'

const PLACE = { latitude: 53.48, longitude: -2.24 }

for (const dialect of DIALECTS) {
  describe(`${dialect}: customer email and phone`, () => {
    let t: TestContext
    let tenant: TestTenant
    beforeAll(async () => {
      t = await createTestApp(dialect)
      tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
    })
    afterAll(() => t.close())

    for (const api of ['public', 'admin'] as const) {
      const of = () => (api === 'public' ? client(t, tenant.headers) : adminClient(t, tenant.headers))

      it(`${api}: creates, reads, lists, updates and clears them`, async () => {
        const created = await of().post('/customers', {
          name: 'Bakery',
          ...PLACE,
          email: 'orders@bakery.example',
          phone: '+441612345678',
        })
        expect(created.status, created.body.error).toBe(201)
        const customer = created.body.data.customer
        expect(customer).toMatchObject({ email: 'orders@bakery.example', phone: '+441612345678' })
        expect((await of().get(`/customers/${customer.id}`)).body.data.customer).toEqual(customer)
        const listed = (await of().get('/customers?limit=100')).body.data.customers
        expect(listed.find((c: { id: string }) => c.id === customer.id)).toEqual(customer)

        const changed = await of().patch(`/customers/${customer.id}`, { phone: '+33123456789' })
        expect(changed.status).toBe(200)
        expect(changed.body.data.customer).toMatchObject({
          email: 'orders@bakery.example',
          phone: '+33123456789',
        })
        const cleared = await of().patch(`/customers/${customer.id}`, { email: null, phone: null })
        expect(cleared.body.data.customer).toMatchObject({ email: null, phone: null })
        expect((await of().get(`/customers/${customer.id}`)).body.data.customer).toMatchObject({
          email: null,
          phone: null,
        })
      })

      it(`${api}: refuses a malformed email or phone with 400 naming the field, changing nothing`, async () => {
        const bad = [
          [{ email: 'not-an-address' }, '/body/email', 'must be an email address'],
          [{ email: 'a b@example.com' }, '/body/email', 'must be an email address'],
          [{ phone: '01612345678' }, '/body/phone', 'E.164'],
          [{ phone: '+44 161 234 5678' }, '/body/phone', 'E.164'],
          [{ phone: '+1234567' }, '/body/phone', 'E.164'],
          [{ phone: '+1234567890123456' }, '/body/phone', 'E.164'],
          [{ phone: 441612345678 }, '/body/phone', ''],
        ] as const
        const customer = (await of().post('/customers', { name: 'Kept', ...PLACE, phone: '+441610000000' }))
          .body.data.customer
        for (const [fields, path, message] of bad) {
          const created = await of().post('/customers', { name: 'Refused', ...PLACE, ...fields })
          expect([created.status, created.body.code], JSON.stringify(fields)).toEqual([
            400,
            'VALIDATION_ERROR',
          ])
          const detail = created.body.details.find((d: { path: string }) => d.path === path)
          expect(detail?.message, JSON.stringify(created.body.details)).toContain(message)
          const updated = await of().patch(`/customers/${customer.id}`, fields)
          expect(updated.status, JSON.stringify(fields)).toBe(400)
          expect(updated.body.details.map((d: { path: string }) => d.path)).toContain(path)
        }
        expect((await of().get(`/customers/${customer.id}`)).body.data.customer).toEqual(customer)
        const names = (await of().get('/customers?search=Refused')).body.data.customers
        expect(names).toEqual([])
      })
    }

    it("another organisation's customer stays 404 for a write of these fields", async () => {
      const mine = (await client(t, tenant.headers).post('/customers', { name: 'Mine', ...PLACE })).body.data
        .customer
      const other = client(t, (await createTenant(t)).headers)
      const response = await other.patch(`/customers/${mine.id}`, { email: 'x@example.com' })
      expect(response.status).toBe(404)
      expect(
        (await client(t, tenant.headers).get(`/customers/${mine.id}`)).body.data.customer.email,
      ).toBeNull()
    })
  })
}
