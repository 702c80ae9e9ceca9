// Balanced routes through the API (issue 32 §2): a plan's `balance`, stored and returned, and what
// it does to a light day — four workers on shift, eight half-hour jobs near their depot, which the
// cheapest plan gives to one or two of them. The optimiser's model of the same day, solved with each
// balance, is checked by the independent checker.
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
import { loadDayInputs } from './day-inputs.js'
import { toRoutingModel } from './optimiser-model.js'
import { PLAN_BALANCES } from './schemas.js'

// 2026-12-07 is a Monday; Europe/London is on UTC in December, so local times read as UTC.
const DATE = '2026-12-07'
const at = (hhmm: string) => `${DATE}T${hhmm}:00.000Z`
const WORKERS = ['Ana', 'Ben', 'Cai', 'Dee']

interface Route {
  user: { id: string }
  stops: { jobId: string }[]
  totals: { hours: number }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: balanced route plans`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect, { planWorkers: 1 })
    })
    afterAll(() => t.close())

    async function makeLightDay() {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const admin = adminClient(t, tenant.headers)
      const api = client(t, tenant.headers)
      const db = t.database.db
      const org = tenant.organisationId
      const depot = await makeLocation(db, org, { timezone: 'Europe/London' })
      for (const name of WORKERS) {
        const user = await makeUser(db, org, { name })
        const vehicle = await makeVehicle(db, org, depot.id, { name: `${name}'s van` })
        await makeShift(
          db,
          org,
          { userId: user.id, locationId: depot.id, vehicleId: vehicle.id },
          { day: 'MONDAY', startTime: '08:00', endTime: '16:00', breaks: [] },
        )
      }
      for (let i = 0; i < 8; i++) {
        const created = await api.post('/jobs', {
          title: `Filter change ${i + 1}`,
          jobLatitude: 53.45 + (i % 4) * 0.01,
          jobLongitude: -2.3 + Math.floor(i / 4) * 0.01,
          serviceDuration: 1800,
          earliestStart: at('08:00'),
          latestEnd: at('16:00'),
        })
        expect(created.status).toBe(201)
      }
      return { admin, org }
    }

    async function plan(admin: ReturnType<typeof adminClient>, body: Record<string, unknown>) {
      const routePlan = await runPlan(admin, { date: DATE, mode: 'REPLAN_ALL', timeLimitSeconds: 1, ...body })
      expect(routePlan.balance).toBe(body.balance ?? 'NONE')
      return routePlan as { balance: string; result: { routes: Route[]; unassigned: unknown[] } }
    }

    const working = (routes: Route[]) => routes.filter((route) => route.stops.length > 0)

    it('NONE gives a light day to few workers; USE_ALL and WORKLOAD give every worker work', async () => {
      const { admin } = await makeLightDay()
      const none = await plan(admin, {})
      expect(none.result.unassigned).toEqual([])
      expect(working(none.result.routes).length).toBeLessThanOrEqual(2)

      const useAll = await plan(admin, { balance: 'USE_ALL' })
      expect(useAll.result.unassigned).toEqual([])
      expect(working(useAll.result.routes)).toHaveLength(4)

      const workload = await plan(admin, { balance: 'WORKLOAD' })
      expect(workload.result.unassigned).toEqual([])
      const hours = working(workload.result.routes).map((route) => route.totals.hours)
      expect(hours).toHaveLength(4)
      expect(Math.max(...hours) - Math.min(...hours)).toBeLessThan(1.25)

      // The list shows each plan's balance too.
      const listed = await admin.get('/route-plans')
      expect(listed.status).toBe(200)
      const balances = listed.body.data.routePlans.map((p: { balance: string }) => p.balance).sort()
      expect(balances).toEqual(['NONE', 'USE_ALL', 'WORKLOAD'])
    })

    it('refuses a balance it does not know, naming the field, and queues nothing', async () => {
      const { admin } = await makeLightDay()
      const refused = await admin.post('/route-plans', { date: DATE, mode: 'REPLAN_ALL', balance: 'EVEN' })
      expect(refused.status).toBe(400)
      expect(refused.body.code).toBe('VALIDATION_ERROR')
      expect(refused.body.error).toMatch(/balance/)
      expect((await admin.get('/route-plans')).body.data.routePlans).toEqual([])
    })

    it('makes plans the checker accepts with every balance', async () => {
      const { org } = await makeLightDay()
      for (const balance of PLAN_BALANCES) {
        const day = await loadDayInputs(t.database.db, org, {
          date: DATE,
          mode: 'REPLAN_ALL',
          at: Number.NEGATIVE_INFINITY,
          balance,
        })
        const model = toRoutingModel(day, day.routing)
        const solved = solve(model, { seed: 5, maxIterations: 3000 })
        expect(checkPlan(model, solved)).toEqual([])
        expect(solved.unassigned).toEqual([])
        expect(solved.routes.length).toBe(balance === 'NONE' ? solved.routes.length : 4)
      }
    })
  })
}
