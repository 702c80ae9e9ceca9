// Absences and one-off shift changes (issue 30 §3) through the admin API: the rules, tenant
// isolation, roles, and everyone respecting them — manual assignment (WORKER_ABSENT), the board,
// My day, the live forecast and the positions' OFF_SHIFT check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeLocation, makeShift, makeUser, makeVehicle } from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { makeDashboardUser, sessionClient, signIn } from '../../../test/sessions.js'

// 2026-12-07 is a Monday; London is on UTC in December, so local times read as UTC.
const MONDAY = '2026-12-07'
const iso = (date: string, hhmm: string) => `${date}T${hhmm}:00.000Z`

for (const dialect of DIALECTS) {
  describe(`${dialect}: absences and one-off shift changes`, () => {
    let t: TestContext
    let now = Date.parse(iso(MONDAY, '09:00'))
    beforeAll(async () => {
      t = await createTestApp(dialect, {}, { clock: () => now })
    })
    afterAll(() => t.close())

    /** A London depot; Wendy (a WORKER who signs in) works Mondays 08:00–16:00 with lunch 12:00–12:30. */
    async function setup() {
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      const db = t.database.db
      const org = tenant.organisationId
      const depot = await makeLocation(db, org, {
        name: 'Salford',
        timezone: 'Europe/London',
        isPrimary: true,
      })
      const wendy = await makeDashboardUser(t, org, { role: 'WORKER', name: 'Wendy Worker' })
      const van = await makeVehicle(db, org, depot.id, { name: 'Van W' })
      const shift = await makeShift(
        db,
        org,
        { userId: wendy.id, locationId: depot.id, vehicleId: van.id },
        { day: 'MONDAY', breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }] },
      )
      const admin = adminClient(t, tenant.headers)
      const api = client(t, tenant.headers)
      return { tenant, db, org, depot, wendy, van, shift, admin, api }
    }
    type Setup = Awaited<ReturnType<typeof setup>>

    const addAbsence = (s: Setup, body: Record<string, unknown>, userId = s.wendy.id) =>
      s.admin.post(`/team/users/${userId}/absences`, body)

    it('records whole-day and part-day absences, lists them by date range, and removes one', async () => {
      const s = await setup()
      const holiday = await addAbsence(s, {
        startDate: '2026-12-21',
        endDate: '2026-12-24',
        reason: 'HOLIDAY',
        note: 'Family <b>visit</b>',
      })
      expect(holiday.status, holiday.body.error).toBe(201)
      expect(holiday.body.data.absence).toEqual({
        id: expect.any(String),
        userId: s.wendy.id,
        user: { id: s.wendy.id, name: 'Wendy Worker' },
        startDate: '2026-12-21',
        endDate: '2026-12-24',
        reason: 'HOLIDAY',
        startTime: null,
        endTime: null,
        note: 'Family <b>visit</b>',
        createdAt: expect.stringMatching(/Z$/),
      })
      const dentist = await addAbsence(s, {
        startDate: MONDAY,
        endDate: MONDAY,
        reason: 'OTHER',
        startTime: '10:00',
        endTime: '11:00',
      })
      expect(dentist.status, dentist.body.error).toBe(201)

      const all = await s.admin.get(`/team/users/${s.wendy.id}/absences`)
      expect(all.body.data.absences.map((a: { reason: string }) => a.reason)).toEqual(['OTHER', 'HOLIDAY'])
      const december = await s.admin.get(`/team/users/${s.wendy.id}/absences?from=2026-12-22&to=2026-12-31`)
      expect(december.body.data.absences.map((a: { id: string }) => a.id)).toEqual([
        holiday.body.data.absence.id,
      ])
      const everyone = await s.admin.get(`/absences?from=2026-12-01&to=2026-12-31&locationId=${s.depot.id}`)
      expect(everyone.status).toBe(200)
      expect(everyone.body.data.absences).toHaveLength(2)
      const elsewhere = await makeLocation(s.db, s.org, { name: 'Elsewhere' })
      expect((await s.admin.get(`/absences?locationId=${elsewhere.id}`)).body.data.absences).toEqual([])

      const removed = await s.admin.delete(
        `/team/users/${s.wendy.id}/absences/${holiday.body.data.absence.id}`,
      )
      expect(removed.status).toBe(200)
      expect(removed.body.data.absence).toEqual({
        id: holiday.body.data.absence.id,
        deletedAt: expect.any(String),
      })
      const again = await s.admin.delete(`/team/users/${s.wendy.id}/absences/${holiday.body.data.absence.id}`)
      expect(again.status).toBe(404)
      expect((await s.admin.get(`/absences`)).body.data.absences).toHaveLength(1)
    })

    it('refuses bad dates and hours with a 400 naming the field', async () => {
      const s = await setup()
      const cases: [Record<string, unknown>, string][] = [
        [{ startDate: '2026-12-09', endDate: '2026-12-08', reason: 'SICK' }, '/body/endDate'],
        [{ startDate: '2026-02-30', endDate: '2026-03-01', reason: 'SICK' }, '/body/startDate'],
        [{ startDate: '2026-12-01', endDate: '2027-12-02', reason: 'HOLIDAY' }, '/body/endDate'],
        [{ startDate: MONDAY, endDate: MONDAY, reason: 'NAP' }, '/body/reason'],
        [{ startDate: MONDAY, endDate: MONDAY, reason: 'SICK', startTime: '10:00' }, '/body/endTime'],
        [{ startDate: MONDAY, endDate: MONDAY, reason: 'SICK', endTime: '10:00' }, '/body/startTime'],
        [
          { startDate: MONDAY, endDate: MONDAY, reason: 'SICK', startTime: '11:00', endTime: '10:00' },
          '/body/endTime',
        ],
        [
          { startDate: MONDAY, endDate: MONDAY, reason: 'SICK', startTime: '24:00', endTime: '10:00' },
          '/body/startTime',
        ],
        [
          { startDate: MONDAY, endDate: '2026-12-08', reason: 'SICK', startTime: '09:00', endTime: '10:00' },
          '/body/endDate',
        ],
        [{ startDate: MONDAY, endDate: MONDAY, reason: 'SICK', colour: 'red' }, 'colour'],
      ]
      for (const [body, path] of cases) {
        const answer = await addAbsence(s, body)
        expect([answer.status, answer.body.code], JSON.stringify(body)).toEqual([400, 'VALIDATION_ERROR'])
        expect(JSON.stringify(answer.body.details), JSON.stringify(body)).toContain(path)
      }
      // 366 days inclusive is the longest absence.
      expect(
        (await addAbsence(s, { startDate: '2026-01-01', endDate: '2027-01-01', reason: 'OTHER' })).status,
      ).toBe(201)
      const range = await s.admin.get(`/team/users/${s.wendy.id}/absences?from=2026-12-09&to=2026-12-01`)
      expect([range.status, range.body.details?.[0]?.path]).toEqual([400, '/query/to'])
    })

    it('keeps organisations apart: another one’s worker, absence or shift is 404', async () => {
      const mine = await setup()
      const theirs = await setup()
      const absence = await addAbsence(theirs, { startDate: MONDAY, endDate: MONDAY, reason: 'SICK' })
      expect(
        (await addAbsence(mine, { startDate: MONDAY, endDate: MONDAY, reason: 'SICK' }, theirs.wendy.id))
          .status,
      ).toBe(404)
      expect((await mine.admin.get(`/team/users/${theirs.wendy.id}/absences`)).status).toBe(404)
      expect(
        (await mine.admin.delete(`/team/users/${theirs.wendy.id}/absences/${absence.body.data.absence.id}`))
          .status,
      ).toBe(404)
      // Even through one's own worker, another organisation's absence is not found.
      expect(
        (await mine.admin.delete(`/team/users/${mine.wendy.id}/absences/${absence.body.data.absence.id}`))
          .status,
      ).toBe(404)
      expect((await mine.admin.get('/absences')).body.data.absences).toEqual([])
      expect((await mine.admin.put(`/shifts/${theirs.shift.id}/dates/${MONDAY}`, { off: true })).status).toBe(
        404,
      )
      expect((await mine.admin.get(`/shifts/${theirs.shift.id}/dates`)).status).toBe(404)
      expect((await mine.admin.get(`/absences?locationId=${theirs.depot.id}`)).status).toBe(404)
    })

    it('lets admins and dispatchers write; a worker reads their own day in My day, not the admin API', async () => {
      const s = await setup()
      const dispatcher = sessionClient(
        t,
        await signIn(t, await makeDashboardUser(t, s.org, { role: 'DISPATCHER' })),
      )
      const written = await dispatcher.post(`/team/users/${s.wendy.id}/absences`, {
        startDate: MONDAY,
        endDate: MONDAY,
        reason: 'SICK',
      })
      expect(written.status, JSON.stringify(written.body)).toBe(201)
      expect((await dispatcher.get('/absences')).status).toBe(200)
      expect((await dispatcher.put(`/shifts/${s.shift.id}/dates/2026-12-14`, { off: true })).status).toBe(200)
      const worker = sessionClient(t, await signIn(t, s.wendy))
      expect((await worker.get(`/team/users/${s.wendy.id}/absences`)).status).toBe(403)
      expect(
        (
          await worker.post(`/team/users/${s.wendy.id}/absences`, {
            startDate: MONDAY,
            endDate: MONDAY,
            reason: 'SICK',
          })
        ).status,
      ).toBe(403)
      const myDay = await worker.get(`/my/jobs?date=${MONDAY}`)
      expect(myDay.status).toBe(200)
      expect(myDay.body.data).toMatchObject({
        off: true,
        shifts: [],
        absences: [{ reason: 'SICK', startTime: null, endTime: null }],
      })
      const nextMonday = await worker.get('/my/jobs?date=2026-12-14')
      // The shift is off that date (a one-off change), but Wendy is not away.
      expect(nextMonday.body.data).toMatchObject({ off: false, shifts: [], absences: [] })
      const after = await worker.get('/my/jobs?date=2026-12-21')
      expect(after.body.data).toMatchObject({ off: false, absences: [] })
      expect(after.body.data.shifts).toHaveLength(1)
    })

    it('changes one date’s hours or cancels it, on the shift’s weekday only, and restores the pattern', async () => {
      const s = await setup()
      const url = `/shifts/${s.shift.id}/dates`
      const changed = await s.admin.put(`${url}/${MONDAY}`, { startTime: '10:00', endTime: '14:00' })
      expect(changed.status, changed.body.error).toBe(200)
      expect(changed.body.data.change).toEqual({
        id: expect.any(String),
        shiftId: s.shift.id,
        date: MONDAY,
        off: false,
        startTime: '10:00',
        endTime: '14:00',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      })
      const replaced = await s.admin.put(`${url}/${MONDAY}`, { off: true })
      expect(replaced.body.data.change).toMatchObject({
        id: changed.body.data.change.id,
        off: true,
        startTime: null,
      })
      expect((await s.admin.put(`${url}/2026-12-14`, { startTime: '07:00', endTime: '12:00' })).status).toBe(
        200,
      )
      const listed = await s.admin.get(`${url}?from=2026-12-08`)
      expect(listed.body.data.changes.map((c: { date: string }) => c.date)).toEqual(['2026-12-14'])
      expect((await s.admin.get(url)).body.data.changes).toHaveLength(2)

      const bad: [string, Record<string, unknown>, string][] = [
        ['2026-12-08', { off: true }, '/params/date'],
        ['2026-13-01', { off: true }, '/params/date'],
        [MONDAY, { startTime: '10:00' }, '/body/endTime'],
        [MONDAY, { endTime: '10:00' }, '/body/startTime'],
        [MONDAY, { startTime: '14:00', endTime: '10:00' }, '/body/endTime'],
        [MONDAY, { off: true, startTime: '10:00' }, '/body/startTime'],
        [MONDAY, {}, '/body/startTime'],
      ]
      for (const [date, body, path] of bad) {
        const answer = await s.admin.put(`${url}/${date}`, body)
        expect([answer.status, answer.body.code], `${date} ${JSON.stringify(body)}`).toEqual([
          400,
          'VALIDATION_ERROR',
        ])
        expect(JSON.stringify(answer.body.details)).toContain(path)
      }
      expect((await s.admin.put(`/shifts/nope/dates/${MONDAY}`, { off: true })).status).toBe(404)

      const restored = await s.admin.delete(`${url}/${MONDAY}`)
      expect(restored.status).toBe(200)
      expect((await s.admin.delete(`${url}/${MONDAY}`)).status).toBe(404)
      expect((await s.admin.get(url)).body.data.changes).toHaveLength(1)
    })

    it('refuses to assign a visit to an absent worker (422 WORKER_ABSENT), part-day only when it overlaps', async () => {
      const s = await setup()
      await addAbsence(s, {
        startDate: MONDAY,
        endDate: MONDAY,
        reason: 'OTHER',
        startTime: '10:00',
        endTime: '11:00',
      })
      await addAbsence(s, { startDate: '2026-12-14', endDate: '2026-12-18', reason: 'HOLIDAY' })
      const job = async () => {
        const created = await s.api.post('/jobs', { title: 'Boiler', jobLatitude: 53.5, jobLongitude: -2.3 })
        return created.body.data.job.id as string
      }
      const assign = async (
        date: string,
        from: string,
        to: string,
        shiftId: string | undefined = s.shift.id,
      ) =>
        s.admin.post(`/jobs/${await job()}/assign`, {
          userId: s.wendy.id,
          ...(shiftId ? { shiftId } : {}),
          scheduledStart: iso(date, from),
          scheduledEnd: iso(date, to),
        })
      const holiday = await assign('2026-12-14', '09:00', '10:00')
      expect([holiday.status, holiday.body.code]).toEqual([422, 'WORKER_ABSENT'])
      expect(holiday.body.error).toContain('HOLIDAY')
      const noShift = await assign('2026-12-16', '09:00', '10:00', undefined)
      expect([noShift.status, noShift.body.code]).toEqual([422, 'WORKER_ABSENT'])
      const overlapping = await assign(MONDAY, '10:30', '11:30')
      expect([overlapping.status, overlapping.body.code]).toEqual([422, 'WORKER_ABSENT'])
      expect((await assign(MONDAY, '11:00', '12:00')).status).toBe(200)
      expect((await assign(MONDAY, '08:00', '10:00')).status).toBe(200)
      expect((await assign('2026-12-21', '09:00', '10:00')).status).toBe(200)
    })

    it('marks the absent worker’s board row, and leaves a cancelled shift off the board', async () => {
      const s = await setup()
      const ben = await makeUser(s.db, s.org, { name: 'Ben' })
      const benVan = await makeVehicle(s.db, s.org, s.depot.id, { name: 'Van B' })
      const benShift = await makeShift(s.db, s.org, {
        userId: ben.id,
        locationId: s.depot.id,
        vehicleId: benVan.id,
      })
      await addAbsence(s, { startDate: MONDAY, endDate: MONDAY, reason: 'SICK', note: 'Flu' })
      const board = await s.admin.get(`/board?date=${MONDAY}`)
      expect(board.status, board.body.error).toBe(200)
      const rows = board.body.data.board.rows
      expect(rows).toHaveLength(2)
      const wendy = rows.find((r: { shiftId: string }) => r.shiftId === s.shift.id)
      expect(wendy.absence).toEqual({
        id: expect.any(String),
        reason: 'SICK',
        startTime: null,
        endTime: null,
        note: 'Flu',
      })
      expect(rows.find((r: { shiftId: string }) => r.shiftId === benShift.id).absence).toBeUndefined()

      await s.admin.put(`/shifts/${benShift.id}/dates/2026-12-14`, { startTime: '10:00', endTime: '13:00' })
      await s.admin.put(`/shifts/${s.shift.id}/dates/2026-12-14`, { off: true })
      const next = (await s.admin.get('/board?date=2026-12-14')).body.data.board.rows
      expect(next).toHaveLength(1)
      expect(next[0]).toMatchObject({
        shiftId: benShift.id,
        start: iso('2026-12-14', '10:00'),
        end: iso('2026-12-14', '13:00'),
      })
    })

    it('lists a part-day absence on the board row it shortens or interrupts, with its reason', async () => {
      const s = await setup()
      await addAbsence(s, {
        startDate: MONDAY,
        endDate: MONDAY,
        reason: 'TRAINING',
        startTime: '14:00',
        endTime: '15:00',
        note: 'Gas safe course',
      })
      await addAbsence(s, {
        startDate: MONDAY,
        endDate: MONDAY,
        reason: 'OTHER',
        startTime: '07:00',
        endTime: '09:00',
      })
      const rows = (await s.admin.get(`/board?date=${MONDAY}`)).body.data.board.rows
      const wendy = rows.find((r: { shiftId: string }) => r.shiftId === s.shift.id)
      expect(wendy.absence).toBeUndefined()
      expect(wendy.start).toBe(iso(MONDAY, '09:00'))
      expect(wendy.breaks).toContainEqual({
        start: iso(MONDAY, '14:00'),
        end: iso(MONDAY, '15:00'),
        isPaid: false,
      })
      expect(
        [...wendy.partAbsences].sort((a: { startTime: string }, b: { startTime: string }) =>
          a.startTime.localeCompare(b.startTime),
        ),
      ).toEqual([
        { id: expect.any(String), reason: 'OTHER', startTime: '07:00', endTime: '09:00', note: null },
        {
          id: expect.any(String),
          reason: 'TRAINING',
          startTime: '14:00',
          endTime: '15:00',
          note: 'Gas safe course',
        },
      ])
      // The next Monday has none.
      const tuesday = (await s.admin.get('/board?date=2026-12-14')).body.data.board.rows
      expect(tuesday.find((r: { shiftId: string }) => r.shiftId === s.shift.id).partAbsences).toEqual([])
    })

    it('leaves the absent shift out of the live forecast and refuses its positions (OFF_SHIFT)', async () => {
      const s = await setup()
      now = Date.parse(iso(MONDAY, '09:00'))
      const before = await s.admin.get(`/live?date=${MONDAY}`)
      expect(before.body.data.shifts).toHaveLength(1)
      const worker = sessionClient(t, await signIn(t, s.wendy))
      const position = { latitude: 53.5, longitude: -2.3, recordedAt: iso(MONDAY, '08:59') }
      expect((await worker.post('/my/positions', { positions: [position] })).status).toBe(201)

      await addAbsence(s, { startDate: MONDAY, endDate: MONDAY, reason: 'SICK' })
      expect((await s.admin.get(`/live?date=${MONDAY}`)).body.data.shifts).toEqual([])
      const refused = await worker.post('/my/positions', { positions: [position] })
      expect([refused.status, refused.body.code]).toEqual([409, 'OFF_SHIFT'])

      // Changed hours move the live day's shift too.
      const next = '2026-12-14'
      await s.admin.put(`/shifts/${s.shift.id}/dates/${next}`, { startTime: '11:00', endTime: '15:00' })
      const changed = (await s.admin.get(`/live?date=${next}`)).body.data.shifts
      expect(changed).toHaveLength(1)
      expect(changed[0]).toMatchObject({ start: iso(next, '11:00'), end: iso(next, '15:00') })
    })
  })
}
