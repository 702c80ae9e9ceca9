import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  addJobDemand,
  makeCapacityDimension,
  makeLocation,
  makeShift,
  makeTag,
  makeUser,
  makeVehicle,
  outboxEvents,
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
  type TestTenant,
} from '../../../test/helpers.js'

// 2026-12-07 is a Monday; Europe/London is on UTC in December, so local times read as UTC.
const DATE = '2026-12-07'
const at = (hhmm: string) => `${DATE}T${hhmm}:00.000Z`
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Day {
  tenant: TestTenant
  admin: ReturnType<typeof adminClient>
  api: ReturnType<typeof client>
  depot: { id: string }
  shifts: { id: string; user_id: string; breaks: { start_time: string; end_time: string }[] }[]
  jobIds: string[]
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: route plans`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect, { planWorkers: 1 })
    })
    afterAll(() => t.close())

    /** A depot near Manchester, two workers with vans on Monday 08:00–16:00 (lunch 12:00–12:30), `jobs` jobs. */
    async function makeDay(jobs = 8): Promise<Day> {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const admin = adminClient(t, tenant.headers)
      const api = client(t, tenant.headers)
      const db = t.database.db
      const org = tenant.organisationId
      const depot = await makeLocation(db, org, { timezone: 'Europe/London' })
      const shifts = []
      for (const name of ['Ana', 'Ben']) {
        const user = await makeUser(db, org, { name })
        const vehicle = await makeVehicle(db, org, depot.id, { name: `${name}'s van` })
        shifts.push(
          await makeShift(
            db,
            org,
            { userId: user.id, locationId: depot.id, vehicleId: vehicle.id },
            {
              day: 'MONDAY',
              startTime: '08:00',
              endTime: '16:00',
              breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
            },
          ),
        )
      }
      const jobIds = []
      for (let i = 0; i < jobs; i++) {
        const created = await api.post('/jobs', {
          title: `Boiler service ${i + 1}`,
          jobLatitude: 53.45 + (i % 4) * 0.02,
          jobLongitude: -2.3 + Math.floor(i / 4) * 0.03,
          serviceDuration: 1800,
          earliestStart: at('08:00'),
          latestEnd: at('16:00'),
        })
        expect(created.status).toBe(201)
        jobIds.push(created.body.data.job.id)
      }
      return { tenant, admin, api, depot, shifts, jobIds }
    }

    async function waitForPlan(admin: Day['admin'], id: string, until: (status: string) => boolean) {
      for (let i = 0; i < 300; i++) {
        const read = await admin.get(`/route-plans/${id}`)
        expect(read.status).toBe(200)
        if (until(read.body.data.routePlan.status)) return read.body.data.routePlan
        await pause(100)
      }
      throw new Error(`plan ${id} did not finish`)
    }

    async function plan(day: Day, body: Record<string, unknown> = {}) {
      const queued = await day.admin.post('/route-plans', {
        date: DATE,
        mode: 'REPLAN_ALL',
        timeLimitSeconds: 1,
        ...body,
      })
      expect(queued.status).toBe(202)
      expect(queued.body.data.routePlan.status).toBe('QUEUED')
      return waitForPlan(day.admin, queued.body.data.routePlan.id, (s) => !['QUEUED', 'RUNNING'].includes(s))
    }

    it('plans every job of the day inside its window, the shift and around the breaks', async () => {
      const day = await makeDay(10)
      const done = await plan(day)
      expect(done.status).toBe('DONE')
      const result = done.result
      expect(result.unassigned).toEqual([])
      const planned = result.routes.flatMap((r: { stops: { jobId: string }[] }) =>
        r.stops.map((s) => s.jobId),
      )
      expect([...planned].sort()).toEqual([...day.jobIds].sort())
      for (const route of result.routes) {
        expect(day.shifts.map((s) => s.id)).toContain(route.shiftId)
        expect(route.start >= at('08:00') && route.end <= at('16:00')).toBe(true)
        let previousEnd = route.start
        for (const stop of route.stops) {
          expect(stop.arrival >= previousEnd).toBe(true)
          expect(stop.serviceStart >= stop.arrival).toBe(true)
          expect(Date.parse(stop.serviceEnd) - Date.parse(stop.serviceStart)).toBe(1800_000)
          expect(stop.serviceStart >= at('08:00') && stop.serviceEnd <= at('16:00')).toBe(true)
          // No service overlaps the lunch break.
          expect(stop.serviceEnd <= at('12:00') || stop.serviceStart >= at('12:30')).toBe(true)
          previousEnd = stop.serviceEnd
        }
      }
      expect(result.totals.assignedJobs).toBe(10)
      expect(result.cost.total).toBeGreaterThan(0)
    })

    it('applies a plan through the job lifecycle, once, with one JOB_ASSIGNED and STATUS_CHANGED per job', async () => {
      const day = await makeDay(6)
      const done = await plan(day)
      const applied = await day.admin.post(`/route-plans/${done.id}/apply`)
      expect(applied.status).toBe(200)
      expect(applied.body.data.routePlan.status).toBe('APPLIED')
      for (const route of done.result.routes) {
        for (const stop of route.stops) {
          const job = (await day.api.get(`/jobs/${stop.jobId}`)).body.data.job
          expect(job).toMatchObject({
            status: 'ASSIGNED',
            assignedUserId: route.user.id,
            shiftId: route.shiftId,
            scheduledStart: stop.serviceStart,
            scheduledEnd: stop.serviceEnd,
          })
        }
      }
      const events = await outboxEvents(t.database.db, day.tenant.organisationId)
      const count = (name: string) => events.filter((e) => e.event === name).length
      expect(count('JOB_ASSIGNED')).toBe(6)
      expect(count('STATUS_CHANGED')).toBe(6)
      // Applying again changes nothing.
      const again = await day.admin.post(`/route-plans/${done.id}/apply`)
      expect(again.status).toBe(409)
      expect(again.body.code).toBe('PLAN_NOT_READY')
      expect(await outboxEvents(t.database.db, day.tenant.organisationId)).toHaveLength(events.length)
    })

    it('REPLAN_ALL moves or unassigns assigned jobs; KEEP_ASSIGNED keeps them on their route', async () => {
      const day = await makeDay(4)
      const [first, second] = day.shifts
      if (!first || !second) throw new Error('two shifts expected')
      const pinned = day.jobIds[0] as string
      const assign = await day.admin.post(`/jobs/${pinned}/assign`, {
        userId: first.user_id,
        shiftId: first.id,
        scheduledStart: at('09:00'),
        scheduledEnd: at('09:30'),
      })
      expect(assign.status).toBe(200)
      const kept = await plan(day, { mode: 'KEEP_ASSIGNED' })
      expect(kept.status).toBe('DONE')
      const routeOf = (
        result: { routes: { shiftId: string; stops: { jobId: string }[] }[] },
        jobId: string,
      ) => result.routes.find((r) => r.stops.some((s) => s.jobId === jobId))?.shiftId
      expect(routeOf(kept.result, pinned)).toBe(first.id)
      expect(kept.result.totals.assignedJobs).toBe(4)
    })

    it('refuses a stale plan: nothing applied, 409 PLAN_STALE, the plan reads STALE', async () => {
      const day = await makeDay(3)
      const done = await plan(day)
      const edited = await day.api.patch(`/jobs/${day.jobIds[1]}`, { title: 'Boiler service (moved)' })
      expect(edited.status).toBe(200)
      const before = await outboxEvents(t.database.db, day.tenant.organisationId)
      const applied = await day.admin.post(`/route-plans/${done.id}/apply`)
      expect(applied.status).toBe(409)
      expect(applied.body.code).toBe('PLAN_STALE')
      expect(applied.body.error).toContain(day.jobIds[1])
      expect((await day.admin.get(`/route-plans/${done.id}`)).body.data.routePlan.status).toBe('STALE')
      expect(await outboxEvents(t.database.db, day.tenant.organisationId)).toHaveLength(before.length)
      for (const id of day.jobIds)
        expect((await day.api.get(`/jobs/${id}`)).body.data.job.status).toBe('CREATED')
    })

    it('gives every unassigned job a reason a dispatcher understands', async () => {
      const day = await makeDay(0)
      const db = t.database.db
      const org = day.tenant.organisationId
      const make = async (title: string, extra: Record<string, unknown> = {}) => {
        const created = await day.api.post('/jobs', {
          title,
          jobLatitude: 53.47,
          jobLongitude: -2.25,
          serviceDuration: 1800,
          ...extra,
        })
        expect(created.status).toBe(201)
        return created.body.data.job.id as string
      }
      const nowhere = (await day.api.post('/jobs', { title: 'No address' })).body.data.job.id
      const gas = await makeTag(db, org, 'gas-safe')
      const skilled = await make('Needs a gas engineer')
      await tagJob(db, org, skilled, gas.id)
      const pallets = await makeCapacityDimension(db, org, 'pallets')
      const heavy = await make('Four pallets')
      await addJobDemand(db, org, heavy, pallets.id, 4)
      const night = await make('Night call', { earliestStart: at('20:00'), latestEnd: at('22:00') })
      const fine = await make('Ordinary visit')
      const done = await plan(day)
      const reasons = Object.fromEntries(
        done.result.unassigned.map((u: { jobId: string; reason: string }) => [u.jobId, u.reason]),
      )
      expect(reasons).toEqual({
        [nowhere]: 'NO_LOCATION',
        [skilled]: 'SKILL',
        [heavy]: 'CAPACITY',
        [night]: 'TIME_WINDOW',
      })
      expect(
        done.result.routes.flatMap((r: { stops: { jobId: string }[] }) => r.stops.map((s) => s.jobId)),
      ).toEqual([fine])
      // On a day without shifts, every job is NO_SHIFT.
      const sunday = await plan(day, { date: '2026-12-06', jobIds: [fine] })
      expect(sunday.result.unassigned).toEqual([{ jobId: fine, title: 'Ordinary visit', reason: 'NO_SHIFT' }])
    })

    it('answers bad requests with clear 4xx and another organisation’s ids with 404', async () => {
      const day = await makeDay(1)
      const other = await makeDay(1)
      const post = (body: Record<string, unknown>) => day.admin.post('/route-plans', body)
      for (const body of [
        { date: '2026-13-01', mode: 'REPLAN_ALL' },
        { date: 'tomorrow', mode: 'REPLAN_ALL' },
        { date: DATE, mode: 'SOMETIMES' },
        { date: DATE, mode: 'REPLAN_ALL', timeLimitSeconds: 0 },
        { date: DATE, mode: 'REPLAN_ALL', timeLimitSeconds: 301 },
        { date: DATE, mode: 'REPLAN_ALL', timeLimitSeconds: 1.5 },
        { date: DATE },
      ]) {
        const answer = await post(body)
        expect(answer.status, JSON.stringify(body)).toBe(400)
        expect(answer.body.code).toBe('VALIDATION_ERROR')
      }
      expect((await post({ date: DATE, mode: 'REPLAN_ALL', locationId: other.depot.id })).status).toBe(404)
      const foreign = await post({ date: DATE, mode: 'REPLAN_ALL', jobIds: [other.jobIds[0]] })
      expect(foreign.status).toBe(422)
      expect(foreign.body.code).toBe('JOBS_NOT_PLANNABLE')
      expect(foreign.body.error).toContain(`${other.jobIds[0]} (not found)`)
      const finished = day.jobIds[0] as string
      await setJobState(t.database.db, day.tenant.organisationId, finished, { status: 'COMPLETED' })
      const completed = await post({ date: DATE, mode: 'REPLAN_ALL', jobIds: [finished] })
      expect(completed.status).toBe(422)
      expect(completed.body.error).toContain(`${finished} (is COMPLETED)`)
      const mine = await plan(day)
      for (const path of [
        `/route-plans/${mine.id}`,
        `/route-plans/${mine.id}/apply`,
        `/route-plans/${mine.id}/cancel`,
      ]) {
        const answer = path.endsWith(mine.id) ? await other.admin.get(path) : await other.admin.post(path)
        expect(answer.status, path).toBe(404)
      }
      const listed = await other.admin.get('/route-plans')
      expect(listed.body.data.routePlans.map((p: { id: string }) => p.id)).not.toContain(mine.id)
    })

    it('cancels a running plan within about a second', async () => {
      const day = await makeDay(30)
      const queued = await day.admin.post('/route-plans', {
        date: DATE,
        mode: 'REPLAN_ALL',
        timeLimitSeconds: 60,
      })
      const id = queued.body.data.routePlan.id
      const running = await waitForPlan(day.admin, id, (s) => s === 'RUNNING')
      expect(running.status).toBe('RUNNING')
      const cancel = await day.admin.post(`/route-plans/${id}/cancel`)
      expect(cancel.status).toBe(200)
      const cancelled = await waitForPlan(day.admin, id, (s) => s !== 'RUNNING')
      expect(cancelled.status).toBe('CANCELLED')
      expect((await day.admin.post(`/route-plans/${id}/cancel`)).status).toBe(409)
    })

    it('fails a plan whose runner went silent instead of leaving it RUNNING', async () => {
      const day = await makeDay(1)
      const queued = await day.admin.post('/route-plans', {
        date: DATE,
        mode: 'REPLAN_ALL',
        timeLimitSeconds: 1,
      })
      const id = queued.body.data.routePlan.id
      await waitForPlan(day.admin, id, (s) => s === 'DONE')
      // As if another process had claimed it and died a minute ago.
      const minuteAgo = new Date(Date.now() - 60_000).toISOString()
      await t.database.db
        .updateTable('route_plans')
        .set({ status: 'RUNNING', claimed_by: 'a-dead-process', heartbeat_at: minuteAgo })
        .where('id', '=', id)
        .execute()
      await day.admin.post('/route-plans', { date: DATE, mode: 'REPLAN_ALL', timeLimitSeconds: 1 })
      const failed = await waitForPlan(day.admin, id, (s) => s !== 'RUNNING')
      expect(failed.status).toBe('FAILED')
      expect(failed.error).toMatch(/stopped before it finished/)
    })
  })
}
