// The change feeds (an addition to the spec, docs/integrators.md): `updatedSince` on every public
// list, walked with a cursor while writes continue, and GET /events with the deletions lists cannot
// show. Both on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newId } from '../src/db/ids.js'
import { encodeCursor } from '../src/http/cursor.js'
import { assertDocumentedFeedEvent } from './event-payloads.js'
import { makeLocation, makeShift, makeShiftReferences, makeVehicle } from './factories.js'
import {
  adminClient,
  client,
  createKey,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from './helpers.js'

const EPOCH = '2000-01-01T00:00:00.000Z'
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()

type Api = ReturnType<typeof client>

/** Every page of a list read with updatedSince, following nextCursor; `between` runs after each page. */
async function walk(
  api: Api,
  path: string,
  query: string,
  between: (page: number) => Promise<void> = async () => {},
) {
  const resource = path.slice(1)
  const items: { id: string; updatedAt: string }[] = []
  let cursor: string | null = null
  let pages = 0
  do {
    const url: string = `${path}?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
    const response = await api.get(url)
    expect(response.status, url).toBe(200)
    const { pagination } = response.body.data
    expect(pagination.page).toBe(cursor ? null : 1)
    items.push(...response.body.data[resource])
    cursor = pagination.nextCursor
    await between(++pages)
  } while (cursor)
  return { items, pages }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: lists read with updatedSince`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect, { changeSettleMs: 0 })
    })
    afterAll(() => t.close())

    it('walks every job changed since, oldest change first, while jobs are created and changed meanwhile', async () => {
      const tenant = await createTenant(t)
      const api = client(t, tenant.headers)
      const created: string[] = []
      for (let i = 0; i < 12; i++)
        created.push((await api.post('/jobs', { title: `Job ${i}` })).body.data.job.id)
      // Another organisation's changes never show.
      const other = client(t, (await createTenant(t)).headers)
      await other.post('/jobs', { title: 'Not yours' })

      let added = 0
      const { items, pages } = await walk(api, '/jobs', `updatedSince=${EPOCH}&limit=5`, async (page) => {
        if (page > 2) return
        // A job already read changes (it comes again, later, with its new updatedAt), one not yet
        // read changes (it is read once, at its new place), and a new job appears (read once).
        await api.patch(`/jobs/${created[page - 1]}`, { title: `Seen, then changed ${page}` })
        await api.patch(`/jobs/${created[9 + page]}`, { title: `Changed before read ${page}` })
        await api.post('/jobs', { title: `Added ${page}` })
        added++
      })
      expect(pages).toBeGreaterThan(3)
      const versions = items.map((item) => `${item.id}@${item.updatedAt}`)
      expect(new Set(versions).size).toBe(versions.length)
      const times = items.map((item) => `${item.updatedAt}|${item.id}`)
      expect(times).toEqual([...times].sort())
      // Every job's latest version was read.
      const latest = (await api.get('/jobs?limit=100')).body.data.jobs as { id: string; updatedAt: string }[]
      expect(latest).toHaveLength(12 + added)
      for (const job of latest) expect(versions).toContain(`${job.id}@${job.updatedAt}`)
      expect(items).toHaveLength(12 + added + 2)
    })

    it('resumes from the last updatedAt read: later changes only, none skipped, none repeated', async () => {
      const tenant = await createTenant(t)
      const api = client(t, tenant.headers)
      for (let i = 0; i < 3; i++) await api.post('/jobs', { title: `First ${i}` })
      const first = await walk(api, '/jobs', `updatedSince=${EPOCH}&limit=2`)
      const mark = first.items.at(-1)?.updatedAt as string
      const job = (await api.post('/jobs', { title: 'Later' })).body.data.job
      const second = await walk(api, '/jobs', `updatedSince=${encodeURIComponent(mark)}&limit=2`)
      expect(second.items.map((item) => item.id)).toEqual([job.id])
    })

    it('keeps the filters, counts what changed, and answers the plain list exactly as before', async () => {
      const tenant = await createTenant(t)
      const api = client(t, tenant.headers)
      const high = (await api.post('/jobs', { title: 'High', priority: 'HIGH' })).body.data.job
      await api.post('/jobs', { title: 'Low', priority: 'LOW' })
      const filtered = await api.get(`/jobs?updatedSince=${EPOCH}&priority=HIGH`)
      expect(filtered.body.data.jobs.map((job: { id: string }) => job.id)).toEqual([high.id])
      expect(filtered.body.data.pagination).toEqual({
        page: 1,
        limit: 20,
        total: 1,
        totalPages: 1,
        nextCursor: null,
      })
      const later = await api.get(`/jobs?updatedSince=${encodeURIComponent(high.updatedAt)}&priority=HIGH`)
      expect(later.body.data).toEqual({
        jobs: [],
        pagination: { page: 1, limit: 20, total: 0, totalPages: 0, nextCursor: null },
      })
      // Without updatedSince nor cursor, the other lists have no nextCursor at all.
      await api.post('/customers', { name: 'Acme', latitude: 53.4, longitude: -2.2 })
      const customers = await api.get('/customers')
      expect(customers.body.data.pagination).toEqual({ page: 1, limit: 50, total: 1, totalPages: 1 })
    })

    it('holds back what changed within CHANGE_FEED_SETTLE_MS, until every earlier write has committed', async () => {
      const settled = await createTestApp(dialect, { changeSettleMs: 60_000 })
      try {
        const tenant = await createTenant(settled)
        const api = client(settled, tenant.headers)
        const old = (await api.post('/jobs', { title: 'Old' })).body.data.job
        const fresh = (await api.post('/jobs', { title: 'Fresh' })).body.data.job
        await settled.database.db
          .updateTable('jobs')
          .set({ updated_at: minutesAgo(2) })
          .where('id', '=', old.id)
          .execute()
        const feed = await api.get(`/jobs?updatedSince=${EPOCH}`)
        expect(feed.body.data.jobs.map((job: { id: string }) => job.id)).toEqual([old.id])
        // The plain list shows everything at once.
        const plain = await api.get('/jobs')
        expect(plain.body.data.jobs.map((job: { id: string }) => job.id).sort()).toEqual(
          [old.id, fresh.id].sort(),
        )
      } finally {
        await settled.close()
      }
    })

    it('reads customers, vehicles, locations and shifts as change feeds too, with their filters', async () => {
      const tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      const api = client(t, tenant.headers)
      const admin = adminClient(t, tenant.headers)
      const db = t.database.db
      const org = tenant.organisationId
      const refs = await makeShiftReferences(db, org)
      const depot2 = await makeLocation(db, org, { name: 'South Depot', code: 'STH' })
      const van2 = await makeVehicle(db, org, depot2.id, { name: 'Van 2' })
      const shifts = [
        await makeShift(db, org, refs.refs),
        await makeShift(db, org, refs.refs, { day: 'TUESDAY' }),
      ]
      const customers = []
      for (const name of ['A', 'B', 'C'])
        customers.push(
          (await api.post('/customers', { name, latitude: 53.4, longitude: -2.2 })).body.data.customer,
        )
      // Distinct past change times, oldest first in the order below.
      const rows = {
        customers: customers.map((c) => c.id),
        vehicles: [refs.vehicle.id, van2.id],
        locations: [refs.location.id, depot2.id],
        shifts: shifts.map((s) => s.id),
      }
      for (const [table, ids] of Object.entries(rows)) {
        for (const [i, id] of ids.entries()) {
          await db
            .updateTable(table as 'vehicles')
            .set({ updated_at: minutesAgo(60 - i) })
            .where('id', '=', id)
            .execute()
        }
      }
      for (const [path, ids] of Object.entries(rows)) {
        const { items } = await walk(api, `/${path}`, `updatedSince=${EPOCH}&limit=1`)
        expect(
          items.map((item) => item.id),
          path,
        ).toEqual(ids)
      }
      // A change moves a row to the end of its feed; the filters still apply.
      expect((await admin.patch(`/vehicles/${refs.vehicle.id}`, { name: 'Van 1b' })).status).toBe(200)
      const vehicles = await api.get(`/vehicles?updatedSince=${EPOCH}`)
      expect(vehicles.body.data.vehicles.map((v: { id: string }) => v.id)).toEqual([van2.id, refs.vehicle.id])
      expect(vehicles.body.data.pagination).toEqual({
        page: 1,
        limit: 50,
        total: 2,
        totalPages: 1,
        nextCursor: null,
      })
      const south = await api.get(`/vehicles?updatedSince=${EPOCH}&locationId=${depot2.id}`)
      expect(south.body.data.vehicles.map((v: { id: string }) => v.id)).toEqual([van2.id])
      const tuesday = await api.get(`/shifts?updatedSince=${EPOCH}&day=TUESDAY`)
      expect(tuesday.body.data.shifts.map((s: { id: string }) => s.id)).toEqual([shifts[1]?.id])
      const search = await api.get(`/customers?updatedSince=${EPOCH}&search=b`)
      expect(search.body.data.customers.map((c: { id: string }) => c.id)).toEqual([customers[1].id])
    })

    it('refuses a bad updatedSince or a cursor of the other kind, naming the field', async () => {
      const tenant = await createTenant(t)
      const api = client(t, tenant.headers)
      for (let i = 0; i < 3; i++) await api.post('/jobs', { title: `Job ${i}` })
      const changes = (await api.get(`/jobs?updatedSince=${EPOCH}&limit=1`)).body.data.pagination.nextCursor
      const list = (await api.get('/jobs?limit=1')).body.data.pagination.nextCursor
      const cases: [string, string][] = [
        ['/jobs?updatedSince=yesterday', '/query/updatedSince'],
        ['/customers?updatedSince=2026-13-01T00:00:00Z', '/query/updatedSince'],
        [`/jobs?cursor=${changes}`, '/query/cursor'],
        [`/jobs?updatedSince=${EPOCH}&cursor=${list}`, '/query/cursor'],
        [`/shifts?updatedSince=${EPOCH}&cursor=${changes}&page=2`, '/query/page'],
      ]
      for (const [url, field] of cases) {
        const response = await api.get(url)
        expect(response.status, url).toBe(400)
        expect(response.body.code).toBe('VALIDATION_ERROR')
        expect(
          response.body.details.map((d: { path: string }) => d.path),
          url,
        ).toContain(field)
      }
    })
  })

  describe(`${dialect}: GET /events`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect, { changeSettleMs: 0 })
    })
    afterAll(() => t.close())

    it('carries every event webhooks carry, with the same data, plus JOB_DELETED, oldest first', async () => {
      const tenant = await createTenant(t)
      const api = client(t, tenant.headers)
      const job = (await api.post('/jobs', { title: 'Boiler' })).body.data.job
      await api.patch(`/jobs/${job.id}`, { title: 'Boiler service' })
      const deleted = (await api.delete(`/jobs/${job.id}`)).body.data.job
      await client(t, (await createTenant(t)).headers).post('/jobs', { title: 'Not yours' })

      const response = await api.get('/events')
      expect(response.status).toBe(200)
      const { events, pagination } = response.body.data
      expect(events.map((e: { event: string }) => e.event)).toEqual([
        'JOB_CREATED',
        'JOB_UPDATED',
        'JOB_DELETED',
      ])
      for (const event of events) assertDocumentedFeedEvent(event)
      expect(events[2]).toEqual({
        id: expect.any(String),
        event: 'JOB_DELETED',
        timestamp: deleted.deletedAt,
        data: { jobId: job.id, title: 'Boiler service', status: 'CREATED', deletedAt: deleted.deletedAt },
      })
      // The same data the outbox holds for the webhooks.
      const outbox = await t.database.db
        .selectFrom('outbox_events')
        .select(['id', 'data'])
        .where('organisation_id', '=', tenant.organisationId)
        .execute()
      for (const event of events) {
        expect(JSON.parse(outbox.find((row) => row.id === event.id)?.data ?? 'null')).toEqual(event.data)
      }
      expect(pagination).toEqual({ limit: 50, nextCursor: null, resumeCursor: expect.any(String) })
    })

    it('pages with cursors, filters by type and time, and resumes from resumeCursor later', async () => {
      const tenant = await createTenant(t)
      const api = client(t, tenant.headers)
      const ids: string[] = []
      for (let i = 0; i < 4; i++) ids.push((await api.post('/jobs', { title: `Job ${i}` })).body.data.job.id)
      await api.delete(`/jobs/${ids[0]}`)
      const seen: string[] = []
      let cursor: string | null = null
      let resume: string | null = null
      do {
        const url: string = `/events?limit=2${cursor ? `&cursor=${cursor}` : ''}`
        const page = (await api.get(url)).body.data
        seen.push(
          ...page.events.map((e: { event: string; data: { jobId: string } }) => `${e.event}:${e.data.jobId}`),
        )
        cursor = page.pagination.nextCursor
        resume = page.pagination.resumeCursor
      } while (cursor)
      expect(seen).toEqual([...ids.map((id) => `JOB_CREATED:${id}`), `JOB_DELETED:${ids[0]}`])
      // Nothing new yet: an empty page that keeps the same resume position.
      const idle = (await api.get(`/events?cursor=${resume}`)).body.data
      expect(idle).toEqual({ events: [], pagination: { limit: 50, nextCursor: null, resumeCursor: resume } })
      const later = (await api.post('/jobs', { title: 'Later' })).body.data.job
      const next = (await api.get(`/events?cursor=${resume}`)).body.data.events
      expect(next.map((e: { data: { jobId: string } }) => e.data.jobId)).toEqual([later.id])

      const onlyDeleted = (await api.get('/events?type=JOB_DELETED')).body.data.events
      expect(onlyDeleted.map((e: { data: { jobId: string } }) => e.data.jobId)).toEqual([ids[0]])
      const two = (await api.get('/events?type=JOB_DELETED,JOB_CREATED&limit=100')).body.data.events
      expect(two).toHaveLength(6)
      const all = (await api.get('/events?limit=100')).body.data.events as { timestamp: string }[]
      const middle = all[2]?.timestamp as string
      const since = (await api.get(`/events?since=${encodeURIComponent(middle)}&limit=100`)).body.data.events
      expect(since.every((e: { timestamp: string }) => e.timestamp >= middle)).toBe(true)
      const until = (await api.get(`/events?until=${encodeURIComponent(middle)}&limit=100`)).body.data.events
      expect(until.every((e: { timestamp: string }) => e.timestamp < middle)).toBe(true)
      expect(since.length + until.length).toBe(all.length)
    })

    it('answers 410 CURSOR_EXPIRED for a cursor older than 30 days, 400 for bad input, 403 without read', async () => {
      const tenant = await createTenant(t)
      const api = client(t, tenant.headers)
      const old = encodeCursor(
        { at: new Date(Date.now() - 31 * 86_400_000).toISOString(), id: newId() },
        'events',
      )
      const expired = await api.get(`/events?cursor=${old}`)
      expect(expired.status).toBe(410)
      expect(expired.body.code).toBe('CURSOR_EXPIRED')
      const recent = encodeCursor(
        { at: new Date(Date.now() - 29 * 86_400_000).toISOString(), id: newId() },
        'events',
      )
      expect((await api.get(`/events?cursor=${recent}`)).status).toBe(200)
      for (const [url, field] of [
        ['/events?type=JOB_EXPLODED', '/query/type'],
        ['/events?since=soon', '/query/since'],
        ['/events?limit=101', '/query/limit'],
        [`/events?cursor=${encodeCursor({ at: EPOCH, id: newId() }, 'list')}`, '/query/cursor'],
      ] as const) {
        const response = await api.get(url)
        expect(response.status, url).toBe(400)
        expect(
          response.body.details.map((d: { path: string }) => d.path),
          url,
        ).toContain(field)
      }
      const writeOnly = await createKey(t, tenant.organisationId, { scopes: ['write'] })
      expect((await client(t, writeOnly.headers).get('/events')).status).toBe(403)
      expect((await client(t, {}).get('/events')).status).toBe(401)
    })
  })
}
