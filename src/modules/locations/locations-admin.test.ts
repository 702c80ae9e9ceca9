import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  makeLocation,
  makeShift,
  makeShiftReferences,
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

const DEPOT = {
  name: 'Manchester Depot',
  code: 'MAN',
  description: 'Vans park in bay 3',
  address: '1 Depot Road, Manchester M1 1AA',
  latitude: 53.4808,
  longitude: -2.2426,
  timezone: 'Europe/London',
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5))

for (const dialect of DIALECTS) {
  describe(`${dialect}: admin locations`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    const setup = async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      return { tenant, admin: adminClient(t, tenant.headers), pub: client(t, tenant.headers) }
    }
    const publicLocation = async (tenant: TestTenant, id: string) =>
      (await client(t, tenant.headers).get(`/locations/${id}`)).body.data?.location
    const primaryIds = async (tenant: TestTenant) =>
      (
        (await client(t, tenant.headers).get('/locations?limit=100')).body.data.locations as {
          id: string
          isPrimary: boolean
        }[]
      )
        .filter((l) => l.isPrimary)
        .map((l) => l.id)

    it('creates a location with every field, and the public API shows it', async () => {
      const { tenant, admin, pub } = await setup()
      const res = await admin.post('/locations', { ...DEPOT, isPrimary: true, isActive: false })
      expect(res.status).toBe(201)
      const location = res.body.data.location
      expect(res.body).toEqual({
        data: {
          location: {
            id: expect.any(String),
            ...DEPOT,
            latitude: '53.4808',
            longitude: '-2.2426',
            isPrimary: true,
            isActive: false,
            createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
            updatedAt: location.createdAt,
          },
        },
        message: 'Success',
      })
      expect(await publicLocation(tenant, location.id)).toEqual(location)
      expect((await pub.get('/locations')).body.data.locations).toEqual([location])
      expect((await admin.get(`/locations/${location.id}`)).body).toEqual({
        data: { location },
        message: 'Success',
      })
      expect((await admin.get('/locations')).body).toEqual({
        data: { locations: [location], pagination: { page: 1, limit: 50, total: 1, totalPages: 1 } },
        message: 'Success',
      })
    })

    it('fills defaults and stores coordinates exactly', async () => {
      const { admin } = await setup()
      const res = await admin.post('/locations', {
        name: 'Hub',
        code: 'H',
        latitude: 1e-7,
        longitude: 51.5,
        timezone: 'UTC',
      })
      expect(res.status).toBe(201)
      expect(res.body.data.location).toMatchObject({
        description: '',
        address: '',
        latitude: '0.0000001',
        longitude: '51.5',
        timezone: 'UTC',
        isPrimary: false,
        isActive: true,
      })
    })

    it.each(['UTC', 'Etc/UTC', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata', 'Europe/Kyiv'])(
      'accepts the time zone %s',
      async (timezone) => {
        const { admin } = await setup()
        const res = await admin.post('/locations', { ...DEPOT, timezone })
        expect(res.status).toBe(201)
        expect(res.body.data.location.timezone).toBe(timezone)
      },
    )

    it.each(['Mars/Olympus_Mons', 'europe/london', 'GMT+1', 'Europe/London '])(
      'refuses the time zone "%s" with 400 naming the field',
      async (timezone) => {
        const { tenant, admin } = await setup()
        const res = await admin.post('/locations', { ...DEPOT, timezone })
        expect(res.status).toBe(400)
        expect(res.body).toEqual({
          error: `timezone: "${timezone}" is not an IANA time zone name, e.g. Europe/London`,
          code: 'VALIDATION_ERROR',
          details: [
            {
              path: '/body/timezone',
              message: `"${timezone}" is not an IANA time zone name, e.g. Europe/London`,
            },
          ],
        })
        expect((await client(t, tenant.headers).get('/locations')).body.data.pagination.total).toBe(0)
      },
    )

    it.each([
      ['missing name', { name: undefined }, '/body/name'],
      ['missing code', { code: undefined }, '/body/code'],
      ['missing latitude', { latitude: undefined }, '/body/latitude'],
      ['missing timezone', { timezone: undefined }, '/body/timezone'],
      ['blank name', { name: '   ' }, '/body/name'],
      ['code over 32 characters', { code: 'C'.repeat(33) }, '/body/code'],
      ['latitude as a string', { latitude: '53.48' }, '/body/latitude'],
      ['latitude out of range', { latitude: 90.5 }, '/body/latitude'],
      ['longitude out of range', { longitude: -181 }, '/body/longitude'],
      ['isPrimary as a string', { isPrimary: 'yes' }, '/body/isPrimary'],
      ['unknown field', { colour: 'red' }, '/body/colour'],
    ])('refuses a body with %s (400)', async (_case, change, path) => {
      const { tenant, admin } = await setup()
      const res = await admin.post('/locations', { ...DEPOT, ...change })
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path)
      expect((await client(t, tenant.headers).get('/locations')).body.data.pagination.total).toBe(0)
    })

    it('keeps one primary location: a new primary takes over from the old one', async () => {
      const { tenant, admin } = await setup()
      const other = await setup()
      const otherPrimary = (await other.admin.post('/locations', { ...DEPOT, isPrimary: true })).body.data
        .location

      const first = (await admin.post('/locations', { ...DEPOT, isPrimary: true })).body.data.location
      expect(await primaryIds(tenant)).toEqual([first.id])
      await tick()
      const second = (
        await admin.post('/locations', { ...DEPOT, name: 'Leeds', code: 'LDS', isPrimary: true })
      ).body.data.location
      expect(await primaryIds(tenant)).toEqual([second.id])
      const demoted = await publicLocation(tenant, first.id)
      expect(demoted).toEqual({ ...first, isPrimary: false, updatedAt: expect.any(String) })
      expect(demoted.updatedAt > first.updatedAt).toBe(true)

      const third = (await admin.post('/locations', { ...DEPOT, name: 'York', code: 'YRK' })).body.data
        .location
      const res = await admin.patch(`/locations/${third.id}`, { isPrimary: true })
      expect(res.status).toBe(200)
      expect(res.body.data.location.isPrimary).toBe(true)
      expect(await primaryIds(tenant)).toEqual([third.id])
      expect((await publicLocation(tenant, second.id)).isPrimary).toBe(false)

      // Making the primary primary again changes nothing; clearing it leaves no primary.
      const again = await admin.patch(`/locations/${third.id}`, { isPrimary: true })
      expect(again.body.data.location).toEqual(res.body.data.location)
      expect((await admin.patch(`/locations/${third.id}`, { isPrimary: false })).status).toBe(200)
      expect(await primaryIds(tenant)).toEqual([])

      expect(await primaryIds(other.tenant)).toEqual([otherPrimary.id])
      expect(await publicLocation(other.tenant, otherPrimary.id)).toEqual(otherPrimary)
    })

    it('keeps one primary location when many requests claim it at once', async () => {
      const { tenant, admin } = await setup()
      const depots = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          admin.post('/locations', { ...DEPOT, name: `D${i}`, code: `D${i}`, isPrimary: true }),
        ),
      )
      expect(depots.map((res) => res.status)).toEqual(Array(6).fill(201))
      expect(await primaryIds(tenant)).toHaveLength(1)
      const patches = await Promise.all(
        depots.map((res) => admin.patch(`/locations/${res.body.data.location.id}`, { isPrimary: true })),
      )
      expect(patches.map((res) => res.status)).toEqual(Array(6).fill(200))
      expect(await primaryIds(tenant)).toHaveLength(1)
    })

    it('updates only the supplied fields, and updatedAt only when a value changes', async () => {
      const { tenant, admin } = await setup()
      const created = (await admin.post('/locations', DEPOT)).body.data.location
      await tick()
      const same = await admin.patch(`/locations/${created.id}`, {
        name: DEPOT.name,
        latitude: DEPOT.latitude,
        isActive: true,
      })
      expect(same.status).toBe(200)
      expect(same.body.data.location).toEqual(created)

      const res = await admin.patch(`/locations/${created.id}`, {
        name: 'Salford Hub',
        code: 'SAL',
        description: '',
        address: '2 Quay Street',
        latitude: 53.47,
        longitude: -2.3,
        timezone: 'Europe/Dublin',
      })
      expect(res.status).toBe(200)
      const updated = {
        ...created,
        name: 'Salford Hub',
        code: 'SAL',
        description: '',
        address: '2 Quay Street',
        latitude: '53.47',
        longitude: '-2.3',
        timezone: 'Europe/Dublin',
        updatedAt: expect.any(String),
      }
      expect(res.body).toEqual({ data: { location: updated }, message: 'Success' })
      expect(res.body.data.location.updatedAt > created.updatedAt).toBe(true)
      expect(await publicLocation(tenant, created.id)).toEqual(res.body.data.location)
    })

    it('deactivates with isActive false, and the public isActive filter follows', async () => {
      const { tenant, admin, pub } = await setup()
      const created = (await admin.post('/locations', DEPOT)).body.data.location
      const res = await admin.patch(`/locations/${created.id}`, { isActive: false })
      expect(res.status).toBe(200)
      expect(res.body.data.location.isActive).toBe(false)
      expect(
        (await pub.get('/locations?isActive=false')).body.data.locations.map((l: { id: string }) => l.id),
      ).toEqual([created.id])
      expect((await pub.get('/locations?isActive=true')).body.data.locations).toEqual([])
      expect((await publicLocation(tenant, created.id)).isActive).toBe(false)
    })

    it.each([
      ['blank name', { name: '' }, '/body/name'],
      ['unknown time zone', { timezone: 'Nowhere/Special' }, '/body/timezone'],
      ['wrong type', { isActive: 'false' }, '/body/isActive'],
      ['unknown field', { organisationId: 'x' }, '/body/organisationId'],
    ])('refuses a PATCH with %s and changes nothing', async (_case, payload, path) => {
      const { tenant, admin } = await setup()
      const created = (await admin.post('/locations', DEPOT)).body.data.location
      const res = await admin.patch(`/locations/${created.id}`, payload)
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
      expect(res.body.details[0].path).toBe(path)
      expect(await publicLocation(tenant, created.id)).toEqual(created)
    })

    it("answers 404 for unknown ids and for another organisation's, leaving it unchanged", async () => {
      const { admin } = await setup()
      const other = await setup()
      const theirs = (await other.admin.post('/locations', DEPOT)).body.data.location
      const notFound = { error: 'Location not found', code: 'NOT_FOUND' }
      for (const id of ['no-such-location', theirs.id]) {
        expect((await admin.get(`/locations/${id}`)).body).toEqual(notFound)
        const patched = await admin.patch(`/locations/${id}`, { name: 'Mine now', isPrimary: true })
        expect(patched.status).toBe(404)
        expect(patched.body).toEqual(notFound)
        const deleted = await admin.delete(`/locations/${id}`)
        expect(deleted.status).toBe(404)
        expect(deleted.body).toEqual(notFound)
      }
      expect(await publicLocation(other.tenant, theirs.id)).toEqual(theirs)
    })

    it('keeps codes unique within an organisation (409 CONFLICT naming the field), not across them', async () => {
      const { tenant, admin } = await setup()
      const other = await setup()
      const count = async () =>
        (await client(t, tenant.headers).get('/locations')).body.data.pagination.total as number
      const taken = {
        error: 'Your organisation already has a location with the code "MAN"',
        code: 'CONFLICT',
        details: [{ path: '/body/code', message: 'is already taken' }],
      }
      const manchester = (await admin.post('/locations', DEPOT)).body.data.location
      expect((await other.admin.post('/locations', DEPOT)).status).toBe(201)

      const duplicate = await admin.post('/locations', { ...DEPOT, name: 'Another', isPrimary: true })
      expect(duplicate.status).toBe(409)
      expect(duplicate.body).toEqual(taken)
      expect(await count()).toBe(1)
      expect(await publicLocation(tenant, manchester.id)).toEqual(manchester)

      // Codes compare exactly: another case or a padded code is another code.
      expect((await admin.post('/locations', { ...DEPOT, code: 'man' })).status).toBe(201)
      const leeds = (await admin.post('/locations', { ...DEPOT, name: 'Leeds', code: 'LDS' })).body.data
        .location
      const renamed = await admin.patch(`/locations/${leeds.id}`, { code: 'MAN', name: 'Renamed' })
      expect(renamed.status).toBe(409)
      expect(renamed.body).toEqual(taken)
      expect(await publicLocation(tenant, leeds.id)).toEqual(leeds)
      // Keeping its own code is no conflict; a freed code can be taken.
      expect((await admin.patch(`/locations/${manchester.id}`, { code: 'MAN', name: 'M' })).status).toBe(200)
      expect((await admin.delete(`/locations/${manchester.id}`)).status).toBe(200)
      expect((await admin.patch(`/locations/${leeds.id}`, { code: 'MAN' })).body.data.location.code).toBe(
        'MAN',
      )
    })

    it('gives one of many concurrent creations with the same code 201 and the others 409', async () => {
      const { tenant, admin } = await setup()
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => admin.post('/locations', { ...DEPOT, name: `Depot ${i}` })),
      )
      expect(answers.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409])
      for (const res of answers.filter((r) => r.status === 409)) expect(res.body.code).toBe('CONFLICT')
      const listed = (await client(t, tenant.headers).get('/locations')).body.data.locations
      expect(listed).toHaveLength(1)
    })

    it('deletes an unused location for good', async () => {
      const { tenant, admin } = await setup()
      const kept = (await admin.post('/locations', DEPOT)).body.data.location
      const created = (await admin.post('/locations', { ...DEPOT, code: 'GONE' })).body.data.location
      const res = await admin.delete(`/locations/${created.id}`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        data: { location: { id: created.id, deletedAt: expect.any(String) } },
        message: 'Success',
      })
      expect(res.body.data.location.deletedAt >= created.createdAt).toBe(true)
      const gone = await client(t, tenant.headers).get(`/locations/${created.id}`)
      expect(gone.status).toBe(404)
      expect((await admin.get(`/locations/${created.id}`)).status).toBe(404)
      expect((await admin.delete(`/locations/${created.id}`)).status).toBe(404)
      expect((await client(t, tenant.headers).get('/locations')).body.data.locations).toEqual([kept])
    })

    it('refuses to delete a location that vehicles, shifts or live jobs use (409 IN_USE)', async () => {
      const { tenant, admin, pub } = await setup()
      const db = t.database.db
      const org = tenant.organisationId
      const { location, vehicle, refs } = await makeShiftReferences(db, org)
      const spare = await makeVehicle(db, org, location.id)
      const worker = await makeUser(db, org)
      await makeShift(db, org, refs)
      await makeShift(db, org, { ...refs, userId: worker.id })
      const job = (await pub.post('/jobs', { title: 'Fix boiler', locationId: location.id })).body.data.job

      const refused = await admin.delete(`/locations/${location.id}`)
      expect(refused.status).toBe(409)
      expect(refused.body).toEqual({
        error:
          'Location is used by 2 vehicles, 2 shifts and 1 job; move or delete them first, ' +
          'or deactivate the location instead (PATCH isActive false)',
        code: 'IN_USE',
      })
      expect((await pub.get(`/locations/${location.id}`)).status).toBe(200)

      // Only what still references it is named; a soft-deleted job does not count.
      await db.deleteFrom('shifts').where('organisation_id', '=', org).execute()
      expect((await admin.delete(`/vehicles/${spare.id}`)).status).toBe(200)
      expect((await pub.delete(`/jobs/${job.id}`)).status).toBe(200)
      expect((await admin.delete(`/locations/${location.id}`)).body.error).toBe(
        'Location is used by 1 vehicle; move or delete them first, ' +
          'or deactivate the location instead (PATCH isActive false)',
      )

      expect((await admin.delete(`/vehicles/${vehicle.id}`)).status).toBe(200)
      const deleted = await admin.delete(`/locations/${location.id}`)
      expect(deleted.status).toBe(200)
      expect((await pub.get(`/locations/${location.id}`)).status).toBe(404)
      // The deleted job is kept, without its reference to the deleted depot.
      const kept = await db
        .selectFrom('jobs')
        .select(['location_id', 'deleted_at'])
        .where('id', '=', job.id)
        .executeTakeFirstOrThrow()
      expect(kept).toEqual({ location_id: null, deleted_at: expect.any(String) })
    })

    it('refuses read-only and write-only keys with 403 FORBIDDEN', async () => {
      const owner = await createTenant(t)
      const depot = await makeLocation(t.database.db, owner.organisationId)
      for (const scopes of [['read'], ['write'], ['read', 'write']] as const) {
        const tenant = await createTenant(t, { scopes: [...scopes] })
        const admin = adminClient(t, tenant.headers)
        const responses = [
          await admin.get('/locations'),
          await admin.get(`/locations/${depot.id}`),
          await admin.post('/locations', DEPOT),
          await admin.patch(`/locations/${depot.id}`, { name: 'x' }),
          await admin.delete(`/locations/${depot.id}`),
        ]
        for (const res of responses) {
          expect(res.status).toBe(403)
          expect(res.body.code).toBe('FORBIDDEN')
        }
      }
      expect((await client(t, owner.headers).get('/locations')).body.data.pagination.total).toBe(1)
    })
  })
}
