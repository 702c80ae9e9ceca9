import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  makeCapacityDimension,
  makeLocation,
  makeShift,
  makeTag,
  makeUser,
  makeVehicle,
} from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.js'

const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

for (const dialect of DIALECTS) {
  describe(`${dialect}: admin vehicles`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    /** An admin tenant with two depots, three tags and two capacity dimensions. */
    async function setup() {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const db = t.database.db
      const org = tenant.organisationId
      const depot = await makeLocation(db, org, { name: 'Salford Hub' })
      const north = await makeLocation(db, org, { name: 'North Depot' })
      const ladder = await makeTag(db, org, 'ladder')
      const electric = await makeTag(db, org, 'electric')
      const fridge = await makeTag(db, org, 'refrigerated')
      const weight = await makeCapacityDimension(db, org, 'weight', 'Weight (kg)')
      const volume = await makeCapacityDimension(db, org, 'volume', 'Volume (m³)')
      return {
        tenant,
        admin: adminClient(t, tenant.headers),
        pub: client(t, tenant.headers),
        depot,
        north,
        ladder,
        electric,
        fridge,
        weight,
        volume,
      }
    }
    type Fleet = Awaited<ReturnType<typeof setup>>

    const fullBody = (f: Fleet) => ({
      name: 'Van 1',
      locationId: f.depot.id,
      fixedCost: 50,
      costPerKm: 0.45,
      costPerHour: 22.5,
      speedFactor: 0.8,
      startLatitude: 53.4808,
      startLongitude: -2.2426,
      endPolicy: 'END_AT_LAST_JOB',
      isActive: true,
      tagIds: [f.fridge.id, f.electric.id],
      capacities: [
        { capacityDimensionId: f.weight.id, maxValue: 1000 },
        { capacityDimensionId: f.volume.id, maxValue: 12.5 },
      ],
    })
    const publicVehicle = async (tenant: TestTenant, id: string) =>
      client(t, tenant.headers).get(`/vehicles/${id}`)

    it('creates a vehicle with every field, tags and capacities, and the public API shows it', async () => {
      const f = await setup()
      const res = await f.admin.post('/vehicles', fullBody(f))
      expect(res.status).toBe(201)
      const vehicle = res.body.data.vehicle
      expect(res.body).toEqual({
        data: {
          vehicle: {
            id: expect.any(String),
            name: 'Van 1',
            locationId: f.depot.id,
            fixedCost: 50,
            costPerKm: 0.45,
            costPerHour: 22.5,
            speedFactor: 0.8,
            startLatitude: '53.4808',
            startLongitude: '-2.2426',
            endPolicy: 'END_AT_LAST_JOB',
            isActive: true,
            createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
            updatedAt: vehicle.createdAt,
            location: { id: f.depot.id, name: 'Salford Hub' },
            tags: [
              { tag: { id: f.electric.id, name: 'electric' } },
              { tag: { id: f.fridge.id, name: 'refrigerated' } },
            ],
            capacities: [
              { capacityDimension: { id: f.volume.id, key: 'volume', label: 'Volume (m³)' }, maxValue: 12.5 },
              { capacityDimension: { id: f.weight.id, key: 'weight', label: 'Weight (kg)' }, maxValue: 1000 },
            ],
          },
        },
        message: 'Success',
      })
      expect((await publicVehicle(f.tenant, vehicle.id)).body).toEqual({
        data: { vehicle },
        message: 'Success',
      })
      expect((await f.pub.get('/vehicles')).body.data.vehicles).toEqual([vehicle])
      expect((await f.admin.get(`/vehicles/${vehicle.id}`)).body.data.vehicle).toEqual(vehicle)
      expect((await f.admin.get(`/vehicles?locationId=${f.depot.id}`)).body.data).toEqual({
        vehicles: [vehicle],
        pagination: { page: 1, limit: 50, total: 1, totalPages: 1 },
      })
    })

    it('fills defaults for omitted fields', async () => {
      const f = await setup()
      const res = await f.admin.post('/vehicles', { name: 'Spare van', locationId: f.north.id })
      expect(res.status).toBe(201)
      expect(res.body.data.vehicle).toMatchObject({
        fixedCost: 0,
        costPerKm: 0,
        costPerHour: 0,
        speedFactor: 1,
        startLatitude: null,
        startLongitude: null,
        endPolicy: 'RETURN_TO_ORIGIN',
        isActive: true,
        location: { id: f.north.id, name: 'North Depot' },
        tags: [],
        capacities: [],
      })
    })

    it.each([
      ['missing name', { name: undefined }, '/body/name'],
      ['missing locationId', { locationId: undefined }, '/body/locationId'],
      ['blank name', { name: ' ' }, '/body/name'],
      ['unknown field', { colour: 'white' }, '/body/colour'],
      ['a cost as a string', { fixedCost: '50' }, '/body/fixedCost'],
      ['a negative cost', { costPerKm: -0.1 }, '/body/costPerKm'],
      ['speedFactor 0', { speedFactor: 0 }, '/body/speedFactor'],
      ['speedFactor above 10', { speedFactor: 10.5 }, '/body/speedFactor'],
      ['an unknown endPolicy', { endPolicy: 'TELEPORT' }, '/body/endPolicy'],
      ['startLatitude out of range', { startLatitude: 91 }, '/body/startLatitude'],
      ['a repeated tag id', { tagIds: ['a', 'a'] }, '/body/tagIds'],
      [
        'a negative maxValue',
        { capacities: [{ capacityDimensionId: 'x', maxValue: -1 }] },
        '/body/capacities/0/maxValue',
      ],
      [
        'an unknown capacity field',
        { capacities: [{ capacityDimensionId: 'x', maxValue: 1, unit: 'kg' }] },
        '/body/capacities/0/unit',
      ],
    ])('refuses a body with %s (400)', async (_case, change, path) => {
      const f = await setup()
      const res = await f.admin.post('/vehicles', { ...fullBody(f), ...change })
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path)
      expect((await f.pub.get('/vehicles')).body.data.pagination.total).toBe(0)
    })

    it('needs both start coordinates or neither', async () => {
      const f = await setup()
      const res = await f.admin.post('/vehicles', { ...fullBody(f), startLongitude: null })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        error: 'startLongitude is required when startLatitude is set',
        code: 'VALIDATION_ERROR',
        details: [{ path: '/body/startLongitude', message: 'is required when startLatitude is set' }],
      })
      const { startLatitude: _omitted, ...withoutLatitude } = fullBody(f)
      const other = await f.admin.post('/vehicles', withoutLatitude)
      expect(other.body.details).toEqual([
        { path: '/body/startLatitude', message: 'is required when startLongitude is set' },
      ])
      expect((await f.pub.get('/vehicles')).body.data.pagination.total).toBe(0)

      const created = (await f.admin.post('/vehicles', fullBody(f))).body.data.vehicle
      const cleared = await f.admin.patch(`/vehicles/${created.id}`, { startLatitude: null })
      expect(cleared.status).toBe(400)
      expect(cleared.body.details).toEqual([
        { path: '/body/startLatitude', message: 'is required when startLongitude is set' },
      ])
      const both = await f.admin.patch(`/vehicles/${created.id}`, {
        startLatitude: null,
        startLongitude: null,
      })
      expect(both.status).toBe(200)
      expect(both.body.data.vehicle).toMatchObject({ startLatitude: null, startLongitude: null })
    })

    it('names every unknown or foreign id, and creates nothing', async () => {
      const f = await setup()
      const other = await setup()
      const res = await f.admin.post('/vehicles', {
        ...fullBody(f),
        locationId: other.depot.id,
        tagIds: [other.ladder.id, f.ladder.id, 'no-such-tag'],
        capacities: [
          { capacityDimensionId: f.weight.id, maxValue: 1 },
          { capacityDimensionId: 'no-such-dimension', maxValue: 2 },
          { capacityDimensionId: f.weight.id, maxValue: 3 },
          { capacityDimensionId: other.volume.id, maxValue: 4 },
        ],
      })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({
        error: `locationId: location ${other.depot.id} does not exist in your organisation (and 5 more)`,
        code: 'VALIDATION_ERROR',
        details: [
          {
            path: '/body/locationId',
            message: `location ${other.depot.id} does not exist in your organisation`,
          },
          { path: '/body/tagIds/0', message: `tag ${other.ladder.id} does not exist in your organisation` },
          { path: '/body/tagIds/2', message: 'tag no-such-tag does not exist in your organisation' },
          {
            path: '/body/capacities/1/capacityDimensionId',
            message: 'capacity dimension no-such-dimension does not exist in your organisation',
          },
          {
            path: '/body/capacities/2/capacityDimensionId',
            message: `capacity dimension ${f.weight.id} is listed more than once`,
          },
          {
            path: '/body/capacities/3/capacityDimensionId',
            message: `capacity dimension ${other.volume.id} does not exist in your organisation`,
          },
        ],
      })
      expect((await f.pub.get('/vehicles')).body.data.pagination.total).toBe(0)
      expect((await other.pub.get('/vehicles')).body.data.pagination.total).toBe(0)
    })

    it('updates fields and replaces tags and capacities; the public API follows', async () => {
      const f = await setup()
      const created = (await f.admin.post('/vehicles', fullBody(f))).body.data.vehicle
      await tick()
      const res = await f.admin.patch(`/vehicles/${created.id}`, {
        name: 'Van 1 (EV)',
        locationId: f.north.id,
        costPerKm: 0.3,
        speedFactor: 1.2,
        startLatitude: 53.8,
        startLongitude: -1.55,
        endPolicy: 'RETURN_TO_ORIGIN',
        tagIds: [f.ladder.id],
        capacities: [{ capacityDimensionId: f.weight.id, maxValue: 750 }],
      })
      expect(res.status).toBe(200)
      const updated = res.body.data.vehicle
      expect(updated).toEqual({
        ...created,
        name: 'Van 1 (EV)',
        locationId: f.north.id,
        costPerKm: 0.3,
        speedFactor: 1.2,
        startLatitude: '53.8',
        startLongitude: '-1.55',
        endPolicy: 'RETURN_TO_ORIGIN',
        updatedAt: expect.any(String),
        location: { id: f.north.id, name: 'North Depot' },
        tags: [{ tag: { id: f.ladder.id, name: 'ladder' } }],
        capacities: [
          { capacityDimension: { id: f.weight.id, key: 'weight', label: 'Weight (kg)' }, maxValue: 750 },
        ],
      })
      expect(updated.updatedAt > created.updatedAt).toBe(true)
      expect((await publicVehicle(f.tenant, created.id)).body.data.vehicle).toEqual(updated)

      const emptied = await f.admin.patch(`/vehicles/${created.id}`, { tagIds: [], capacities: [] })
      expect(emptied.body.data.vehicle).toMatchObject({ tags: [], capacities: [], name: 'Van 1 (EV)' })
      expect((await publicVehicle(f.tenant, created.id)).body.data.vehicle).toEqual(emptied.body.data.vehicle)
    })

    it('moves updatedAt only when something really changes, tags and capacities included', async () => {
      const f = await setup()
      const created = (await f.admin.post('/vehicles', fullBody(f))).body.data.vehicle
      await tick()
      const same = await f.admin.patch(`/vehicles/${created.id}`, {
        ...fullBody(f),
        tagIds: [f.electric.id, f.fridge.id],
        capacities: [...fullBody(f).capacities].reverse(),
      })
      expect(same.status).toBe(200)
      expect(same.body.data.vehicle).toEqual(created)

      const retagged = await f.admin.patch(`/vehicles/${created.id}`, { tagIds: [f.electric.id] })
      expect(retagged.body.data.vehicle.tags).toEqual([{ tag: { id: f.electric.id, name: 'electric' } }])
      expect(retagged.body.data.vehicle.updatedAt > created.updatedAt).toBe(true)
      await tick()
      const resized = await f.admin.patch(`/vehicles/${created.id}`, {
        capacities: [
          { capacityDimensionId: f.weight.id, maxValue: 1000 },
          { capacityDimensionId: f.volume.id, maxValue: 13 },
        ],
      })
      expect(resized.body.data.vehicle.capacities[0]).toEqual({
        capacityDimension: { id: f.volume.id, key: 'volume', label: 'Volume (m³)' },
        maxValue: 13,
      })
      expect(resized.body.data.vehicle.updatedAt > retagged.body.data.vehicle.updatedAt).toBe(true)
    })

    it('replaces tags safely when several requests change the same vehicle at once', async () => {
      const f = await setup()
      const created = (await f.admin.post('/vehicles', fullBody(f))).body.data.vehicle
      const sets = [[f.ladder.id], [f.ladder.id, f.fridge.id], [f.electric.id], [f.fridge.id, f.electric.id]]
      const responses = await Promise.all(
        [...sets, ...sets].map((tagIds) => f.admin.patch(`/vehicles/${created.id}`, { tagIds })),
      )
      expect(responses.map((res) => res.status)).toEqual(Array(8).fill(200))
      const tags = (await publicVehicle(f.tenant, created.id)).body.data.vehicle.tags
      expect(sets.map((set) => [...set].sort())).toContainEqual(
        tags.map((item: { tag: { id: string } }) => item.tag.id).sort(),
      )
    })

    it('deactivates with isActive false, and the public isActive filter follows', async () => {
      const f = await setup()
      const created = (await f.admin.post('/vehicles', fullBody(f))).body.data.vehicle
      const res = await f.admin.patch(`/vehicles/${created.id}`, { isActive: false })
      expect(res.status).toBe(200)
      expect(res.body.data.vehicle.isActive).toBe(false)
      expect(
        (await f.pub.get('/vehicles?isActive=false')).body.data.vehicles.map((v: { id: string }) => v.id),
      ).toEqual([created.id])
      expect((await f.pub.get('/vehicles?isActive=true')).body.data.vehicles).toEqual([])
    })

    it.each([
      ['a foreign location', (o: Fleet) => ({ locationId: o.depot.id }), '/body/locationId'],
      ['a foreign tag', (o: Fleet) => ({ tagIds: [o.ladder.id] }), '/body/tagIds/0'],
      ['a wrong type', () => ({ isActive: 'no' }), '/body/isActive'],
      ['an unknown field', () => ({ organisationId: 'x' }), '/body/organisationId'],
    ])('refuses a PATCH with %s and changes nothing', async (_case, payload, path) => {
      const f = await setup()
      const other = await setup()
      const created = (await f.admin.post('/vehicles', fullBody(f))).body.data.vehicle
      const res = await f.admin.patch(`/vehicles/${created.id}`, payload(other))
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
      expect(res.body.details[0].path).toBe(path)
      expect((await publicVehicle(f.tenant, created.id)).body.data.vehicle).toEqual(created)
    })

    it("answers 404 for unknown ids and for another organisation's, leaving it unchanged", async () => {
      const f = await setup()
      const other = await setup()
      const theirs = (await other.admin.post('/vehicles', fullBody(other))).body.data.vehicle
      const notFound = { error: 'Vehicle not found', code: 'NOT_FOUND' }
      for (const id of ['no-such-vehicle', theirs.id]) {
        expect((await f.admin.get(`/vehicles/${id}`)).body).toEqual(notFound)
        const patched = await f.admin.patch(`/vehicles/${id}`, { name: 'Mine now', tagIds: [] })
        expect(patched.status).toBe(404)
        expect(patched.body).toEqual(notFound)
        const deleted = await f.admin.delete(`/vehicles/${id}`)
        expect(deleted.status).toBe(404)
        expect(deleted.body).toEqual(notFound)
      }
      expect((await publicVehicle(other.tenant, theirs.id)).body.data.vehicle).toEqual(theirs)
    })

    it('deletes a vehicle no shift uses, with its tags and capacities', async () => {
      const f = await setup()
      const kept = (await f.admin.post('/vehicles', fullBody(f))).body.data.vehicle
      const created = (await f.admin.post('/vehicles', fullBody(f))).body.data.vehicle
      const res = await f.admin.delete(`/vehicles/${created.id}`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        data: { vehicle: { id: created.id, deletedAt: expect.any(String) } },
        message: 'Success',
      })
      const gone = await publicVehicle(f.tenant, created.id)
      expect(gone.status).toBe(404)
      expect(gone.body).toEqual({ error: 'Vehicle not found', code: 'NOT_FOUND' })
      expect((await f.admin.delete(`/vehicles/${created.id}`)).status).toBe(404)
      expect((await f.pub.get('/vehicles')).body.data.vehicles).toEqual([kept])
      const db = t.database.db
      for (const table of ['vehicle_tags', 'vehicle_capacities'] as const) {
        const rows = await db
          .selectFrom(table)
          .select('vehicle_id')
          .where('vehicle_id', '=', created.id)
          .execute()
        expect(rows).toEqual([])
      }
    })

    it('refuses to delete a vehicle that shifts use (409 IN_USE)', async () => {
      const f = await setup()
      const db = t.database.db
      const org = f.tenant.organisationId
      const van = await makeVehicle(db, org, f.depot.id, { tagIds: [f.ladder.id] })
      const worker = await makeUser(db, org)
      const refs = { userId: worker.id, locationId: f.depot.id, vehicleId: van.id }
      await makeShift(db, org, refs)
      await makeShift(db, org, refs, { day: 'TUESDAY' })
      const res = await f.admin.delete(`/vehicles/${van.id}`)
      expect(res.status).toBe(409)
      expect(res.body).toEqual({
        error:
          'Vehicle is used by 2 shifts; move or delete them first, ' +
          'or deactivate the vehicle instead (PATCH isActive false)',
        code: 'IN_USE',
      })
      const still = await publicVehicle(f.tenant, van.id)
      expect(still.status).toBe(200)
      expect(still.body.data.vehicle.tags).toEqual([{ tag: { id: f.ladder.id, name: 'ladder' } }])
    })

    it('refuses read-only and write-only keys with 403 FORBIDDEN', async () => {
      const f = await setup()
      const van = await makeVehicle(t.database.db, f.tenant.organisationId, f.depot.id)
      for (const scopes of [['read'], ['write'], ['read', 'write']] as const) {
        const tenant = await createTenant(t, { scopes: [...scopes] })
        const admin = adminClient(t, tenant.headers)
        const responses = [
          await admin.get('/vehicles'),
          await admin.get(`/vehicles/${van.id}`),
          await admin.post('/vehicles', { name: 'x', locationId: f.depot.id }),
          await admin.patch(`/vehicles/${van.id}`, { name: 'x' }),
          await admin.delete(`/vehicles/${van.id}`),
        ]
        for (const res of responses) {
          expect(res.status).toBe(403)
          expect(res.body.code).toBe('FORBIDDEN')
        }
      }
      expect((await publicVehicle(f.tenant, van.id)).body.data.vehicle.name).toBe('Van 1')
    })
  })
}
