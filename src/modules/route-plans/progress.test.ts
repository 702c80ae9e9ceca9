// A plan's progress from the moment a runner takes it: LOADING, BUILDING, SEARCHING, and an elapsed
// time that moves with every heartbeat even while the solver says nothing. The solver here is a
// stand-in the test drives, so nothing depends on how fast the real one is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  adminClient,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { type DaySolver, PLAN_RUNNER_DEFAULTS, PlanRunner, type SolveProgress } from './runner.js'
import type { RoutePlanResult } from './schemas.js'

const EMPTY_RESULT: RoutePlanResult = {
  routes: [],
  unassigned: [],
  totals: { assignedJobs: 0, unassignedJobs: 0, routesUsed: 0, km: 0, hours: 0 },
  cost: { fixed: 0, distance: 0, time: 0, lateness: 0, total: 0 },
}
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A solver that reports what the test tells it to and returns when released. */
function steeredSolver() {
  let report: ((progress: SolveProgress) => void) | undefined
  let release: () => void = () => {}
  let markStarted: () => void = () => {}
  const started = new Promise<void>((resolve) => {
    markStarted = resolve
  })
  const solver: DaySolver = (_day, options) => {
    report = options.onProgress
    markStarted()
    return new Promise((resolve) => {
      release = () => resolve(EMPTY_RESULT)
    })
  }
  return {
    solver,
    started,
    report: (progress: SolveProgress) => report?.(progress),
    release: () => release(),
  }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: route plan progress`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    it('is there from the claim on and keeps its elapsed time moving while the solver is silent', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const admin = adminClient(t, tenant.headers)
      const queued = await admin.post('/route-plans', { date: '2026-12-07', mode: 'REPLAN_ALL' })
      expect(queued.status).toBe(202)
      const id = queued.body.data.routePlan.id as string
      const read = async () => (await admin.get(`/route-plans/${id}`)).body.data.routePlan
      // Reads a few milliseconds apart (the runner's timers need their turn) until `done` holds.
      // biome-ignore lint/suspicious/noExplicitAny: the plan as the API answers it
      const readUntil = async (done: (plan: any) => boolean) => {
        let plan = await read()
        for (let i = 0; i < 500 && !done(plan); i++) {
          await pause(10)
          plan = await read()
        }
        return plan
      }
      const steered = steeredSolver()
      const runner = new PlanRunner(t.database.db, steered.solver, t.app.log, {
        ...PLAN_RUNNER_DEFAULTS,
        pollMs: 10,
        heartbeatMs: 20,
      })
      runner.start()
      try {
        // Every read that sees the plan RUNNING sees its progress, the first one included.
        let plan = await readUntil((p) => p.status !== 'QUEUED')
        expect(plan.status).toBe('RUNNING')
        expect(plan.progress).toMatchObject({ iterations: 0, bestCost: null, assignedJobs: 0 })
        expect(['LOADING', 'BUILDING']).toContain(plan.progress.phase)

        await steered.started
        plan = await readUntil((p) => p.progress.phase === 'BUILDING')
        expect(plan.progress.phase).toBe('BUILDING')

        steered.report({ phase: 'SEARCHING', iterations: 4800, bestCost: 1234.567, assignedJobs: 3 })
        plan = await readUntil((p) => p.progress.phase === 'SEARCHING')
        expect(plan.progress).toMatchObject({
          phase: 'SEARCHING',
          iterations: 4800,
          bestCost: 1234.57,
          assignedJobs: 3,
        })
        // The solver says nothing more: the heartbeats still move the elapsed time on.
        const seen = plan.progress.elapsedSeconds
        plan = await readUntil((p) => p.progress.elapsedSeconds > seen)
        expect(plan.progress.elapsedSeconds).toBeGreaterThan(seen)
        expect(plan.progress.iterations).toBe(4800)

        steered.release()
        plan = await readUntil((p) => p.status !== 'RUNNING')
        expect(plan.status).toBe('DONE')
        expect(plan.progress).toMatchObject({ phase: 'SEARCHING', iterations: 4800 })
      } finally {
        steered.release()
        await runner.close()
      }
    })
  })
}
