import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeShift, makeShiftReferences, makeUser, setJobState } from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

for (const dialect of DIALECTS) {
  describe(`${dialect}: admin shifts`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    /** An admin tenant with a depot, a worker and a vehicle, and clients for both APIs. */
    async function setup() {
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      const refs = await makeShiftReferences(t.database.db, tenant.organisationId, {
        location: 'Salford Hub',
        user: 'Ana Driver',
        email: `ana-${tenant.organisationId}@example.com`,
        vehicle: 'Van 7',
      })
      return { tenant, ...refs, admin: adminClient(t, tenant.headers), api: client(t, tenant.headers) }
    }

    async function breakCount(shiftId: string) {
      const row = await t.database.db
        .selectFrom('shift_breaks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('shift_id', '=', shiftId)
        .executeTakeFirstOrThrow()
      return Number(row.n)
    }

    it('creates a shift with breaks, answers the public Shift shape, and the public API shows it', async () => {
      const { admin, api, location, user, vehicle, refs } = await setup()
      const res = await admin.post('/shifts', {
        ...refs,
        day: 'TUESDAY',
        startTime: '08:00',
        endTime: '16:30',
        breaks: [
          { startTime: '12:00', endTime: '12:30', isPaid: false },
          { startTime: '10:00', endTime: '10:15', isPaid: true },
        ],
      })
      expect(res.status).toBe(201)
      const shift = res.body.data.shift
      expect(res.body).toEqual({
        data: {
          shift: {
            id: expect.any(String),
            userId: user.id,
            locationId: location.id,
            vehicleId: vehicle.id,
            day: 'TUESDAY',
            startTime: '08:00',
            endTime: '16:30',
            isGenerated: false,
            createdAt: expect.stringMatching(ISO_MS),
            updatedAt: shift.createdAt,
            user: { id: user.id, name: 'Ana Driver', email: user.email },
            location: { id: location.id, name: 'Salford Hub' },
            vehicle: { id: vehicle.id, name: 'Van 7' },
            breaks: [
              { id: expect.any(String), startTime: '10:00', endTime: '10:15', isPaid: true },
              { id: expect.any(String), startTime: '12:00', endTime: '12:30', isPaid: false },
            ],
          },
        },
        message: 'Success',
      })
      expect((await api.get(`/shifts/${shift.id}`)).body.data.shift).toEqual(shift)
      expect((await api.get('/shifts')).body.data.shifts).toEqual([shift])
      expect((await admin.get(`/shifts/${shift.id}`)).body).toEqual({ data: { shift }, message: 'Success' })
    })

    it('creates a generated shift without breaks; touching breaks are not overlapping', async () => {
      const { admin, refs } = await setup()
      const generated = await admin.post('/shifts', {
        ...refs,
        day: 'SUNDAY',
        startTime: '00:00',
        endTime: '23:59',
        isGenerated: true,
      })
      expect(generated.status).toBe(201)
      expect(generated.body.data.shift).toMatchObject({ isGenerated: true, breaks: [] })
      const touching = await admin.post('/shifts', {
        ...refs,
        day: 'MONDAY',
        startTime: '08:00',
        endTime: '12:00',
        breaks: [
          { startTime: '08:00', endTime: '09:00', isPaid: true },
          { startTime: '09:00', endTime: '12:00', isPaid: false },
        ],
      })
      expect(touching.status).toBe(201)
      expect(touching.body.data.shift.breaks.map((b: { startTime: string }) => b.startTime)).toEqual([
        '08:00',
        '09:00',
      ])
    })

    const valid = { day: 'MONDAY', startTime: '08:00', endTime: '16:00' }
    it.each([
      ['end before start', { endTime: '07:59' }, '/body/endTime'],
      ['end equal to start', { endTime: '08:00' }, '/body/endTime'],
      [
        'break ending before it starts',
        { breaks: [{ startTime: '12:00', endTime: '11:00', isPaid: false }] },
        '/body/breaks/0/endTime',
      ],
      [
        'break of no length',
        { breaks: [{ startTime: '12:00', endTime: '12:00', isPaid: false }] },
        '/body/breaks/0/endTime',
      ],
      [
        'break starting before the shift',
        { breaks: [{ startTime: '07:30', endTime: '08:30', isPaid: false }] },
        '/body/breaks/0',
      ],
      [
        'break ending after the shift',
        {
          breaks: [
            { startTime: '10:00', endTime: '10:15', isPaid: true },
            { startTime: '15:45', endTime: '16:15', isPaid: false },
          ],
        },
        '/body/breaks/1',
      ],
      [
        'overlapping breaks',
        {
          breaks: [
            { startTime: '12:00', endTime: '12:30', isPaid: false },
            { startTime: '10:00', endTime: '10:15', isPaid: true },
            { startTime: '12:15', endTime: '12:45', isPaid: true },
          ],
        },
        '/body/breaks/2',
      ],
      ['unknown field', { colour: 'red' }, '/body/colour'],
      [
        'unknown break field',
        { breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false, x: 1 }] },
        '/body/breaks/0/x',
      ],
      ['wrong type', { isGenerated: 'yes' }, '/body/isGenerated'],
      ['bad day', { day: 'FUNDAY' }, '/body/day'],
      ['time out of range', { endTime: '24:00' }, '/body/endTime'],
      [
        'missing break field',
        { breaks: [{ startTime: '12:00', endTime: '12:30' }] },
        '/body/breaks/0/isPaid',
      ],
    ])('refuses %s with 400 at the offending path, creating nothing', async (_case, patch, path) => {
      const { admin, refs } = await setup()
      const res = await admin.post('/shifts', { ...refs, ...valid, ...patch })
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path)
      expect((await admin.get('/shifts')).body.data.pagination.total).toBe(0)
    })

    it.each(['userId', 'locationId', 'vehicleId', 'day', 'startTime', 'endTime'])(
      'refuses a body without %s',
      async (field) => {
        const { admin, refs } = await setup()
        const body: Record<string, unknown> = { ...refs, ...valid }
        delete body[field]
        const res = await admin.post('/shifts', body)
        expect(res.status).toBe(400)
        expect(res.body.details).toEqual([{ path: `/body/${field}`, message: 'is required' }])
      },
    )

    it.each(['userId', 'locationId', 'vehicleId'] as const)(
      "refuses another organisation's or an unknown %s with 400 naming the field",
      async (field) => {
        const { admin, refs } = await setup()
        const other = await setup()
        for (const id of [other.refs[field], 'no-such-id']) {
          const res = await admin.post('/shifts', { ...refs, ...valid, [field]: id })
          expect(res.status).toBe(400)
          expect(res.body.details).toEqual([
            { path: `/body/${field}`, message: expect.stringContaining(`${id} does not exist`) },
          ])
        }
        expect((await admin.get('/shifts')).body.data.pagination.total).toBe(0)
      },
    )

    it('lists with the public filters, newest first', async () => {
      const { tenant, admin, refs } = await setup()
      const db = t.database.db
      const second = await makeShiftReferences(db, tenant.organisationId, { location: 'Other Depot' })
      const monday = await makeShift(db, tenant.organisationId, refs, { day: 'MONDAY' })
      const friday = await makeShift(db, tenant.organisationId, refs, { day: 'FRIDAY' })
      const elsewhere = await makeShift(db, tenant.organisationId, second.refs, { day: 'MONDAY' })
      const ids = async (query: string) =>
        (await admin.get(`/shifts${query}`)).body.data.shifts.map((s: { id: string }) => s.id)
      expect(await ids('')).toEqual([elsewhere.id, friday.id, monday.id])
      expect(await ids('?day=MONDAY')).toEqual([elsewhere.id, monday.id])
      expect(await ids(`?locationId=${refs.locationId}`)).toEqual([friday.id, monday.id])
      expect(await ids(`?userId=${second.user.id}&day=MONDAY`)).toEqual([elsewhere.id])
      const page = await admin.get('/shifts?limit=2&page=2')
      expect(page.body.data.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 })
      expect((await admin.get('/shifts?day=someday')).status).toBe(400)
      expect((await admin.get('/shifts?vehicleId=x')).status).toBe(400)
    })

    it("answers 404 for unknown and another organisation's shifts, leaving them unchanged", async () => {
      const { admin } = await setup()
      const other = await setup()
      const theirs = await makeShift(t.database.db, other.tenant.organisationId, other.refs, {
        breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
      })
      const before = (await other.admin.get(`/shifts/${theirs.id}`)).body
      for (const id of ['no-such-shift', theirs.id]) {
        for (const res of [
          await admin.get(`/shifts/${id}`),
          await admin.patch(`/shifts/${id}`, { endTime: '17:00' }),
          await admin.delete(`/shifts/${id}`),
        ]) {
          expect(res.status).toBe(404)
          expect(res.body).toEqual({ error: 'Shift not found', code: 'NOT_FOUND' })
        }
      }
      expect((await other.admin.get(`/shifts/${theirs.id}`)).body).toEqual(before)
    })

    it('updates only the fields sent, keeps the breaks, and moves updatedAt only on a real change', async () => {
      const { tenant, admin, api, refs } = await setup()
      const created = (
        await admin.post('/shifts', {
          ...refs,
          ...valid,
          breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
        })
      ).body.data.shift
      const same = await admin.patch(`/shifts/${created.id}`, {
        day: 'MONDAY',
        endTime: '16:00',
        breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
      })
      expect(same.status).toBe(200)
      expect(same.body.data.shift).toEqual(created)

      await new Promise((resolve) => setTimeout(resolve, 5))
      const other = await makeShiftReferences(t.database.db, tenant.organisationId, { vehicle: 'Van 9' })
      const res = await admin.patch(`/shifts/${created.id}`, {
        endTime: '17:00',
        day: 'WEDNESDAY',
        vehicleId: other.vehicle.id,
        isGenerated: true,
      })
      expect(res.status).toBe(200)
      const updated = res.body.data.shift
      expect(updated).toEqual({
        ...created,
        endTime: '17:00',
        day: 'WEDNESDAY',
        vehicleId: other.vehicle.id,
        vehicle: { id: other.vehicle.id, name: 'Van 9' },
        isGenerated: true,
        updatedAt: expect.stringMatching(ISO_MS),
      })
      expect(updated.updatedAt > created.updatedAt).toBe(true)
      expect((await api.get(`/shifts/${created.id}`)).body.data.shift).toEqual(updated)
    })

    it('replaces the breaks when sent; an empty list removes them', async () => {
      const { admin, refs } = await setup()
      const created = (
        await admin.post('/shifts', {
          ...refs,
          ...valid,
          breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
        })
      ).body.data.shift
      const replaced = await admin.patch(`/shifts/${created.id}`, {
        breaks: [
          { startTime: '13:00', endTime: '13:45', isPaid: true },
          { startTime: '09:30', endTime: '09:40', isPaid: false },
        ],
      })
      expect(replaced.status).toBe(200)
      expect(replaced.body.data.shift.breaks).toEqual([
        { id: expect.any(String), startTime: '09:30', endTime: '09:40', isPaid: false },
        { id: expect.any(String), startTime: '13:00', endTime: '13:45', isPaid: true },
      ])
      expect(await breakCount(created.id)).toBe(2)
      const cleared = await admin.patch(`/shifts/${created.id}`, { breaks: [] })
      expect(cleared.body.data.shift.breaks).toEqual([])
      expect(await breakCount(created.id)).toBe(0)
    })

    it('validates the merged shift on PATCH and changes nothing when refused', async () => {
      const { admin, refs } = await setup()
      const other = await setup()
      const created = (
        await admin.post('/shifts', {
          ...refs,
          ...valid,
          breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
        })
      ).body.data.shift
      const cases: [Record<string, unknown>, string][] = [
        [{ startTime: '16:30' }, '/body/endTime'],
        [{ endTime: '12:15' }, '/body/endTime'],
        [{ startTime: '12:10' }, '/body/startTime'],
        [
          { endTime: '11:00', breaks: [{ startTime: '10:00', endTime: '11:30', isPaid: true }] },
          '/body/breaks/0',
        ],
        [
          {
            breaks: [
              { startTime: '12:00', endTime: '12:30', isPaid: false },
              { startTime: '12:29', endTime: '12:40', isPaid: false },
            ],
          },
          '/body/breaks/1',
        ],
        [{ userId: other.refs.userId }, '/body/userId'],
        [{ locationId: other.refs.locationId }, '/body/locationId'],
        [{ vehicleId: 'no-such-vehicle' }, '/body/vehicleId'],
        [{ id: 'x' }, '/body/id'],
        [{ startTime: 800 }, '/body/startTime'],
      ]
      for (const [body, path] of cases) {
        const res = await admin.patch(`/shifts/${created.id}`, body)
        expect(res.status, JSON.stringify(body)).toBe(400)
        expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path)
      }
      expect((await admin.get(`/shifts/${created.id}`)).body.data.shift).toEqual(created)
      // A new end that fits the stored breaks is fine.
      expect((await admin.patch(`/shifts/${created.id}`, { endTime: '12:30' })).status).toBe(200)
    })

    it('deletes a shift and its breaks; the public API no longer shows it', async () => {
      const { admin, api, refs } = await setup()
      const created = (
        await admin.post('/shifts', {
          ...refs,
          ...valid,
          breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
        })
      ).body.data.shift
      const res = await admin.delete(`/shifts/${created.id}`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        data: { shift: { id: created.id, deletedAt: expect.stringMatching(ISO_MS) } },
        message: 'Success',
      })
      expect(await breakCount(created.id)).toBe(0)
      expect((await api.get(`/shifts/${created.id}`)).status).toBe(404)
      expect((await api.get('/shifts')).body.data.shifts).toEqual([])
      expect((await admin.delete(`/shifts/${created.id}`)).status).toBe(404)
    })

    it('refuses to delete a shift that jobs are planned on (409 IN_USE), whatever their status', async () => {
      const { tenant, admin, api, refs } = await setup()
      const shift = (await admin.post('/shifts', { ...refs, ...valid })).body.data.shift
      const job = (await api.post('/jobs', { title: 'Fix boiler' })).body.data.job
      await setJobState(t.database.db, tenant.organisationId, job.id, {
        status: 'COMPLETED',
        assignedUserId: refs.userId,
        shiftId: shift.id,
      })
      const refused = await admin.delete(`/shifts/${shift.id}`)
      expect(refused.status).toBe(409)
      expect(refused.body).toEqual({
        error: 'Shift is referenced by 1 job; unassign or delete it first',
        code: 'IN_USE',
      })
      expect((await admin.get(`/shifts/${shift.id}`)).body.data.shift).toEqual(shift)

      // A deleted job no longer holds the shift; its row loses the reference.
      await setJobState(t.database.db, tenant.organisationId, job.id, { status: 'CREATED' })
      expect((await api.delete(`/jobs/${job.id}`)).status).toBe(200)
      expect((await admin.delete(`/shifts/${shift.id}`)).status).toBe(200)
      const stored = await t.database.db
        .selectFrom('jobs')
        .select(['shift_id', 'deleted_at'])
        .where('id', '=', job.id)
        .executeTakeFirstOrThrow()
      expect(stored.shift_id).toBeNull()
      expect(stored.deleted_at).not.toBeNull()
    })

    it('refuses to change the worker while jobs are ASSIGNED or IN_PROGRESS on it (409 SHIFT_IN_USE)', async () => {
      const { tenant, admin, api, refs } = await setup()
      const org = tenant.organisationId
      const db = t.database.db
      const shift = (await admin.post('/shifts', { ...refs, ...valid })).body.data.shift
      const other = await makeUser(db, org, { name: 'Ben Fitter' })
      const jobIn = async (status: 'ASSIGNED' | 'IN_PROGRESS' | 'COMPLETED' | 'CANCELLED') => {
        const job = (await api.post('/jobs', { title: `Job ${status}` })).body.data.job
        await setJobState(db, org, job.id, { status, assignedUserId: refs.userId, shiftId: shift.id })
        return job.id as string
      }
      const assigned = await jobIn('ASSIGNED')
      const started = await jobIn('IN_PROGRESS')
      await jobIn('COMPLETED')
      // A deleted job does not hold the shift.
      const deleted = await jobIn('ASSIGNED')
      await setJobState(db, org, deleted, { status: 'CREATED' })
      expect((await api.delete(`/jobs/${deleted}`)).status).toBe(200)
      await setJobState(db, org, deleted, { status: 'ASSIGNED' })

      const refused = await admin.patch(`/shifts/${shift.id}`, { userId: other.id, endTime: '17:00' })
      expect(refused.status).toBe(409)
      const [first, second] = [assigned, started].sort()
      const statusOf = (id: string | undefined) => (id === assigned ? 'ASSIGNED' : 'IN_PROGRESS')
      expect(refused.body).toEqual({
        error:
          `Cannot change the worker of shift ${shift.id}: 2 jobs ASSIGNED or IN_PROGRESS on it ` +
          `(${first} (${statusOf(first)}), ${second} (${statusOf(second)})); re-assign, unassign, ` +
          'complete or cancel them first',
        code: 'SHIFT_IN_USE',
      })
      expect((await admin.get(`/shifts/${shift.id}`)).body.data.shift).toEqual(shift)

      // Everything else may change; so may the worker, to the same worker.
      const moved = await admin.patch(`/shifts/${shift.id}`, { userId: refs.userId, endTime: '17:00' })
      expect(moved.status).toBe(200)

      // A bad user is still a 400 first.
      const unknown = await admin.patch(`/shifts/${shift.id}`, { userId: 'no-such-user' })
      expect(unknown.status).toBe(400)

      await setJobState(db, org, assigned, { status: 'CANCELLED' })
      const one = await admin.patch(`/shifts/${shift.id}`, { userId: other.id })
      expect(one.status).toBe(409)
      expect(one.body.error).toContain(`1 job ASSIGNED or IN_PROGRESS on it (${started} (IN_PROGRESS)); `)
      expect(one.body.error).toMatch(/ it first$/)

      await setJobState(db, org, started, { status: 'COMPLETED' })
      const changed = await admin.patch(`/shifts/${shift.id}`, { userId: other.id })
      expect(changed.status).toBe(200)
      expect(changed.body.data.shift.user).toEqual({ id: other.id, name: 'Ben Fitter', email: other.email })
    })

    it('refuses keys without the admin scope with 403 FORBIDDEN', async () => {
      const { refs } = await setup()
      for (const scopes of [['read'], ['write'], ['read', 'write']] as const) {
        const tenant = await createTenant(t, { scopes: [...scopes] })
        const admin = adminClient(t, tenant.headers)
        for (const res of [
          await admin.get('/shifts'),
          await admin.post('/shifts', { ...refs, ...valid }),
          await admin.patch('/shifts/x', { endTime: '17:00' }),
          await admin.delete('/shifts/x'),
        ]) {
          expect(res.status).toBe(403)
          expect(res.body.code).toBe('FORBIDDEN')
        }
      }
    })
  })
}
