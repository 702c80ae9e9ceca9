// Stability (issue 29): a price on each job served on another route than before and on each route
// whose first stop changes, in the cost every move is evaluated with — so a re-plan with it moves
// fewer jobs, and the plans stay feasible by the independent checker. The route's own end
// (endLocation) is where a route started mid-day returns to.
import { describe, expect, it } from 'vitest'
import { checkPlan } from './check.js'
import type { JobSpec, RouteSpec, RoutingModel } from './model.js'
import { solve } from './solve.js'

const HOUR = 3600

/** Two clusters 20 km either side of the depot; each route holds two jobs of each before the plan. */
function crosswiseDay(moveCost: number, nextStopChangeCost = 0): RoutingModel {
  const locations = [{ lat: 53.4808, lng: -2.2426 }]
  const jobs: JobSpec[] = []
  for (let i = 0; i < 4; i++) {
    for (const [side, lng] of [
      ['W', -2.55],
      ['E', -1.94],
    ] as const) {
      locations.push({ lat: 53.47 + i * 0.005, lng })
      jobs.push({
        id: `${side}${i}`,
        location: locations.length - 1,
        serviceSeconds: 1.5 * HOUR,
        window: [8 * HOUR, 18 * HOUR],
        windowType: 'HARD',
        priority: 'NORMAL',
        demand: [],
        skills: [],
        previousRoute: (i + (side === 'W' ? 0 : 1)) % 2,
      })
    }
  }
  const route = (id: string, previousFirstJob: number): RouteSpec => ({
    id,
    start: 0,
    end: 'RETURN_TO_ORIGIN',
    window: [8 * HOUR, 18 * HOUR],
    breaks: [{ start: 12 * HOUR, end: 12.5 * HOUR, paid: false }],
    capacity: [],
    skills: [],
    fixedCost: 50,
    costPerKm: 0.45,
    costPerHour: 22.5,
    speedFactor: 1,
    previousFirstJob,
  })
  return {
    dimensions: 0,
    locations,
    jobs,
    routes: [route('a', 0), route('b', 1)],
    options: { moveCost, nextStopChangeCost },
  }
}

const movedJobs = (model: RoutingModel, plan: ReturnType<typeof solve>) =>
  plan.routes.reduce(
    (sum, route) => sum + route.stops.filter((s) => model.jobs[s.job]!.previousRoute !== route.route).length,
    0,
  )

describe('optimiser: stability', () => {
  for (const localSearch of [true, false]) {
    it(`moves no job at a high price and separates the clusters at none (local search ${localSearch ? 'on' : 'off'})`, () => {
      for (const seed of [1, 2, 3]) {
        const free = crosswiseDay(0)
        const freePlan = solve(free, { seed, maxIterations: 3000, localSearch })
        expect(checkPlan(free, freePlan)).toEqual([])
        expect(movedJobs(free, freePlan)).toBe(4)
        const stable = crosswiseDay(45, 11.25)
        const stablePlan = solve(stable, { seed, maxIterations: 3000, localSearch })
        expect(checkPlan(stable, stablePlan)).toEqual([])
        expect(movedJobs(stable, stablePlan)).toBe(0)
        // Same jobs planned; the plan's cost is what it costs to run, stability aside.
        expect(stablePlan.unassigned).toEqual([])
        expect(stablePlan.cost.total).toBeGreaterThan(freePlan.cost.total)
      }
    })
  }

  it('keeps a route’s previous first stop first when only that is priced', () => {
    const model = crosswiseDay(0, 1000)
    const plan = solve(model, { seed: 1, maxIterations: 3000 })
    expect(checkPlan(model, plan)).toEqual([])
    for (const route of plan.routes) {
      const previous = model.routes[route.route]!.previousFirstJob
      expect(route.stops[0]!.job).toBe(previous)
    }
  })

  it('keeps promised work over two waiting jobs, even HIGH ones, unless re-planning freely', () => {
    // One four-hour route: the 3-hour job it held, or the two 1¾-hour jobs waiting — not both.
    const day = (moveCost: number, waitingPriority: JobSpec['priority']): RoutingModel => {
      const job = (
        id: string,
        hours: number,
        priority: JobSpec['priority'],
        previousRoute?: number,
      ): JobSpec => ({
        id,
        location: 1,
        serviceSeconds: hours * HOUR,
        window: null,
        windowType: 'HARD',
        priority,
        demand: [],
        skills: [],
        ...(previousRoute === undefined ? {} : { previousRoute }),
      })
      return {
        dimensions: 0,
        locations: [
          { lat: 53.4808, lng: -2.2426 },
          { lat: 53.4818, lng: -2.2426 },
        ],
        jobs: [
          job('promised', 3, 'NORMAL', 0),
          job('w1', 1.75, waitingPriority),
          job('w2', 1.75, waitingPriority),
        ],
        routes: [
          {
            id: 'a',
            start: 0,
            end: 'RETURN_TO_ORIGIN',
            window: [8 * HOUR, 12 * HOUR],
            breaks: [],
            capacity: [],
            skills: [],
            fixedCost: 0,
            costPerKm: 1,
            costPerHour: 1,
            speedFactor: 1,
          },
        ],
        options: { moveCost },
      }
    }
    const served = (model: RoutingModel) => {
      const plan = solve(model, { seed: 1, maxIterations: 500 })
      expect(checkPlan(model, plan)).toEqual([])
      return plan.routes.flatMap((route) => route.stops.map((stop) => stop.jobId)).sort()
    }
    expect(served(day(0, 'NORMAL'))).toEqual(['w1', 'w2'])
    expect(served(day(10, 'NORMAL'))).toEqual(['promised'])
    expect(served(day(10, 'HIGH'))).toEqual(['promised'])
    expect(served(day(0, 'HIGH'))).toEqual(['w1', 'w2'])
  })

  it('returns a route that starts elsewhere to its endLocation, as the checker reads it', () => {
    const model = crosswiseDay(0)
    model.locations.push({ lat: 53.6, lng: -2.4 })
    for (const route of model.routes) {
      route.endLocation = route.start
      route.start = model.locations.length - 1
    }
    const plan = solve(model, { seed: 1, maxIterations: 2000 })
    expect(checkPlan(model, plan)).toEqual([])
    expect(plan.unassigned).toEqual([])
  })
})
