import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeLocation, makeUser, setJobState } from '../../../test/factories.js'
import {
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.js'

interface Listed {
  id: string
  createdAt: string
  status: string
  priority: string
  customerId: string | null
  locationId: string | null
}

const byListOrder = (a: Listed, b: Listed) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1

for (const dialect of DIALECTS) {
  describe(`${dialect}: GET /jobs`, () => {
    let t: TestContext
    let tenant: TestTenant
    let api: ReturnType<typeof client>
    let otherApi: ReturnType<typeof client>
    const ids: Record<string, string> = {}
    let customerId: string
    let locationId: string

    beforeAll(async () => {
      t = await createTestApp(dialect)
      tenant = await createTenant(t)
      const other = await createTenant(t)
      api = client(t, tenant.headers)
      otherApi = client(t, other.headers)
      customerId = (await api.post('/customers', { name: 'Filter Co', latitude: 53, longitude: -2 })).body
        .data.customer.id
      locationId = (await makeLocation(t.database.db, tenant.organisationId)).id
      const create = async (name: string, body: Record<string, unknown>) => {
        const response = await api.post('/jobs', { title: name, ...body })
        expect(response.status).toBe(201)
        ids[name] = response.body.data.job.id
      }
      // Windows around the UTC day 2026-11-23.
      await create('inside', { earliestStart: '2026-11-23T09:00:00Z', latestEnd: '2026-11-23T11:00:00Z' })
      await create('spanning', { earliestStart: '2026-11-22T09:00:00Z', latestEnd: '2026-11-25T11:00:00Z' })
      await create('ends at day start', {
        earliestStart: '2026-11-22T20:00:00Z',
        latestEnd: '2026-11-23T00:00:00Z',
      })
      await create('starts next day', {
        earliestStart: '2026-11-24T00:00:00Z',
        latestEnd: '2026-11-24T02:00:00Z',
      })
      await create('open start', { latestEnd: '2026-11-23T05:00:00Z' })
      await create('open end', { earliestStart: '2026-11-23T23:59:59.999Z' })
      await create('open end later', { earliestStart: '2026-11-24T00:00:00Z' })
      await create('no window', {})
      await create('offset input', {
        earliestStart: '2026-11-24T00:30:00+02:00',
        latestEnd: '2026-11-24T03:00:00+02:00',
      })
      await create('with customer', { customerId, priority: 'HIGH' })
      await create('with location', { locationId, priority: 'LOW' })
      await otherApi.post('/jobs', {
        title: 'other org',
        earliestStart: '2026-11-23T09:00:00Z',
        priority: 'HIGH',
      })
    })
    afterAll(() => t.close())

    const titles = async (query: string) => {
      const response = await api.get(`/jobs?limit=100&${query}`)
      expect(response.status).toBe(200)
      return (response.body.data.jobs as { title: string }[]).map((j) => j.title).sort()
    }

    it('lists with the listed shape, newest first, default page size 20', async () => {
      const response = await api.get('/jobs')
      expect(response.status).toBe(200)
      const { jobs, pagination } = response.body.data
      expect(pagination).toEqual({ page: 1, limit: 20, total: 11, totalPages: 1, nextCursor: null })
      expect(jobs).toHaveLength(11)
      expect([...jobs].sort(byListOrder)).toEqual(jobs)
      const withCustomer = jobs.find((j: { title: string }) => j.title === 'with customer')
      expect(withCustomer.customer).toEqual({ id: customerId, name: 'Filter Co' })
      expect(withCustomer.location).toBeNull()
      expect(withCustomer.assignedUser).toBeNull()
      expect(withCustomer).not.toHaveProperty('tags')
      expect(withCustomer).not.toHaveProperty('shiftId')
      const withLocation = jobs.find((j: { title: string }) => j.title === 'with location')
      expect(withLocation.location).toEqual({ id: locationId, name: 'North Depot' })
    })

    it('filters by status, priority, customerId and locationId, alone and combined', async () => {
      const user = await makeUser(t.database.db, tenant.organisationId, {
        name: 'Ana',
        email: 'ana@example.com',
      })
      await setJobState(t.database.db, tenant.organisationId, ids.inside as string, {
        status: 'ASSIGNED',
        assignedUserId: user.id,
      })
      expect(await titles('status=ASSIGNED')).toEqual(['inside'])
      const assigned = (await api.get('/jobs?status=ASSIGNED')).body.data.jobs[0]
      expect(assigned.assignedUser).toEqual({ id: user.id, name: 'Ana', email: 'ana@example.com' })
      expect(await titles('status=COMPLETED')).toEqual([])
      expect(await titles('priority=HIGH')).toEqual(['with customer'])
      expect(await titles('priority=LOW')).toEqual(['with location'])
      expect((await titles('priority=NORMAL')).length).toBe(9)
      expect(await titles(`customerId=${customerId}`)).toEqual(['with customer'])
      expect(await titles(`locationId=${locationId}`)).toEqual(['with location'])
      expect(await titles(`customerId=${customerId}&priority=LOW`)).toEqual([])
      expect(await titles('customerId=unknown')).toEqual([])
      const total = (await api.get('/jobs?status=CREATED&priority=NORMAL')).body.data.pagination.total
      expect(total).toBe(8)
    })

    it('targetDate matches windows overlapping the UTC day, open bounds included', async () => {
      // 'offset input' is 2026-11-23T22:30Z to 2026-11-24T01:00Z: it overlaps both days.
      expect(await titles('targetDate=2026-11-23')).toEqual(
        ['ends at day start', 'inside', 'offset input', 'open end', 'open start', 'spanning'].sort(),
      )
      expect(await titles('targetDate=2026-11-24')).toEqual(
        ['offset input', 'open end', 'open end later', 'spanning', 'starts next day'].sort(),
      )
      expect(await titles('targetDate=2026-11-25')).toEqual(['open end', 'open end later', 'spanning'].sort())
      expect(await titles('targetDate=2026-11-20')).toEqual(['open start'])
      expect(await titles('targetDate=9999-12-31')).toEqual(['open end', 'open end later'])
      expect(await titles('targetDate=0001-01-01')).toEqual(['open start'])
      expect(await titles('targetDate=2026-11-23&status=CREATED')).not.toContain('no window')
      // An empty id filters nothing, with or without a date.
      expect(await titles('targetDate=2026-11-23&customerId=&locationId=')).toEqual(
        await titles('targetDate=2026-11-23'),
      )
    })

    it('never shows another organisation’s jobs', async () => {
      const all = await titles('')
      expect(all).not.toContain('other org')
      expect((await api.get('/jobs?priority=HIGH')).body.data.pagination.total).toBe(1)
    })

    it.each([
      'limit=101',
      'limit=0',
      'limit=-1',
      'limit=abc',
      'limit=2.5',
      'page=0',
      'page=-3',
      'page=1e20',
      'page=',
      'status=DONE',
      'status=created',
      'priority=URGENT',
      'targetDate=2026-02-30',
      'targetDate=23-11-2026',
      'targetDate=tomorrow',
      'targetDate=0000-01-01',
      'colour=red',
      `customerId=${'x'.repeat(201)}`,
    ])('rejects ?%s with 400 VALIDATION_ERROR', async (query) => {
      const response = await api.get(`/jobs?${query}`)
      expect(response.status).toBe(400)
      expect(response.body.code).toBe('VALIDATION_ERROR')
      expect(response.body.details.length).toBeGreaterThan(0)
    })

    it('accepts limit=100 and a page past the end', async () => {
      expect((await api.get('/jobs?limit=100')).body.data.pagination.limit).toBe(100)
      const past = await api.get('/jobs?page=50')
      expect(past.status).toBe(200)
      expect(past.body.data).toEqual({
        jobs: [],
        pagination: { page: 50, limit: 20, total: 11, totalPages: 1, nextCursor: null },
      })
    })

    it('pages through every job exactly once', async () => {
      for (let i = 0; i < 34; i++) expect((await api.post('/jobs', { title: `bulk ${i}` })).status).toBe(201)
      const seen: Listed[] = []
      const first = (await api.get('/jobs?limit=7')).body.data.pagination
      expect(first).toEqual({ page: 1, limit: 7, total: 45, totalPages: 7, nextCursor: expect.any(String) })
      for (let page = 1; page <= first.totalPages; page++) {
        const response = await api.get(`/jobs?limit=7&page=${page}`)
        expect(response.body.data.pagination.page).toBe(page)
        seen.push(...response.body.data.jobs)
      }
      expect(seen).toHaveLength(45)
      expect(new Set(seen.map((j) => j.id)).size).toBe(45)
      expect([...seen].sort(byListOrder)).toEqual(seen)

      // The same walk with cursors: the same rows in the same order, and a null cursor at the end.
      const walked: Listed[] = []
      let cursor: string | null = null
      let pages = 0
      do {
        const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
        const { jobs, pagination } = (await api.get(`/jobs?limit=7${query}`)).body.data
        expect(pagination).toMatchObject({ page: cursor ? null : 1, limit: 7, total: 45, totalPages: 7 })
        walked.push(...jobs)
        cursor = pagination.nextCursor
        pages++
      } while (cursor)
      expect(pages).toBe(7)
      expect(walked.map((j) => j.id)).toEqual(seen.map((j) => j.id))
    })

    it('walks a filtered list with cursors, rows sharing a createdAt included', async () => {
      const tied = await t.database.db
        .selectFrom('jobs')
        .select(['id'])
        .where('organisation_id', '=', tenant.organisationId)
        .orderBy('id')
        .limit(6)
        .execute()
      await t.database.db
        .updateTable('jobs')
        .set({ created_at: '2026-01-01T00:00:00.000Z', priority: 'LOW' })
        .where(
          'id',
          'in',
          tied.map((j) => j.id),
        )
        .execute()
      const all = (await api.get('/jobs?priority=LOW&limit=100')).body.data.jobs as Listed[]
      const walked: Listed[] = []
      let cursor = ''
      do {
        const { jobs, pagination } = (
          await api.get(`/jobs?priority=LOW&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
        ).body.data
        walked.push(...jobs)
        cursor = pagination.nextCursor ?? ''
      } while (cursor)
      expect(walked.map((j) => j.id)).toEqual(all.map((j) => j.id))
      expect(walked.every((j) => j.priority === 'LOW')).toBe(true)
    })

    it.each([
      ['a cursor we did not issue', 'cursor=bm90LWEtY3Vyc29y', '/query/cursor'],
      ['an empty cursor', 'cursor=', '/query/cursor'],
      [
        'a cursor with a page',
        `cursor=${Buffer.from('v1|2026-01-01T00:00:00.000Z|x').toString('base64url')}&page=2`,
        '/query/page',
      ],
    ])('refuses %s with 400', async (_case, query, path) => {
      const response = await api.get(`/jobs?${query}`)
      expect(response.status).toBe(400)
      expect(response.body.code).toBe('VALIDATION_ERROR')
      expect(response.body.details[0].path).toBe(path)
    })
  })
}
