// The optimiser's one entry point: model in, plan out.
import type { Plan, RoutingModel, SolveOptions } from './model.js'
import { buildPlan } from './plan.js'
import { compileProblem } from './problem.js'
import { search } from './search.js'

/**
 * Plans the model's jobs onto its routes. Synchronous and CPU-bound for up to `timeLimitMs`: call it
 * from a worker thread (see `worker.ts`) where an event loop must stay responsive.
 */
export function solve(model: RoutingModel, options: SolveOptions = {}): Plan {
  const started = performance.now()
  const problem = compileProblem(model)
  const remaining = Math.max(0, (options.timeLimitMs ?? 5000) - (performance.now() - started))
  const result = search(problem, { ...options, timeLimitMs: remaining })
  return buildPlan(problem, result.state, {
    seed: options.seed ?? 1,
    iterations: result.iterations,
    elapsedMs: performance.now() - started,
    bestIteration: result.bestIteration,
    bestElapsedMs: result.bestElapsedMs,
    cancelled: result.cancelled,
    converged: result.converged,
    operators: result.operators,
  })
}
