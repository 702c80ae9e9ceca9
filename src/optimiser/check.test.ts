// The checker at the product's scale: times are Unix seconds (~1.8e9), where a tolerance relative to
// their size (1e-6 of it: half an hour) once let a stop that missed its HARD window by minutes pass.
import { describe, expect, it } from 'vitest'
import { checkPlan } from './check.js'
import type { Plan, RoutingModel } from './model.js'
import { solve } from './solve.js'
import { euclideanMatrix } from './travel.js'

const T = 1_796_000_000 // 2026-11-30, in Unix seconds

function dayModel(): RoutingModel {
  const xs = [0, 600, 1200]
  return {
    dimensions: 1,
    locations: [],
    travel: euclideanMatrix(
      xs,
      xs.map(() => 0),
    ),
    routes: [
      {
        id: 'van',
        start: 0,
        end: 'RETURN_TO_ORIGIN',
        window: [T, T + 36_000],
        breaks: [],
        capacity: [10],
        skills: [],
        fixedCost: 0,
        costPerKm: 1,
        costPerHour: 10,
        speedFactor: 1,
      },
    ],
    jobs: [
      {
        id: 'a',
        location: 1,
        serviceSeconds: 1800,
        window: [T + 3600, T + 7200],
        windowType: 'HARD',
        priority: 'NORMAL',
        demand: [1],
        skills: [],
      },
      {
        id: 'b',
        location: 2,
        serviceSeconds: 1800,
        window: [T + 9000, T + 10_800],
        windowType: 'HARD',
        priority: 'NORMAL',
        demand: [1],
        skills: [],
      },
    ],
  }
}

/** The plan with its stop of job `job` shifted by `seconds` (arrival, start and end together). */
function shifted(plan: Plan, job: number, seconds: number, only: 'all' | 'start' = 'all'): Plan {
  const copy = structuredClone(plan)
  for (const route of copy.routes)
    for (const stop of route.stops) {
      if (stop.job !== job) continue
      if (only === 'all') stop.arrival += seconds
      stop.serviceStart += seconds
      stop.serviceEnd += seconds
    }
  return copy
}

describe('the feasibility checker on Unix-second times', () => {
  const model = dayModel()
  const plan = solve(model, { seed: 1, timeLimitMs: 5_000, maxIterations: 2_000 })

  it('passes the solver’s plan', () => {
    expect(plan.unassigned).toEqual([])
    expect(checkPlan(model, plan)).toEqual([])
  })

  it('flags a stop that ends a few minutes after its HARD window closes', () => {
    // VISIT_WITHIN (the default rule): the visit must end by the window's close, so start by T+9000.
    const stop = plan.routes[0]?.stops.find((s) => s.job === 1)
    const late = T + 9000 + 300 - (stop?.serviceStart ?? 0) // five minutes past the latest start
    const codes = checkPlan(model, shifted(plan, 1, late)).map((v) => v.code)
    expect(codes).toContain('TIME_WINDOW')
  })

  it('flags a service that starts a second before its arrival', () => {
    const codes = checkPlan(model, shifted(plan, 0, -1, 'start')).map((v) => v.code)
    expect(codes).toContain('EARLY_START')
  })

  it('flags a service a few seconds shorter than its service time', () => {
    const copy = structuredClone(plan)
    const stop = copy.routes[0]?.stops[0]
    if (stop) stop.serviceEnd -= 5
    expect(checkPlan(model, copy).map((v) => v.code)).toContain('SERVICE_LENGTH')
  })
})
