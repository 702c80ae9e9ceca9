// The runner's solver: the day as the optimiser's model, its travel matrix fetched first (road times
// when ROUTING_OSRM_URL is set, travel/travel-times.ts — the optimiser itself never calls out), solved
// in a worker thread (so HTTP requests are served while it searches), and the plan turned back into
// the API's result, which says where its travel times came from. A dispatcher waits for the plan:
// the search ends early once it has stalled (stopWhenStalled).
import { solveInWorker } from '../../optimiser/worker.js'
import { TravelTimes } from '../travel/travel-times.js'
import { toPlanResult, toRoutingModel } from './optimiser-model.js'
import type { DaySolver } from './runner.js'

export function createDaySolver(travelTimes: TravelTimes): DaySolver {
  return async (day, { organisationId, timeLimitMs, seed, signal, onProgress }) => {
    const model = toRoutingModel(day, day.routing)
    const travel = await travelTimes.travelMatrixFor(
      organisationId,
      day.date,
      model.locations,
      day.routing,
      signal,
    )
    model.travel = travel.matrix
    const handle = solveInWorker(model, {
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
    return {
      ...toPlanResult(day, await handle.plan),
      travel: { source: travel.source, warnings: travel.warnings },
    }
  }
}

/** Straight-line travel only (no road service): what tests and tools without a config use. */
export const solveDay: DaySolver = createDaySolver(new TravelTimes())
