// Balanced routes (issue 32 §2): the engine's balance prices on a day a cheapest plan gives to a
// couple of routes — four vans at one depot, sixteen one-hour jobs around it. Every plan is checked
// by the independent checker, whose recomputed cost is the routes' own (the balance prices are the
// objective's, never the plan's).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkPlan, findFeasibleInsertion } from './check.js'
import { generateModel } from './generate.js'
import type { ModelOptions, Plan, RoutingModel } from './model.js'
import { solve } from './solve.js'

const HOUR = 3600

function day(options: Partial<ModelOptions> = {}): RoutingModel {
  const depot = { lat: 51.5, lng: -0.12 }
  const jobs = Array.from({ length: 16 }, (_, i) => ({
    id: `job-${i}`,
    location: i + 1,
    serviceSeconds: HOUR,
    window: null,
    windowType: 'HARD' as const,
    priority: 'NORMAL' as const,
    demand: [],
    skills: [],
  }))
  const locations = [
    depot,
    ...jobs.map((_, i) => ({ lat: 51.5 + 0.01 * Math.cos(i), lng: -0.12 + 0.015 * Math.sin(i) })),
  ]
  const routes = Array.from({ length: 4 }, (_, r) => ({
    id: `van-${r}`,
    workerId: `worker-${r}`,
    vehicleId: `vehicle-${r}`,
    start: 0,
    end: 'RETURN_TO_ORIGIN' as const,
    window: [8 * HOUR, 18 * HOUR] as [number, number],
    breaks: [],
    capacity: [],
    skills: [],
    fixedCost: 20,
    costPerKm: 0.5,
    costPerHour: 20,
    speedFactor: 1,
  }))
  return { dimensions: 0, locations, routes, jobs, options }
}

const hours = (plan: Plan) => plan.routes.map((route) => (route.arrival - route.departure) / HOUR)
const spread = (plan: Plan, routes: number) => {
  const all = [...hours(plan), ...Array<number>(routes - plan.routes.length).fill(0)]
  return Math.max(...all) - Math.min(...all)
}

describe('balanced routes', () => {
  const none = solve(day(), { seed: 3, maxIterations: 5000 })
  const workload = solve(day({ workloadCostPerHourSquared: 160 }), { seed: 3, maxIterations: 5000 })
  const useAll = solve(day({ unusedRouteCost: 500 }), { seed: 3, maxIterations: 5000 })

  it('NONE gives the day to as few routes as fit it: the cheapest plan', () => {
    expect(checkPlan(day(), none)).toEqual([])
    expect(none.unassigned).toEqual([])
    expect(none.routes.length).toBe(2)
    expect(spread(none, 4)).toBeGreaterThan(8)
  })

  it('WORKLOAD evens out the working time of every route, idle ones counted', () => {
    expect(checkPlan(day(), workload)).toEqual([])
    expect(workload.unassigned).toEqual([])
    expect(workload.routes.length).toBe(4)
    // Four hours of service each, give or take a job: within the tolerance of the fair share.
    expect(spread(workload, 4)).toBeLessThan(1.5)
    // The plan's cost is what its routes cost; evening out costs more than the cheapest plan.
    expect(workload.cost.total).toBeGreaterThan(none.cost.total)
  })

  it('USE_ALL gives every route work when there is enough', () => {
    expect(checkPlan(day(), useAll)).toEqual([])
    expect(useAll.unassigned).toEqual([])
    expect(useAll.routes.length).toBe(4)
    expect(useAll.routes.every((route) => route.stops.length > 0)).toBe(true)
  })

  it('USE_ALL cannot make work: two jobs for four routes use two', () => {
    const model = day({ unusedRouteCost: 500 })
    model.jobs = model.jobs.slice(0, 2)
    const plan = solve(model, { seed: 3, maxIterations: 2000 })
    expect(checkPlan(model, plan)).toEqual([])
    expect(plan.routes.length).toBe(2)
  })

  it('keeps every plan feasible and every job that fits planned, on random days with every feature', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 2, max: 30 }),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom<Partial<ModelOptions>>({ workloadCostPerHourSquared: 100 }, { unusedRouteCost: 300 }),
        (seed, jobs, routes, balance) => {
          const model = generateModel({ jobs, routes, dimensions: 2, seed, pinnedShare: 0.1 })
          model.options = { ...model.options, ...balance }
          const plan = solve(model, { seed, maxIterations: 300, timeLimitMs: 10_000 })
          expect(checkPlan(model, plan)).toEqual([])
          // Balance is priced below every priority tier: no job that fits somewhere is left out.
          const leftOut = plan.unassigned.filter((u) => findFeasibleInsertion(model, plan, u.job) !== null)
          expect(leftOut).toEqual([])
        },
      ),
      { numRuns: 40 },
    )
  })
})
