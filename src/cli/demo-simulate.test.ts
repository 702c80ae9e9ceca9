// `demo --simulate` (issue 29): the simulator, ticked by hand on a clock the test moves. Workers on
// shift get positions and drive towards their next stop at the travel model's speed; jobs are set off,
// started, their forms filled in and completed in order through the services, each event once; one
// job overruns on the real clock so its successor goes AT_RISK; stop() leaves nothing running.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeLocation, makeShift, makeVehicle, outboxEvents, setJobState } from '../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../test/helpers.js'
import { makeDashboardUser } from '../../test/sessions.js'
import { createFormTemplate } from '../modules/form-templates/service.js'
import { seedDemoOrganisation } from './demo-seed.js'
import { ensureDemoFormTemplate } from './demo-sign-in.js'
import { DaySimulator } from './demo-simulate.js'
import { topUpToday } from './demo-today.js'

const DATE = '2026-11-26' // a Thursday
const at = (hhmm: string) => Date.parse(`${DATE}T${hhmm}:00Z`)
const iso = (hhmm: string) => new Date(at(hhmm)).toISOString()
// Stops 0.1° of latitude apart on one meridian: 11,119.5 m × 1.3 detour at 40 km/h = 1,301 s a leg.
const LEG = 1301
const quiet = { info() {}, warn() {} }

for (const dialect of DIALECTS) {
  describe(`${dialect}: the simulated day`, () => {
    let t: TestContext
    let now = at('06:00')
    beforeAll(async () => {
      t = await createTestApp(dialect, {}, { clock: () => now })
    })
    afterAll(() => t.close())

    /**
     * Wendy's Thursday shift 08:00–16:00 from a UTC depot: A under way since 09:00 (30 min), then B
     * (HARD window until `bLatestEnd`) and C, 0.1° north of each other. Liam's shift starts at 13:00 with
     * a job of its own. Every job needs a form.
     */
    async function setup(bLatestEnd = '10:45') {
      now = at('06:00')
      const tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      const org = tenant.organisationId
      const db = t.database.db
      const api = client(t, tenant.headers)
      const admin = adminClient(t, tenant.headers)
      const depot = await makeLocation(db, org, { timezone: 'UTC' })
      const van = await makeVehicle(db, org, depot.id, { startLatitude: '53.4', startLongitude: '-2.2' })
      const wendy = await makeDashboardUser(t, org, { role: 'WORKER', name: 'Wendy Worker' })
      const liam = await makeDashboardUser(t, org, { role: 'WORKER', name: 'Liam Later' })
      const refs = { locationId: depot.id, vehicleId: van.id }
      const early = await makeShift(db, org, { ...refs, userId: wendy.id }, { day: 'THURSDAY' })
      const late = await makeShift(
        db,
        org,
        { ...refs, userId: liam.id },
        { day: 'THURSDAY', startTime: '13:00', endTime: '17:00' },
      )
      const job = async (title: string, latitude: number, worker: string, shiftId: string, start: string) => {
        const created = await api.post('/jobs', {
          title,
          locationId: depot.id,
          jobLatitude: latitude,
          jobLongitude: -2.2,
          serviceDuration: 1800,
          earliestStart: iso('08:00'),
          latestEnd: iso(title === 'B' ? bLatestEnd : '16:00'),
          timeWindowType: title === 'C' ? 'SOFT' : 'HARD',
        })
        expect(created.status, created.body.error).toBe(201)
        const id = created.body.data.job.id as string
        const assigned = await admin.post(`/jobs/${id}/assign`, {
          userId: worker,
          shiftId,
          scheduledStart: iso(start),
          scheduledEnd: new Date(at(start) + 1_800_000).toISOString(),
        })
        expect(assigned.status, assigned.body.error).toBe(200)
        return id
      }
      const a = await job('A', 53.5, wendy.id, early.id, '09:00')
      const b = await job('B', 53.6, wendy.id, early.id, '09:55')
      const c = await job('C', 53.7, wendy.id, early.id, '10:50')
      const d = await job('D', 53.5, liam.id, late.id, '13:30')
      await setJobState(db, org, a, { status: 'IN_PROGRESS', startedAt: iso('09:00') })
      await createFormTemplate(db, org, {
        name: 'Visit record',
        appliesTo: 'ALL_JOBS',
        fields: [
          { key: 'done', label: 'Work done', type: 'TEXT', required: true },
          { key: 'pressure', label: 'Pressure', type: 'NUMBER', required: true, min: 1, max: 3 },
          { key: 'safe', label: 'Safe?', type: 'YES_NO', required: true },
          { key: 'flue', label: 'Flue', type: 'CHOICE', required: true, options: ['Pass', 'Fail'] },
        ],
      })
      await t.app.live.settled()
      const simulator = new DaySimulator({
        db,
        organisationId: org,
        clock: () => now,
        speed: 10,
        publicBaseUrl: 'http://127.0.0.1:3000',
        etaChangeMinutes: 15,
        log: quiet,
        tickMs: 3_600_000,
      })
      return { org, db, api, admin, wendy, liam, a, b, c, d, simulator }
    }
    type Setup = Awaited<ReturnType<typeof setup>>

    const live = async (s: Setup) => {
      const answer = await s.admin.get(`/live?date=${DATE}`)
      expect(answer.status, answer.body.error).toBe(200)
      const shifts = answer.body.data.shifts as {
        worker: { id: string }
        lastPosition: { latitude: string; longitude: string; recordedAt: string } | null
        currentJob: { id: string } | null
        stops: { jobId: string; eta: string; risk: string }[]
      }[]
      const of = (id: string) => shifts.find((shift) => shift.worker.id === id)!
      return { wendy: of(s.wendy.id), liam: of(s.liam.id) }
    }
    const jobStatus = async (s: Setup, id: string) => (await s.admin.get(`/jobs/${id}`)).body.data.job

    it('moves the workers on shift along their route and works their jobs in order, each event once', async () => {
      const s = await setup()
      now = at('09:10')
      const first = await s.simulator.tick()
      // Wendy is on shift, at the job under way; Liam's shift has not started: no position for him.
      expect(first.moved).toEqual([s.wendy.id])
      expect(s.simulator.overrunJobId).toBe(s.a)
      let day = await live(s)
      expect(day.liam.lastPosition).toBeNull()
      expect(day.wendy.lastPosition).toMatchObject({ latitude: '53.5', longitude: '-2.2' })
      expect(day.wendy.stops.map((stop) => [stop.jobId, stop.risk])).toEqual([
        [s.b, 'ON_TIME'],
        [s.c, 'ON_TIME'],
      ])

      // A overruns on the clock (twice its 30 min): past its expected end, B's HARD window is at risk.
      now = at('09:45')
      expect((await s.simulator.tick()).completed).toEqual([])
      day = await live(s)
      expect(day.wendy.currentJob?.id).toBe(s.a)
      expect(day.wendy.stops[0]).toMatchObject({ jobId: s.b, risk: 'AT_RISK' })

      // 10:00: A is done; Wendy sets off to B.
      now = at('10:00')
      expect(await s.simulator.tick()).toMatchObject({ completed: [s.a], enRoute: [s.b], started: [] })
      expect(await jobStatus(s, s.a)).toMatchObject({ status: 'COMPLETED', completedAt: iso('10:00') })

      // One real minute at 10×: 600 s of a 1,301 s leg, on the straight line towards B.
      now = at('10:01')
      await s.simulator.tick()
      day = await live(s)
      const latitude = Number(day.wendy.lastPosition?.latitude)
      expect(latitude).toBeCloseTo(53.5 + 0.1 * (600 / LEG), 4)
      expect(day.wendy.stops[0]?.jobId).toBe(s.b)
      expect(Date.parse(day.wendy.stops[0]!.eta)).toBeGreaterThan(now)

      // Two more minutes: arrives at B (its window is open) and starts it; then three: B is done and
      // C is on its way.
      now = at('10:03')
      expect(await s.simulator.tick()).toMatchObject({ started: [s.b], completed: [] })
      now = at('10:06')
      expect(await s.simulator.tick()).toMatchObject({ completed: [s.b], enRoute: [s.c] })
      expect(await jobStatus(s, s.b)).toMatchObject({ status: 'COMPLETED', startedAt: iso('10:03') })

      // Ticking again at the same instant changes nothing and announces nothing twice.
      await s.simulator.tick()
      const events = (await outboxEvents(s.db, s.org)).filter((e) =>
        ['JOB_COMPLETED', 'JOB_EN_ROUTE', 'STATUS_CHANGED', 'FORM_SUBMITTED'].includes(e.event),
      )
      const count = (event: string, jobId: string) =>
        events.filter((e) => e.event === event && e.data.jobId === jobId).length
      expect([count('JOB_COMPLETED', s.a), count('JOB_COMPLETED', s.b), count('JOB_COMPLETED', s.c)]).toEqual(
        [1, 1, 0],
      )
      expect([count('JOB_EN_ROUTE', s.b), count('JOB_EN_ROUTE', s.c)]).toEqual([1, 1])
      // B: ASSIGNED → IN_PROGRESS → COMPLETED, after A's completion.
      const changes = events
        .filter((e) => e.event === 'STATUS_CHANGED' && e.data.status !== 'ASSIGNED')
        .map((e) => [e.data.jobId, e.data.status])
      expect(changes).toEqual([
        [s.a, 'COMPLETED'],
        [s.b, 'IN_PROGRESS'],
        [s.b, 'COMPLETED'],
      ])
      // The forms were filled in before each completion (FORM_REQUIRED would have refused it).
      expect(count('FORM_SUBMITTED', s.a) + count('FORM_SUBMITTED', s.b)).toBe(2)
      expect(await jobStatus(s, s.d)).toMatchObject({ status: 'ASSIGNED', startedAt: null })
    })

    it('holds the overrunning job past twice its duration until its successor is at risk', async () => {
      const s = await setup('16:00')
      now = at('09:10')
      await s.simulator.tick()
      expect(s.simulator.overrunJobId).toBe(s.a)
      // 10:00, twice A's duration: B (until 16:00) is still on time, so A goes on.
      now = at('10:00')
      expect((await s.simulator.tick()).completed).toEqual([])
      // B's latest start is 15:30; from 14:53:19 (one 1,301 s leg before 15:15) it is AT_RISK.
      now = at('14:55')
      expect((await live(s)).wendy.stops[0]).toMatchObject({ jobId: s.b, risk: 'AT_RISK' })
      // (Liam's shift is under way by now too: his D is worked on in the same tick.)
      const report = await s.simulator.tick()
      expect(report.completed).toContain(s.a)
      expect(report.enRoute).toContain(s.b)
    })

    it('gives work to the shifts of today with none left, before the simulation starts', async () => {
      const s = await setup()
      const depot = await makeLocation(s.db, s.org, { timezone: 'UTC' })
      const van = await makeVehicle(s.db, s.org, depot.id)
      const nina = await makeDashboardUser(t, s.org, { role: 'WORKER', name: 'Nina Idle' })
      const idle = await makeShift(
        s.db,
        s.org,
        { userId: nina.id, locationId: depot.id, vehicleId: van.id },
        { day: 'THURSDAY' },
      )
      for (const [name, latitude] of [
        ['Near', 53.46],
        ['Far', 53.9],
      ] as const) {
        const made = await s.api.post('/customers', {
          name,
          address: 'Somewhere',
          latitude,
          longitude: -2.25,
        })
        expect(made.status, made.body.error).toBe(201)
      }
      now = at('09:10')
      // Wendy has B and C left and Liam has D: only Nina's shift gets work, from 09:30 on.
      expect(await topUpToday(s.db, s.org, now)).toBe(2)
      const day = await live(s)
      expect(day.wendy.stops).toHaveLength(2)
      const jobs = await s.db
        .selectFrom('jobs')
        .select(['shift_id', 'scheduled_start', 'status'])
        .where('organisation_id', '=', s.org)
        .where('assigned_user_id', '=', nina.id)
        .orderBy('scheduled_start')
        .execute()
      expect(jobs).toEqual([
        { shift_id: idle.id, scheduled_start: iso('09:30'), status: 'ASSIGNED' },
        // 'Far' is over an hour and a half's drive from 'Near': assign's checks refuse 10:20 (OVERLAP),
        // and the top-up tries a quarter of an hour later until Nina can be there.
        { shift_id: idle.id, scheduled_start: iso('11:50'), status: 'ASSIGNED' },
      ])
      // Again: the shift has work now, nothing more is added.
      expect(await topUpToday(s.db, s.org, now)).toBe(0)
    })

    it("runs the demo's own Thursday without a refused step, every worker on shift moving", async () => {
      const start = at('10:30')
      now = start
      const { organisationId } = await seedDemoOrganisation(t.database.db, new Date(start))
      await ensureDemoFormTemplate(t.database.db, organisationId)
      const refused: unknown[] = []
      const simulator = new DaySimulator({
        db: t.database.db,
        organisationId,
        clock: () => now,
        speed: 20,
        publicBaseUrl: 'http://127.0.0.1:3000',
        etaChangeMinutes: 15,
        log: { info() {}, warn: (object) => refused.push(object) },
      })
      // Thursday 10:30: Aisha, Tom, Gareth, Chloe and Dan are on shift; Megan starts at 13:30.
      const first = await simulator.tick()
      expect(first.moved).toHaveLength(5)
      const report = { started: first.started.length, completed: 0, enRoute: first.enRoute.length }
      for (let tick = 0; tick < 12; tick++) {
        now += 20_000
        const done = await simulator.tick()
        report.started += done.started.length
        report.completed += done.completed.length
        report.enRoute += done.enRoute.length
      }
      // Four real minutes at 20× are 80 minutes of driving and working.
      expect(refused).toEqual([])
      expect(report.completed).toBeGreaterThan(0)
      expect(report.enRoute).toBeGreaterThan(0)
    })

    it('starts on its own timer and stops cleanly, leaving no tick behind', async () => {
      const s = await setup()
      now = at('09:10')
      s.simulator.start()
      await s.simulator.stop()
      // start() ticked once at once; stop() waited for it. The timer is gone: advancing the clock
      // and waiting a turn of the event loop records nothing more.
      const positions = async () =>
        s.db.selectFrom('positions').select('id').where('organisation_id', '=', s.org).execute()
      expect(await positions()).toHaveLength(1)
      now = at('09:20')
      await new Promise((resolve) => setImmediate(resolve))
      expect(await positions()).toHaveLength(1)
      await s.simulator.stop()
    })
  })
}
