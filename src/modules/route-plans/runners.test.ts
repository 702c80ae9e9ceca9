// Several instances share one queue of plans: each on its own connection pool to one database, each
// with a runner. However they race, a plan is claimed by one runner and solved once. PostgreSQL only:
// a SQLite file belongs to one serving process (the serve lock), whose one runner claims in turn.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeLocation, makeShift, makeUser, makeVehicle } from '../../../test/factories.js'
import { adminClient, createTenant, createTestDatabaseUrl, DIALECTS } from '../../../test/helpers.js'
import { type App, buildApp } from '../../app.js'
import { createDatabase, type DatabaseHandle } from '../../db/database.js'
import { nowIso } from '../../db/ids.js'
import * as repository from './repository.js'
import { CLAIMED_PROGRESS, type DaySolver, PLAN_RUNNER_DEFAULTS, PlanRunner } from './runner.js'
import { solveDay } from './solve-day.js'

const DATE = '2026-12-07' // a Monday
const PLANS = 8

const describeOnPostgres = DIALECTS.includes('postgres') ? describe : describe.skip

{
  const dialect = 'postgres' as const
  describeOnPostgres(`${dialect}: plan runners on several instances`, () => {
    let database: { url: string; cleanup(): Promise<void> }
    let handles: DatabaseHandle[]
    let app: App
    let admin: ReturnType<typeof adminClient>

    beforeAll(async () => {
      database = await createTestDatabaseUrl(dialect)
      handles = [createDatabase(database.url), createDatabase(database.url)]
      const db = handles[0]!.db
      app = await buildApp({
        db,
        dialect,
        config: {
          authCacheTtlMs: 0,
          defaultRateLimitPerMinute: 100,
          bodyLimitBytes: 1024 * 1024,
          webhookDispatcher: false,
          planWorkers: 0,
        },
      })
      await app.ready()
      const t = { app, database: { ...handles[0]!, cleanup: async () => {} }, dialect, close: async () => {} }
      const tenant = await createTenant(t, { scopes: ['admin'] })
      admin = adminClient(t, tenant.headers)
      const org = tenant.organisationId
      const depot = await makeLocation(db, org, { timezone: 'Europe/London' })
      const user = await makeUser(db, org, { name: 'Ana' })
      const vehicle = await makeVehicle(db, org, depot.id)
      await makeShift(
        db,
        org,
        { userId: user.id, locationId: depot.id, vehicleId: vehicle.id },
        { day: 'MONDAY' },
      )
      for (let i = 0; i < 3; i++) {
        await admin.post('/jobs', {
          title: `Gas check ${i + 1}`,
          jobLatitude: 53.45 + i * 0.01,
          jobLongitude: -2.3,
          earliestStart: `${DATE}T08:00:00Z`,
          latestEnd: `${DATE}T16:00:00Z`,
        })
      }
    })
    afterAll(async () => {
      await app?.close()
      for (const handle of handles ?? []) await handle.destroy()
      await database?.cleanup()
    })

    async function queuePlans(): Promise<string[]> {
      const ids = []
      for (let i = 0; i < PLANS; i++) {
        const created = await admin.post('/route-plans', {
          date: DATE,
          mode: 'REPLAN_ALL',
          timeLimitSeconds: 1,
        })
        expect(created.status).toBe(202)
        ids.push(created.body.data.routePlan.id as string)
      }
      return ids
    }

    it('hands each queued plan to exactly one of many racing claims', async () => {
      const ids = await queuePlans()
      // Three times as many claims as plans, from both pools at once.
      const claims = await Promise.all(
        Array.from({ length: PLANS * 3 }, (_, i) =>
          repository.claimQueuedPlan(handles[i % 2]!.db, `runner-${i % 2}`, nowIso(), CLAIMED_PROGRESS),
        ),
      )
      const claimed = claims.filter((plan) => plan !== undefined).map((plan) => plan.id)
      expect(claimed.sort()).toEqual([...ids].sort())
      // Put them back so the next test starts from an empty queue of these.
      await handles[0]!.db.updateTable('route_plans').set({ status: 'CANCELLED' }).execute()
    })

    it('solves every plan once when two instances run their runners side by side', async () => {
      const solved = new Map<string, number>()
      const counting =
        (name: string): DaySolver =>
        async (day, options) => {
          const key = `${day.date}:${name}`
          solved.set(key, (solved.get(key) ?? 0) + 1)
          return solveDay(day, options)
        }
      const log = app.log
      const options = { ...PLAN_RUNNER_DEFAULTS, pollMs: 20, heartbeatMs: 200, concurrency: 2 }
      const runners = [
        new PlanRunner(handles[0]!.db, counting('a'), log, options),
        new PlanRunner(handles[1]!.db, counting('b'), log, options),
      ]
      const ids = await queuePlans()
      for (const runner of runners) runner.start()
      try {
        const deadline = Date.now() + 60_000
        let rows = await handles[0]!.db.selectFrom('route_plans').selectAll().where('id', 'in', ids).execute()
        while (rows.some((row) => row.status !== 'DONE') && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100))
          rows = await handles[0]!.db.selectFrom('route_plans').selectAll().where('id', 'in', ids).execute()
        }
        expect(rows.map((row) => row.status)).toEqual(ids.map(() => 'DONE'))
        const owners = rows.map((row) => row.claimed_by)
        for (const owner of owners) expect(runners.map((r) => r.id)).toContain(owner)
        // Every solve is one claim: as many solves in all as plans, split by the plans' owners.
        const total = [...solved.values()].reduce((sum, n) => sum + n, 0)
        expect(total).toBe(PLANS)
        for (const [i, name] of ['a', 'b'].entries()) {
          const owned = owners.filter((owner) => owner === runners[i]!.id).length
          expect(solved.get(`${DATE}:${name}`) ?? 0).toBe(owned)
        }
      } finally {
        await Promise.all(runners.map((runner) => runner.close()))
      }
    })
  })
}
