// My day carries a job's own address (migration 0028) beside its customer's, so the phone can show
// where the visit is when it is not at the customer: the job's `address`, null when it has none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeLocation } from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { makeDashboardUser, sessionClient, signIn } from '../../../test/sessions.js'

const DATE = '2026-11-26'

for (const dialect of DIALECTS) {
  describe(`${dialect}: My day, the job's own address`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect, {}, { clock: () => Date.parse(`${DATE}T07:00:00Z`) })
    })
    afterAll(() => t.close())

    it("returns a job's own address on the job, null for a job at its customer's", async () => {
      const tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      const org = tenant.organisationId
      const api = client(t, tenant.headers)
      const admin = adminClient(t, tenant.headers)
      const depot = await makeLocation(t.database.db, org, { name: 'North Depot', timezone: 'Europe/London' })
      const worker = await makeDashboardUser(t, org, { role: 'WORKER' })
      const customer = (
        await api.post('/customers', {
          name: 'Mrs Patel',
          address: '12 High Street, London N1',
          latitude: 51.538,
          longitude: -0.102,
        })
      ).body.data.customer
      const job = async (title: string, start: string, address?: string) => {
        const created = await api.post('/jobs', {
          title,
          customerId: customer.id,
          locationId: depot.id,
          ...(address === undefined ? {} : { address }),
        })
        expect(created.status, JSON.stringify(created.body)).toBe(201)
        const id = created.body.data.job.id as string
        const assigned = await admin.post(`/jobs/${id}/assign`, {
          userId: worker.id,
          scheduledStart: start,
          scheduledEnd: new Date(Date.parse(start) + 3_600_000).toISOString(),
        })
        expect(assigned.status, assigned.body.error).toBe(200)
        return id
      }
      const elsewhere = await job('Garage door', `${DATE}T09:00:00Z`, 'Unit 4, Canal Yard, London N1')
      const atHome = await job('Boiler service', `${DATE}T11:00:00Z`)
      const me = sessionClient(t, await signIn(t, worker))

      const day = await me.get(`/my/jobs?date=${DATE}`)
      expect(day.status).toBe(200)
      const shown = day.body.data.jobs.map((j: { id: string; address: string | null; customer: unknown }) => [
        j.id,
        j.address,
        (j.customer as { address: string }).address,
      ])
      expect(shown).toEqual([
        [elsewhere, 'Unit 4, Canal Yard, London N1', '12 High Street, London N1'],
        [atHome, null, '12 High Street, London N1'],
      ])
      expect((await me.get(`/my/jobs/${elsewhere}`)).body.data.job.address).toBe(
        'Unit 4, Canal Yard, London N1',
      )
      expect((await me.get(`/my/jobs/${atHome}`)).body.data.job.address).toBeNull()
    })
  })
}
