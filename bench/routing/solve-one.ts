// One benchmark solve in its own process (the parent pins it to one core): solves, checks the plan
// with the independent checker, and prints one JSON line.
import { readFileSync } from 'node:fs'
import { checkPlan, planDistance } from '../../src/optimiser/check.js'
import { generateModel } from '../../src/optimiser/generate.js'
import type { RoutingModel } from '../../src/optimiser/model.js'
import { parseSolomon } from '../../src/optimiser/solomon.js'
import { solve } from '../../src/optimiser/solve.js'

export interface SolveResult {
  distance: number
  vehicles: number
  unassigned: number
  seconds: number
  wallSeconds: number
  violations: string[]
  iterations: number
  maxRssMb: number
}

const [kind, source, limit, seed, localSearch, stopWhenStalled] = process.argv.slice(2)
let model: RoutingModel
if (kind === 'solomon') model = parseSolomon(readFileSync(source!, 'utf8')).model
else {
  const [jobs, routes] = source!.split('x').map(Number)
  model = generateModel({ jobs: jobs!, routes: routes!, seed: Number(seed) })
}
// The limit is the whole run's, as a solver's user counts it: what this process has spent since it
// started (loading the code, reading and parsing the file) comes off the search's time.
const started = performance.now()
const plan = solve(model, {
  timeLimitMs: Math.max(1, Number(limit) * 1000 - started),
  seed: Number(seed),
  localSearch: localSearch !== 'off',
  stopWhenStalled: stopWhenStalled === 'stall',
})
const seconds = (performance.now() - started) / 1000
/** From the process's start to the plan: start-up included. */
const wallSeconds = performance.now() / 1000
const result: SolveResult = {
  distance: planDistance(model, plan),
  vehicles: plan.routes.length,
  unassigned: plan.unassigned.length,
  seconds,
  wallSeconds,
  violations: checkPlan(model, plan).map((v) => `${v.code}: ${v.message}`),
  iterations: plan.stats.iterations,
  maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
}
process.stdout.write(`${JSON.stringify(result)}\n`)
