// The worker-thread wrapper: the plan comes back across the boundary, progress is posted, and a
// cancel stops a long solve with the best plan so far.
import { describe, expect, it } from 'vitest'
import { checkPlan } from './check.js'
import { generateModel } from './generate.js'
import type { SolveProgress } from './model.js'
import { solveInWorker } from './worker.js'

describe('solveInWorker', () => {
  it('solves in a worker thread and posts progress', async () => {
    const model = generateModel({ jobs: 80, routes: 6, seed: 11 })
    const progress: SolveProgress[] = []
    const handle = solveInWorker(model, {
      seed: 1,
      timeLimitMs: 600,
      progressIntervalMs: 50,
      onProgress: (p) => progress.push(p),
    })
    const plan = await handle.plan
    expect(checkPlan(model, plan)).toEqual([])
    expect(plan.stats.cancelled).toBe(false)
    expect(progress.length).toBeGreaterThan(0)
    expect(progress.at(-1)!.assigned + progress.at(-1)!.unassigned).toBe(80)
  })

  it('cancels a long solve through an abort signal and still returns a plan', async () => {
    const model = generateModel({ jobs: 120, routes: 8, seed: 12 })
    const controller = new AbortController()
    const handle = solveInWorker(model, {
      seed: 1,
      timeLimitMs: 120_000,
      progressIntervalMs: 20,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    })
    const plan = await handle.plan
    expect(plan.stats.cancelled).toBe(true)
    expect(checkPlan(model, plan)).toEqual([])
  })

  it('rejects an invalid model', async () => {
    const model = generateModel({ jobs: 5, routes: 1, seed: 1 })
    model.routes[0]!.speedFactor = 0
    await expect(solveInWorker(model).plan).rejects.toThrow(/speedFactor/)
  })
})
