import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  makeLocation,
  makeShift,
  makeShiftReferences,
  makeUser,
  markShiftGenerated,
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
  describe(`${dialect}: shifts`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    const get = (tenant: TestTenant, path: string) =>
      t.app.inject({ method: 'GET', url: `/v1/public${path}`, headers: tenant.headers })
    const listIds = async (tenant: TestTenant, query = '') => {
      const res = await get(tenant, `/shifts${query}`)
      expect(res.statusCode).toBe(200)
      return (res.json().data.shifts as { id: string }[]).map((s) => s.id)
    }

    const shifts = (tenant: TestTenant) => listAt(client(t, tenant.headers), '/shifts', 'shifts')

    /** Two shifts of one worker, one with breaks stored out of order, and their exact API shapes. */
    async function seedRoster(tenant: TestTenant) {
      const db = t.database.db
      const { location, user, vehicle, refs } = await makeShiftReferences(db, tenant.organisationId, {
        location: 'Salford Hub',
        user: 'Ana Driver',
        email: 'ana@example.com',
        vehicle: 'Van 7',
      })
      const monday = await makeShift(db, tenant.organisationId, refs, {
        day: 'MONDAY',
        startTime: '08:00',
        endTime: '16:30',
        breaks: [
          { startTime: '12:00', endTime: '12:30', isPaid: false },
          { startTime: '10:00', endTime: '10:15', isPaid: true },
        ],
      })
      const friday = await makeShift(db, tenant.organisationId, refs, {
        day: 'FRIDAY',
        startTime: '06:30',
        endTime: '14:30',
      })
      await markShiftGenerated(db, tenant.organisationId, friday.id)
      const common = {
        userId: user.id,
        locationId: location.id,
        vehicleId: vehicle.id,
        user: { id: user.id, name: 'Ana Driver', email: 'ana@example.com' },
        location: { id: location.id, name: 'Salford Hub' },
        vehicle: { id: vehicle.id, name: 'Van 7' },
      }
      const [lunch, coffee] = monday.breaks
      const mondayShape = {
        ...common,
        id: monday.id,
        day: 'MONDAY',
        startTime: '08:00',
        endTime: '16:30',
        isGenerated: false,
        createdAt: monday.created_at,
        updatedAt: monday.updated_at,
        breaks: [
          { id: coffee?.id, startTime: '10:00', endTime: '10:15', isPaid: true },
          { id: lunch?.id, startTime: '12:00', endTime: '12:30', isPaid: false },
        ],
      }
      const fridayShape = {
        ...common,
        id: friday.id,
        day: 'FRIDAY',
        startTime: '06:30',
        endTime: '14:30',
        isGenerated: true,
        createdAt: friday.created_at,
        updatedAt: friday.updated_at,
        breaks: [],
      }
      return { refs, monday, friday, mondayShape, fridayShape }
    }

    it('lists every field of each shift, with worker, depot, vehicle and breaks sorted by start', async () => {
      const tenant = await createTenant(t)
      const { mondayShape, fridayShape } = await seedRoster(tenant)
      const res = await get(tenant, '/shifts')
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({
        data: {
          shifts: [fridayShape, mondayShape],
          pagination: { page: 1, limit: 50, total: 2, totalPages: 1 },
        },
        message: 'Success',
      })
    })

    it('returns a single shift with its breaks', async () => {
      const tenant = await createTenant(t)
      const { monday, mondayShape, friday, fridayShape } = await seedRoster(tenant)
      const res = await get(tenant, `/shifts/${monday.id}`)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ data: { shift: mondayShape }, message: 'Success' })
      expect((await get(tenant, `/shifts/${friday.id}`)).json().data.shift).toEqual(fridayShape)
    })

    it('answers 404 NOT_FOUND for an unknown id', async () => {
      const tenant = await createTenant(t)
      const res = await get(tenant, '/shifts/no-such-shift')
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ error: 'Shift not found', code: 'NOT_FOUND' })
    })

    it('pages 50 at a time by default, newest first, and returns every row exactly once', async () => {
      const tenant = await createTenant(t)
      const { refs } = await makeShiftReferences(t.database.db, tenant.organisationId)
      const created: string[] = []
      for (let i = 0; i < 52; i++)
        created.push((await makeShift(t.database.db, tenant.organisationId, refs)).id)
      const newestFirst = [...created].reverse()
      await expectPagesNewestFirst(shifts(tenant), newestFirst, { defaultLimit: 50, pageSize: 15 })
      expect(await listIds(tenant, '?page=2')).toEqual(newestFirst.slice(50))
      const all = await get(tenant, '/shifts?limit=100')
      expect(all.json().data.pagination).toEqual({ page: 1, limit: 100, total: 52, totalPages: 1 })
    })

    it('breaks ties in creation time by id, descending', async () => {
      const tenant = await createTenant(t)
      const { refs } = await makeShiftReferences(t.database.db, tenant.organisationId)
      const ids: string[] = []
      for (let i = 0; i < 5; i++) ids.push((await makeShift(t.database.db, tenant.organisationId, refs)).id)
      await setCreatedAt(t.database.db, 'shifts', ids, nextTimestamp())
      await expectTiesBrokenById(shifts(tenant), ids)
    })

    it.each([...BAD_PAGE_QUERIES, 'day=FUNDAY', 'day=monday', 'isActive=true', `userId=${'x'.repeat(201)}`])(
      'rejects ?%s with 400 VALIDATION_ERROR',
      async (query) => expectQueryRefused(shifts(await createTenant(t)), query),
    )

    it('filters by locationId, userId and day', async () => {
      const tenant = await createTenant(t)
      const db = t.database.db
      const org = tenant.organisationId
      const north = await makeShiftReferences(db, org, { location: 'North' })
      const south = await makeLocation(db, org, { name: 'South' })
      const otherWorker = await makeUser(db, org, { name: 'Lee' })
      const a = await makeShift(db, org, north.refs, { day: 'MONDAY' })
      const b = await makeShift(db, org, { ...north.refs, userId: otherWorker.id }, { day: 'TUESDAY' })
      const c = await makeShift(db, org, { ...north.refs, locationId: south.id }, { day: 'MONDAY' })

      expect(await listIds(tenant, `?locationId=${north.location.id}`)).toEqual([b.id, a.id])
      expect(await listIds(tenant, `?locationId=${south.id}`)).toEqual([c.id])
      expect(await listIds(tenant, `?userId=${north.user.id}`)).toEqual([c.id, a.id])
      expect(await listIds(tenant, `?userId=${otherWorker.id}`)).toEqual([b.id])
      expect(await listIds(tenant, '?day=MONDAY')).toEqual([c.id, a.id])
      expect(await listIds(tenant, '?day=SUNDAY')).toEqual([])
      const combined = await get(
        tenant,
        `/shifts?day=MONDAY&locationId=${north.location.id}&userId=${north.user.id}`,
      )
      expect(combined.json().data.shifts.map((s: { id: string }) => s.id)).toEqual([a.id])
      expect(combined.json().data.pagination).toEqual({ page: 1, limit: 50, total: 1, totalPages: 1 })
    })

    it("never shows another organisation's shifts", async () => {
      const mine = await createTenant(t)
      const theirs = await createTenant(t)
      const my = await makeShiftReferences(t.database.db, mine.organisationId)
      const their = await makeShiftReferences(t.database.db, theirs.organisationId)
      const myShift = await makeShift(t.database.db, mine.organisationId, my.refs)
      const theirShift = await makeShift(t.database.db, theirs.organisationId, their.refs, {
        breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
      })

      const res = await get(mine, `/shifts/${theirShift.id}`)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ error: 'Shift not found', code: 'NOT_FOUND' })
      const list = await get(mine, '/shifts')
      expect(list.json().data.shifts.map((s: { id: string }) => s.id)).toEqual([myShift.id])
      expect(list.json().data.pagination.total).toBe(1)
      for (const filter of [`locationId=${their.location.id}`, `userId=${their.user.id}`]) {
        const foreign = await get(mine, `/shifts?${filter}`)
        expect(foreign.json().data).toEqual({
          shifts: [],
          pagination: { page: 1, limit: 50, total: 0, totalPages: 0 },
        })
      }
      expect(await listIds(theirs)).toEqual([theirShift.id])
    })

    it('refuses a write-only key with 403 FORBIDDEN', async () => {
      const owner = await createTenant(t)
      const { refs } = await makeShiftReferences(t.database.db, owner.organisationId)
      const shift = await makeShift(t.database.db, owner.organisationId, refs)
      const writer = await createTenant(t, { scopes: ['write'] })
      for (const path of ['/shifts', `/shifts/${shift.id}`, '/shifts/anything']) {
        const res = await get(writer, path)
        expect(res.statusCode).toBe(403)
        expect(res.json().code).toBe('FORBIDDEN')
      }
    })

    it('loads breaks with a fixed number of queries, whatever the page size', async () => {
      const tenant = await createTenant(t)
      const db = t.database.db
      const { refs } = await makeShiftReferences(db, tenant.organisationId)
      for (let i = 0; i < 20; i++) {
        await makeShift(db, tenant.organisationId, refs, {
          breaks: [{ startTime: `${String(i).padStart(2, '0')}:00`, endTime: '23:00', isPaid: i % 2 === 0 }],
        })
      }
      const queriesFor = async (query: string) => {
        const spy = vi.spyOn(db, 'selectFrom')
        try {
          expect((await get(tenant, `/shifts${query}`)).statusCode).toBe(200)
          return spy.mock.calls.length
        } finally {
          spy.mockRestore()
        }
      }
      const one = await queriesFor('?limit=1')
      expect(one).toBeGreaterThan(0)
      expect(await queriesFor('?limit=20')).toBe(one)
      const page = (await get(tenant, '/shifts?limit=20')).json().data.shifts
      expect(page.map((s: { breaks: { startTime: string }[] }) => s.breaks.map((b) => b.startTime))).toEqual(
        Array.from({ length: 20 }, (_, i) => [`${String(19 - i).padStart(2, '0')}:00`]),
      )
    })
  })
}
