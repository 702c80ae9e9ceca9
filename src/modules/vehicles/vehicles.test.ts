import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  makeCapacityDimension,
  makeLocation,
  makeTag,
  makeVehicle,
  nextTimestamp,
  setCreatedAt,
} from '../../../test/factories.js'
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
  describe(`${dialect}: vehicles`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    const get = (tenant: TestTenant, path: string) =>
      t.app.inject({ method: 'GET', url: `/v1/public${path}`, headers: tenant.headers })
    const listIds = async (tenant: TestTenant, query = '') => {
      const res = await get(tenant, `/vehicles${query}`)
      expect(res.statusCode).toBe(200)
      return (res.json().data.vehicles as { id: string }[]).map((v) => v.id)
    }

    const vehicles = (tenant: TestTenant) => listAt(client(t, tenant.headers), '/vehicles', 'vehicles')

    /** Two vehicles with different tags and capacities, and the exact shapes the API must return. */
    async function seedFleet(tenant: TestTenant) {
      const db = t.database.db
      const depot = await makeLocation(db, tenant.organisationId, { name: 'Salford Hub' })
      const ladder = await makeTag(db, tenant.organisationId, 'ladder')
      const electric = await makeTag(db, tenant.organisationId, 'electric')
      const fridge = await makeTag(db, tenant.organisationId, 'refrigerated')
      const weight = await makeCapacityDimension(db, tenant.organisationId, 'weight', 'Weight (kg)')
      const volume = await makeCapacityDimension(db, tenant.organisationId, 'volume', 'Volume (m³)')
      const van = await makeVehicle(db, tenant.organisationId, depot.id, {
        name: 'Van 1',
        tagIds: [fridge.id, electric.id],
        capacities: [
          { dimensionId: weight.id, maxValue: 1000 },
          { dimensionId: volume.id, maxValue: 12.5 },
        ],
      })
      const truck = await makeVehicle(db, tenant.organisationId, depot.id, {
        name: 'Truck 2',
        isActive: false,
        startLatitude: null,
        startLongitude: null,
        tagIds: [ladder.id],
      })
      const common = {
        locationId: depot.id,
        fixedCost: 50,
        costPerKm: 0.45,
        costPerHour: 22.5,
        speedFactor: 1,
        endPolicy: 'RETURN_TO_ORIGIN',
        location: { id: depot.id, name: 'Salford Hub' },
      }
      const vanShape = {
        ...common,
        id: van.id,
        name: 'Van 1',
        startLatitude: '53.4808',
        startLongitude: '-2.2426',
        isActive: true,
        createdAt: van.created_at,
        updatedAt: van.updated_at,
        tags: [
          { tag: { id: electric.id, name: 'electric' } },
          { tag: { id: fridge.id, name: 'refrigerated' } },
        ],
        capacities: [
          { capacityDimension: { id: volume.id, key: 'volume', label: 'Volume (m³)' }, maxValue: 12.5 },
          { capacityDimension: { id: weight.id, key: 'weight', label: 'Weight (kg)' }, maxValue: 1000 },
        ],
      }
      const truckShape = {
        ...common,
        id: truck.id,
        name: 'Truck 2',
        startLatitude: null,
        startLongitude: null,
        isActive: false,
        createdAt: truck.created_at,
        updatedAt: truck.updated_at,
        tags: [{ tag: { id: ladder.id, name: 'ladder' } }],
        capacities: [],
      }
      return { depot, van, truck, vanShape, truckShape }
    }

    it('lists every field of each vehicle, each with its own tags and capacities', async () => {
      const tenant = await createTenant(t)
      const { vanShape, truckShape } = await seedFleet(tenant)
      const res = await get(tenant, '/vehicles')
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({
        data: {
          vehicles: [truckShape, vanShape],
          pagination: { page: 1, limit: 50, total: 2, totalPages: 1 },
        },
        message: 'Success',
      })
    })

    it('returns a single vehicle with tags and capacities', async () => {
      const tenant = await createTenant(t)
      const { van, vanShape, truck, truckShape } = await seedFleet(tenant)
      const res = await get(tenant, `/vehicles/${van.id}`)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ data: { vehicle: vanShape }, message: 'Success' })
      expect((await get(tenant, `/vehicles/${truck.id}`)).json().data.vehicle).toEqual(truckShape)
    })

    it('answers 404 NOT_FOUND for an unknown id', async () => {
      const tenant = await createTenant(t)
      const res = await get(tenant, '/vehicles/no-such-vehicle')
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ error: 'Vehicle not found', code: 'NOT_FOUND' })
    })

    it('pages 50 at a time by default, newest first, and returns every row exactly once', async () => {
      const tenant = await createTenant(t)
      const depot = await makeLocation(t.database.db, tenant.organisationId)
      const created: string[] = []
      for (let i = 0; i < 53; i++) {
        created.push(
          (await makeVehicle(t.database.db, tenant.organisationId, depot.id, { name: `V${i}` })).id,
        )
      }
      const newestFirst = [...created].reverse()
      await expectPagesNewestFirst(vehicles(tenant), newestFirst, { defaultLimit: 50, pageSize: 10 })
      expect(await listIds(tenant, '?page=2')).toEqual(newestFirst.slice(50))
      const all = await get(tenant, '/vehicles?limit=100')
      expect(all.json().data.pagination).toEqual({ page: 1, limit: 100, total: 53, totalPages: 1 })
    })

    it('breaks ties in creation time by id, descending, so pages stay stable', async () => {
      const tenant = await createTenant(t)
      const depot = await makeLocation(t.database.db, tenant.organisationId)
      const ids: string[] = []
      for (let i = 0; i < 5; i++)
        ids.push((await makeVehicle(t.database.db, tenant.organisationId, depot.id)).id)
      await setCreatedAt(t.database.db, 'vehicles', ids, nextTimestamp())
      await expectTiesBrokenById(vehicles(tenant), ids)
    })

    it.each([...BAD_PAGE_QUERIES, 'colour=red', 'isActive=maybe', `locationId=${'x'.repeat(201)}`])(
      'rejects ?%s with 400 VALIDATION_ERROR',
      async (query) => expectQueryRefused(vehicles(await createTenant(t)), query),
    )

    it('names an unknown query parameter in the error details', async () => {
      const tenant = await createTenant(t)
      const res = await get(tenant, '/vehicles?colour=red')
      expect(res.json().details).toEqual([{ path: '/query/colour', message: 'unknown field "colour"' }])
    })

    it('filters by locationId and isActive', async () => {
      const tenant = await createTenant(t)
      const db = t.database.db
      const north = await makeLocation(db, tenant.organisationId, { name: 'North' })
      const south = await makeLocation(db, tenant.organisationId, { name: 'South' })
      const northActive = await makeVehicle(db, tenant.organisationId, north.id)
      const northIdle = await makeVehicle(db, tenant.organisationId, north.id, { isActive: false })
      const southActive = await makeVehicle(db, tenant.organisationId, south.id)

      expect(await listIds(tenant, `?locationId=${north.id}`)).toEqual([northIdle.id, northActive.id])
      expect(await listIds(tenant, `?locationId=${south.id}`)).toEqual([southActive.id])
      expect(await listIds(tenant, '?isActive=true')).toEqual([southActive.id, northActive.id])
      expect(await listIds(tenant, '?isActive=false')).toEqual([northIdle.id])
      expect(await listIds(tenant, `?locationId=${north.id}&isActive=true`)).toEqual([northActive.id])
      const filtered = await get(tenant, `/vehicles?locationId=${north.id}&isActive=false`)
      expect(filtered.json().data.pagination).toEqual({ page: 1, limit: 50, total: 1, totalPages: 1 })
      const none = await get(tenant, '/vehicles?locationId=unknown-depot')
      expect(none.json().data).toEqual({
        vehicles: [],
        pagination: { page: 1, limit: 50, total: 0, totalPages: 0 },
      })
    })

    it("never shows another organisation's vehicles", async () => {
      const mine = await createTenant(t)
      const theirs = await createTenant(t)
      const myDepot = await makeLocation(t.database.db, mine.organisationId)
      const theirDepot = await makeLocation(t.database.db, theirs.organisationId)
      const myVan = await makeVehicle(t.database.db, mine.organisationId, myDepot.id)
      const theirVan = await makeVehicle(t.database.db, theirs.organisationId, theirDepot.id)

      const res = await get(mine, `/vehicles/${theirVan.id}`)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ error: 'Vehicle not found', code: 'NOT_FOUND' })
      const list = await get(mine, '/vehicles')
      expect(list.json().data.vehicles.map((v: { id: string }) => v.id)).toEqual([myVan.id])
      expect(list.json().data.pagination.total).toBe(1)
      const foreignDepot = await get(mine, `/vehicles?locationId=${theirDepot.id}`)
      expect(foreignDepot.json().data.vehicles).toEqual([])
      expect(foreignDepot.json().data.pagination.total).toBe(0)
      expect(await listIds(theirs)).toEqual([theirVan.id])
    })

    it('refuses a write-only key with 403 FORBIDDEN', async () => {
      const owner = await createTenant(t)
      const depot = await makeLocation(t.database.db, owner.organisationId)
      const van = await makeVehicle(t.database.db, owner.organisationId, depot.id)
      const writer = await createTenant(t, { scopes: ['write'] })
      for (const path of ['/vehicles', `/vehicles/${van.id}`, '/vehicles/anything']) {
        const res = await get(writer, path)
        expect(res.statusCode).toBe(403)
        expect(res.json().code).toBe('FORBIDDEN')
      }
    })

    it('loads tags and capacities with a fixed number of queries, whatever the page size', async () => {
      const tenant = await createTenant(t)
      const db = t.database.db
      const depot = await makeLocation(db, tenant.organisationId)
      const tag = await makeTag(db, tenant.organisationId, 'ev')
      const dimension = await makeCapacityDimension(db, tenant.organisationId, 'weight')
      for (let i = 0; i < 20; i++) {
        await makeVehicle(db, tenant.organisationId, depot.id, {
          tagIds: [tag.id],
          capacities: [{ dimensionId: dimension.id, maxValue: i }],
        })
      }
      const queriesFor = async (query: string) => {
        const spy = vi.spyOn(db, 'selectFrom')
        try {
          const res = await get(tenant, `/vehicles${query}`)
          expect(res.statusCode).toBe(200)
          return spy.mock.calls.length
        } finally {
          spy.mockRestore()
        }
      }
      const one = await queriesFor('?limit=1')
      expect(one).toBeGreaterThan(0)
      expect(await queriesFor('?limit=20')).toBe(one)
      const page = (await get(tenant, '/vehicles?limit=20')).json().data.vehicles
      expect(page.every((v: { tags: unknown[] }) => v.tags.length === 1)).toBe(true)
      expect(page.map((v: { capacities: { maxValue: number }[] }) => v.capacities[0]?.maxValue)).toEqual(
        Array.from({ length: 20 }, (_, i) => 19 - i),
      )
    })
  })
}
