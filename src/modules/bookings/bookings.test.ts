// Booking windows (issue 32 §4): POST /availability offers the windows a worker can still take, each
// with a 10-minute single-use token; POST /jobs with it books the window (created + assigned) or
// answers 409 SLOT_TAKEN — once, however many customers race for it.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeLocation, makeShift, makeTag, makeUser, makeVehicle } from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'

// 2026-12-07 is a Monday; London is on UTC in December, so local times read as UTC.
const MONDAY = '2026-12-07'
const at = (hhmm: string, date = MONDAY) => `${date}T${hhmm}:00.000Z`
const DEPOT = { latitude: 53.4808, longitude: -2.2426 }
// About 10 km north of the depot: ≈ 13 km by road at 40 km/h, about 20 minutes.
const NORTH = { latitude: 53.5708, longitude: -2.2426 }
const minutes = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 60_000

interface Window {
  windowStart: string
  windowEnd: string
  userId: string
  shiftId: string
  addedKm: number
  addedMinutes: number
  bookingToken: string
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: booking windows`, () => {
    let t: TestContext
    let now = Date.parse('2026-12-01T09:00:00.000Z')
    beforeAll(async () => {
      t = await createTestApp(dialect, {}, { clock: () => now })
    })
    afterAll(() => t.close())

    /** Tom works Mondays `hours` in Van T (Gas safe), from the depot. */
    async function setup(
      hours: {
        startTime: string
        endTime: string
        breaks?: { startTime: string; endTime: string; isPaid: boolean }[]
      } = { startTime: '08:00', endTime: '12:00' },
    ) {
      now = Date.parse('2026-12-01T09:00:00.000Z')
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      const db = t.database.db
      const org = tenant.organisationId
      const depot = await makeLocation(db, org, { name: 'Salford', isPrimary: true })
      const gas = await makeTag(db, org, 'Gas safe')
      const ladder = await makeTag(db, org, 'Long ladder')
      const tom = await makeUser(db, org, { name: 'Tom' })
      const van = await makeVehicle(db, org, depot.id, { name: 'Van T', tagIds: [gas.id] })
      const shift = await makeShift(
        db,
        org,
        { userId: tom.id, locationId: depot.id, vehicleId: van.id },
        hours,
      )
      const api = client(t, tenant.headers)
      const admin = adminClient(t, tenant.headers)
      const ask = (body: Record<string, unknown>) =>
        api.post('/availability', {
          coordinates: NORTH,
          serviceDuration: 1800,
          dateFrom: MONDAY,
          dateTo: MONDAY,
          windowLength: 3600,
          ...body,
        })
      const windows = async (body: Record<string, unknown> = {}) => {
        const answer = await ask(body)
        expect(answer.status, answer.body.error).toBe(200)
        return answer.body.data.windows as Window[]
      }
      const countJobs = async () => {
        const { rows } = await sql<{ n: number | string }>`
          select count(*) as n from jobs where organisation_id = ${org}`.execute(db)
        return Number(rows[0]?.n)
      }
      const eventTypes = async () => {
        const { rows } = await sql<{ event: string }>`
          select event from outbox_events where organisation_id = ${org} order by id`.execute(db)
        return rows.map((r) => r.event)
      }
      return { tenant, org, api, admin, ask, windows, tom, shift, gas, ladder, countJobs, eventTypes }
    }

    it('offers the windows that keep a HARD job and the shift end, cheapest first, and books one', async () => {
      const s = await setup()
      // A HARD visit at the depot 10:00–11:00, already planned.
      const fixed = await s.api.post('/jobs', {
        title: 'Boiler service',
        serviceDuration: 3600,
        jobLatitude: DEPOT.latitude,
        jobLongitude: DEPOT.longitude,
        timeWindowType: 'HARD',
        earliestStart: at('10:00'),
        latestEnd: at('11:00'),
      })
      expect(fixed.status).toBe(201)
      const assigned = await s.admin.post(`/jobs/${fixed.body.data.job.id}/assign`, {
        userId: s.tom.id,
        shiftId: s.shift.id,
        scheduledStart: at('10:00'),
        scheduledEnd: at('11:00'),
      })
      expect(assigned.status, assigned.body.error).toBe(200)

      const offered = await s.windows()
      // 08:00 and 09:00 fit before the visit at 10:00 (20 min there and back); 10:00 would make it late
      // or start after 11:00; 11:00 starts 11:20 and is home 12:10, after the shift's end.
      expect(offered.map((w) => w.windowStart).sort()).toEqual([at('08:00'), at('09:00')])
      for (const w of offered) {
        expect(w.userId).toBe(s.tom.id)
        expect(w.bookingToken).toMatch(/^bk_[A-Za-z0-9_-]{24}$/)
        expect(w.addedKm).toBeGreaterThan(20)
        expect(w.addedMinutes).toBeGreaterThan(30)
      }
      const nine = offered.find((w) => w.windowStart === at('09:00')) as Window
      const booked = await s.api.post('/jobs', { title: 'Leak', bookingToken: nine.bookingToken })
      expect(booked.status, booked.body.error).toBe(201)
      const job = booked.body.data.job
      expect(job).toMatchObject({
        status: 'ASSIGNED',
        timeWindowType: 'HARD',
        earliestStart: at('09:00'),
        latestEnd: at('10:30'),
        serviceDuration: 1800,
        scheduledStart: at('09:00'),
        scheduledEnd: at('09:30'),
      })
      expect(job.assignedUser?.id ?? job.assignedUserId).toBe(s.tom.id)
      // The HARD visit keeps its time, reachable after the booking: 09:30 + 20 min drive ≤ 10:00.
      const after = await s.api.get(`/jobs/${fixed.body.data.job.id}`)
      expect(after.body.data.job.scheduledStart).toBe(at('10:00'))
      expect(minutes(job.scheduledEnd, after.body.data.job.scheduledStart)).toBeGreaterThanOrEqual(20)
      expect(await s.eventTypes()).toEqual(expect.arrayContaining(['JOB_CREATED', 'JOB_ASSIGNED']))
      expect((await s.eventTypes()).slice(-3)).toContain('JOB_ASSIGNED')

      // Single use.
      const again = await s.api.post('/jobs', { title: 'Leak', bookingToken: nine.bookingToken })
      expect(again.status).toBe(400)
      expect(again.body.details[0].path).toBe('/body/bookingToken')
      // The 09:00 window is gone now; 08:00 is still free (done by 08:50, at the same place at 09:00).
      expect((await s.windows()).map((w) => w.windowStart)).toEqual([at('08:00')])
    })

    it('answers 409 SLOT_TAKEN, writing nothing, when another booking took the window', async () => {
      const s = await setup({ startTime: '08:00', endTime: '10:00' })
      const body = { coordinates: DEPOT, serviceDuration: 5400, windowLength: 7200 }
      const [first] = await s.windows(body)
      const [second] = await s.windows(body)
      expect(first?.windowStart).toBe(at('08:00'))
      expect(second?.windowStart).toBe(at('08:00'))
      expect((await s.api.post('/jobs', { title: 'A', bookingToken: first?.bookingToken })).status).toBe(201)
      const jobs = await s.countJobs()
      const taken = await s.api.post('/jobs', { title: 'B', bookingToken: second?.bookingToken })
      expect(taken.status).toBe(409)
      expect(taken.body.code).toBe('SLOT_TAKEN')
      expect(await s.countJobs()).toBe(jobs)
    })

    it('gives a racing slot to exactly one of ten customers', async () => {
      const s = await setup({ startTime: '08:00', endTime: '10:00' })
      const body = { coordinates: DEPOT, serviceDuration: 5400, windowLength: 7200 }
      const tokens: string[] = []
      for (let i = 0; i < 10; i++) tokens.push(((await s.windows(body))[0] as Window).bookingToken)
      const answers = await Promise.all(
        tokens.map((bookingToken, i) => s.api.post('/jobs', { title: `Race ${i}`, bookingToken })),
      )
      const statuses = answers.map((a) => a.status).sort()
      expect(statuses).toEqual([201, ...new Array(9).fill(409)])
      for (const a of answers) if (a.status === 409) expect(a.body.code).toBe('SLOT_TAKEN')
      expect(await s.countJobs()).toBe(1)
    })

    it('refuses an expired token (410) and another organisation’s (as unknown)', async () => {
      const s = await setup()
      const [w] = await s.windows()
      const other = await createTenant(t, { scopes: ['read', 'write'] })
      const foreign = await client(t, other.headers).post('/jobs', {
        title: 'X',
        bookingToken: w?.bookingToken,
      })
      expect(foreign.status).toBe(400)
      expect(foreign.body.details[0].path).toBe('/body/bookingToken')
      expect(foreign.body.error).not.toContain(s.org)
      now += 11 * 60_000
      const late = await s.api.post('/jobs', { title: 'X', bookingToken: w?.bookingToken })
      expect(late.status).toBe(410)
      expect(late.body.code).toBe('BOOKING_EXPIRED')
      expect(await s.countJobs()).toBe(0)
    })

    it('offers nothing before now on today, and only workers whose vehicle has the tags', async () => {
      const s = await setup()
      now = Date.parse(at('09:30'))
      expect((await s.windows()).map((w) => w.windowStart).sort()).toEqual([at('10:00'), at('11:00')])
      now = Date.parse('2026-12-01T09:00:00.000Z')
      expect((await s.windows({ tags: [s.gas.id] })).length).toBeGreaterThan(0)
      expect(await s.windows({ tags: [s.ladder.id] })).toEqual([])
    })

    it('books for a customer, and offers the afternoon of a day that already starts late', async () => {
      const s = await setup()
      const customer = await s.api.post('/customers', {
        name: 'Ada',
        latitude: NORTH.latitude,
        longitude: NORTH.longitude,
      })
      expect(customer.status, customer.body.error).toBe(201)
      // An 08:00 visit 20 minutes from the depot: the day cannot be on time from its start.
      const early = await s.api.post('/jobs', {
        title: 'Early',
        serviceDuration: 1800,
        jobLatitude: NORTH.latitude,
        jobLongitude: NORTH.longitude,
      })
      const assigned = await s.admin.post(`/jobs/${early.body.data.job.id}/assign`, {
        userId: s.tom.id,
        shiftId: s.shift.id,
        scheduledStart: at('08:00'),
        scheduledEnd: at('08:30'),
      })
      expect(assigned.status, assigned.body.error).toBe(200)
      const offered = await s.windows({ coordinates: undefined, customerId: customer.body.data.customer.id })
      // 08:00 too: the visit can start 08:20 (not 08:00) and be done 08:50, in time for this one.
      expect(offered.map((w) => w.windowStart).sort()).toEqual([
        at('08:00'),
        at('09:00'),
        at('10:00'),
        at('11:00'),
      ])
      // Next door to the visit before it: nothing more to drive there, only the way home changes.
      const nine = offered.find((w) => w.windowStart === at('09:00')) as Window
      expect(nine.addedKm).toBe(0)
      const booked = await s.api.post('/jobs', { title: 'Ada', bookingToken: nine.bookingToken })
      expect(booked.status, booked.body.error).toBe(201)
      expect(booked.body.data.job.customer.id).toBe(customer.body.data.customer.id)
      expect(booked.body.data.job.scheduledStart).toBe(at('09:00'))
      const mismatch = await s.api.post('/jobs', {
        title: 'Ada',
        bookingToken: (offered.find((w) => w.windowStart === at('10:00')) as Window).bookingToken,
        serviceDuration: 60,
      })
      expect(mismatch.status).toBe(400)
      expect(mismatch.body.details[0].path).toBe('/body/serviceDuration')
    })

    it('reads each day of the range on its own: a route under way today, breaks, an absence next week', async () => {
      const s = await setup({
        startTime: '08:00',
        endTime: '17:00',
        breaks: [{ startTime: '12:00', endTime: '13:00', isPaid: false }],
      })
      const NEXT = '2026-12-14'
      const away = await s.admin.post(`/team/users/${s.tom.id}/absences`, {
        startDate: NEXT,
        endDate: NEXT,
        reason: 'OTHER',
        startTime: '14:00',
        endTime: '15:00',
      })
      expect(away.status, away.body.error).toBe(201)
      // Today Tom started a three-hour job up north at 08:15: his route goes on from there at 11:15.
      const job = await s.api.post('/jobs', {
        title: 'Rewire',
        serviceDuration: 3 * 3600,
        jobLatitude: NORTH.latitude,
        jobLongitude: NORTH.longitude,
      })
      expect(job.status).toBe(201)
      const id = job.body.data.job.id
      const assigned = await s.admin.post(`/jobs/${id}/assign`, {
        userId: s.tom.id,
        shiftId: s.shift.id,
        scheduledStart: at('08:15'),
        scheduledEnd: at('11:15'),
      })
      expect(assigned.status, assigned.body.error).toBe(200)
      const started = await s.admin.post(`/jobs/${id}/start`, {})
      expect(started.status, started.body.error).toBe(200)
      // The lifecycle stamps startedAt with the server's real time, not the test clock: set it here.
      await sql`update jobs set started_at = ${at('08:15')} where id = ${id}`.execute(t.database.db)
      now = Date.parse(at('09:10'))

      const offered = await s.windows({ dateTo: NEXT })
      const on = (date: string) =>
        offered.filter((w) => w.windowStart.startsWith(date)).map((w) => w.windowStart.slice(11, 16))
      // Today: nothing before the job's end; then next door to the booking (no km added), the 12:00
      // window served when the break is over, and every hour to the end of the shift.
      expect(on(MONDAY).sort()).toEqual(['11:00', '12:00', '13:00', '14:00', '15:00', '16:00'])
      for (const w of offered.filter((x) => x.windowStart.startsWith(MONDAY))) expect(w.addedKm).toBe(0)
      // Next Monday from the depot, ≈ 20 minutes away: not 12:00 (the break, and 13:20 is too late after
      // it) nor 14:00 (the absence, and 15:20 is too late after it).
      expect(on(NEXT).sort()).toEqual(['08:00', '09:00', '10:00', '11:00', '13:00', '15:00', '16:00'])
      for (const w of offered.filter((x) => x.windowStart.startsWith(NEXT))) {
        expect(w.addedKm).toBeGreaterThan(20)
      }
    })

    it('names the field of bad input', async () => {
      const s = await setup()
      const field = async (body: Record<string, unknown>) => {
        const answer = await s.ask(body)
        expect(answer.status).toBe(400)
        return answer.body.details[0].path as string
      }
      expect(await field({ windowLength: 100 })).toBe('/body/windowLength')
      expect(await field({ customerId: 'nope' })).toBe('/body/customerId')
      expect(await field({ coordinates: undefined })).toBe('/body/customerId')
      expect(await field({ dateTo: '2026-12-06' })).toBe('/body/dateTo')
      expect(await field({ dateTo: '2027-03-01' })).toBe('/body/dateTo')
      expect(await field({ tags: ['missing'] })).toBe('/body/tags/0')
      expect(await field({ coordinates: { latitude: 91, longitude: 0 } })).toMatch(/^\/body\/coordinates/)
      const [w] = await s.windows()
      const withWindow = await s.api.post('/jobs', {
        title: 'X',
        bookingToken: w?.bookingToken,
        earliestStart: at('08:00'),
      })
      expect(withWindow.status).toBe(400)
      expect(withWindow.body.details[0].path).toBe('/body/earliestStart')
      const unknown = await s.api.post('/jobs', { title: 'X', bookingToken: 'bk_nothing' })
      expect(unknown.status).toBe(400)
      expect(unknown.body.details[0].path).toBe('/body/bookingToken')
    })
  })
}
