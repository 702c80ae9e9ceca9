// A week at a time (issue 32 §3): POST /route-plans with dateFrom..dateTo plans several days in one
// model. A job of one day stays on it, a job that may be done on several goes on one of them (never
// after its dueBy, always inside its window and its customer's opening hours on that day), shifts
// are placed on each day of their weekday, an assigned job stays on its day under KEEP_ASSIGNED, the
// result is split per day, and applying assigns every day in one transaction — or nothing, when an
// input changed. The merged model is checked by the independent checker.
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
import { runPlan } from '../../../test/route-plans.js'
import { checkPlan, solve } from '../../optimiser/index.js'
import { toRoutingModel } from './optimiser-model.js'
import { loadPlanInputs } from './plan-days.js'

// 2026-12-07 is a Monday; Europe/London is on UTC in December, so local times read as UTC.
const MON = '2026-12-07'
const TUE = '2026-12-08'
const WED = '2026-12-09'
const FRI = '2026-12-11'
const on = (date: string, hhmm: string) => `${date}T${hhmm}:00.000Z`

interface Stop {
  jobId: string
  serviceStart: string
  serviceEnd: string
}
interface Route {
  shiftId: string
  date: string
  user: { id: string; name: string }
  start: string
  end: string
  stops: Stop[]
}
interface Plan {
  id: string
  status: string
  date: string
  dateTo: string | null
  result: {
    routes: Route[]
    unassigned: { jobId: string; reason: string }[]
    days: { date: string; routesUsed: number; assignedJobs: number }[]
    changes: {
      jobId: string
      from: { shiftId: string } | null
      to: { shiftId: string; start: string } | null
    }[]
  }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: route plans over several days`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect, { planWorkers: 1 })
    })
    afterAll(() => t.close())

    async function makeWeek() {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const admin = adminClient(t, tenant.headers)
      const api = client(t, tenant.headers)
      const db = t.database.db
      const org = tenant.organisationId
      const depot = await makeLocation(db, org, { timezone: 'Europe/London' })
      const ana = await makeUser(db, org, { name: 'Ana' })
      const ben = await makeUser(db, org, { name: 'Ben' })
      const anaVan = await makeVehicle(db, org, depot.id, { name: 'Ana’s van' })
      const benVan = await makeVehicle(db, org, depot.id, { name: 'Ben’s van' })
      const shifts: Record<string, string> = {}
      for (const day of ['MONDAY', 'TUESDAY', 'WEDNESDAY'] as const) {
        const shift = await makeShift(
          db,
          org,
          { userId: ana.id, locationId: depot.id, vehicleId: anaVan.id },
          { day, startTime: '08:00', endTime: '16:00', breaks: [] },
        )
        shifts[`ana-${day}`] = shift.id
      }
      for (const day of ['MONDAY', 'WEDNESDAY'] as const) {
        const shift = await makeShift(
          db,
          org,
          { userId: ben.id, locationId: depot.id, vehicleId: benVan.id },
          { day, startTime: '08:00', endTime: '16:00', breaks: [] },
        )
        shifts[`ben-${day}`] = shift.id
      }
      const job = async (body: Record<string, unknown>) => {
        const created = await api.post('/jobs', {
          jobLatitude: 53.46,
          jobLongitude: -2.29,
          serviceDuration: 1800,
          locationId: depot.id,
          ...body,
        })
        expect(created.status).toBe(201)
        return created.body.data.job as { id: string; dueBy: string | null }
      }
      const shop = await api.post('/customers', {
        name: 'Corner shop',
        address: '1 High Street',
        latitude: 53.47,
        longitude: -2.28,
        operationalStart: '10:00',
        operationalEnd: '14:00',
      })
      expect(shop.status).toBe(201)
      const jobs = {
        tuesday: await job({
          title: 'Tuesday morning',
          earliestStart: on(TUE, '09:00'),
          latestEnd: on(TUE, '12:00'),
        }),
        dueMonday: await job({ title: 'Due Monday', dueBy: MON }),
        openingHours: await job({
          title: 'Shop, opening hours',
          customerId: shop.body.data.customer.id,
          jobLatitude: null,
          jobLongitude: null,
        }),
        spanning: await job({
          title: 'Monday afternoon to Wednesday morning',
          earliestStart: on(MON, '14:00'),
          latestEnd: on(WED, '11:00'),
        }),
        anyDay: [] as { id: string }[],
        assignedWednesday: await job({
          title: 'Booked Wednesday',
          earliestStart: on(MON, '08:00'),
          latestEnd: on(FRI, '16:00'),
        }),
      }
      for (let i = 0; i < 6; i++)
        jobs.anyDay.push(await job({ title: `Service ${i + 1}`, jobLatitude: 53.44 + i * 0.005, dueBy: FRI }))
      const assigned = await admin.post(`/jobs/${jobs.assignedWednesday.id}/assign`, {
        userId: ana.id,
        shiftId: shifts['ana-WEDNESDAY'],
        scheduledStart: on(WED, '13:00'),
        scheduledEnd: on(WED, '13:30'),
      })
      expect(assigned.status).toBe(200)
      return { admin, api, org, ana, ben, shifts, jobs }
    }

    const plan = (admin: ReturnType<typeof adminClient>, body: Record<string, unknown>): Promise<Plan> =>
      runPlan(admin, { timeLimitSeconds: 1, ...body })

    const stopsOf = (result: Plan['result']) =>
      new Map(
        result.routes.flatMap((route) => route.stops.map((stop) => [stop.jobId, { route, stop }] as const)),
      )

    it('places each job on a day it may be done, split per day, and applies every day at once', async () => {
      const { admin, api, shifts, jobs, ana } = await makeWeek()
      expect(jobs.dueMonday.dueBy).toBe(MON)
      const week = await plan(admin, { dateFrom: MON, dateTo: FRI, mode: 'KEEP_ASSIGNED' })
      expect(week.date).toBe(MON)
      expect(week.dateTo).toBe(FRI)
      const { result } = week
      expect(result.unassigned).toEqual([])
      // Every day is listed, Thursday and Friday with no shift at all.
      expect(result.days.map((d) => d.date)).toEqual([MON, TUE, WED, '2026-12-10', FRI])
      expect(result.days.slice(3).map((d) => d.routesUsed)).toEqual([0, 0])
      expect(result.days.reduce((sum, d) => sum + d.assignedJobs, 0)).toBe(11)
      // Each route is a shift of its day's weekday, and its times are on that day.
      const weekdayShifts: Record<string, string[]> = {
        [MON]: [shifts['ana-MONDAY']!, shifts['ben-MONDAY']!],
        [TUE]: [shifts['ana-TUESDAY']!],
        [WED]: [shifts['ana-WEDNESDAY']!, shifts['ben-WEDNESDAY']!],
      }
      for (const route of result.routes) {
        expect(weekdayShifts[route.date]).toContain(route.shiftId)
        for (const stop of route.stops) {
          expect(stop.serviceStart >= on(route.date, '08:00')).toBe(true)
          expect(stop.serviceEnd <= on(route.date, '16:00')).toBe(true)
        }
      }
      const placed = stopsOf(result)
      const tuesday = placed.get(jobs.tuesday.id)!
      expect(tuesday.route.date).toBe(TUE)
      expect(tuesday.stop.serviceStart >= on(TUE, '09:00')).toBe(true)
      expect(tuesday.stop.serviceEnd <= on(TUE, '12:00')).toBe(true)
      expect(placed.get(jobs.dueMonday.id)?.route.date).toBe(MON)
      const shop = placed.get(jobs.openingHours.id)!
      expect(shop.stop.serviceStart >= on(shop.route.date, '10:00')).toBe(true)
      expect(shop.stop.serviceEnd <= on(shop.route.date, '14:00')).toBe(true)
      const spanning = placed.get(jobs.spanning.id)!
      expect(spanning.stop.serviceStart >= on(MON, '14:00')).toBe(true)
      expect(spanning.stop.serviceEnd <= on(WED, '11:00')).toBe(true)
      // KEEP_ASSIGNED: the job booked on Wednesday stays on Ana's Wednesday.
      const booked = placed.get(jobs.assignedWednesday.id)!
      expect(booked.route.date).toBe(WED)
      expect(booked.route.user.id).toBe(ana.id)
      expect(booked.route.shiftId).toBe(shifts['ana-WEDNESDAY'])
      // The plan's list of changes names real shifts.
      for (const change of result.changes)
        if (change.to) expect(Object.values(shifts)).toContain(change.to.shiftId)

      // Listed under each of its days.
      for (const date of [MON, WED, FRI]) {
        const listed = await admin.get(`/route-plans?date=${date}`)
        expect(listed.body.data.routePlans.map((p: { id: string }) => p.id)).toEqual([week.id])
      }
      expect((await admin.get('/route-plans?date=2026-12-12')).body.data.routePlans).toEqual([])

      const applied = await admin.post(`/route-plans/${week.id}/apply`)
      expect(applied.status).toBe(200)
      expect(applied.body.data.routePlan.status).toBe('APPLIED')
      for (const [jobId, { route, stop }] of placed) {
        const read = await api.get(`/jobs/${jobId}`)
        expect(read.body.data.job.status).toBe('ASSIGNED')
        expect(read.body.data.job.shiftId).toBe(route.shiftId)
        expect(read.body.data.job.scheduledStart).toBe(stop.serviceStart)
      }
    })

    it('respects each day’s absences and changed hours, and plans again the work of a worker away', async () => {
      const { admin, api, ben, shifts, jobs } = await makeWeek()
      // Ben booked on Wednesday, then away that day; Ana's Tuesday runs 12:00–16:00 only.
      const booked = await admin.post(`/jobs/${jobs.anyDay[0]!.id}/assign`, {
        userId: ben.id,
        shiftId: shifts['ben-WEDNESDAY'],
        scheduledStart: on(WED, '09:00'),
        scheduledEnd: on(WED, '09:30'),
      })
      expect(booked.status).toBe(200)
      const away = await admin.post(`/team/users/${ben.id}/absences`, {
        startDate: WED,
        endDate: WED,
        reason: 'SICK',
      })
      expect(away.status, away.body.error).toBe(201)
      const hours = await admin.put(`/shifts/${shifts['ana-TUESDAY']}/dates/${TUE}`, {
        startTime: '12:00',
        endTime: '16:00',
      })
      expect(hours.status).toBe(200)
      const week = await plan(admin, { dateFrom: MON, dateTo: WED, mode: 'KEEP_ASSIGNED' })
      const { result } = week
      expect(result.routes.filter((r) => r.date === WED).map((r) => r.user.id)).not.toContain(ben.id)
      for (const route of result.routes.filter((r) => r.date === TUE))
        for (const stop of route.stops) expect(stop.serviceStart >= on(TUE, '12:00')).toBe(true)
      // The Tuesday-morning job cannot be done by anyone now.
      expect(result.unassigned.map((u) => u.jobId)).toEqual([jobs.tuesday.id])
      const moved = stopsOf(result).get(jobs.anyDay[0]!.id)!
      expect(moved.route.user.id === ben.id && moved.route.date === WED).toBe(false)
      expect(result.changes.find((c) => c.jobId === jobs.anyDay[0]!.id)?.from?.shiftId).toBe(
        shifts['ben-WEDNESDAY'],
      )
      const applied = await admin.post(`/route-plans/${week.id}/apply`)
      expect(applied.status).toBe(200)
      const after = (await api.get(`/jobs/${jobs.anyDay[0]!.id}`)).body.data.job
      expect(after.scheduledStart).toBe(moved.stop.serviceStart)
    })

    it('is stale, and applies nothing, when a job changed after the plan', async () => {
      const { admin, api, jobs } = await makeWeek()
      const week = await plan(admin, { dateFrom: MON, dateTo: WED, mode: 'REPLAN_ALL' })
      expect(week.result.unassigned).toEqual([])
      const edited = await api.patch(`/jobs/${jobs.dueMonday.id}`, { title: 'Due Monday, gate code 4411' })
      expect(edited.status).toBe(200)
      const refused = await admin.post(`/route-plans/${week.id}/apply`)
      expect(refused.status).toBe(409)
      expect(refused.body.code).toBe('PLAN_STALE')
      expect((await admin.get(`/route-plans/${week.id}`)).body.data.routePlan.status).toBe('STALE')
      for (const job of jobs.anyDay)
        expect((await api.get(`/jobs/${job.id}`)).body.data.job.status).toBe('CREATED')
    })

    it('refuses a range it cannot plan, naming the field, and queues nothing', async () => {
      const { admin } = await makeWeek()
      const cases: [Record<string, unknown>, string][] = [
        [{ date: MON, dateFrom: MON, dateTo: WED }, 'dateFrom'],
        [{ dateFrom: MON }, 'dateTo'],
        [{ dateTo: WED }, 'dateFrom'],
        [{}, 'date'],
        [{ dateFrom: WED, dateTo: MON }, 'dateTo'],
        [{ dateFrom: MON, dateTo: '2026-12-14' }, 'dateTo'],
        [{ dateFrom: MON, dateTo: WED, mode: 'REPLAN_REMAINING' }, 'mode'],
        [{ dateFrom: MON, dateTo: WED, at: on(FRI, '10:00') }, 'at'],
        [{ dateFrom: MON, dateTo: '2026-13-01' }, 'dateTo'],
      ]
      for (const [body, field] of cases) {
        const refused = await admin.post('/route-plans', { mode: 'REPLAN_ALL', ...body })
        expect(refused.status, JSON.stringify(body)).toBe(400)
        expect(refused.body.code).toBe('VALIDATION_ERROR')
        expect(refused.body.error).toContain(field)
      }
      expect((await admin.get('/route-plans')).body.data.routePlans).toEqual([])
    })

    it('builds one model of the days that the checker accepts, each job only on its days', async () => {
      const { org, jobs } = await makeWeek()
      const inputs = await loadPlanInputs(t.database.db, org, {
        date: MON,
        dateTo: FRI,
        mode: 'REPLAN_ALL',
        at: Number.NEGATIVE_INFINITY,
      })
      const model = toRoutingModel(inputs.day, inputs.day.routing)
      // Ana Mon–Wed and Ben Mon and Wed: five routes, each a shift on a day.
      expect(model.routes.map((route) => route.id.slice(route.id.indexOf('@') + 1)).sort()).toEqual(
        [MON, MON, TUE, WED, WED].sort(),
      )
      const daysOf = (jobId: string) => {
        const job = model.jobs.find((j) => j.id === jobId)!
        return [...new Set((job.allowedRoutes ?? []).map((r) => model.routes[r]!.id.split('@')[1]))].sort()
      }
      expect(daysOf(jobs.tuesday.id)).toEqual([TUE])
      expect(daysOf(jobs.dueMonday.id)).toEqual([MON])
      expect(daysOf(jobs.openingHours.id)).toEqual([MON, TUE, WED])
      // Monday from 14:00, all Tuesday, Wednesday to 11:00: one window cannot hold on all three.
      expect(daysOf(jobs.spanning.id)).toHaveLength(2)
      for (const seed of [1, 2, 3]) {
        const solved = solve(model, { seed, maxIterations: 3000 })
        expect(checkPlan(model, solved)).toEqual([])
        expect(solved.unassigned).toEqual([])
      }
    })
  })
}
