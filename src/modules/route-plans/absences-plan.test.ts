// A real route plan of a day with an absent worker and a shift whose hours changed that date (issue
// 30 §3): the absent worker's route is left out, the changed hours are the route's window, and an
// absence recorded after the plan was made makes it stale.
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

// 2026-12-07 is a Monday; Europe/London is on UTC in December, so local times read as UTC.
const DATE = '2026-12-07'
const at = (hhmm: string) => `${DATE}T${hhmm}:00.000Z`
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Queues a plan of DATE and waits for it to finish. */
async function replan(admin: ReturnType<typeof adminClient>, mode = 'REPLAN_ALL') {
  const queued = await admin.post('/route-plans', { date: DATE, mode, timeLimitSeconds: 1 })
  expect(queued.status, queued.body.error).toBe(202)
  let plan = queued.body.data.routePlan
  for (let i = 0; i < 300 && ['QUEUED', 'RUNNING'].includes(plan.status); i++) {
    await pause(100)
    plan = (await admin.get(`/route-plans/${plan.id}`)).body.data.routePlan
  }
  return plan
}

/** One depot; per name a worker, a van and a Monday shift 08:00–16:00 (with `breaks`), by name. */
async function mondayTeam(
  db: TestContext['database']['db'],
  org: string,
  names: string[],
  breaks: { startTime: string; endTime: string; isPaid: boolean }[] = [],
) {
  const depot = await makeLocation(db, org, { timezone: 'Europe/London' })
  const shifts: Record<string, { id: string; user_id: string }> = {}
  for (const name of names) {
    const user = await makeUser(db, org, { name })
    const vehicle = await makeVehicle(db, org, depot.id, { name: `${name}'s van` })
    shifts[name] = await makeShift(
      db,
      org,
      { userId: user.id, locationId: depot.id, vehicleId: vehicle.id },
      { day: 'MONDAY', startTime: '08:00', endTime: '16:00', breaks },
    )
  }
  return shifts
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: a plan with absences and changed hours`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect, { planWorkers: 1 })
    })
    afterAll(() => t.close())

    it('leaves the absent worker out and plans inside the changed hours', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const admin = adminClient(t, tenant.headers)
      const api = client(t, tenant.headers)
      const db = t.database.db
      const org = tenant.organisationId
      const shifts = await mondayTeam(
        db,
        org,
        ['Ana', 'Ben', 'Cy'],
        [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
      )
      const jobIds: string[] = []
      for (let i = 0; i < 6; i++) {
        const created = await api.post('/jobs', {
          title: `Boiler service ${i + 1}`,
          jobLatitude: 53.45 + (i % 3) * 0.02,
          jobLongitude: -2.3 + Math.floor(i / 3) * 0.03,
          serviceDuration: 1800,
          earliestStart: at('08:00'),
          latestEnd: at('16:00'),
        })
        expect(created.status).toBe(201)
        jobIds.push(created.body.data.job.id)
      }
      const ana = shifts.Ana as { id: string; user_id: string }
      const ben = shifts.Ben as { id: string; user_id: string }
      const cy = shifts.Cy as { id: string; user_id: string }
      const away = await admin.post(`/team/users/${ana.user_id}/absences`, {
        startDate: '2026-12-04',
        endDate: '2026-12-11',
        reason: 'HOLIDAY',
      })
      expect(away.status, away.body.error).toBe(201)
      expect(
        (await admin.put(`/shifts/${ben.id}/dates/${DATE}`, { startTime: '10:00', endTime: '14:00' })).status,
      ).toBe(200)
      expect((await admin.put(`/shifts/${cy.id}/dates/${DATE}`, { off: true })).status).toBe(200)

      let plan = await replan(admin)
      expect(plan.status).toBe('DONE')
      const routes = plan.result.routes as {
        shiftId: string
        start: string
        end: string
        stops: { jobId: string; serviceStart: string; serviceEnd: string }[]
      }[]
      expect(routes.map((r) => r.shiftId)).toEqual([ben.id])
      const [route] = routes
      expect(route && route.start >= at('10:00') && route.end <= at('14:00')).toBe(true)
      for (const stop of route?.stops ?? []) {
        expect(stop.serviceStart >= at('10:00') && stop.serviceEnd <= at('14:00')).toBe(true)
        expect(stop.serviceEnd <= at('12:00') || stop.serviceStart >= at('12:30')).toBe(true)
      }
      const planned = routes.flatMap((r) => r.stops.map((s) => s.jobId))
      expect(planned.length + plan.result.unassigned.length).toBe(jobIds.length)

      // An absence recorded after the plan was made (or a changed date) makes it stale.
      const late = await admin.post(`/team/users/${ben.user_id}/absences`, {
        startDate: DATE,
        endDate: DATE,
        reason: 'OTHER',
        startTime: '13:00',
        endTime: '14:00',
      })
      const stale = await admin.post(`/route-plans/${plan.id}/apply`)
      expect([stale.status, stale.body.code]).toEqual([409, 'PLAN_STALE'])
      expect(stale.body.error).toContain(`absence of user ${ben.user_id}`)
      await admin.delete(`/team/users/${ben.user_id}/absences/${late.body.data.absence.id}`)
      plan = await replan(admin)
      expect(plan.status).toBe('DONE')

      // Applying it assigns only Ben; Ana's absence is respected by a manual assignment too.
      const applied = await admin.post(`/route-plans/${plan.id}/apply`)
      expect(applied.status, applied.body.error).toBe(200)
      const manual = await admin.post(`/jobs/${plan.result.unassigned[0]?.jobId ?? jobIds[0]}/assign`, {
        userId: ana.user_id,
        shiftId: ana.id,
        scheduledStart: at('09:00'),
        scheduledEnd: at('09:30'),
      })
      expect([manual.status, manual.body.code]).toEqual([422, 'WORKER_ABSENT'])
    })

    it('plans again the jobs of a worker who became absent, keeping the others’ (KEEP_ASSIGNED)', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const admin = adminClient(t, tenant.headers)
      const api = client(t, tenant.headers)
      const db = t.database.db
      const org = tenant.organisationId
      const shifts = await mondayTeam(db, org, ['Ana', 'Ben'])
      const ana = shifts.Ana as { id: string; user_id: string }
      const ben = shifts.Ben as { id: string; user_id: string }
      const job = async (title: string, from: string, to: string, start: string, end: string) => {
        const created = await api.post('/jobs', {
          title,
          jobLatitude: 53.46,
          jobLongitude: -2.28,
          serviceDuration: 1800,
          timeWindowType: 'HARD',
          earliestStart: at(from),
          latestEnd: at(to),
        })
        expect(created.status, created.body.error).toBe(201)
        const id = created.body.data.job.id as string
        const assigned = await admin.post(`/jobs/${id}/assign`, {
          userId: ana.user_id,
          shiftId: ana.id,
          scheduledStart: at(start),
          scheduledEnd: at(end),
        })
        expect(assigned.status, assigned.body.error).toBe(200)
        return id
      }
      // Assigned to Ana before she was off sick: one Ben can take, one he cannot (he works only the
      // morning that day; its window is in the afternoon).
      const movable = await job('Tap washer', '09:00', '12:00', '09:00', '09:30')
      const stranded = await job('Valve check', '13:00', '14:00', '13:00', '13:30')
      const morning = await admin.put(`/shifts/${ben.id}/dates/${DATE}`, {
        startTime: '08:00',
        endTime: '12:00',
      })
      expect(morning.status, morning.body.error).toBe(200)
      const sick = await admin.post(`/team/users/${ana.user_id}/absences`, {
        startDate: DATE,
        endDate: DATE,
        reason: 'SICK',
      })
      expect(sick.status, sick.body.error).toBe(201)

      const plan = await replan(admin, 'KEEP_ASSIGNED')
      expect(plan.status).toBe('DONE')
      expect(plan.result.routes.map((r: { shiftId: string }) => r.shiftId)).toEqual([ben.id])
      const changes = plan.result.changes as {
        jobId: string
        from: { user: { name: string } } | null
        to: { user: { name: string } } | null
      }[]
      expect(changes.find((c) => c.jobId === movable)).toMatchObject({
        from: { user: { name: 'Ana' } },
        to: { user: { name: 'Ben' } },
      })
      expect(changes.find((c) => c.jobId === stranded)).toMatchObject({
        from: { user: { name: 'Ana' } },
        to: null,
      })

      const applied = await admin.post(`/route-plans/${plan.id}/apply`)
      expect(applied.status, applied.body.error).toBe(200)
      const read = async (id: string) => (await api.get(`/jobs/${id}`)).body.data.job
      expect(await read(movable)).toMatchObject({ status: 'ASSIGNED', assignedUserId: ben.user_id })
      expect(await read(stranded)).toMatchObject({ status: 'CREATED', assignedUserId: null })
    })
  })
}
