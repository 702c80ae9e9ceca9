// The admin API's job list searches titles (the dashboard's Jobs page): case-insensitive in any
// script, LIKE's wildcards taken literally, combined with the other filters and the day, paged by
// page and by cursor with exact totals, tenant-scoped; the public API's list does not take it.
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
  describe(`${dialect}: GET /v1/admin/jobs?search=`, () => {
    let t: TestContext
    let admin: ReturnType<typeof adminClient>
    let publicApi: ReturnType<typeof client>
    let otherAdmin: ReturnType<typeof adminClient>

    beforeAll(async () => {
      t = await createTestApp(dialect)
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      const other = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      admin = adminClient(t, tenant.headers)
      publicApi = client(t, tenant.headers)
      otherAdmin = adminClient(t, other.headers)
      const jobs: [string, Record<string, unknown>][] = [
        [
          'Boiler service',
          { priority: 'HIGH', earliestStart: '2026-11-23T09:00:00Z', latestEnd: '2026-11-23T11:00:00Z' },
        ],
        ['BOILER repair', { earliestStart: '2026-11-24T09:00:00Z', latestEnd: '2026-11-24T11:00:00Z' }],
        ['Leaking tap', {}],
        ['Élan boiler check', { priority: 'HIGH' }],
        ['100% pressure_test', {}],
        ['1000 pressure test', {}],
      ]
      for (const [title, body] of jobs) {
        const response = await admin.post('/jobs', { title, ...body })
        expect(response.status).toBe(201)
      }
      expect((await otherAdmin.post('/jobs', { title: 'Boiler of another organisation' })).status).toBe(201)
    })
    afterAll(() => t.close())

    const titles = async (query: string) => {
      const response = await admin.get(`/jobs?${query}`)
      expect(response.status).toBe(200)
      return {
        titles: (response.body.data.jobs as { title: string }[]).map((j) => j.title),
        pagination: response.body.data.pagination,
      }
    }

    it('matches the title ignoring case, in any script, newest first, within the organisation', async () => {
      const found = await titles('search=boiler')
      expect(found.titles).toEqual(['Élan boiler check', 'BOILER repair', 'Boiler service'])
      expect(found.pagination).toMatchObject({ page: 1, total: 3, totalPages: 1, nextCursor: null })
      expect((await titles(`search=${encodeURIComponent('élan')}`)).titles).toEqual(['Élan boiler check'])
      expect((await titles('search=nothing-like-this')).pagination.total).toBe(0)
      // Blank is no search at all.
      expect((await titles('search=%20%20')).pagination.total).toBe(6)
    })

    it('takes LIKE wildcards literally', async () => {
      expect((await titles('search=100%25')).titles).toEqual(['100% pressure_test'])
      expect((await titles('search=pressure_')).titles).toEqual(['100% pressure_test'])
    })

    it('combines with the other filters and the day', async () => {
      expect((await titles('search=boiler&priority=HIGH')).titles).toEqual([
        'Élan boiler check',
        'Boiler service',
      ])
      expect((await titles('search=boiler&targetDate=2026-11-24')).titles).toEqual(['BOILER repair'])
      expect((await titles('search=tap&status=COMPLETED')).pagination.total).toBe(0)
    })

    it('pages by page and by cursor with exact totals', async () => {
      const first = await titles('search=boiler&limit=2')
      expect(first.titles).toEqual(['Élan boiler check', 'BOILER repair'])
      expect(first.pagination).toMatchObject({ page: 1, total: 3, totalPages: 2 })
      const second = await titles('search=boiler&limit=2&page=2')
      expect(second.titles).toEqual(['Boiler service'])
      expect(second.pagination).toMatchObject({ page: 2, total: 3, nextCursor: null })
      const past = await titles('search=boiler&limit=2&page=5')
      expect(past.titles).toEqual([])
      expect(past.pagination.total).toBe(3)
      const cursor = await titles(
        `search=boiler&limit=2&cursor=${encodeURIComponent(first.pagination.nextCursor)}`,
      )
      expect(cursor.titles).toEqual(['Boiler service'])
      expect(cursor.pagination).toMatchObject({ page: null, total: 3, nextCursor: null })
    })

    it('refuses a search longer than 200 characters, and the public API does not take it', async () => {
      const long = await admin.get(`/jobs?search=${'x'.repeat(201)}`)
      expect(long.status).toBe(400)
      expect(long.body.code).toBe('VALIDATION_ERROR')
      const pub = await publicApi.get('/jobs?search=boiler')
      expect(pub.status).toBe(400)
      expect(pub.body.code).toBe('VALIDATION_ERROR')
    })
  })
}
