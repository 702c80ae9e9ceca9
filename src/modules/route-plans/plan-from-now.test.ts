// Planning today from now (issue 29 §5 and §4): a plan made at 12:45 never places anything before
// 12:45 nor over work done or in progress, in every mode; REPLAN_REMAINING keeps the job in progress
// first with its worker; stability 1 moves fewer jobs than 0; the plan lists what it changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  makeLocation,
  makeShift,
  makeUser,
  makeVehicle,
  outboxEvents,
  setJobState,
} from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { runPlan } from '../../../test/route-plans.js'
import { checkPlan, solve } from '../../optimiser/index.js'
import { loadDayInputs } from './day-inputs.js'
import { toRoutingModel } from './optimiser-model.js'

// 2026-12-07 is a Monday; Europe/London is on UTC in December, so local times read as UTC.
const DATE = '2026-12-07'
const at = (hhmm: string) => `${DATE}T${hhmm}:00.000Z`
const NOW = at('12:45')
const ms = (iso: string) => Date.parse(iso)

interface Stop {
  jobId: string
  arrival: string
  serviceStart: string
  serviceEnd: string
  inProgress?: boolean
}
interface Route {
  shiftId: string
  user: { id: string; name: string }
  start: string
  breaks: { start: string }[]
  stops: Stop[]
}
interface Change {
  jobId: string
  from: { user: { id: string }; start: string | null } | null
  to: { user: { id: string }; start: string } | null
  movedWorker: boolean
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: route plans from now`, () => {
    let t: TestContext
    beforeAll(async () => {
      // The service's clock reads 12:45 on the plan's date: "now" for plans that name no `at`.
      t = await createTestApp(dialect, { planWorkers: 1 }, { clock: () => ms(NOW) })
    })
    afterAll(() => t.close())

    async function makeTenant() {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const db = t.database.db
      const org = tenant.organisationId
      const depot = await makeLocation(db, org, { timezone: 'Europe/London' })
      const workers = []
      for (const name of ['Ana', 'Ben']) {
        const user = await makeUser(db, org, { name })
        const vehicle = await makeVehicle(db, org, depot.id, { name: `${name}'s van` })
        const shift = await makeShift(
          db,
          org,
          { userId: user.id, locationId: depot.id, vehicleId: vehicle.id },
          {
            day: 'MONDAY',
            startTime: '08:00',
            endTime: '18:00',
            breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
          },
        )
        workers.push({ userId: user.id, shiftId: shift.id })
      }
      return {
        org,
        db,
        depot,
        workers,
        admin: adminClient(t, tenant.headers),
        api: client(t, tenant.headers),
      }
    }
    type Tenant = Awaited<ReturnType<typeof makeTenant>>

    async function makeJob(
      tenant: Tenant,
      title: string,
      where: [number, number],
      window: { from: string; to: string; type?: 'HARD' | 'SOFT' } = { from: '08:00', to: '18:00' },
      serviceDuration = 1800,
    ): Promise<string> {
      const created = await tenant.api.post('/jobs', {
        title,
        jobLatitude: where[0],
        jobLongitude: where[1],
        serviceDuration,
        earliestStart: at(window.from),
        latestEnd: at(window.to),
        ...(window.type ? { timeWindowType: window.type } : {}),
      })
      expect(created.status).toBe(201)
      return created.body.data.job.id
    }

    async function assign(tenant: Tenant, jobId: string, worker: number, from: string, to: string) {
      const { userId, shiftId } = tenant.workers[worker]!
      await setJobState(tenant.db, tenant.org, jobId, {
        status: 'ASSIGNED',
        assignedUserId: userId,
        shiftId,
        scheduledStart: at(from),
        scheduledEnd: at(to),
      })
    }

    /**
     * The demo's afternoon: Ana completed a job at 09:00 and has one assigned at 09:30 she has not
     * started; Ben started a one-hour job at 12:20 (ends 13:20); lunch (12:00–12:30) is over; five
     * jobs wait, one of them with a HARD window that closed at 10:00 and one SOFT that did.
     */
    async function makeAfternoon() {
      const tenant = await makeTenant()
      const completed = await makeJob(tenant, 'Done this morning', [53.47, -2.25])
      await assign(tenant, completed, 0, '08:30', '09:00')
      await setJobState(tenant.db, tenant.org, completed, {
        status: 'COMPLETED',
        startedAt: at('08:30'),
        completedAt: at('09:00'),
      })
      const inProgress = await makeJob(tenant, 'Boiler breakdown', [53.49, -2.2])
      await tenant.db
        .updateTable('jobs')
        .set({ service_duration: 3600 })
        .where('id', '=', inProgress)
        .execute()
      await assign(tenant, inProgress, 1, '12:20', '13:20')
      await setJobState(tenant.db, tenant.org, inProgress, { status: 'IN_PROGRESS', startedAt: at('12:20') })
      const assignedEarly = await makeJob(tenant, 'Assigned this morning', [53.46, -2.28])
      await assign(tenant, assignedEarly, 0, '09:30', '10:00')
      const waiting = []
      for (let i = 0; i < 4; i++)
        waiting.push(await makeJob(tenant, `Service ${i + 1}`, [53.45 + i * 0.01, -2.3]))
      const closedHard = await makeJob(tenant, 'Morning only', [53.5, -2.2], { from: '08:00', to: '10:00' })
      const lateSoft = await makeJob(tenant, 'Morning, soft', [53.5, -2.21], {
        from: '08:00',
        to: '10:00',
        type: 'SOFT',
      })
      return { tenant, completed, inProgress, assignedEarly, waiting, closedHard, lateSoft }
    }

    const plan = (tenant: Tenant, body: Record<string, unknown>) =>
      runPlan(tenant.admin, { date: DATE, timeLimitSeconds: 1, ...body })

    /** Nothing before now, nothing over work in progress, no break already passed. */
    function expectPlannedFromNow(routes: Route[], day: Awaited<ReturnType<typeof makeAfternoon>>) {
      const planned = routes.flatMap((r) => r.stops.map((s) => s.jobId))
      expect(planned).not.toContain(day.completed)
      expect(planned).not.toContain(day.closedHard)
      for (const route of routes) {
        for (const b of route.breaks) expect(ms(b.start)).toBeGreaterThanOrEqual(ms(NOW))
        const current = route.stops.find((s) => s.inProgress)
        for (const stop of route.stops) {
          if (stop.inProgress) continue
          expect(ms(stop.arrival)).toBeGreaterThanOrEqual(ms(NOW))
          expect(ms(stop.serviceStart)).toBeGreaterThanOrEqual(ms(NOW))
          if (current) expect(ms(stop.serviceStart)).toBeGreaterThanOrEqual(ms(current.serviceEnd))
        }
      }
      const ben = routes.find((r) => r.stops.some((s) => s.jobId === day.inProgress))
      expect(ben?.user.id).toBe(day.tenant.workers[1]!.userId)
      expect(ben?.stops[0]).toMatchObject({
        jobId: day.inProgress,
        inProgress: true,
        serviceStart: at('12:20'),
        serviceEnd: at('13:20'),
      })
    }

    for (const mode of ['KEEP_ASSIGNED', 'REPLAN_ALL', 'REPLAN_REMAINING'] as const) {
      it(`${mode} at 12:45 places nothing before now nor over done or in-progress work`, async () => {
        const day = await makeAfternoon()
        const done = await plan(day.tenant, { mode })
        expect(done.at).toBe(NOW)
        expect(done.stability).toBe(0.5)
        const result = done.result
        expectPlannedFromNow(result.routes, day)
        expect(result.unassigned).toContainEqual({
          jobId: day.closedHard,
          title: 'Morning only',
          reason: 'WINDOW_PASSED',
        })
        // The SOFT job whose window has passed is still done, late, after now.
        const planned = result.routes.flatMap((r: Route) => r.stops.map((s) => s.jobId))
        expect(planned).toEqual(expect.arrayContaining([...day.waiting, day.lateSoft, day.assignedEarly]))
        if (mode === 'KEEP_ASSIGNED') {
          const ana = result.routes.find((r: Route) => r.user.id === day.tenant.workers[0]!.userId)
          expect(ana.stops.map((s: Stop) => s.jobId)).toContain(day.assignedEarly)
        }
        // The optimiser's own model of that afternoon, checked by the independent checker.
        const inputs = await loadDayInputs(t.database.db, day.tenant.org, { date: DATE, mode, at: ms(NOW) })
        const model = toRoutingModel(inputs, inputs.routing)
        for (const route of model.routes) expect(route.window[0]).toBeGreaterThanOrEqual(ms(NOW) / 1000)
        expect(model.routes[1]!.window[0]).toBe(ms(at('13:20')) / 1000)
        for (const route of model.routes) expect(route.breaks).toEqual([])
        const solved = solve(model, { seed: 7, maxIterations: 2000 })
        expect(checkPlan(model, solved)).toEqual([])
        for (const route of solved.routes)
          for (const stop of route.stops) expect(stop.serviceStart).toBeGreaterThanOrEqual(ms(NOW) / 1000)
      })
    }

    it("starts a route of today where the worker's phone was in the last 15 minutes, else at the last job done", async () => {
      const day = await makeAfternoon()
      const ana = day.tenant.workers[0]!.userId
      const ben = day.tenant.workers[1]!.userId
      const position = (userId: string, recordedAt: string, latitude: string, longitude: string) =>
        t.database.db
          .insertInto('positions')
          .values({
            id: `pos_${Math.random().toString(36).slice(2)}`,
            organisation_id: day.tenant.org,
            user_id: userId,
            latitude,
            longitude,
            accuracy: 12,
            recorded_at: recordedAt,
            received_at: recordedAt,
          })
          .execute()
      const startOf = async (userId: string) => {
        const inputs = await loadDayInputs(t.database.db, day.tenant.org, {
          date: DATE,
          mode: 'REPLAN_REMAINING',
          at: ms(NOW),
        })
        return inputs.routes.find((route) => route.userId === userId)?.startPosition
      }
      // 25 minutes old: Ana is taken to be where she finished her last job.
      await position(ana, at('12:20'), '53.51', '-2.31')
      expect(await startOf(ana)).toEqual({ latitude: 53.47, longitude: -2.25 })
      // Five minutes old: she is where her phone says.
      await position(ana, at('12:40'), '53.52', '-2.32')
      expect(await startOf(ana)).toEqual({ latitude: 53.52, longitude: -2.32 })
      // Ben's job in progress decides his start, wherever his phone is meanwhile.
      await position(ben, at('12:44'), '53.4', '-2.1')
      expect(await startOf(ben)).toEqual({ latitude: 53.49, longitude: -2.2 })
      // A plan of the whole day (no "now") starts at the vehicles' starts, positions or not.
      const whole = await loadDayInputs(t.database.db, day.tenant.org, {
        date: DATE,
        mode: 'REPLAN_ALL',
        at: Number.NEGATIVE_INFINITY,
      })
      for (const route of whole.routes) expect(route.startPosition).toEqual(route.origin)
    })

    it('REPLAN_REMAINING applies around the job in progress, which stays IN_PROGRESS with its worker', async () => {
      const day = await makeAfternoon()
      const done = await plan(day.tenant, { mode: 'REPLAN_REMAINING', at: at('12:50') })
      expect(done.at).toBe(at('12:50'))
      const changes: Change[] = done.result.changes
      expect(changes.map((c) => c.jobId)).not.toContain(day.inProgress)
      expect(changes.map((c) => c.jobId)).toEqual(expect.arrayContaining(day.waiting))
      for (const change of changes.filter((c) => day.waiting.includes(c.jobId))) {
        expect(change.from).toBeNull()
        expect(change.movedWorker).toBe(true)
      }
      const applied = await day.tenant.admin.post(`/route-plans/${done.id}/apply`)
      expect(applied.status).toBe(200)
      const current = await day.tenant.api.get(`/jobs/${day.inProgress}`)
      expect(current.body.data.job).toMatchObject({
        status: 'IN_PROGRESS',
        assignedUserId: day.tenant.workers[1]!.userId,
      })
      for (const jobId of day.waiting) {
        const job = (await day.tenant.api.get(`/jobs/${jobId}`)).body.data.job
        expect(job.status).toBe('ASSIGNED')
        expect(ms(job.scheduledStart)).toBeGreaterThanOrEqual(ms(at('12:50')))
      }
      // The same afternoon re-planned at once: applying writes only what the preview lists, so the
      // jobs it keeps where they are get no new JOB_ASSIGNED (nor a new schedule for their eta) — even
      // one whose time differs by seconds, as a schedule set by hand does.
      const nudged = (await day.tenant.api.get(`/jobs/${day.waiting[0]}`)).body.data.job
      const start = ms(nudged.scheduledStart)
      const shift = start % 60_000 < 30_000 ? 20_000 : -20_000
      await setJobState(day.tenant.db, day.tenant.org, nudged.id, {
        status: 'ASSIGNED',
        assignedUserId: nudged.assignedUserId,
        shiftId: nudged.shiftId,
        scheduledStart: new Date(start + shift).toISOString(),
        scheduledEnd: new Date(ms(nudged.scheduledEnd) + shift).toISOString(),
      })
      const again = await plan(day.tenant, { mode: 'REPLAN_REMAINING', at: at('12:50'), stability: 1 })
      const listed = new Set(again.result.changes.map((c: Change) => c.jobId))
      const before = (await outboxEvents(t.database.db, day.tenant.org)).length
      expect((await day.tenant.admin.post(`/route-plans/${again.id}/apply`)).status).toBe(200)
      const assigned = (await outboxEvents(t.database.db, day.tenant.org))
        .slice(before)
        .filter((e) => e.event === 'JOB_ASSIGNED')
        .map((e) => e.data.jobId)
      expect(assigned.sort()).toEqual([...listed].filter((id) => id !== undefined).sort())
      expect(listed.has(nudged.id)).toBe(false)
    })

    it('stability 1 moves fewer jobs between workers than stability 0', async () => {
      // Two clusters 20 km either side of the depot, each worker given two jobs of each, crosswise:
      // re-planned freely, each worker takes one side (jobs move); at stability 1 each keeps theirs.
      // Visits of 1.5 h: one van cannot do all eight, so both routes stay in use either way.
      const tenant = await makeTenant()
      const west: string[] = []
      const east: string[] = []
      for (let i = 0; i < 4; i++) {
        const day = { from: '08:00', to: '18:00' }
        west.push(await makeJob(tenant, `West ${i + 1}`, [53.47 + i * 0.005, -2.55], day, 5400))
        east.push(await makeJob(tenant, `East ${i + 1}`, [53.47 + i * 0.005, -1.94], day, 5400))
      }
      const slots = [
        ['08:30', '09:00'],
        ['10:00', '10:30'],
        ['11:30', '12:00'],
        ['13:30', '14:00'],
      ] as const
      for (let i = 0; i < 4; i++) {
        const [from, to] = slots[i]!
        await assign(tenant, i % 2 === 0 ? west[i]! : east[i]!, 0, from, to)
        await assign(tenant, i % 2 === 0 ? east[i]! : west[i]!, 1, from, to)
      }
      const moved = (routePlan: { result: { changes: Change[] } }) =>
        routePlan.result.changes.filter((c) => c.movedWorker).length
      const free = await plan(tenant, { mode: 'REPLAN_ALL', stability: 0, at: at('08:00') })
      const stable = await plan(tenant, { mode: 'REPLAN_ALL', stability: 1, at: at('08:00') })
      expect(free.stability).toBe(0)
      expect(stable.stability).toBe(1)
      expect(moved(free)).toBeGreaterThanOrEqual(2)
      expect(moved(stable)).toBe(0)
      expect(moved(stable)).toBeLessThan(moved(free))
      // Each change names the job, its worker and time before and after.
      const change = free.result.changes.find((c: Change) => c.movedWorker)
      expect(change.from.user.id).not.toBe(change.to.user.id)
      expect(change.from.start).toMatch(/^2026-12-07T/)
      expect(change.to.start).toMatch(/^2026-12-07T/)
    })

    it('refuses a bad mode, `at` or stability with 400 naming the field, and changes nothing', async () => {
      const tenant = await makeTenant()
      const bad = async (body: Record<string, unknown>, field: RegExp) => {
        const response = await tenant.admin.post('/route-plans', {
          date: DATE,
          mode: 'REPLAN_REMAINING',
          ...body,
        })
        expect(response.status).toBe(400)
        expect(response.body.code).toBe('VALIDATION_ERROR')
        expect(response.body.error).toMatch(field)
      }
      await bad({ mode: 'REPLAN_SOME' }, /mode/)
      await bad({ at: '2026-12-08T09:00:00.000Z' }, /at/)
      await bad({ at: 'noon' }, /at/)
      await bad({ stability: 1.5 }, /stability/)
      await bad({ stability: -0.1 }, /stability/)
      await bad({ stability: 'high' }, /stability/)
      // REPLAN_REMAINING without `at` plans today only (the clock says 2026-12-07).
      await bad({ date: '2026-12-14' }, /date/)
      const list = await tenant.admin.get('/route-plans')
      expect(list.body.data.routePlans).toEqual([])
      // The same date in the depot's zone, at any time of it, is fine.
      const fine = await tenant.admin.post('/route-plans', {
        date: DATE,
        mode: 'REPLAN_REMAINING',
        at: '2026-12-07T23:59:00.000Z',
        stability: 1,
        timeLimitSeconds: 1,
      })
      expect(fine.status).toBe(202)
    })
  })
}
