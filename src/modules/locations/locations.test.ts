import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeLocation, nextTimestamp, setCreatedAt } from '../../../test/factories.js'
import {
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.js'
import {
  BAD_PAGE_QUERIES,
  expectPagesNewestFirst,
  expectQueryRefused,
  expectTiesBrokenById,
  listAt,
} from '../../../test/list-pages.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: locations`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    const get = (tenant: TestTenant, path: string) =>
      t.app.inject({ method: 'GET', url: `/v1/public${path}`, headers: tenant.headers })
    const listIds = async (tenant: TestTenant, query = '') => {
      const res = await get(tenant, `/locations${query}`)
      expect(res.statusCode).toBe(200)
      return (res.json().data.locations as { id: string }[]).map((l) => l.id)
    }

    /** A primary depot and an inactive hub, and the exact shapes the API must return. */
    async function seedDepots(tenant: TestTenant) {
      const db = t.database.db
      const primary = await makeLocation(db, tenant.organisationId, {
        name: 'Manchester Depot',
        code: 'MAN',
        isPrimary: true,
      })
      const hub = await makeLocation(db, tenant.organisationId, {
        name: 'Dublin Hub',
        code: 'DUB',
        isActive: false,
        timezone: 'Europe/Dublin',
      })
      const common = {
        description: 'Main depot',
        address: '1 Depot Road, Manchester M1 1AA',
        latitude: '53.4808',
        longitude: '-2.2426',
      }
      const primaryShape = {
        ...common,
        id: primary.id,
        name: 'Manchester Depot',
        code: 'MAN',
        timezone: 'Europe/London',
        isPrimary: true,
        isActive: true,
        createdAt: primary.created_at,
        updatedAt: primary.updated_at,
      }
      const hubShape = {
        ...common,
        id: hub.id,
        name: 'Dublin Hub',
        code: 'DUB',
        timezone: 'Europe/Dublin',
        isPrimary: false,
        isActive: false,
        createdAt: hub.created_at,
        updatedAt: hub.updated_at,
      }
      return { primary, hub, primaryShape, hubShape }
    }

    it('lists every field of each location', async () => {
      const tenant = await createTenant(t)
      const { primaryShape, hubShape } = await seedDepots(tenant)
      const res = await get(tenant, '/locations')
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({
        data: {
          locations: [hubShape, primaryShape],
          pagination: { page: 1, limit: 50, total: 2, totalPages: 1 },
        },
        message: 'Success',
      })
    })

    it('returns a single location with all fields', async () => {
      const tenant = await createTenant(t)
      const { primary, primaryShape, hub, hubShape } = await seedDepots(tenant)
      const res = await get(tenant, `/locations/${primary.id}`)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ data: { location: primaryShape }, message: 'Success' })
      expect((await get(tenant, `/locations/${hub.id}`)).json().data.location).toEqual(hubShape)
    })

    it('answers 404 NOT_FOUND for an unknown id', async () => {
      const tenant = await createTenant(t)
      const res = await get(tenant, '/locations/no-such-location')
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ error: 'Location not found', code: 'NOT_FOUND' })
    })

    const locations = (tenant: TestTenant) => listAt(client(t, tenant.headers), '/locations', 'locations')

    it('pages 50 at a time by default, newest first, and returns every row exactly once', async () => {
      const tenant = await createTenant(t)
      const created: string[] = []
      for (let i = 0; i < 51; i++) {
        created.push((await makeLocation(t.database.db, tenant.organisationId, { name: `Depot ${i}` })).id)
      }
      const newestFirst = [...created].reverse()
      await expectPagesNewestFirst(locations(tenant), newestFirst, { defaultLimit: 50, pageSize: 9 })
      expect(await listIds(tenant, '?page=2')).toEqual(newestFirst.slice(50))
      const all = await get(tenant, '/locations?limit=100')
      expect(all.json().data.pagination).toEqual({ page: 1, limit: 100, total: 51, totalPages: 1 })
    })

    it('breaks ties in creation time by id, descending', async () => {
      const tenant = await createTenant(t)
      const ids: string[] = []
      for (let i = 0; i < 5; i++) ids.push((await makeLocation(t.database.db, tenant.organisationId)).id)
      await setCreatedAt(t.database.db, 'locations', ids, nextTimestamp())
      await expectTiesBrokenById(locations(tenant), ids)
    })

    it.each([...BAD_PAGE_QUERIES, 'search=north', 'isActive=maybe'])(
      'rejects ?%s with 400 VALIDATION_ERROR',
      async (query) => expectQueryRefused(locations(await createTenant(t)), query),
    )

    it('filters by isActive', async () => {
      const tenant = await createTenant(t)
      const { primary, hub } = await seedDepots(tenant)
      const spare = await makeLocation(t.database.db, tenant.organisationId, { isActive: false })
      expect(await listIds(tenant, '?isActive=true')).toEqual([primary.id])
      expect(await listIds(tenant, '?isActive=false')).toEqual([spare.id, hub.id])
      const inactive = await get(tenant, '/locations?isActive=false&limit=1')
      expect(inactive.json().data.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2 })
    })

    it("never shows another organisation's locations", async () => {
      const mine = await createTenant(t)
      const theirs = await createTenant(t)
      const myDepot = await makeLocation(t.database.db, mine.organisationId)
      const theirDepot = await makeLocation(t.database.db, theirs.organisationId)

      const res = await get(mine, `/locations/${theirDepot.id}`)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ error: 'Location not found', code: 'NOT_FOUND' })
      const list = await get(mine, '/locations')
      expect(list.json().data).toEqual({
        locations: [expect.objectContaining({ id: myDepot.id })],
        pagination: { page: 1, limit: 50, total: 1, totalPages: 1 },
      })
      expect(await listIds(mine, '?isActive=true')).toEqual([myDepot.id])
      expect(await listIds(theirs)).toEqual([theirDepot.id])
    })

    it('refuses a write-only key with 403 FORBIDDEN', async () => {
      const owner = await createTenant(t)
      const depot = await makeLocation(t.database.db, owner.organisationId)
      const writer = await createTenant(t, { scopes: ['write'] })
      for (const path of ['/locations', `/locations/${depot.id}`, '/locations/anything']) {
        const res = await get(writer, path)
        expect(res.statusCode).toBe(403)
        expect(res.json().code).toBe('FORBIDDEN')
      }
    })
  })
}
