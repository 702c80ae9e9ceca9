// The granular local search on its own: random field-service days with every feature (breaks,
// several capacity dimensions, skills, pins, SOFT windows, mixed speeds, END_AT_LAST_JOB) under
// both window rules, each result verified by the independent checker; each operator alone; and a
// hand-made day where only a 2-opt* tail exchange improves. No database: run with
// TEST_DIALECTS=sqlite to skip PostgreSQL setup.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkPlan } from './check.js'
import { generateModel } from './generate.js'
import { Inserter } from './insert.js'
import { LocalSearch, type LocalSearchOptions, type OperatorName } from './local-search.js'
import type { JobSpec, Plan, RouteSpec, RoutingModel } from './model.js'
import { buildPlan } from './plan.js'
import { compileProblem, type Problem } from './problem.js'
import { Random } from './random.js'
import { solve } from './solve.js'
import { SearchState } from './state.js'
import { euclideanMatrix } from './travel.js'

const OPERATORS: OperatorName[] = ['relocate', 'swap', 'or-opt', '2-opt*']

/** A deliberately rough start: customers in random order, each at a random feasible position (blinks). */
function roughStart(p: Problem, seed: number): SearchState {
  const s = new SearchState(p)
  const rng = new Random(seed)
  const inserter = new Inserter(p.routes)
  const order = Array.from({ length: p.n }, (_, c) => c)
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(i + 1)
    ;[order[i], order[j]] = [order[j]!, order[i]!]
  }
  for (const c of order)
    if (inserter.find(s, c, rng, 0.6)) s.insert(c, inserter.bestRoute, inserter.bestAfter)
  return s
}

function planOf(p: Problem, s: SearchState): Plan {
  return buildPlan(p, s, {
    seed: 1,
    iterations: 0,
    elapsedMs: 0,
    bestIteration: 0,
    bestElapsedMs: 0,
    cancelled: false,
    converged: false,
    operators: [],
  })
}

/** The total cost of the state's routes recomputed in a fresh state. */
function recomputedCost(p: Problem, s: SearchState): number {
  const nodes = new Int32Array(s.nodes.length)
  const len = new Int32Array(p.routes)
  s.saveRoutes(nodes, len)
  const fresh = new SearchState(p)
  fresh.loadRoutes(nodes, len)
  return fresh.totalCost
}

/** Runs the local search from a rough start and checks everything a move must preserve. */
function improve(model: RoutingModel, seed: number, options: LocalSearchOptions = {}) {
  const p = compileProblem(model)
  const s = roughStart(p, seed)
  const before = s.totalCost
  const assigned = Array.from(s.custRoute, (r) => r >= 0)
  const search = new LocalSearch(s, options)
  const moves = search.run(new Random(seed))
  expect(checkPlan(model, planOf(p, s))).toEqual([])
  expect(s.totalCost).toBeLessThanOrEqual(before + 1e-9)
  expect(recomputedCost(p, s)).toBeCloseTo(s.totalCost, 6)
  expect(Array.from(s.custRoute, (r) => r >= 0)).toEqual(assigned)
  expect(Array.from(s.feasible).every((f) => f === 1)).toBe(true)
  expect(search.ctx.refused).toBe(0)
  // A second run finds nothing left to improve.
  expect(search.run(new Random(seed + 1))).toBe(0)
  return { moves, before, after: s.totalCost, stats: search.stats() }
}

function randomDay(seed: number, jobs: number, routes: number, dimensions: number, startByDue: boolean) {
  const model = generateModel({ jobs, routes, dimensions, seed, pinnedShare: 0.05 })
  if (startByDue) model.options = { ...model.options, windowRule: 'START_BY_DUE' }
  return model
}

describe('granular local search', () => {
  it('keeps random days feasible, never raises the cost and keeps its totals exact', () => {
    const applied = new Map<string, number>()
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 2, max: 70 }),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        (seed, jobs, routes, dimensions, startByDue) => {
          const result = improve(randomDay(seed, jobs, routes, dimensions, startByDue), seed)
          for (const op of result.stats) applied.set(op.name, (applied.get(op.name) ?? 0) + op.applied)
        },
      ),
      { numRuns: 80 },
    )
    for (const name of OPERATORS) expect(applied.get(name), name).toBeGreaterThan(0)
  })

  it.each(OPERATORS)('%s alone finds improving moves and keeps every day feasible', (name) => {
    let moves = 0
    let gained = 0
    for (let seed = 1; seed <= 12; seed++) {
      const result = improve(randomDay(seed, 50, 5, 2, seed % 2 === 0), seed, { operators: [name] })
      moves += result.moves
      gained += result.before - result.after
      expect(result.stats).toEqual([expect.objectContaining({ name, applied: result.moves })])
    }
    expect(moves).toBeGreaterThan(0)
    expect(gained).toBeGreaterThan(0)
  })
})

describe('2-opt* on a day where nothing else improves', () => {
  // Two routes from the depot at (0, 0), each crossing from one side to the other: route 0 serves
  // a1 (up) then a2, a3 (down), route 1 serves b1 (down) then b2, b3 (up). Windows fix the order
  // within a route, capacity 3 blocks relocations, a1 and b1 need their own route's tag, and no
  // single swap helps: only exchanging the tails after a1 and b1 uncrosses the routes.
  const xs = [0, 10, 20, 30, 10, 20, 30]
  const ys = [0, 10, -10, -10, -10, 10, 10]
  const windows: [number, number][] = [
    [0, 30],
    [40, 60],
    [70, 100],
  ]
  const job = (id: string, location: number, slot: number, skills: string[]): JobSpec => ({
    id,
    location,
    serviceSeconds: 0,
    window: windows[slot]!,
    windowType: 'HARD',
    priority: 'NORMAL',
    demand: [1],
    skills,
  })
  const route = (id: string, tag: string, overrides: Partial<RouteSpec>): RouteSpec => ({
    id,
    start: 0,
    end: 'RETURN_TO_ORIGIN',
    window: [0, 1000],
    breaks: [],
    capacity: [3],
    skills: [tag],
    fixedCost: 0,
    costPerKm: 1000,
    costPerHour: 0,
    speedFactor: 1,
    ...overrides,
  })
  const dayWith = (second: Partial<RouteSpec>): RoutingModel => ({
    dimensions: 1,
    locations: xs.map((x, i) => ({ lat: ys[i]!, lng: x })),
    travel: euclideanMatrix(xs, ys),
    routes: [route('0', 'up', {}), route('1', 'down', second)],
    jobs: [
      job('a1', 1, 0, ['up']),
      job('a2', 2, 1, []),
      job('a3', 3, 2, []),
      job('b1', 4, 0, ['down']),
      job('b2', 5, 1, []),
      job('b3', 6, 2, []),
    ],
  })
  const crossed = (model: RoutingModel) => {
    const p = compileProblem(model)
    const s = new SearchState(p)
    for (const [c, r, after] of [
      [0, 0, 0],
      [1, 0, 1],
      [2, 0, 2],
      [3, 1, 0],
      [4, 1, 1],
      [5, 1, 2],
    ] as const)
      s.insert(c, r, after)
    return { p, s }
  }

  it.each([
    ['same speed and end (cached tails)', {}],
    ['a faster second route (tails walked)', { speedFactor: 2 }],
    ['a second route ending at its last job (tails walked)', { end: 'END_AT_LAST_JOB' as const }],
  ])('uncrosses the routes with %s', (_, second) => {
    const model = dayWith(second)
    const { p, s } = crossed(model)
    const before = s.totalCost
    expect(new LocalSearch(s, { operators: ['relocate', 'swap', 'or-opt'] }).run(new Random(1))).toBe(0)
    expect(s.totalCost).toBe(before)
    const search = new LocalSearch(s)
    search.run(new Random(1))
    expect(search.stats().map((op) => [op.name, op.applied])).toEqual([
      ['relocate', 0],
      ['swap', 0],
      ['or-opt', 0],
      ['2-opt*', 1],
    ])
    const plan = planOf(p, s)
    expect(checkPlan(model, plan)).toEqual([])
    expect(plan.routes.map((r) => r.stops.map((stop) => stop.jobId))).toEqual([
      ['a1', 'b2', 'b3'],
      ['b1', 'a2', 'a3'],
    ])
    expect(s.totalCost).toBeLessThan(before - 20)
  })
})

describe('local search inside the search', () => {
  it('polishes the construction: plans stay feasible with or without it, and a seed fixes the plan', () => {
    const model = generateModel({ jobs: 150, routes: 12, seed: 11 })
    const run = (localSearch: boolean) => {
      const plan = solve(model, { seed: 3, maxIterations: 100, timeLimitMs: 60_000, localSearch })
      expect(checkPlan(model, plan)).toEqual([])
      return { routes: plan.routes, unassigned: plan.unassigned, iterations: plan.stats.iterations }
    }
    const first = run(true)
    expect(run(true)).toEqual(first)
    expect(run(false)).not.toEqual(first)
  })
})

describe('operator statistics', () => {
  it('are returned by solve(): every operator priced moves, applied at most the improving ones it found', () => {
    const model = generateModel({ jobs: 120, routes: 10, seed: 4 })
    const plan = solve(model, { seed: 2, maxIterations: 500, timeLimitMs: 60_000 })
    const stats = plan.stats.operators
    expect(stats.map((op) => op.name)).toEqual(['relocate', 'swap', 'or-opt', '2-opt*', 'ruin-and-recreate'])
    for (const op of stats) {
      expect(op.evaluations, op.name).toBeGreaterThan(0)
      expect(op.improving, op.name).toBeLessThanOrEqual(op.evaluations)
      expect(op.applied, op.name).toBeLessThanOrEqual(
        op.name === 'ruin-and-recreate' ? op.evaluations : op.improving,
      )
    }
    // A rough construction leaves the local search something to do.
    expect(stats.slice(0, 4).reduce((sum, op) => sum + op.applied, 0)).toBeGreaterThan(0)
    const ruin = stats[4]!
    expect(ruin.evaluations).toBe(plan.stats.iterations)
    expect(ruin.improving).toBeGreaterThan(0)
    expect(ruin.applied).toBeGreaterThanOrEqual(ruin.improving)
  })

  it('hold ruin and recreate alone when the local search is off', () => {
    const model = generateModel({ jobs: 40, routes: 4, seed: 6 })
    const plan = solve(model, { seed: 1, maxIterations: 200, timeLimitMs: 60_000, localSearch: false })
    expect(plan.stats.operators).toEqual([
      {
        name: 'ruin-and-recreate',
        evaluations: 200,
        improving: expect.any(Number),
        applied: expect.any(Number),
      },
    ])
  })
})
