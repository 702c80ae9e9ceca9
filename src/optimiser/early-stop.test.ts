// When the search ends before its time limit, and what it reports on the way. Every assertion counts
// iterations or calls, never time: a run that ignored the rules would reach its iteration budget.
import { describe, expect, it } from 'vitest'
import { checkPlan } from './check.js'
import { generateModel } from './generate.js'
import type { JobSpec, RouteSpec, RoutingModel, SolveProgress } from './model.js'
import { compileProblem } from './problem.js'
import { stallIterations } from './search.js'
import { solve } from './solve.js'
import { euclideanMatrix } from './travel.js'

/** More iterations than any of these searches needs: reaching it means no rule stopped the search. */
const BUDGET = 2_000_000

/** One route 0–1000 on a line, and jobs at the given points (HARD windows, demand 1 each). */
function lineModel(points: number[], options: { capacity?: number; window?: [number, number] } = {}) {
  const xs = [0, ...points]
  const route: RouteSpec = {
    id: 'r',
    start: 0,
    end: 'RETURN_TO_ORIGIN',
    window: [0, 1000],
    breaks: [],
    capacity: [options.capacity ?? 100],
    skills: [],
    fixedCost: 0,
    costPerKm: 1000,
    costPerHour: 0,
    speedFactor: 1,
  }
  const jobs: JobSpec[] = points.map((_, i) => ({
    id: `j${i}`,
    location: i + 1,
    serviceSeconds: 10,
    window: options.window ?? null,
    windowType: 'HARD',
    priority: 'NORMAL',
    demand: [1],
    skills: [],
  }))
  const model: RoutingModel = {
    dimensions: 1,
    locations: [],
    travel: euclideanMatrix(
      xs,
      xs.map(() => 0),
    ),
    routes: [route, { ...route, id: 'r2' }],
    jobs,
  }
  return model
}

describe('a search with nothing to search for', () => {
  it('ends a one-job day after its construction, whatever the time limit', () => {
    const model = lineModel([40])
    const plan = solve(model, { seed: 1, timeLimitMs: 60_000, maxIterations: BUDGET })
    expect(plan.stats).toMatchObject({ iterations: 0, converged: true, cancelled: false, assigned: 1 })
    expect(checkPlan(model, plan)).toEqual([])
  })

  it('ends a day where no job fits on any route at once, each with its reason', () => {
    const model = lineModel([40, 60, 80], { window: [2000, 3000] })
    const plan = solve(model, { seed: 1, timeLimitMs: 60_000, maxIterations: BUDGET })
    expect(plan.stats).toMatchObject({ iterations: 0, converged: true, assigned: 0 })
    expect(plan.unassigned.map((u) => u.reason)).toEqual(['TIME_WINDOW', 'TIME_WINDOW', 'TIME_WINDOW'])
  })
})

describe('stopWhenStalled', () => {
  const model = generateModel({ jobs: 8, routes: 3, seed: 5, pinnedShare: 0 })

  it('ends a small day once the best plan has not improved for the stall budget, the same way every time', () => {
    const run = () =>
      solve(model, { seed: 4, timeLimitMs: 600_000, maxIterations: BUDGET, stopWhenStalled: true })
    const plan = run()
    const { n } = compileProblem(model)
    const stall = stallIterations(n, BUDGET)
    expect(plan.stats.converged).toBe(true)
    expect(plan.stats.iterations).toBeLessThan(BUDGET)
    // Checked every 16 iterations.
    expect(plan.stats.iterations - plan.stats.bestIteration).toBeGreaterThanOrEqual(stall)
    expect(plan.stats.iterations - plan.stats.bestIteration).toBeLessThan(stall + 16)
    expect(checkPlan(model, plan)).toEqual([])
    const { elapsedMs: _a, bestElapsedMs: _b, ...stats } = plan.stats
    const again = run()
    expect({ ...again.stats, elapsedMs: 0, bestElapsedMs: 0 }).toEqual({
      ...stats,
      elapsedMs: 0,
      bestElapsedMs: 0,
    })
    expect(again.routes).toEqual(plan.routes)
  })

  it('is off by default: the search uses its whole budget', () => {
    const plan = solve(model, { seed: 4, timeLimitMs: 600_000, maxIterations: 50_000 })
    expect(plan.stats).toMatchObject({ iterations: 50_000, converged: false })
  })

  it('does not stop while a job that fits on a route alone is left out', () => {
    // Two routes of capacity 1 and three jobs: each fits alone, one is always left out.
    const full = lineModel([40, 60, 80], { capacity: 1 })
    const plan = solve(full, { seed: 1, timeLimitMs: 600_000, maxIterations: 60_000, stopWhenStalled: true })
    expect(plan.unassigned).toHaveLength(1)
    expect(plan.stats).toMatchObject({ iterations: 60_000, converged: false })
  })
})

describe('progress', () => {
  it('is reported while the first plan is built, then while searching', () => {
    const model = generateModel({ jobs: 300, routes: 12, seed: 2 })
    const reports: SolveProgress[] = []
    // Interval 0: a report at every clock check, so the count follows the work, not the clock.
    solve(model, { seed: 1, maxIterations: 64, progressIntervalMs: 0, onProgress: (p) => reports.push(p) })
    const phases = reports.map((r) => r.phase)
    const inserting = reports.filter((r) => r.phase === 'BUILDING' && r.bestCost === null)
    const polishing = reports.filter((r) => r.phase === 'BUILDING' && r.bestCost !== null)
    // A check every 16 customers inserted, then every 64 scanned by the local search.
    expect(inserting.length).toBeGreaterThanOrEqual(Math.floor(compileProblem(model).n / 16))
    expect(polishing.length).toBeGreaterThan(0)
    expect(phases.indexOf('SEARCHING')).toBe(phases.lastIndexOf('BUILDING') + 1)
    expect(reports.filter((r) => r.phase === 'SEARCHING')).toHaveLength(64 / 16)
    for (const r of reports) expect(r.assigned + r.unassigned).toBe(300)
  })
})
