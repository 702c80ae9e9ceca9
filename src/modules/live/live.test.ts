// The live day (issue 29 §1–2): positions from the phone only while on shift, ETAs and late risk
// against a hand-computed route, JOB_ETA_CHANGED once per change, the minute's refresh and pruning.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeLocation, makeShift, makeVehicle, outboxEvents, setJobState } from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { makeDashboardUser, sessionClient, signIn } from '../../../test/sessions.js'

const DATE = '2026-11-26' // a Thursday
const at = (hhmmss: string) => Date.parse(`${DATE}T${hhmmss}Z`)
const iso = (hhmmss: string) => new Date(at(hhmmss)).toISOString()

// Travel, by hand: the stops lie on one meridian, 0.1° of latitude apart. Great-circle distance
// along a meridian is R·Δφ = 6,371,008.8 m × 0.1 × π/180 = 11,119.5 m; × 1.3 (detour) = 14,455 m;
// at 40 km/h (11.11 m/s) = 1,301 s. Three such legs back to the start: 43,365 m = 3,903 s.
const LEG = 1301
const BACK = 3903
const plus = (hhmmss: string, seconds: number) => new Date(at(hhmmss) + seconds * 1000).toISOString()

for (const dialect of DIALECTS) {
  describe(`${dialect}: the live day`, () => {
    let t: TestContext
    let now = at('09:10:00')
    beforeAll(async () => {
      t = await createTestApp(dialect, {}, { clock: () => now })
    })
    afterAll(() => t.close())

    /**
     * A UTC depot; a worker's Thursday shift 08:00–16:00 with an unpaid break 12:00–12:30, starting
     * and ending at 53.4 N 2.2 W; A (09:00, no window), B (09:55, HARD until 11:40) and C (10:50,
     * SOFT until 11:45) due north of it, 0.1° apart, 30 min each. A under way since 09:00.
     */
    async function setup() {
      // Built before the shift (no refresh announces anything), then the day is at 09:10.
      now = at('06:00:00')
      const tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      const org = tenant.organisationId
      const db = t.database.db
      const admin = adminClient(t, tenant.headers)
      const api = client(t, tenant.headers)
      const depot = await makeLocation(db, org, { timezone: 'UTC' })
      const worker = await makeDashboardUser(t, org, { role: 'WORKER', name: 'Wendy Worker' })
      const van = await makeVehicle(db, org, depot.id, { startLatitude: '53.4', startLongitude: '-2.2' })
      const shift = await makeShift(
        db,
        org,
        { userId: worker.id, locationId: depot.id, vehicleId: van.id },
        { day: 'THURSDAY', breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }] },
      )
      const job = async (title: string, latitude: number, start: string, window: object = {}) => {
        const created = await api.post('/jobs', {
          title,
          locationId: depot.id,
          jobLatitude: latitude,
          jobLongitude: -2.2,
          serviceDuration: 1800,
          ...window,
        })
        expect(created.status, created.body.error).toBe(201)
        const id = created.body.data.job.id as string
        const assigned = await admin.post(`/jobs/${id}/assign`, {
          userId: worker.id,
          shiftId: shift.id,
          scheduledStart: iso(start),
          scheduledEnd: plus(start, 1800),
        })
        expect(assigned.status, assigned.body.error).toBe(200)
        return id
      }
      const a = await job('A', 53.5, '09:00:00')
      const b = await job('B', 53.6, '09:55:00', {
        earliestStart: iso('08:00:00'),
        latestEnd: iso('11:40:00'),
        timeWindowType: 'HARD',
      })
      const c = await job('C', 53.7, '10:50:00', {
        earliestStart: iso('08:00:00'),
        latestEnd: iso('11:45:00'),
        timeWindowType: 'SOFT',
      })
      await setJobState(db, org, a, { status: 'IN_PROGRESS', startedAt: iso('09:00:00') })
      await t.app.live.settled()
      now = at('09:10:00')
      const me = sessionClient(t, await signIn(t, worker))
      const dispatcher = sessionClient(
        t,
        await signIn(t, await makeDashboardUser(t, org, { role: 'DISPATCHER' })),
      )
      return { tenant, org, db, admin, api, depot, worker, shift, me, dispatcher, a, b, c }
    }
    type Setup = Awaited<ReturnType<typeof setup>>

    const liveShift = async (s: Setup) => {
      const answer = await s.admin.get(`/live?date=${DATE}`)
      expect(answer.status, answer.body.error).toBe(200)
      expect(answer.body.data.shifts).toHaveLength(1)
      return answer.body.data.shifts[0]
    }
    const etaEvents = async (s: Setup) =>
      (await outboxEvents(s.db, s.org)).filter((e) => e.event === 'JOB_ETA_CHANGED').map((e) => e.data)

    it('predicts each remaining stop from the job under way, the travel model, windows and breaks', async () => {
      const s = await setup()
      const day = await liveShift(s)
      expect(day).toMatchObject({
        shiftId: s.shift.id,
        worker: { id: s.worker.id, name: 'Wendy Worker' },
        currentJob: { id: s.a, startedAt: iso('09:00:00'), expectedEnd: iso('09:30:00') },
        lastPosition: null,
      })
      // B: leaves A at 09:30 (started 09:00 + 30 min), one leg; C: one more leg after B's 30 min.
      expect(day.stops).toEqual([
        expect.objectContaining({
          jobId: s.b,
          eta: plus('09:30:00', LEG),
          expectedStart: plus('09:30:00', LEG),
          risk: 'ON_TIME',
        }),
        expect.objectContaining({
          jobId: s.c,
          eta: plus('10:00:00', 2 * LEG),
          expectedStart: plus('10:00:00', 2 * LEG),
          risk: 'ON_TIME',
        }),
      ])
      // C ends 11:13:22; the way back would cross the 12:00 break, taken first (12:00–12:30).
      expect(day.predictedEnd).toBe(plus('12:30:00', BACK))
      expect(day.overtimeMinutes).toBe(0)
      // A overruns: at 10:40 B starts within 15 min of 11:10 (11:40 less its 30 min): AT_RISK; C
      // reaches at 11:53:22, takes the 12:00 break on arrival, starts 12:30, past its SOFT window.
      now = at('10:40:00')
      const late = await liveShift(s)
      expect(late.currentJob.expectedEnd).toBe(iso('10:40:00'))
      expect(
        late.stops.map((x: { eta: string; expectedStart: string; risk: string }) => [
          x.eta,
          x.expectedStart,
          x.risk,
        ]),
      ).toEqual([
        [plus('10:40:00', LEG), plus('10:40:00', LEG), 'AT_RISK'],
        [plus('11:10:00', 2 * LEG), iso('12:30:00'), 'AT_RISK'],
      ])
      // At 11:20 B's HARD window can no longer be met.
      now = at('11:20:00')
      expect((await liveShift(s)).stops[0].risk).toBe('LATE')
      // Overtime: a stop that would run past 16:00.
      now = at('15:40:00')
      const evening = await liveShift(s)
      expect(evening.predictedEnd).toBe(plus('16:40:00', 2 * LEG + BACK))
      expect(evening.overtimeMinutes).toBe(Math.round((40 * 60 + 2 * LEG + BACK) / 60))
    })

    it('starts from a fresh position when nothing is under way, and My day carries each eta', async () => {
      const s = await setup()
      await setJobState(s.db, s.org, s.a, { status: 'COMPLETED', completedAt: iso('09:05:00') })
      // Where the worker is: at B's latitude already.
      const sent = await s.me.post('/my/positions', {
        positions: [{ latitude: 53.6, longitude: -2.2, accuracy: 12.5, recordedAt: iso('09:09:30') }],
      })
      expect(sent.status, sent.body.error).toBe(201)
      expect(sent.body.data.accepted).toBe(1)
      const day = await liveShift(s)
      expect(day.lastPosition).toEqual({
        latitude: '53.6',
        longitude: '-2.2',
        accuracy: 12.5,
        recordedAt: iso('09:09:30'),
      })
      expect(day.currentJob).toBeNull()
      expect(day.stops.map((x: { eta: string }) => x.eta)).toEqual([iso('09:10:00'), plus('09:40:00', LEG)])
      const mine = await s.me.get(`/my/jobs?date=${DATE}`)
      expect(mine.body.data.shifts).toEqual([
        { id: s.shift.id, start: iso('08:00:00'), end: iso('16:00:00') },
      ])
      const byId = new Map(mine.body.data.jobs.map((j: { id: string }) => [j.id, j]))
      expect(byId.get(s.b)).toMatchObject({
        eta: iso('09:10:00'),
        expectedStart: iso('09:10:00'),
        risk: 'ON_TIME',
      })
      expect(byId.get(s.a)).toMatchObject({ eta: null, risk: null })
      // A stale position (over 15 min) no longer says where the worker is: the last job done does.
      now = at('09:30:00')
      expect((await liveShift(s)).stops[0].eta).toBe(plus('09:30:00', LEG))
    })

    it("On my way announces the forecast's eta; the tracking page shows it and the fresh position", async () => {
      const s = await setup()
      await setJobState(s.db, s.org, s.a, { status: 'COMPLETED', completedAt: iso('09:05:00') })
      // The worker is 0.01° (about 1.1 km) south of B, the next stop.
      const sent = await s.me.post('/my/positions', {
        positions: [{ latitude: 53.59, longitude: -2.2, accuracy: 10, recordedAt: iso('09:09:30') }],
      })
      expect(sent.status, sent.body.error).toBe(201)
      const forecast = (await liveShift(s)).stops[0]
      expect(forecast.jobId).toBe(s.b)
      expect(forecast.eta > iso('09:10:00') && forecast.eta < iso('09:20:00')).toBe(true)

      const off = await s.me.post(`/my/jobs/${s.b}/en-route`)
      expect(off.status, off.body.error).toBe(200)
      const [announced] = (await outboxEvents(s.db, s.org)).filter((e) => e.event === 'JOB_EN_ROUTE')
      expect(announced?.data.eta).toBe(forecast.eta)

      const token = String(announced?.data.trackingUrl).split('/t/')[1]
      const page = await t.app.inject({ url: `/v1/track/${token}` })
      expect(page.statusCode, page.body).toBe(200)
      const tracking = page.json().data.tracking
      expect(tracking.status).toBe('EN_ROUTE')
      // The position is where the positions table has the worker, relative to the stop: due south.
      expect(tracking.position).toMatchObject({ metresEast: 0, recordedAt: iso('09:09:30') })
      expect(tracking.position.metresNorth).toBeGreaterThan(-1200)
      expect(tracking.position.metresNorth).toBeLessThan(-1000)
      // Twenty minutes on, that fix is stale: the page no longer shows a position it cannot vouch for.
      now = at('09:30:00')
      const later = (await t.app.inject({ url: `/v1/track/${token}` })).json().data.tracking
      expect(later.position).toBeNull()
      expect(later.arrivalWindow).not.toBeNull()
    })

    it('refuses bad positions naming the field, and positions off shift with 409 OFF_SHIFT', async () => {
      const s = await setup()
      const position = (recordedAt: string, extra: object = {}) => ({
        latitude: 53.5,
        longitude: -2.2,
        recordedAt,
        ...extra,
      })
      const refused = async (body: unknown, path: string) => {
        const answer = await s.me.post('/my/positions', body)
        expect([answer.status, answer.body.code], JSON.stringify(body).slice(0, 80)).toEqual([
          400,
          'VALIDATION_ERROR',
        ])
        expect(JSON.stringify(answer.body.details ?? answer.body.error)).toContain(path)
      }
      await refused({ positions: [] }, '/body/positions')
      await refused(
        { positions: Array.from({ length: 101 }, () => position(iso('09:00:00'))) },
        '/body/positions',
      )
      await refused(
        { positions: [position(iso('09:00:00')), position(iso('09:15:00'))] },
        '/body/positions/1/recordedAt',
      )
      await refused({ positions: [position('2026-11-25T09:00:00Z')] }, '/body/positions/0/recordedAt')
      await refused(
        { positions: [position(iso('09:00:00'), { latitude: 91 })] },
        '/body/positions/0/latitude',
      )
      await refused({ positions: [position(iso('09:00:00'), { speed: 3 })] }, 'speed')
      await refused({ positions: [position('yesterday')] }, '/body/positions/0/recordedAt')
      await refused({}, 'positions')
      // Off shift (08:00–16:00, 30 min either side): refused, nothing stored.
      now = at('07:20:00')
      const early = await s.me.post('/my/positions', { positions: [position(iso('07:20:00'))] })
      expect([early.status, early.body.code]).toEqual([409, 'OFF_SHIFT'])
      now = at('07:31:00')
      const ok = await s.me.post('/my/positions', { positions: [position(iso('07:31:00'))] })
      expect(ok.status).toBe(201)
      now = at('16:35:00')
      const lateBatch = await s.me.post('/my/positions', {
        positions: [position(iso('16:29:00')), position(iso('16:31:00'))],
      })
      expect([lateBatch.status, lateBatch.body.code]).toEqual([409, 'OFF_SHIFT'])
      expect((await liveShift(s)).lastPosition.recordedAt).toBe(iso('07:31:00'))
      // A worker with no shift that day at all.
      const idle = await makeDashboardUser(t, s.org, { role: 'WORKER' })
      const idleSays = await sessionClient(t, await signIn(t, idle)).post('/my/positions', {
        positions: [position(iso('16:30:00'))],
      })
      expect([idleSays.status, idleSays.body.code]).toEqual([409, 'OFF_SHIFT'])
    })

    it('lets admins and dispatchers read positions, nobody else; another organisation sees none', async () => {
      const s = await setup()
      await s.me.post('/my/positions', {
        positions: [{ latitude: 53.45, longitude: -2.2, recordedAt: iso('09:05:00') }],
      })
      expect((await s.dispatcher.get(`/live?date=${DATE}`)).body.data.shifts[0].lastPosition.latitude).toBe(
        '53.45',
      )
      expect(
        (await s.admin.get(`/live?date=${DATE}&locationId=${s.depot.id}`)).body.data.shifts,
      ).toHaveLength(1)
      expect((await s.admin.get(`/live?date=${DATE}&locationId=elsewhere`)).status).toBe(404)
      const worker = await s.me.get(`/live?date=${DATE}`)
      expect([worker.status, worker.body.code]).toEqual([403, 'FORBIDDEN'])
      // An API key is no worker: /my is for sessions.
      const keyed = await s.admin.post('/my/positions', {
        positions: [{ latitude: 53.45, longitude: -2.2, recordedAt: iso('09:05:00') }],
      })
      expect(keyed.status).toBe(401)
      const other = await setup()
      const theirs = await other.admin.get(`/live?date=${DATE}`)
      expect(theirs.body.data.shifts.map((x: { shiftId: string }) => x.shiftId)).toEqual([other.shift.id])
      expect(theirs.body.data.shifts[0].lastPosition).toBeNull()
      const across = await other.admin.get(`/live?date=${DATE}&locationId=${s.depot.id}`)
      expect([across.status, across.body.code]).toEqual([404, 'NOT_FOUND'])
      expect((await s.admin.get('/live?date=26-11-2026')).status).toBe(400)
    })

    it('announces JOB_ETA_CHANGED once per move of more than 15 minutes, through the minute refresh', async () => {
      const s = await setup()
      // 09:10: B is due 3:19 before its 09:55 schedule, C 6:38 before its 10:50: nothing to announce.
      await t.app.live.tick()
      expect(await etaEvents(s)).toEqual([])
      // 10:40, A still under way: both stops move by over an hour. Any job write recomputes the
      // organisation's shifts under way at once (here a note on C, through the public API).
      now = at('10:40:00')
      expect((await s.api.patch(`/jobs/${s.c}`, { description: 'Ring twice' })).status).toBe(200)
      await t.app.live.settled()
      expect(await etaEvents(s)).toEqual([
        { jobId: s.b, eta: plus('10:40:00', LEG), previousEta: iso('09:55:00'), risk: 'AT_RISK' },
        { jobId: s.c, eta: plus('11:10:00', 2 * LEG), previousEta: iso('10:50:00'), risk: 'AT_RISK' },
      ])
      // A minute later, the minute's refresh: they have moved a minute since then, nothing new.
      now = at('10:41:00')
      expect(await t.app.live.tick()).toBe(true)
      await t.app.live.tick()
      expect(await etaEvents(s)).toHaveLength(2)
      // A position arriving recomputes at once: 11:20, B now LATE, 40 min after the last announced.
      now = at('11:20:00')
      await s.me.post('/my/positions', {
        positions: [{ latitude: 53.5, longitude: -2.2, recordedAt: iso('11:19:00') }],
      })
      const events = await etaEvents(s)
      expect(events).toHaveLength(4)
      expect(events[2]).toEqual({
        jobId: s.b,
        eta: plus('11:20:00', LEG),
        previousEta: plus('10:40:00', LEG),
        risk: 'LATE',
      })
    })

    it('prunes positions after POSITION_RETENTION_DAYS in the refresh', async () => {
      const s = await setup()
      await s.me.post('/my/positions', {
        positions: [{ latitude: 53.45, longitude: -2.2, recordedAt: iso('09:05:00') }],
      })
      const count = async () =>
        (await s.db.selectFrom('positions').select('id').where('organisation_id', '=', s.org).execute())
          .length
      now = at('09:10:00') + 6 * 86_400_000
      await t.app.live.tick()
      expect(await count()).toBe(1)
      now = at('09:10:00') + 7 * 86_400_000
      await t.app.live.tick()
      expect(await count()).toBe(0)
    })
  })
}
