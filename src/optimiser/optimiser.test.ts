// Property tests of the engine on random field-service days with every feature, each plan verified
// by the independent checker. No database: run with TEST_DIALECTS=sqlite to skip PostgreSQL setup.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkPlan, findFeasibleInsertion } from './check.js'
import { generateModel } from './generate.js'
import type { Plan, PlannedRoute, RoutingModel } from './model.js'
import { compileProblem } from './problem.js'
import { solve } from './solve.js'
import { euclideanMatrix, greatCircleMatrix } from './travel.js'

/** The plan with one routed job taken out of its route (times are not needed by the fit search). */
function without(plan: Plan, job: number): Plan {
  const routes: PlannedRoute[] = plan.routes.map((route) => {
    const at = route.stops.findIndex((stop) => stop.job === job)
    if (at < 0) return route
    return {
      ...route,
      stops: route.stops.filter((_, i) => i !== at),
      breaks: route.breaks.map((b) => ({
        ...b,
        afterStops: b.afterStops > at ? b.afterStops - 1 : b.afterStops,
      })),
    }
  })
  return { ...plan, routes }
}

const RANK = { HIGH: 0, NORMAL: 1, LOW: 2 } as const

function priorityViolations(model: RoutingModel, plan: Plan): string[] {
  const found: string[] = []
  const routed = plan.routes.flatMap((route) => route.stops.map((stop) => stop.job))
  for (const u of plan.unassigned) {
    const job = model.jobs[u.job]!
    if (job.location === null || job.priority === 'LOW' || job.pinnedRoute !== undefined) continue
    for (const other of routed) {
      const lower = model.jobs[other]!
      if (lower.pinnedRoute !== undefined || RANK[lower.priority] <= RANK[job.priority]) continue
      if (findFeasibleInsertion(model, without(plan, other), u.job))
        found.push(`${job.priority} job ${u.job} fits in place of ${lower.priority} job ${other}`)
    }
  }
  return found
}

describe('optimiser on random field-service days', () => {
  it('returns plans the checker accepts, with no job twice and no fitting job left out', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 3 }),
        (seed, jobs, routes, dimensions) => {
          const model = generateModel({ jobs, routes, dimensions, seed, pinnedShare: 0.1 })
          const plan = solve(model, { seed, maxIterations: 300, timeLimitMs: 10_000 })
          expect(checkPlan(model, plan)).toEqual([])
          const leftOut = plan.unassigned
            .filter((u) => findFeasibleInsertion(model, plan, u.job) !== null)
            .map((u) => u.job)
          expect(leftOut).toEqual([])
          expect(priorityViolations(model, plan)).toEqual([])
          if (routes === 0)
            expect(plan.unassigned.every((u) => ['NO_SHIFT', 'NO_LOCATION'].includes(u.reason))).toBe(true)
        },
      ),
      { numRuns: 60 },
    )
  })

  it('lists each customer’s nearest customers as a full sort would, ties by index', () => {
    // Points on a small grid: many customers at equal distances; 150 of them, so each keeps 100.
    const xs = Array.from({ length: 151 }, (_, i) => i % 9)
    const ys = Array.from({ length: 151 }, (_, i) => Math.floor(i / 9) % 8)
    const model = generateModel({ jobs: 150, routes: 2, seed: 1, pinnedShare: 0 })
    model.jobs.forEach((job, j) => {
      job.location = j + 1
    })
    const p = compileProblem({ ...model, travel: euclideanMatrix(xs, ys) })
    const d = (a: number, b: number) => Math.hypot(xs[a + 1]! - xs[b + 1]!, ys[a + 1]! - ys[b + 1]!)
    for (let c = 0; c < p.n; c++) {
      const sorted = [...Array(p.n).keys()].filter((o) => o !== c).sort((a, b) => d(c, a) - d(c, b) || a - b)
      const row = [...p.neighbours.subarray(c * p.neighbourCount, (c + 1) * p.neighbourCount)]
      expect(row).toEqual(sorted.slice(0, p.neighbourCount))
    }
  })

  it('gives the same plan for the same seed and iteration count', () => {
    const model = generateModel({ jobs: 60, routes: 6, seed: 7 })
    const run = () => {
      const { stats, ...plan } = solve(model, { seed: 42, maxIterations: 400, timeLimitMs: 60_000 })
      return { plan, iterations: stats.iterations, bestIteration: stats.bestIteration }
    }
    expect(run()).toEqual(run())
  })

  it('stops on an abort signal with the best plan so far', () => {
    const model = generateModel({ jobs: 150, routes: 10, seed: 3 })
    const controller = new AbortController()
    let progressCalls = 0
    const started = performance.now()
    const plan = solve(model, {
      seed: 1,
      timeLimitMs: 60_000,
      progressIntervalMs: 20,
      signal: controller.signal,
      onProgress: (progress) => {
        progressCalls++
        expect(progress.assigned + progress.unassigned).toBe(150)
        controller.abort()
      },
    })
    expect(performance.now() - started).toBeLessThan(30_000)
    expect(progressCalls).toBe(1)
    expect(plan.stats.cancelled).toBe(true)
    expect(checkPlan(model, plan)).toEqual([])
  })

  it('gives every job it cannot plan a reason', () => {
    const travel = greatCircleMatrix([
      { lat: 52.5, lng: 13.4 },
      { lat: 52.51, lng: 13.41 },
    ])
    const route = {
      id: 'r',
      start: 0,
      end: 'RETURN_TO_ORIGIN' as const,
      window: [8 * 3600, 16 * 3600] as [number, number],
      breaks: [{ start: 12 * 3600, end: 12.5 * 3600, paid: false }],
      capacity: [10],
      skills: ['gas'],
      fixedCost: 0,
      costPerKm: 1,
      costPerHour: 30,
      speedFactor: 1,
    }
    const job = {
      id: 'ok',
      location: 1,
      serviceSeconds: 1800,
      window: null,
      windowType: 'HARD' as const,
      priority: 'NORMAL' as const,
      demand: [1],
      skills: [],
    }
    const model: RoutingModel = {
      dimensions: 1,
      locations: [],
      travel,
      routes: [route],
      jobs: [
        job,
        { ...job, id: 'nowhere', location: null },
        { ...job, id: 'electric', skills: ['electric'] },
        { ...job, id: 'heavy', demand: [11] },
        { ...job, id: 'evening', window: [18 * 3600, 19 * 3600] },
        { ...job, id: 'during-break', window: [12 * 3600, 12.5 * 3600] },
      ],
    }
    const plan = solve(model, { seed: 1, maxIterations: 50 })
    expect(checkPlan(model, plan)).toEqual([])
    expect(plan.routes.flatMap((r) => r.stops.map((s) => s.jobId))).toEqual(['ok'])
    expect(Object.fromEntries(plan.unassigned.map((u) => [u.jobId, u.reason]))).toEqual({
      nowhere: 'NO_LOCATION',
      electric: 'SKILL',
      heavy: 'CAPACITY',
      evening: 'TIME_WINDOW',
      'during-break': 'TIME_WINDOW',
    })
    const noShift = solve({ ...model, routes: [] }, { seed: 1, maxIterations: 10 })
    expect(noShift.unassigned.filter((u) => u.reason === 'NO_SHIFT')).toHaveLength(5)
    // The break is taken, unpaid, and the route is charged its hours without it.
    const [planned] = plan.routes
    expect(planned!.breaks).toEqual([
      { break: 0, start: 12 * 3600, end: 12.5 * 3600, afterStops: expect.any(Number) },
    ])
  })

  it('recreates granularly on large days (near routes first) and still plans every job that fits', () => {
    // 450 jobs: the recreate step tries the routes of each job's 40 nearest jobs, then every route.
    const model = generateModel({ jobs: 450, routes: 30, dimensions: 1, seed: 11, pinnedShare: 0.05 })
    const plan = solve(model, { seed: 11, maxIterations: 300, timeLimitMs: 60_000 })
    expect(checkPlan(model, plan)).toEqual([])
    const leftOut = plan.unassigned.filter((u) => findFeasibleInsertion(model, plan, u.job) !== null)
    expect(leftOut).toEqual([])
  })
})
