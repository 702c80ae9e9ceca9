import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  makeLocation,
  makeShift,
  makeTag,
  makeUser,
  makeVehicle,
  setJobState,
  tagJob,
} from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { makeDashboardUser, sessionClient, signIn } from '../../../test/sessions.js'
import { greatCircleMatrix } from '../../optimiser/travel.js'
import { loadDayInputs } from '../route-plans/day-inputs.js'
import { toRoutingModel } from '../route-plans/optimiser-model.js'

// 2026-12-07 is a Monday. New York is UTC-5 in December: its 08:00 is 13:00Z.
const DATE = '2026-12-07'
const NEXT_MONDAY = '2026-12-14'

for (const dialect of DIALECTS) {
  describe(`${dialect}: the dispatch board`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    /** A New York depot with Ana (08:00–16:00, lunch 12:00–12:30) and a London depot with Ben. */
    async function makeDay() {
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      const db = t.database.db
      const org = tenant.organisationId
      const admin = adminClient(t, tenant.headers)
      const api = client(t, tenant.headers)
      const york = await makeLocation(db, org, {
        name: 'Queens',
        timezone: 'America/New_York',
        isPrimary: true,
      })
      const london = await makeLocation(db, org, { name: 'Salford', timezone: 'Europe/London' })
      const ana = await makeUser(db, org, { name: 'Ana' })
      const ben = await makeUser(db, org, { name: 'Ben' })
      const anaVan = await makeVehicle(db, org, york.id, {
        name: 'Van A',
        startLatitude: null,
        startLongitude: null,
      })
      const benVan = await makeVehicle(db, org, london.id, { name: 'Van B' })
      const anaShift = await makeShift(
        db,
        org,
        { userId: ana.id, locationId: york.id, vehicleId: anaVan.id },
        {
          day: 'MONDAY',
          startTime: '08:00',
          endTime: '16:00',
          breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
        },
      )
      const benShift = await makeShift(
        db,
        org,
        { userId: ben.id, locationId: london.id, vehicleId: benVan.id },
        { day: 'MONDAY', startTime: '07:00', endTime: '15:00' },
      )
      // Tuesday's shift is not on a Monday's board.
      await makeShift(
        db,
        org,
        { userId: ben.id, locationId: london.id, vehicleId: benVan.id },
        { day: 'TUESDAY' },
      )
      const customer = await api.post('/customers', {
        name: 'Corner Bakery',
        latitude: 40.7128,
        longitude: -74.006,
      })
      expect(customer.status).toBe(201)
      const job = async (body: Record<string, unknown>) => {
        const created = await api.post('/jobs', { serviceDuration: 3600, ...body })
        expect(created.status).toBe(201)
        return created.body.data.job.id as string
      }
      const jobs = {
        waiting: await job({
          title: 'Fix oven',
          customerId: customer.body.data.customer.id,
          earliestStart: `${DATE}T13:00:00Z`,
          latestEnd: `${DATE}T21:00:00Z`,
          priority: 'HIGH',
        }),
        noWindow: await job({
          title: 'Any day',
          jobLatitude: 53.5,
          jobLongitude: -2.3,
          locationId: london.id,
        }),
        otherDay: await job({
          title: 'Tuesday only',
          earliestStart: '2026-12-08T09:00:00Z',
          latestEnd: '2026-12-08T17:00:00Z',
        }),
        scheduled: await job({ title: 'Boiler service', jobLatitude: 40.75, jobLongitude: -73.99 }),
        nextWeek: await job({ title: 'Next week' }),
        done: await job({ title: 'Done already', jobLatitude: 40.7, jobLongitude: -73.9 }),
      }
      const tag = await makeTag(db, org, 'gas-safe')
      await tagJob(db, org, jobs.waiting, tag.id)
      const assign = (id: string, start: string, end: string) =>
        admin.post(`/jobs/${id}/assign`, {
          userId: ana.id,
          shiftId: anaShift.id,
          scheduledStart: start,
          scheduledEnd: end,
        })
      expect((await assign(jobs.scheduled, `${DATE}T14:00:00Z`, `${DATE}T15:00:00Z`)).status).toBe(200)
      expect(
        (await assign(jobs.nextWeek, `${NEXT_MONDAY}T14:00:00Z`, `${NEXT_MONDAY}T15:00:00Z`)).status,
      ).toBe(200)
      // On Ana's shift, but Sunday evening in New York (though Monday in UTC): not Monday's.
      const sundayEvening = await job({ title: 'Sunday evening' })
      await setJobState(db, org, sundayEvening, {
        status: 'ASSIGNED',
        assignedUserId: ana.id,
        shiftId: anaShift.id,
        scheduledStart: `${DATE}T02:00:00Z`,
        scheduledEnd: `${DATE}T03:00:00Z`,
      })
      await setJobState(db, org, jobs.done, {
        status: 'COMPLETED',
        assignedUserId: ana.id,
        shiftId: anaShift.id,
        scheduledStart: `${DATE}T19:00:00Z`,
        scheduledEnd: `${DATE}T20:00:00Z`,
      })
      return { tenant, admin, org, york, london, ana, ben, anaShift, benShift, jobs, tag }
    }

    it('places each shift on the date in its depot’s zone with its breaks, its jobs, and the waiting jobs', async () => {
      const day = await makeDay()
      const answer = await day.admin.get(`/board?date=${DATE}`)
      expect(answer.status).toBe(200)
      const board = answer.body.data.board
      expect(board).toMatchObject({
        date: DATE,
        locationId: null,
        timezone: 'America/New_York',
        dayStart: `${DATE}T05:00:00.000Z`,
        dayEnd: '2026-12-08T05:00:00.000Z',
      })
      expect(board.depots.map((d: { name: string }) => d.name)).toEqual(['Queens', 'Salford'])
      expect(board.rows).toEqual([
        {
          shiftId: day.benShift.id,
          user: { id: day.ben.id, name: 'Ben', colour: 2 },
          vehicle: { id: expect.any(String), name: 'Van B' },
          locationId: day.london.id,
          start: `${DATE}T07:00:00.000Z`,
          end: `${DATE}T15:00:00.000Z`,
          breaks: [],
          origin: { latitude: '53.4808', longitude: '-2.2426' },
          endPolicy: 'RETURN_TO_ORIGIN',
          // No jobs: no travel.
          legs: [],
          totals: { distanceMeters: 0, driveSeconds: 0, overtimeSeconds: 0 },
          partAbsences: [],
        },
        {
          shiftId: day.anaShift.id,
          user: { id: day.ana.id, name: 'Ana', colour: 1 },
          vehicle: { id: expect.any(String), name: 'Van A' },
          locationId: day.york.id,
          start: `${DATE}T13:00:00.000Z`,
          end: `${DATE}T21:00:00.000Z`,
          breaks: [{ start: `${DATE}T17:00:00.000Z`, end: `${DATE}T17:30:00.000Z`, isPaid: false }],
          // No start position on the van: the depot's.
          origin: { latitude: '53.4808', longitude: '-2.2426' },
          endPolicy: 'RETURN_TO_ORIGIN',
          legs: expect.any(Array),
          totals: expect.any(Object),
          partAbsences: [],
        },
      ])
      const byTitle = Object.fromEntries(board.jobs.map((j: { title: string }) => [j.title, j]))
      expect(Object.keys(byTitle).sort()).toEqual(['Any day', 'Boiler service', 'Done already', 'Fix oven'])
      expect(byTitle['Boiler service']).toMatchObject({
        status: 'ASSIGNED',
        shiftId: day.anaShift.id,
        assignedUserId: day.ana.id,
        scheduledStart: `${DATE}T14:00:00.000Z`,
        latitude: '40.75',
        longitude: '-73.99',
      })
      expect(byTitle['Done already']).toMatchObject({ status: 'COMPLETED', shiftId: day.anaShift.id })
      expect(byTitle['Fix oven']).toMatchObject({
        status: 'CREATED',
        priority: 'HIGH',
        serviceDuration: 3600,
        customer: { name: 'Corner Bakery', address: expect.any(String) },
        // The customer's position: the job has none of its own.
        latitude: '40.7128',
        longitude: '-74.006',
        ownPosition: false,
        tags: [{ id: day.tag.id, name: 'gas-safe' }],
        scheduledStart: null,
      })
      expect(byTitle['Any day']).toMatchObject({ status: 'CREATED', earliestStart: null, tags: [] })

      // Next Monday: the same rows, the job scheduled then, the same waiting job without a window.
      const next = (await day.admin.get(`/board?date=${NEXT_MONDAY}`)).body.data.board
      expect(next.rows).toHaveLength(2)
      expect(next.jobs.map((j: { title: string }) => j.title).sort()).toEqual(['Any day', 'Next week'])
      // A Sunday has no shifts.
      const sunday = (await day.admin.get('/board?date=2026-12-06')).body.data.board
      expect(sunday.rows).toEqual([])
      expect(sunday.jobs.map((j: { title: string }) => j.title)).toEqual(['Any day'])
    })

    it('gives each row its legs and totals, with the minutes the optimiser’s matrix gives the same points', async () => {
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      const db = t.database.db
      const org = tenant.organisationId
      const admin = adminClient(t, tenant.headers)
      const api = client(t, tenant.headers)
      // Not the defaults: the board must read the organisation's settings and the van's speed factor.
      const routing = { detourFactor: 1.5, speedKmh: 30 }
      expect((await admin.patch('/organisation', { routing })).status).toBe(200)
      const depot = await makeLocation(db, org, {
        name: 'Salford',
        timezone: 'Europe/London',
        isPrimary: true,
      })
      const cy = await makeUser(db, org, { name: 'Cy' })
      const van = await makeVehicle(db, org, depot.id, { name: 'Van C' })
      await db.updateTable('vehicles').set({ speed_factor: 1.25 }).where('id', '=', van.id).execute()
      const shift = await makeShift(
        db,
        org,
        { userId: cy.id, locationId: depot.id, vehicleId: van.id },
        { day: 'MONDAY', startTime: '08:00', endTime: '10:00' },
      )
      const customer = await api.post('/customers', {
        name: 'Mill Lane Bakery',
        address: '4 Mill Lane, Stockport',
        latitude: 53.41,
        longitude: -2.15,
      })
      const place = async (title: string, body: Record<string, unknown>, start: string, end: string) => {
        const created = await api.post('/jobs', { title, serviceDuration: 1800, ...body })
        expect(created.status).toBe(201)
        const id = created.body.data.job.id as string
        const assigned = await admin.post(`/jobs/${id}/assign`, {
          userId: cy.id,
          shiftId: shift.id,
          scheduledStart: `${DATE}T${start}:00Z`,
          scheduledEnd: `${DATE}T${end}:00Z`,
        })
        expect(assigned.status).toBe(200)
        return id
      }
      // Visiting order is by start, not by creation.
      const second = await place(
        'Bakery oven',
        { customerId: customer.body.data.customer.id },
        '09:00',
        '09:50',
      )
      // Set up directly: the drive from it to the bakery is longer than the gap, which assign now
      // refuses (422 OVERLAP) but the board must still draw as it is.
      const boiler = await api.post('/jobs', {
        title: 'Boiler',
        serviceDuration: 1800,
        jobLatitude: 53.52,
        jobLongitude: -2.24,
      })
      expect(boiler.status).toBe(201)
      const first = boiler.body.data.job.id as string
      await setJobState(db, org, first, {
        status: 'ASSIGNED',
        assignedUserId: cy.id,
        shiftId: shift.id,
        scheduledStart: `${DATE}T08:15:00Z`,
        scheduledEnd: `${DATE}T08:45:00Z`,
      })
      const off = await api.post('/jobs', {
        title: 'Called off',
        serviceDuration: 300,
        jobLatitude: 53.6,
        jobLongitude: -2.5,
      })
      expect(off.status).toBe(201)
      await setJobState(db, org, off.body.data.job.id, {
        status: 'CANCELLED',
        assignedUserId: cy.id,
        shiftId: shift.id,
        scheduledStart: `${DATE}T08:50:00Z`,
        scheduledEnd: `${DATE}T08:55:00Z`,
      })

      // Waiting, with its customer's coordinates copied as its own: still at the customer's address.
      const copied = await api.post('/jobs', {
        title: 'Same place',
        serviceDuration: 600,
        customerId: customer.body.data.customer.id,
        jobLatitude: 53.41,
        jobLongitude: -2.15,
      })
      expect(copied.status).toBe(201)

      const board = (await admin.get(`/board?date=${DATE}`)).body.data.board
      const row = board.rows.find((r: { shiftId: string }) => r.shiftId === shift.id)
      const byTitle = Object.fromEntries(board.jobs.map((j: { title: string }) => [j.title, j]))
      expect(byTitle['Same place']).toMatchObject({ ownPosition: false, latitude: '53.41' })
      expect(byTitle.Boiler).toMatchObject({ ownPosition: true, customer: null })
      expect(
        row.legs.map((l: { fromJobId: string | null; toJobId: string | null }) => [l.fromJobId, l.toJobId]),
      ).toEqual([
        [null, first],
        [first, second],
        [second, null],
      ])
      const bakery = board.jobs.find((j: { id: string }) => j.id === second)
      expect(bakery).toMatchObject({
        customer: { name: 'Mill Lane Bakery', address: '4 Mill Lane, Stockport' },
        ownPosition: false,
      })

      // The optimiser's model of the same day: its locations, its travel matrix at the
      // organisation's settings, its route's speed factor.
      const day = await loadDayInputs(db, org, {
        date: DATE,
        mode: 'KEEP_ASSIGNED',
        at: Number.NEGATIVE_INFINITY,
      })
      const model = toRoutingModel(day, day.routing)
      const matrix = greatCircleMatrix(model.locations, model.options)
      const route = model.routes.find((r) => r.id === shift.id)!
      const at = (jobId: string) => model.jobs.find((j) => j.id === jobId)!.location!
      const seconds = (a: number, b: number) => matrix.duration[a * matrix.size + b]! / route.speedFactor
      const metres = (a: number, b: number) => matrix.distance[a * matrix.size + b]!
      expect(route.speedFactor).toBe(1.25)
      const expected = [
        [route.start, at(first)],
        [at(first), at(second)],
        [at(second), route.start],
      ] as const
      expected.forEach(([a, b], i) => {
        expect(row.legs[i].distanceMeters, `leg ${i}`).toBe(metres(a, b))
        expect(row.legs[i].durationSeconds, `leg ${i}`).toBe(Math.round(seconds(a, b)))
        expect(Math.round(row.legs[i].durationSeconds / 60)).toBe(Math.round(seconds(a, b) / 60))
        expect(row.legs[i].durationSeconds).toBeGreaterThan(0)
      })
      const drive = row.legs.reduce(
        (sum: number, l: { durationSeconds: number }) => sum + l.durationSeconds,
        0,
      )
      expect(row.totals).toEqual({
        distanceMeters: expected.reduce((sum, [a, b]) => sum + metres(a, b), 0),
        driveSeconds: drive,
        // The last visit ends 09:50 and the drive back takes the last leg: past 10:00 by the rest.
        overtimeSeconds: Math.max(0, row.legs[2].durationSeconds - 600),
      })
      expect(row.totals.overtimeSeconds).toBeGreaterThan(0)
    })

    it('shows one depot: its rows, its zone, and the waiting jobs of that depot or of none', async () => {
      const day = await makeDay()
      const london = (await day.admin.get(`/board?date=${DATE}&locationId=${day.london.id}`)).body.data.board
      expect(london).toMatchObject({
        locationId: day.london.id,
        timezone: 'Europe/London',
        dayStart: `${DATE}T00:00:00.000Z`,
      })
      expect(london.depots.map((d: { id: string }) => d.id)).toEqual([day.london.id])
      expect(london.rows.map((r: { shiftId: string }) => r.shiftId)).toEqual([day.benShift.id])
      expect(london.jobs.map((j: { title: string }) => j.title).sort()).toEqual(['Any day', 'Fix oven'])
      const york = (await day.admin.get(`/board?date=${DATE}&locationId=${day.york.id}`)).body.data.board
      // "Any day" belongs to the London depot.
      expect(york.jobs.map((j: { title: string }) => j.title).sort()).toEqual([
        'Boiler service',
        'Done already',
        'Fix oven',
      ])
    })

    it('is open to dispatchers, and never shows another organisation’s depot or jobs', async () => {
      const day = await makeDay()
      const other = await makeDay()
      const dispatcher = await makeDashboardUser(t, day.org, { role: 'DISPATCHER' })
      const session = sessionClient(t, await signIn(t, dispatcher))
      const mine = await session.get(`/board?date=${DATE}`)
      expect(mine.status).toBe(200)
      const ids = new Set(mine.body.data.board.jobs.map((j: { id: string }) => j.id))
      expect(ids.has(day.jobs.waiting)).toBe(true)
      expect(ids.has(other.jobs.waiting)).toBe(false)
      expect(mine.body.data.board.rows.map((r: { shiftId: string }) => r.shiftId).sort()).toEqual(
        [day.anaShift.id, day.benShift.id].sort(),
      )
      const foreign = await session.get(`/board?date=${DATE}&locationId=${other.york.id}`)
      expect(foreign.status).toBe(404)
      expect(foreign.body).toMatchObject({ code: 'NOT_FOUND', error: 'Location not found' })
      expect((await day.admin.get(`/board?date=${DATE}&locationId=${other.york.id}`)).status).toBe(404)
      expect((await day.admin.get(`/board?date=${DATE}&locationId=nope`)).status).toBe(404)
    })

    it('answers a bad or missing date with 400 naming the field', async () => {
      const day = await makeDay()
      for (const query of ['date=2026-13-01', 'date=07-12-2026', 'date=2026-02-30', '', 'date=']) {
        const answer = await day.admin.get(`/board?${query}`)
        expect(answer.status, query).toBe(400)
        expect(answer.body.code, query).toBe('VALIDATION_ERROR')
        expect(answer.body.details?.[0]?.path ?? answer.body.error, query).toMatch(/date/)
      }
      const extra = await day.admin.get(`/board?date=${DATE}&depot=x`)
      expect(extra.status).toBe(400)
      expect(JSON.stringify(extra.body)).toMatch(/depot/)
      // A read-only key is not an admin key.
      const reader = await createTenant(t, { scopes: ['read'] })
      expect((await adminClient(t, reader.headers).get(`/board?date=${DATE}`)).status).toBe(403)
    })
  })
}
