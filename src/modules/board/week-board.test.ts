import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeLocation, makeShift, makeUser, makeVehicle, setJobState } from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { makeDashboardUser, sessionClient, signIn } from '../../../test/sessions.js'

// 2026-12-07 is a Monday; Europe/London is on UTC in December, so its times read as UTC. New York is
// UTC-5 then: its 08:00 is 13:00Z.
const MONDAY = '2026-12-07'
const on = (date: string, hhmm: string) => `${date}T${hhmm}:00.000Z`
const WEEK = [
  '2026-12-07',
  '2026-12-08',
  '2026-12-09',
  '2026-12-10',
  '2026-12-11',
  '2026-12-12',
  '2026-12-13',
]
const WEEKDAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'] as const

interface Cell {
  date: string
  shifts: { shiftId: string; start: string; end: string; off: string | null; absence: unknown }[]
  absence: { reason: string; note: string | null } | null
  jobs: { id: string; title: string; number: string; scheduledStart: string; customer: unknown }[]
  minutesBooked: number
  minutesAvailable: number
}
interface Worker {
  user: { id: string; name: string }
  days: Cell[]
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the board's week`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    /**
     * Salford (London, primary): Ana works Monday–Friday 08:00–16:00 with lunch 12:00–12:30, is on
     * holiday Wednesday and Thursday and away 13:00–14:00 on Friday; Ben works Monday and Tuesday
     * 07:00–15:00, Tuesday cancelled. Queens (New York): Cy works Monday 08:00–16:00.
     */
    async function makeWeek() {
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      const db = t.database.db
      const org = tenant.organisationId
      const admin = adminClient(t, tenant.headers)
      const api = client(t, tenant.headers)
      const salford = await makeLocation(db, org, { name: 'Salford', isPrimary: true })
      const queens = await makeLocation(db, org, { name: 'Queens', timezone: 'America/New_York' })
      const ana = await makeUser(db, org, { name: 'Ana' })
      const ben = await makeUser(db, org, { name: 'Ben' })
      const cy = await makeUser(db, org, { name: 'Cy' })
      const anaVan = await makeVehicle(db, org, salford.id, { name: 'Van A' })
      const benVan = await makeVehicle(db, org, salford.id, { name: 'Van B' })
      const cyVan = await makeVehicle(db, org, queens.id, { name: 'Van C' })
      const anaShifts: Record<string, string> = {}
      for (const day of WEEKDAYS) {
        const shift = await makeShift(
          db,
          org,
          { userId: ana.id, locationId: salford.id, vehicleId: anaVan.id },
          { day, breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }] },
        )
        anaShifts[day] = shift.id
      }
      const benShifts: Record<string, string> = {}
      for (const day of ['MONDAY', 'TUESDAY'] as const) {
        const shift = await makeShift(
          db,
          org,
          { userId: ben.id, locationId: salford.id, vehicleId: benVan.id },
          { day, startTime: '07:00', endTime: '15:00' },
        )
        benShifts[day] = shift.id
      }
      const cyShift = await makeShift(db, org, { userId: cy.id, locationId: queens.id, vehicleId: cyVan.id })
      const holiday = await admin.post(`/team/users/${ana.id}/absences`, {
        startDate: '2026-12-09',
        endDate: '2026-12-10',
        reason: 'HOLIDAY',
        note: 'Lanzarote',
      })
      expect(holiday.status, holiday.body.error).toBe(201)
      const dentist = await admin.post(`/team/users/${ana.id}/absences`, {
        startDate: '2026-12-11',
        endDate: '2026-12-11',
        startTime: '13:00',
        endTime: '14:00',
        reason: 'OTHER',
      })
      expect(dentist.status, dentist.body.error).toBe(201)
      const off = await admin.put(`/shifts/${benShifts.TUESDAY}/dates/2026-12-08`, { off: true })
      expect(off.status, off.body.error).toBe(200)

      const customer = await api.post('/customers', {
        name: 'Corner Bakery',
        latitude: 53.48,
        longitude: -2.24,
      })
      expect(customer.status).toBe(201)
      const job = async (title: string, body: Record<string, unknown> = {}) => {
        const created = await api.post('/jobs', { title, serviceDuration: 3600, ...body })
        expect(created.status, created.body.error).toBe(201)
        return created.body.data.job.id as string
      }
      const jobs = {
        boiler: await job('Boiler service', { customerId: customer.body.data.customer.id }),
        tap: await job('Leaking tap', { serviceDuration: 5400 }),
        cancelled: await job('Cancelled visit'),
        cyJob: await job('Queens visit'),
        nextWeek: await job('Next week visit'),
        dueTuesday: await job('Due Tuesday', { latestEnd: on('2026-12-08', '16:00') }),
        fromFriday: await job('From Friday', { earliestStart: on('2026-12-11', '09:00') }),
        overdue: await job('Overdue', { latestEnd: on('2026-11-30', '12:00') }),
        later: await job('Due later', { latestEnd: on('2026-12-15', '12:00') }),
        anyTime: await job('Any time'),
      }
      const assign = async (id: string, userId: string, shiftId: string, start: string, end: string) => {
        const answer = await admin.post(`/jobs/${id}/assign`, {
          userId,
          shiftId,
          scheduledStart: start,
          scheduledEnd: end,
        })
        expect(answer.status, answer.body.error).toBe(200)
      }
      await assign(jobs.boiler, ana.id, anaShifts.MONDAY as string, on(MONDAY, '09:00'), on(MONDAY, '10:00'))
      await assign(jobs.tap, ana.id, anaShifts.MONDAY as string, on(MONDAY, '13:00'), on(MONDAY, '14:30'))
      await assign(jobs.cyJob, cy.id, cyShift.id, on(MONDAY, '14:00'), on(MONDAY, '15:00'))
      await assign(
        jobs.nextWeek,
        ana.id,
        anaShifts.MONDAY as string,
        on('2026-12-14', '09:00'),
        on('2026-12-14', '10:00'),
      )
      await setJobState(db, org, jobs.cancelled, {
        status: 'CANCELLED',
        assignedUserId: ana.id,
        shiftId: anaShifts.MONDAY as string,
        scheduledStart: on(MONDAY, '10:30'),
        scheduledEnd: on(MONDAY, '11:30'),
      })
      // Monday 20:00 in New York, though Tuesday in London: on Cy's Monday.
      const lateCall = await job('Late call')
      await setJobState(db, org, lateCall, {
        status: 'ASSIGNED',
        assignedUserId: cy.id,
        shiftId: cyShift.id,
        scheduledStart: on('2026-12-08', '01:00'),
        scheduledEnd: on('2026-12-08', '02:00'),
      })
      return { tenant, admin, org, salford, queens, ana, ben, cy, anaShifts, benShifts, cyShift, jobs }
    }

    const cellsOf = (workers: Worker[], name: string) =>
      Object.fromEntries((workers.find((w) => w.user.name === name)?.days ?? []).map((d) => [d.date, d]))

    it('lays out workers × 7 days: shifts, absences, the day’s jobs and the capacity they use', async () => {
      const week = await makeWeek()
      const answer = await week.admin.get(`/board/week?start=${MONDAY}`)
      expect(answer.status, answer.body.error).toBe(200)
      const data = answer.body.data.week
      expect(data).toMatchObject({
        start: MONDAY,
        end: '2026-12-13',
        locationId: null,
        timezone: 'Europe/London',
      })
      expect(data.days).toEqual(
        WEEK.map((date, i) => ({
          date,
          dayStart: `${date}T00:00:00.000Z`,
          dayEnd: `${WEEK[i + 1] ?? '2026-12-14'}T00:00:00.000Z`,
        })),
      )
      expect(data.workers.map((w: Worker) => w.user.name)).toEqual(['Ana', 'Ben', 'Cy'])
      for (const worker of data.workers as Worker[]) expect(worker.days.map((d) => d.date)).toEqual(WEEK)

      const ana = cellsOf(data.workers, 'Ana')
      // Monday: two visits (the cancelled one and next week's left out), 150 of 450 minutes.
      expect(ana[MONDAY]?.jobs.map((j) => j.title)).toEqual(['Boiler service', 'Leaking tap'])
      expect(ana[MONDAY]?.jobs[0]).toMatchObject({
        id: week.jobs.boiler,
        number: expect.stringMatching(/^J-\d+$/),
        customer: { name: 'Corner Bakery' },
        status: 'ASSIGNED',
        priority: 'NORMAL',
        scheduledStart: on(MONDAY, '09:00'),
        scheduledEnd: on(MONDAY, '10:00'),
        shiftId: week.anaShifts.MONDAY,
      })
      expect([ana[MONDAY]?.minutesBooked, ana[MONDAY]?.minutesAvailable]).toEqual([150, 450])
      expect(ana[MONDAY]?.shifts).toEqual([
        {
          shiftId: week.anaShifts.MONDAY,
          vehicle: { id: expect.any(String), name: 'Van A' },
          locationId: week.salford.id,
          start: on(MONDAY, '08:00'),
          end: on(MONDAY, '16:00'),
          breaks: [{ start: on(MONDAY, '12:00'), end: on(MONDAY, '12:30'), isPaid: false }],
          off: null,
          absence: null,
        },
      ])
      // Wednesday and Thursday: on holiday, nothing available.
      for (const date of ['2026-12-09', '2026-12-10']) {
        expect(ana[date]?.absence, date).toMatchObject({
          reason: 'HOLIDAY',
          note: 'Lanzarote',
          startTime: null,
        })
        expect(ana[date]?.shifts[0], date).toMatchObject({ off: 'ABSENT', absence: { reason: 'HOLIDAY' } })
        expect([ana[date]?.minutesBooked, ana[date]?.minutesAvailable], date).toEqual([0, 0])
      }
      // Friday: the hour away is an unpaid break, so 390 minutes.
      expect(ana['2026-12-11']?.absence).toBeNull()
      expect(ana['2026-12-11']?.minutesAvailable).toBe(390)
      expect(ana['2026-12-11']?.shifts[0]?.off).toBeNull()
      // The weekend: no shift.
      expect(ana['2026-12-12']).toMatchObject({ shifts: [], absence: null, jobs: [], minutesAvailable: 0 })

      const ben = cellsOf(data.workers, 'Ben')
      expect(ben[MONDAY]?.minutesAvailable).toBe(480)
      // Tuesday's shift is cancelled that date: off, but not an absence.
      expect(ben['2026-12-08']).toMatchObject({ absence: null, minutesAvailable: 0 })
      expect(ben['2026-12-08']?.shifts[0]).toMatchObject({
        shiftId: week.benShifts.TUESDAY,
        off: 'SHIFT_OFF',
        absence: null,
      })

      // Cy's shift is placed in New York's zone; his visit is on Monday.
      const cy = cellsOf(data.workers, 'Cy')
      expect(cy[MONDAY]?.shifts[0]).toMatchObject({ start: on(MONDAY, '13:00'), end: on(MONDAY, '21:00') })
      expect(cy[MONDAY]?.jobs.map((j) => j.title)).toEqual(['Queens visit', 'Late call'])
      expect(cy['2026-12-08']?.jobs).toEqual([])

      // Waiting jobs due by Sunday's end, soonest first; none without a window or due later.
      expect(data.due.map((j: { title: string }) => j.title)).toEqual([
        'Overdue',
        'Due Tuesday',
        'From Friday',
      ])
      expect(data.due[2]).toMatchObject({
        status: 'CREATED',
        dueAt: on('2026-12-11', '09:00'),
        scheduledStart: null,
      })
      expect(data.dueTruncated).toBe(false)
    })

    it('starts on any day and follows one depot', async () => {
      const week = await makeWeek()
      // From a Wednesday: the holiday is the first two days, next Monday's visit is on day 6.
      const wednesday = (await week.admin.get('/board/week?start=2026-12-09')).body.data.week
      expect(wednesday.days.map((d: { date: string }) => d.date)).toEqual([
        '2026-12-09',
        '2026-12-10',
        '2026-12-11',
        '2026-12-12',
        '2026-12-13',
        '2026-12-14',
        '2026-12-15',
      ])
      const ana = cellsOf(wednesday.workers, 'Ana')
      expect(ana['2026-12-09']?.absence?.reason).toBe('HOLIDAY')
      expect(ana['2026-12-14']?.jobs.map((j) => j.title)).toEqual(['Next week visit'])
      expect(wednesday.due.map((j: { title: string }) => j.title)).toEqual([
        'Overdue',
        'Due Tuesday',
        'From Friday',
        'Due later',
      ])

      const queens = (await week.admin.get(`/board/week?start=${MONDAY}&locationId=${week.queens.id}`)).body
        .data.week
      expect(queens).toMatchObject({ locationId: week.queens.id, timezone: 'America/New_York' })
      expect(queens.days[0]).toMatchObject({ dayStart: on(MONDAY, '05:00') })
      expect(queens.workers.map((w: Worker) => w.user.name)).toEqual(['Cy'])
      const salford = (await week.admin.get(`/board/week?start=${MONDAY}&locationId=${week.salford.id}`)).body
        .data.week
      expect(salford.workers.map((w: Worker) => w.user.name)).toEqual(['Ana', 'Ben'])
    })

    it('never shows another organisation’s workers, jobs or depot, and is open to dispatchers', async () => {
      const week = await makeWeek()
      const other = await makeWeek()
      const dispatcher = await makeDashboardUser(t, week.org, { role: 'DISPATCHER' })
      const session = sessionClient(t, await signIn(t, dispatcher))
      const mine = await session.get(`/board/week?start=${MONDAY}`)
      expect(mine.status).toBe(200)
      const ids = JSON.stringify(mine.body.data.week)
      expect(ids).toContain(week.ana.id)
      for (const foreign of [other.ana.id, other.jobs.boiler, other.jobs.overdue, other.anaShifts.MONDAY])
        expect(ids).not.toContain(foreign)
      const foreign = await session.get(`/board/week?start=${MONDAY}&locationId=${other.salford.id}`)
      expect(foreign.status).toBe(404)
      expect(foreign.body).toMatchObject({ code: 'NOT_FOUND', error: 'Location not found' })
      expect((await week.admin.get(`/board/week?start=${MONDAY}&locationId=nope`)).status).toBe(404)
      const reader = await createTenant(t, { scopes: ['read'] })
      expect((await adminClient(t, reader.headers).get(`/board/week?start=${MONDAY}`)).status).toBe(403)
    })

    it('answers a bad or missing start with 400 naming the field', async () => {
      const week = await makeWeek()
      for (const query of [
        'start=2026-13-01',
        'start=07-12-2026',
        'start=2026-02-30',
        'start=monday',
        '',
        'start=',
      ]) {
        const answer = await week.admin.get(`/board/week?${query}`)
        expect(answer.status, query).toBe(400)
        expect(answer.body.code, query).toBe('VALIDATION_ERROR')
        expect(answer.body.details?.[0]?.path ?? answer.body.error, query).toMatch(/start/)
      }
      const extra = await week.admin.get(`/board/week?start=${MONDAY}&date=${MONDAY}`)
      expect(extra.status).toBe(400)
      expect(JSON.stringify(extra.body)).toMatch(/date/)
    })
  })
}
