// The runner's solver: the day as the optimiser's model, solved in a worker thread (so HTTP
// requests are served while it searches), and the plan turned back into the API's result. A
// dispatcher waits for the plan: the search ends early once it has stalled (stopWhenStalled).
import { solveInWorker } from '../../optimiser/worker.js'
import { toPlanResult, toRoutingModel } from './optimiser-model.js'
import type { DaySolver } from './runner.js'

export const solveDay: DaySolver = async (day, { timeLimitMs, seed, signal, onProgress }) => {
  const handle = solveInWorker(toRoutingModel(day, day.routing), {
    timeLimitMs,
    seed,
    signal,
    stopWhenStalled: true,
    onProgress: (progress) =>
      onProgress({
        phase: progress.phase,
        iterations: progress.iterations,
        bestCost: progress.bestCost,
        assignedJobs: progress.assigned,
      }),
  })
  return toPlanResult(day, await handle.plan)
}
