// Solves of a fixed iteration budget, for counting the engine's work with callgrind (see
// instructions.ts): prints one JSON line with the plan's distance and a fingerprint of its routes,
// so that two checkouts can be shown to build the same plan. The engine is loaded from `--root`
// (default: this checkout), so the same script measures an older commit's worktree; it runs as
// TypeScript (tsx) or compiled beside a compiled engine (instructions.ts).
//
//   tsx bench/routing/fixed-solve.ts INSTANCE ITERATIONS [--seed N] [--root DIR]
//
// prints the plan after 1 + ITERATIONS iterations.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type * as Check from '../../src/optimiser/check.js'
import type { Plan } from '../../src/optimiser/model.js'
import type * as Solomon from '../../src/optimiser/solomon.js'
import type * as Solve from '../../src/optimiser/solve.js'

const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name)
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1]! : fallback
}
const [instance, budget] = args
if (!instance || !budget) throw new Error('usage: fixed-solve.ts INSTANCE ITERATIONS [--seed N] [--root DIR]')
const root = resolve(option('--root', fileURLToPath(new URL('../..', import.meta.url))))
const load = <T>(file: string) => import(pathToFileURL(join(root, 'src/optimiser', file)).href) as Promise<T>
const { solve } = await load<typeof Solve>('solve.js')
const { parseSolomon } = await load<typeof Solomon>('solomon.js')
const { planDistance } = await load<typeof Check>('check.js')

/** The routes as they would be stored: who goes where, and every time, to the last bit. */
function fingerprint(plan: Plan): string {
  const routes = plan.routes.map((route) => [
    route.routeId,
    route.departure,
    route.arrival,
    route.stops.map((stop) => [stop.jobId, stop.serviceStart]),
    route.breaks.map((b) => [b.break, b.start]),
  ])
  const text = JSON.stringify([routes, plan.unassigned.map((job) => job.jobId), plan.cost])
  return createHash('sha256').update(text).digest('hex').slice(0, 16)
}

const { model } = parseSolomon(readFileSync(instance, 'utf8'))
const seed = Number(option('--seed', '1'))
const fixedSolve = (iterations: number) => solve(model, { seed, maxIterations: iterations, timeLimitMs: 1e9 })
// process.cpuUsage() marks the phases for callgrind (--dump-before=*CPUUsage*): a warm-up solve of
// 1,000 iterations (the optimising compiler's work on the search's functions is done there), one of
// 1 + ITERATIONS, and one of a single iteration — the last two differ by ITERATIONS iterations of
// warm code. Their CPU time is printed as well.
process.cpuUsage()
fixedSolve(1000)
const before = process.cpuUsage()
const plan = fixedSolve(1 + Number(budget))
const between = process.cpuUsage(before)
fixedSolve(1)
const warmStart = process.cpuUsage(before)
/** CPU milliseconds of the budget's iterations (noisy on a shared machine; callgrind's count is not). */
const cpuMs = (2 * (between.user + between.system) - (warmStart.user + warmStart.system)) / 1000
process.stdout.write(
  `${JSON.stringify({
    distance: planDistance(model, plan),
    vehicles: plan.routes.length,
    unassigned: plan.unassigned.length,
    iterations: plan.stats.iterations,
    bestIteration: plan.stats.bestIteration,
    fingerprint: fingerprint(plan),
    cpuMs: Math.round(cpuMs),
  })}\n`,
)
