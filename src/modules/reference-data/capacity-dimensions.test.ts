import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addJobDemand, makeCapacityDimension, makeLocation, makeVehicle } from '../../../test/factories.js'
import {
  adminClient,
  client,
  createKey,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import {
  BAD_PAGE_QUERIES,
  expectPagesNewestFirst,
  expectQueryRefused,
  listAt,
} from '../../../test/list-pages.js'
import { findCapacityDimensionsByIds } from './service.js'

const pause = () => new Promise((resolve) => setTimeout(resolve, 5))

for (const dialect of DIALECTS) {
  describe(`${dialect}: admin capacity dimensions`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    async function setup() {
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      return { tenant, admin: adminClient(t, tenant.headers), pub: client(t, tenant.headers) }
    }

    async function createJob(pub: ReturnType<typeof client>) {
      const res = await pub.post('/jobs', { title: 'Deliver pallets' })
      expect(res.status).toBe(201)
      return res.body.data.job.id as string
    }

    const weight = { key: 'weight_kg', label: 'Weight (kg)' }
    const dimensions = (admin: ReturnType<typeof adminClient>) =>
      listAt(admin, '/capacity-dimensions', 'capacityDimensions')

    it('creates, gets and lists a dimension', async () => {
      const { admin } = await setup()
      const created = await admin.post('/capacity-dimensions', weight)
      expect(created.status).toBe(201)
      const dimension = created.body.data.capacityDimension
      expect(created.body).toEqual({
        data: {
          capacityDimension: {
            id: expect.any(String),
            key: 'weight_kg',
            label: 'Weight (kg)',
            createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
            updatedAt: dimension.createdAt,
          },
        },
        message: 'Success',
      })
      expect((await admin.get(`/capacity-dimensions/${dimension.id}`)).body).toEqual({
        data: { capacityDimension: dimension },
        message: 'Success',
      })
      const volume = (await admin.post('/capacity-dimensions', { key: 'v', label: 'Volume' })).body.data
        .capacityDimension
      expect((await admin.get('/capacity-dimensions')).body).toEqual({
        data: {
          capacityDimensions: [volume, dimension],
          pagination: { page: 1, limit: 50, total: 2, totalPages: 1 },
        },
        message: 'Success',
      })
      await expectPagesNewestFirst(dimensions(admin), [volume.id, dimension.id], {
        defaultLimit: 50,
        pageSize: 1,
      })
    })

    it.each([...BAD_PAGE_QUERIES, 'key=weight_kg'])('rejects ?%s with 400', async (query) => {
      const { admin } = await setup()
      await expectQueryRefused(dimensions(admin), query)
    })

    it.each([
      ['a missing key', { label: 'Weight' }, '/body/key'],
      ['a missing label', { key: 'weight' }, '/body/label'],
      ['an upper-case key', { key: 'Weight', label: 'Weight' }, '/body/key'],
      ['a key starting with a digit', { key: '1kg', label: 'Weight' }, '/body/key'],
      ['a key with a dash', { key: 'weight-kg', label: 'Weight' }, '/body/key'],
      ['a key of 64 characters', { key: `a${'b'.repeat(63)}`, label: 'Weight' }, '/body/key'],
      ['a blank label', { key: 'weight', label: '  ' }, '/body/label'],
      ['a label of the wrong type', { key: 'weight', label: 5 }, '/body/label'],
      ['an unknown field', { key: 'weight', label: 'Weight', unit: 'kg' }, '/body/unit'],
    ])('refuses a create with %s', async (_case, payload, path) => {
      const { admin } = await setup()
      const res = await admin.post('/capacity-dimensions', payload)
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
      expect(res.body.details).toContainEqual(expect.objectContaining({ path }))
      expect((await admin.get('/capacity-dimensions')).body.data.capacityDimensions).toEqual([])
    })

    it('accepts a key of 63 characters', async () => {
      const { admin } = await setup()
      const key = `a${'_9'.repeat(31)}`
      expect(key).toHaveLength(63)
      const res = await admin.post('/capacity-dimensions', { key, label: 'Long' })
      expect(res.status).toBe(201)
      expect(res.body.data.capacityDimension.key).toBe(key)
    })

    it('refuses a key the organisation already has with 409', async () => {
      const { admin } = await setup()
      const other = await setup()
      await admin.post('/capacity-dimensions', weight)
      const dup = await admin.post('/capacity-dimensions', { key: 'weight_kg', label: 'Other' })
      expect(dup.status).toBe(409)
      expect(dup.body).toEqual({
        error: 'Your organisation already has a capacity dimension with the key "weight_kg"',
        code: 'CONFLICT',
        details: [{ path: '/body/key', message: 'is already taken' }],
      })
      expect((await other.admin.post('/capacity-dimensions', weight)).status).toBe(201)
      const volume = (await admin.post('/capacity-dimensions', { key: 'volume', label: 'Volume' })).body.data
        .capacityDimension
      const clash = await admin.patch(`/capacity-dimensions/${volume.id}`, { key: 'weight_kg' })
      expect(clash.status).toBe(409)
      expect(clash.body.code).toBe('CONFLICT')
      expect((await admin.get(`/capacity-dimensions/${volume.id}`)).body.data.capacityDimension).toEqual(
        volume,
      )
    })

    it('answers concurrent creates of one key with one 201 and 409s, never a 500', async () => {
      const { admin } = await setup()
      const responses = await Promise.all(
        Array.from({ length: 6 }, () => admin.post('/capacity-dimensions', { key: 'race', label: 'Race' })),
      )
      expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409])
    })

    it('updates only what changes; the public API shows the new key and label', async () => {
      const { tenant, admin, pub } = await setup()
      const db = t.database.db
      const dimension = (await admin.post('/capacity-dimensions', weight)).body.data.capacityDimension
      const location = await makeLocation(db, tenant.organisationId)
      const vehicle = await makeVehicle(db, tenant.organisationId, location.id, {
        capacities: [{ dimensionId: dimension.id, maxValue: 800 }],
      })
      const job = await createJob(pub)
      await addJobDemand(db, tenant.organisationId, job, dimension.id, 120)
      await pause()

      const same = await admin.patch(`/capacity-dimensions/${dimension.id}`, weight)
      expect(same.body.data.capacityDimension).toEqual(dimension)
      const res = await admin.patch(`/capacity-dimensions/${dimension.id}`, {
        key: 'payload_kg',
        label: 'Payload (kg)',
      })
      expect(res.status).toBe(200)
      const updated = res.body.data.capacityDimension
      expect(updated).toEqual({
        ...dimension,
        key: 'payload_kg',
        label: 'Payload (kg)',
        updatedAt: expect.any(String),
      })
      expect(updated.updatedAt > dimension.updatedAt).toBe(true)
      const labelOnly = await admin.patch(`/capacity-dimensions/${dimension.id}`, { label: 'Payload' })
      expect(labelOnly.body.data.capacityDimension).toEqual({
        ...updated,
        label: 'Payload',
        updatedAt: expect.any(String),
      })

      const shown = { id: dimension.id, key: 'payload_kg', label: 'Payload' }
      expect((await pub.get(`/vehicles/${vehicle.id}`)).body.data.vehicle.capacities).toEqual([
        { capacityDimension: shown, maxValue: 800 },
      ])
      expect((await pub.get(`/jobs/${job}`)).body.data.job.demands).toEqual([
        { capacityDimension: shown, requiredValue: 120 },
      ])
    })

    it.each([
      ['a bad key', { key: 'Bad Key' }],
      ['a blank label', { label: ' ' }],
      ['an unknown field', { id: 'other' }],
    ])('refuses an update with %s', async (_case, payload) => {
      const { admin } = await setup()
      const dimension = (await admin.post('/capacity-dimensions', weight)).body.data.capacityDimension
      const res = await admin.patch(`/capacity-dimensions/${dimension.id}`, payload)
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
      expect((await admin.get(`/capacity-dimensions/${dimension.id}`)).body.data.capacityDimension).toEqual(
        dimension,
      )
    })

    it('deletes an unused dimension, and one only deleted jobs demand', async () => {
      const { tenant, admin, pub } = await setup()
      const unused = (await admin.post('/capacity-dimensions', weight)).body.data.capacityDimension
      const res = await admin.delete(`/capacity-dimensions/${unused.id}`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        data: { capacityDimension: { id: unused.id, deletedAt: expect.stringMatching(/Z$/) } },
        message: 'Success',
      })
      expect((await admin.get(`/capacity-dimensions/${unused.id}`)).status).toBe(404)
      expect((await admin.delete(`/capacity-dimensions/${unused.id}`)).status).toBe(404)

      const pallets = (await admin.post('/capacity-dimensions', { key: 'pallets', label: 'Pallets' })).body
        .data.capacityDimension
      const job = await createJob(pub)
      await addJobDemand(t.database.db, tenant.organisationId, job, pallets.id, 2)
      expect((await pub.delete(`/jobs/${job}`)).status).toBe(200)
      expect((await admin.delete(`/capacity-dimensions/${pallets.id}`)).status).toBe(200)
      expect((await admin.get('/capacity-dimensions')).body.data.capacityDimensions).toEqual([])
    })

    it('refuses to delete a dimension vehicles or live jobs use, saying how many', async () => {
      const { tenant, admin, pub } = await setup()
      const db = t.database.db
      const dimension = (await admin.post('/capacity-dimensions', weight)).body.data.capacityDimension
      const location = await makeLocation(db, tenant.organisationId)
      await makeVehicle(db, tenant.organisationId, location.id, {
        capacities: [{ dimensionId: dimension.id, maxValue: 500 }],
      })
      for (const _ of [1, 2, 3]) {
        await addJobDemand(db, tenant.organisationId, await createJob(pub), dimension.id, 10)
      }
      const refused = await admin.delete(`/capacity-dimensions/${dimension.id}`)
      expect(refused.status).toBe(409)
      expect(refused.body).toEqual({
        error:
          'Capacity dimension "weight_kg" is used by 1 vehicle and 3 jobs; remove their capacities and ' +
          'demands in it first',
        code: 'IN_USE',
      })
      await db.deleteFrom('vehicle_capacities').where('capacity_dimension_id', '=', dimension.id).execute()
      expect((await admin.delete(`/capacity-dimensions/${dimension.id}`)).body.error).toBe(
        'Capacity dimension "weight_kg" is used by 3 jobs; remove their capacities and demands in it first',
      )
      expect((await admin.get(`/capacity-dimensions/${dimension.id}`)).body.data.capacityDimension).toEqual(
        dimension,
      )
    })

    it("answers 404 for unknown ids and another organisation's dimensions, which stay unchanged", async () => {
      const { tenant, admin } = await setup()
      const other = await setup()
      const theirs = await makeCapacityDimension(
        t.database.db,
        other.tenant.organisationId,
        'volume',
        'Volume',
      )
      for (const id of ['no-such-dimension', theirs.id]) {
        for (const res of [
          await admin.get(`/capacity-dimensions/${id}`),
          await admin.patch(`/capacity-dimensions/${id}`, { label: 'Mine' }),
          await admin.delete(`/capacity-dimensions/${id}`),
        ]) {
          expect(res.status).toBe(404)
          expect(res.body).toEqual({ error: 'Capacity dimension not found', code: 'NOT_FOUND' })
        }
      }
      expect(
        (await other.admin.get(`/capacity-dimensions/${theirs.id}`)).body.data.capacityDimension,
      ).toEqual({
        id: theirs.id,
        key: 'volume',
        label: 'Volume',
        createdAt: theirs.created_at,
        updatedAt: theirs.updated_at,
      })
      expect(await findCapacityDimensionsByIds(t.database.db, tenant.organisationId, [theirs.id])).toEqual([])
    })

    it('finds dimensions by id in bulk, within the organisation only', async () => {
      const { tenant } = await setup()
      const db = t.database.db
      const z = await makeCapacityDimension(db, tenant.organisationId, 'z_last')
      const a = await makeCapacityDimension(db, tenant.organisationId, 'a_first')
      await makeCapacityDimension(db, tenant.organisationId, 'unasked')
      expect(
        await findCapacityDimensionsByIds(db, tenant.organisationId, [z.id, a.id, z.id, 'nope']),
      ).toEqual([a, z])
      expect(await findCapacityDimensionsByIds(db, tenant.organisationId, [])).toEqual([])
    })

    it('refuses read and write keys with 403 FORBIDDEN', async () => {
      const { tenant, admin } = await setup()
      const dimension = (await admin.post('/capacity-dimensions', weight)).body.data.capacityDimension
      const readWrite = await createKey(t, tenant.organisationId, { scopes: ['read', 'write'] })
      const denied = adminClient(t, readWrite.headers)
      for (const res of [
        await denied.get('/capacity-dimensions'),
        await denied.post('/capacity-dimensions', { key: 'x', label: 'X' }),
        await denied.get(`/capacity-dimensions/${dimension.id}`),
        await denied.patch(`/capacity-dimensions/${dimension.id}`, { label: 'X' }),
        await denied.delete(`/capacity-dimensions/${dimension.id}`),
      ]) {
        expect(res.status).toBe(403)
        expect(res.body.code).toBe('FORBIDDEN')
      }
      expect((await admin.get('/capacity-dimensions')).body.data.capacityDimensions).toEqual([dimension])
    })
  })
}
