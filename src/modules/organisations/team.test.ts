import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeLocation, makeShift, makeUser, makeVehicle } from '../../../test/factories.js'
import {
  adminClient,
  client,
  createKey,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js'
import { insertUser } from './users-repository.js'
import { findActiveUser } from './users-service.js'

const pause = () => new Promise((resolve) => setTimeout(resolve, 5))

for (const dialect of DIALECTS) {
  describe(`${dialect}: admin team`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    async function setup() {
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      return { tenant, admin: adminClient(t, tenant.headers), pub: client(t, tenant.headers) }
    }

    it('creates a user with a normalised email and returns its whole shape', async () => {
      const { admin } = await setup()
      const created = await admin.post('/team/users', {
        name: 'Sam Taylor',
        email: 'Sam.Taylor@Example.COM',
        role: 'DISPATCHER',
      })
      expect(created.status).toBe(201)
      const user = created.body.data.user
      expect(created.body).toEqual({
        data: {
          user: {
            id: expect.any(String),
            name: 'Sam Taylor',
            email: 'sam.taylor@example.com',
            role: 'DISPATCHER',
            isActive: true,
            hasPassword: false,
            colour: 1,
            createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
            updatedAt: user.createdAt,
          },
        },
        message: 'Success',
      })
      expect(await admin.get(`/team/users/${user.id}`)).toMatchObject({
        status: 200,
        body: { data: { user }, message: 'Success' },
      })
      const defaulted = await admin.post('/team/users', { name: 'Ana', email: 'ana@example.com' })
      expect(defaulted.body.data.user.role).toBe('WORKER')
    })

    it('lists newest first, pages, and filters by role, isActive and search', async () => {
      const { admin } = await setup()
      const make = async (name: string, email: string, role: string) =>
        (await admin.post('/team/users', { name, email, role })).body.data.user.id as string
      const sam = await make('Sam Taylor', 'sam@north.example', 'WORKER')
      const zoe = await make('Zoë Ärnström', 'zoe@south.example', 'DISPATCHER')
      const pat = await make('Pat 100%_done', 'pat@north.example', 'WORKER')
      await admin.post(`/team/users/${pat}/deactivate`)
      const ids = async (query: string) => {
        const res = await admin.get(`/team/users${query}`)
        expect(res.status).toBe(200)
        return res.body.data.users.map((u: { id: string }) => u.id)
      }

      const all = await admin.get('/team/users')
      expect(all.body.data.pagination).toEqual({ page: 1, limit: 50, total: 3, totalPages: 1 })
      expect(await ids('')).toEqual([pat, zoe, sam])
      const second = await admin.get('/team/users?limit=2&page=2')
      expect(second.body.data).toEqual({
        users: [expect.objectContaining({ id: sam })],
        pagination: { page: 2, limit: 2, total: 3, totalPages: 2 },
      })
      expect(await ids('?role=WORKER')).toEqual([pat, sam])
      expect(await ids('?role=ADMIN')).toEqual([])
      expect(await ids('?isActive=false')).toEqual([pat])
      expect(await ids('?isActive=true&role=WORKER')).toEqual([sam])
      expect(await ids('?search=NORTH')).toEqual([pat, sam])
      expect(await ids(`?search=${encodeURIComponent('ärn')}`)).toEqual([zoe])
      expect(await ids('?search=taylor')).toEqual([sam])
      // LIKE wildcards in the term match only themselves.
      expect(await ids(`?search=${encodeURIComponent('0%_')}`)).toEqual([pat])
      expect(await ids(`?search=${encodeURIComponent('%')}`)).toEqual([pat])
      expect(await ids('?search=_')).toEqual([pat])
      expect(await ids('?search=%20%20')).toEqual([pat, zoe, sam])
    })

    it.each(['role=BOSS', 'isActive=maybe', 'limit=101', 'page=0', 'name=Sam', `search=${'x'.repeat(201)}`])(
      'rejects ?%s with 400 VALIDATION_ERROR',
      async (query) => {
        const { admin } = await setup()
        const res = await admin.get(`/team/users?${query}`)
        expect(res.status).toBe(400)
        expect(res.body.code).toBe('VALIDATION_ERROR')
      },
    )

    it.each([
      ['missing name', { email: 'a@example.com' }, '/body/name'],
      ['missing email', { name: 'A' }, '/body/email'],
      ['an invalid email', { name: 'A', email: 'not-an-email' }, '/body/email'],
      ['a blank name', { name: '   ', email: 'a@example.com' }, '/body/name'],
      ['a name of the wrong type', { name: 42, email: 'a@example.com' }, '/body/name'],
      ['an unknown role', { name: 'A', email: 'a@example.com', role: 'OWNER' }, '/body/role'],
      ['an unknown field', { name: 'A', email: 'a@example.com', isActive: false }, '/body/isActive'],
    ])('refuses a create with %s', async (_case, payload, path) => {
      const { admin } = await setup()
      const res = await admin.post('/team/users', payload)
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
      expect(res.body.details).toContainEqual(expect.objectContaining({ path }))
      expect((await admin.get('/team/users')).body.data.users).toEqual([])
    })

    it('refuses an email another user of the organisation has, in any case, with 409', async () => {
      const { admin } = await setup()
      const other = await setup()
      const first = (await admin.post('/team/users', { name: 'A', email: 'a@example.com' })).body.data.user
      const taken = await admin.post('/team/users', { name: 'B', email: 'A@EXAMPLE.com' })
      expect(taken.status).toBe(409)
      expect(taken.body).toEqual({
        error: 'Another user of your organisation already has the email a@example.com',
        code: 'CONFLICT',
        details: [{ path: '/body/email', message: 'is already taken' }],
      })
      // Emails are unique per organisation only.
      expect((await other.admin.post('/team/users', { name: 'A', email: 'a@example.com' })).status).toBe(201)

      const second = (await admin.post('/team/users', { name: 'B', email: 'b@example.com' })).body.data.user
      const clash = await admin.patch(`/team/users/${second.id}`, { email: 'a@example.com' })
      expect(clash.status).toBe(409)
      expect(clash.body.code).toBe('CONFLICT')
      expect((await admin.get(`/team/users/${second.id}`)).body.data.user).toEqual(second)
      // Keeping one's own email is no conflict.
      const own = await admin.patch(`/team/users/${first.id}`, { email: 'A@example.com', name: 'A' })
      expect(own.status).toBe(200)
      expect(own.body.data.user).toEqual(first)
      expect((await admin.get('/team/users')).body.data.pagination.total).toBe(2)
    })

    it('answers concurrent creates with one email with one 201 and 409s, never a 500', async () => {
      const { admin } = await setup()
      const responses = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          admin.post('/team/users', { name: `U${i}`, email: 'race@example.com' }),
        ),
      )
      expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409])
      expect(responses.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(
        Array(5).fill('CONFLICT'),
      )
    })

    it('updates only what changes, and the public API shows the new name and email', async () => {
      const { tenant, admin, pub } = await setup()
      const user = (await admin.post('/team/users', { name: 'Sam', email: 'sam@example.com' })).body.data.user
      const db = t.database.db
      const location = await makeLocation(db, tenant.organisationId)
      const vehicle = await makeVehicle(db, tenant.organisationId, location.id)
      const shift = await makeShift(db, tenant.organisationId, {
        userId: user.id,
        locationId: location.id,
        vehicleId: vehicle.id,
      })
      await pause()

      const same = await admin.patch(`/team/users/${user.id}`, { name: 'Sam', role: 'WORKER' })
      expect(same.body.data.user).toEqual(user)
      const empty = await admin.patch(`/team/users/${user.id}`, {})
      expect(empty.body.data.user).toEqual(user)

      const res = await admin.patch(`/team/users/${user.id}`, {
        name: 'Sam Taylor',
        email: 'Sam.Taylor@example.com',
        role: 'DISPATCHER',
      })
      expect(res.status).toBe(200)
      const updated = res.body.data.user
      expect(updated).toEqual({
        ...user,
        name: 'Sam Taylor',
        email: 'sam.taylor@example.com',
        role: 'DISPATCHER',
        updatedAt: expect.any(String),
      })
      expect(updated.updatedAt > user.updatedAt).toBe(true)
      expect((await admin.get(`/team/users/${user.id}`)).body.data.user).toEqual(updated)
      const publicShift = await pub.get(`/shifts/${shift.id}`)
      expect(publicShift.body.data.shift.user).toEqual({
        id: user.id,
        name: 'Sam Taylor',
        email: 'sam.taylor@example.com',
      })
    })

    it.each([
      ['a blank name', { name: ' ' }],
      ['an invalid email', { email: 'nope' }],
      ['a role of the wrong type', { role: 1 }],
      ['isActive, which has its own routes', { isActive: false }],
      ['an unknown field', { phone: '123' }],
    ])('refuses an update with %s', async (_case, payload) => {
      const { admin } = await setup()
      const user = (await admin.post('/team/users', { name: 'A', email: 'a@example.com' })).body.data.user
      const res = await admin.patch(`/team/users/${user.id}`, payload)
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
      expect((await admin.get(`/team/users/${user.id}`)).body.data.user).toEqual(user)
    })

    it('deactivates and reactivates; inactive users stay readable, publicly too', async () => {
      const { tenant, admin, pub } = await setup()
      const user = (await admin.post('/team/users', { name: 'Sam', email: 'sam@example.com' })).body.data.user
      const db = t.database.db
      const location = await makeLocation(db, tenant.organisationId)
      const vehicle = await makeVehicle(db, tenant.organisationId, location.id)
      const shift = await makeShift(db, tenant.organisationId, {
        userId: user.id,
        locationId: location.id,
        vehicleId: vehicle.id,
      })
      expect((await findActiveUser(db, tenant.organisationId, user.id))?.id).toBe(user.id)
      await pause()

      const off = await admin.post(`/team/users/${user.id}/deactivate`)
      expect(off.status).toBe(200)
      expect(off.body).toEqual({
        data: { user: { ...user, isActive: false, updatedAt: expect.any(String) } },
        message: 'Success',
      })
      expect(off.body.data.user.updatedAt > user.updatedAt).toBe(true)
      expect((await admin.get(`/team/users/${user.id}`)).body.data.user).toEqual(off.body.data.user)
      expect((await admin.post(`/team/users/${user.id}/deactivate`)).body.data.user).toEqual(
        off.body.data.user,
      )
      expect(await findActiveUser(db, tenant.organisationId, user.id)).toBeUndefined()
      expect((await pub.get(`/shifts/${shift.id}`)).body.data.shift.user).toEqual({
        id: user.id,
        name: 'Sam',
        email: 'sam@example.com',
      })
      await pause()

      const on = await admin.post(`/team/users/${user.id}/activate`)
      expect(on.status).toBe(200)
      expect(on.body.data.user).toEqual({ ...user, updatedAt: expect.any(String) })
      expect(on.body.data.user.updatedAt > off.body.data.user.updatedAt).toBe(true)
      expect((await admin.post(`/team/users/${user.id}/activate`)).body.data.user).toEqual(on.body.data.user)
      expect(await findActiveUser(db, tenant.organisationId, user.id)).toMatchObject({
        id: user.id,
        organisation_id: tenant.organisationId,
        email: 'sam@example.com',
      })
    })

    it("answers 404 for unknown ids and another organisation's users, which stay unchanged", async () => {
      const { tenant, admin } = await setup()
      const other = await setup()
      const theirs = (await other.admin.post('/team/users', { name: 'T', email: 't@example.com' })).body.data
        .user
      expect(await findActiveUser(t.database.db, tenant.organisationId, theirs.id)).toBeUndefined()
      for (const id of ['no-such-user', theirs.id]) {
        for (const res of [
          await admin.get(`/team/users/${id}`),
          await admin.patch(`/team/users/${id}`, { name: 'Hijacked' }),
          await admin.post(`/team/users/${id}/deactivate`),
          await admin.post(`/team/users/${id}/activate`),
        ]) {
          expect(res.status).toBe(404)
          expect(res.body).toEqual({ error: 'User not found', code: 'NOT_FOUND' })
        }
      }
      expect((await other.admin.get(`/team/users/${theirs.id}`)).body.data.user).toEqual(theirs)
      expect((await admin.get('/team/users')).body.data.users).toEqual([])
    })

    it('recognises unique and foreign-key violations of this engine', async () => {
      const { tenant } = await setup()
      const db = t.database.db
      const user = await makeUser(db, tenant.organisationId, { email: 'dup@example.com' })
      const duplicate = await insertUser(db, { ...user, id: `${user.id}-2` }).catch((error: unknown) => error)
      expect(isUniqueViolation(duplicate)).toBe(true)
      expect(isForeignKeyViolation(duplicate)).toBe(false)
      const orphan = await makeUser(db, 'no-such-organisation').catch((error: unknown) => error)
      expect(isForeignKeyViolation(orphan)).toBe(true)
      expect(isUniqueViolation(orphan)).toBe(false)
      expect(isUniqueViolation(new Error('boom'))).toBe(false)
      expect(isUniqueViolation(undefined)).toBe(false)
    })

    it('refuses read and write keys with 403 FORBIDDEN', async () => {
      const { tenant, admin } = await setup()
      const user = (await admin.post('/team/users', { name: 'A', email: 'a@example.com' })).body.data.user
      const readWrite = await createKey(t, tenant.organisationId, { scopes: ['read', 'write'] })
      const denied = adminClient(t, readWrite.headers)
      for (const res of [
        await denied.get('/team/users'),
        await denied.post('/team/users', { name: 'B', email: 'b@example.com' }),
        await denied.get(`/team/users/${user.id}`),
        await denied.patch(`/team/users/${user.id}`, { name: 'B' }),
        await denied.post(`/team/users/${user.id}/deactivate`),
        await denied.post(`/team/users/${user.id}/activate`),
      ]) {
        expect(res.status).toBe(403)
        expect(res.body.code).toBe('FORBIDDEN')
      }
      expect((await admin.get(`/team/users/${user.id}`)).body.data.user).toEqual(user)
    })
  })
}
