// The search: an insertion construction, then ruin-and-recreate (SISR string removal, greedy
// insertion with blinks) under simulated annealing, keeping the best solution. Solutions are
// compared lexicographically: unassigned pinned, then HIGH, NORMAL and LOW jobs, then cost — so a
// HIGH job is never given up for a NORMAL one. Every solution the search holds is feasible.
//
// The annealing schedule is counted in iterations, never in time, so a seed fixes the trajectory;
// the wall clock only decides when to stop. So does the stall rule (`stopWhenStalled`): it counts
// iterations since the best plan last improved.

import { displaceLowerTiers } from './displace.js'
import { Inserter } from './insert.js'
import { LocalSearch } from './local-search.js'
import type { SolveOptions, SolvePhase } from './model.js'
import { type Problem, TIERS } from './problem.js'
import { Random } from './random.js'
import { DEFAULT_RUIN, StringRemoval } from './ruin.js'
import { SearchState } from './state.js'

export interface SearchResult {
  state: SearchState
  iterations: number
  bestIteration: number
  bestElapsedMs: number
  elapsedMs: number
  cancelled: boolean
  /** The local search's operators (null when it was off). */
  localSearch: LocalSearch | null
  /** Ended early because the plan could not improve (see SolveStats.converged). */
  converged: boolean
}

/** Iterations a cooling cycle is planned for, per second of time limit (calibrated on one core). */
function plannedIterations(p: Problem, timeLimitMs: number): number {
  const perSecond = 2e6 / (p.n + 30)
  return Math.max(1000, Math.round((perSecond * timeLimitMs) / 1000))
}

/** How far past the time limit the displacement of lower tiers may run on very large days. */
const FINAL_PHASE_GRACE_MS = 1000

/**
 * Iterations without a better plan after which a search that places every job it can has stalled
 * (`stopWhenStalled`): a fifth of the cooling cycle planned for the time limit, but at least 2,000
 * and at most 10,000 per job, and never under 20,000. On the demo's days (7–33 jobs) the last
 * improvements came up to 100,000 iterations apart late in a cycle, on Solomon's 100 customers up
 * to 190,000 (30 s limit); a rule of 1,000 per job alone lost 1–2 % of cost on several seeds.
 */
export function stallIterations(n: number, cycle: number): number {
  return Math.max(20_000, Math.min(Math.max(0.2 * cycle, 2_000 * n), 10_000 * n))
}

/** Customers per clock check while the first plan is built (each is one cheapest insertion). */
const CONSTRUCTION_CHECK = 16

function compareTiers(a: Int32Array, b: Int32Array): number {
  for (let t = 0; t < TIERS; t++) if (a[t] !== b[t]) return a[t]! < b[t]! ? -1 : 1
  return 0
}

export function search(p: Problem, options: SolveOptions): SearchResult {
  const started = performance.now()
  const timeLimitMs = options.timeLimitMs ?? 5000
  const maxIterations = options.maxIterations ?? Number.POSITIVE_INFINITY
  const progressInterval = options.progressIntervalMs ?? 250
  const rng = new Random(options.seed ?? 1)
  const state = new SearchState(p)
  const inserter = new Inserter(p.routes)
  const removal = new StringRemoval(p.n, p.routes)
  const n = p.n
  const unassigned = new Int32Array(n)
  let unassignedCount = 0
  const candidates = new Int32Array(n)
  const keys = new Float64Array(n)
  const reference = p.routes > 0 ? p.nodeLoc[p.routeStart[0]!]! * p.size : 0
  const demandSum = new Float64Array(n)
  for (let c = 0; c < n; c++) for (let d = 0; d < p.dims; d++) demandSum[c]! += p.demand[c * p.dims + d]!

  /** Insertion sort of candidates[0..count) by keys (short lists). */
  const sortCandidates = (count: number): void => {
    for (let i = 1; i < count; i++) {
      const c = candidates[i]!
      const key = keys[i]!
      let j = i - 1
      while (j >= 0 && keys[j]! > key) {
        keys[j + 1] = keys[j]!
        candidates[j + 1] = candidates[j]!
        j--
      }
      keys[j + 1] = key
      candidates[j + 1] = c
    }
  }

  /**
   * Inserts candidates[0..count) in an order SISR draws at random, tiers first. The construction
   * (`building`) checks the clock as it goes: on a large day it takes seconds.
   */
  const recreate = (count: number, blink: number, building = false): void => {
    const draw = rng.next() * 11
    for (let i = 0; i < count; i++) {
      const c = candidates[i]!
      let key: number
      if (draw < 4) key = rng.next()
      else if (draw < 8) key = -demandSum[c]!
      else if (draw < 10) key = -p.dist[reference + p.nodeLoc[c]!]!
      else key = p.dist[reference + p.nodeLoc[c]!]!
      keys[i] = p.tier[c]! * 1e13 + key
    }
    sortCandidates(count)
    let placed = 0
    for (let i = 0; i < count; i++) {
      const c = candidates[i]!
      if (building && i % CONSTRUCTION_CHECK === CONSTRUCTION_CHECK - 1) poll('BUILDING', 0, null, n - placed)
      // (a sample of the unassigned may hold a customer twice)
      if (state.custRoute[c] !== -1) continue
      if (inserter.find(state, c, rng, blink)) {
        state.insert(c, inserter.bestRoute, inserter.bestAfter)
        placed++
      }
    }
  }
  const collectUnassigned = (): void => {
    unassignedCount = 0
    for (let c = 0; c < n; c++) if (state.custRoute[c] === -1) unassigned[unassignedCount++] = c
  }

  const cancelFlag = options.cancelFlag
  const signal = options.signal
  let cancelled = false
  let lastProgress = started
  /**
   * The clock check of every phase, every few milliseconds: notes a cancellation (after which
   * nothing more is reported), reports progress when due, and says whether to stop (cancelled or
   * out of time).
   */
  const poll = (phase: SolvePhase, iterations: number, cost: number | null, unassignedTotal: number) => {
    const now = performance.now()
    if (!cancelled && (signal?.aborted || (cancelFlag && Atomics.load(cancelFlag, 0) !== 0))) cancelled = true
    if (!cancelled && options.onProgress && now - lastProgress >= progressInterval) {
      lastProgress = now
      options.onProgress({
        phase,
        elapsedMs: now - started,
        iterations,
        bestCost: cost,
        assigned: n - unassignedTotal,
        unassigned: unassignedTotal + p.fixedReasons.size,
      })
    }
    return cancelled || now - started >= timeLimitMs
  }

  const localSearch =
    options.localSearch !== false && n > 1
      ? new LocalSearch(state, { interrupt: () => poll('BUILDING', 0, state.totalCost, unassignedCount) })
      : null
  // Customers that fit on no route even alone (an empty route is the loosest there is): the stall
  // rule waits only for the others. Counted before anything is inserted, blink 0 draws no number.
  const unplaceable = new Int32Array(TIERS)
  if (options.stopWhenStalled) {
    for (let c = 0; c < n; c++) if (!inserter.find(state, c, rng, 0)) unplaceable[p.tier[c]!]!++
  }

  // Construction: every customer, cheapest insertion in a random SISR order, no blinks. Cancelling
  // does not stop it (the plan returned must hold every job that fits); it only silences progress.
  for (let c = 0; c < n; c++) candidates[c] = c
  recreate(n, 0, true)
  collectUnassigned()
  // Nothing to search for: one job (its cheapest insertion is the best plan) or none placed (each
  // was tried on every route while all were empty, so none fits anywhere).
  const settled = n <= 1 || unassignedCount === n
  // Polish the construction with the granular local search. Inside the ruin-and-recreate loop it
  // did not pay for itself at the time limits measured (docs/routing-benchmarks.md, "Method").
  if (!settled && !poll('BUILDING', 0, state.totalCost, unassignedCount)) localSearch?.run(rng)

  const best = new Int32Array(state.nodes.length)
  const bestLen = new Int32Array(p.routes)
  const bestTiers = new Int32Array(TIERS)
  state.saveRoutes(best, bestLen)
  bestTiers.set(state.unassignedByTier)
  let bestCost = state.totalCost
  let bestIteration = 0
  let bestElapsedMs = performance.now() - started

  let assigned = 0
  let used = 0
  for (let r = 0; r < p.routes; r++) {
    assigned += state.count[r]!
    if (state.count[r]! > 0) used++
  }
  const averageEdge = assigned > 0 ? state.totalCost / (assigned + used) : 1
  const t0 = 1 * averageEdge
  const tf = 0.01 * averageEdge
  const cycle = Number.isFinite(maxIterations) ? maxIterations : plannedIterations(p, timeLimitMs)
  const stall = options.stopWhenStalled ? stallIterations(n, cycle) : Number.POSITIVE_INFINITY
  const blink = 0.01
  const currentTiers = new Int32Array(TIERS)
  let iterations = 0
  let converged = settled

  while (!settled && !cancelled && iterations < maxIterations && n > 0) {
    if ((iterations & 15) === 0) {
      let unassignedTotal = 0
      let waiting = false
      for (let t = 0; t < TIERS; t++) {
        unassignedTotal += bestTiers[t]!
        if (bestTiers[t] !== unplaceable[t]) waiting = true
      }
      if (poll('SEARCHING', iterations, bestCost, unassignedTotal)) break
      if (iterations - bestIteration >= stall && !waiting) {
        converged = true
        break
      }
    }
    const phase = (iterations % cycle) / cycle
    if (iterations > 0 && iterations % cycle === 0) {
      // A new cooling cycle restarts from the best solution.
      state.loadRoutes(best, bestLen)
      collectUnassigned()
    }
    iterations++
    const temperature = t0 * (tf / t0) ** phase
    const currentCost = state.totalCost
    currentTiers.set(state.unassignedByTier)
    state.beginMove(unassigned, unassignedCount)
    removal.ruin(state, rng, DEFAULT_RUIN)
    let count = 0
    for (let i = 0; i < removal.removedCount; i++) candidates[count++] = removal.removed[i]!
    // Give customers left out so far another chance (all of them when few, else a sample).
    if (unassignedCount <= 8) for (let i = 0; i < unassignedCount; i++) candidates[count++] = unassigned[i]!
    else for (let i = 0; i < 4; i++) candidates[count++] = unassigned[rng.int(unassignedCount)]!
    recreate(count, blink)
    removal.clearFlags()
    const tiers = compareTiers(state.unassignedByTier, currentTiers)
    const accept =
      tiers < 0 ||
      (tiers === 0 && state.totalCost < currentCost - temperature * Math.log(rng.next() + 1e-300))
    if (!accept) {
      unassignedCount = state.undoMove(unassigned)
      continue
    }
    // Rebuild the unassigned list from the candidates and the previous list.
    let w = 0
    for (let i = 0; i < unassignedCount; i++) {
      const c = unassigned[i]!
      if (state.custRoute[c] === -1) unassigned[w++] = c
    }
    unassignedCount = w
    for (let i = 0; i < removal.removedCount; i++) {
      const c = removal.removed[i]!
      if (state.custRoute[c] === -1) unassigned[unassignedCount++] = c
    }
    const vsBest = compareTiers(state.unassignedByTier, bestTiers)
    if (vsBest < 0 || (vsBest === 0 && state.totalCost < bestCost - 1e-9)) {
      state.saveRoutes(best, bestLen)
      bestTiers.set(state.unassignedByTier)
      bestCost = state.totalCost
      bestIteration = iterations
      bestElapsedMs = performance.now() - started
    }
  }
  state.loadRoutes(best, bestLen)
  // Final pass: any customer that still fits somewhere goes in, higher tiers first (the proof that
  // none is left out), then a higher-tier customer may displace one of a lower tier.
  const fill = (): void => {
    collectUnassigned()
    for (let i = 0; i < unassignedCount; i++) {
      candidates[i] = unassigned[i]!
      keys[i] = p.tier[unassigned[i]!]!
    }
    sortCandidates(unassignedCount)
    for (let i = 0; i < unassignedCount; i++) {
      const c = candidates[i]!
      if (inserter.find(state, c, rng, 0)) state.insert(c, inserter.bestRoute, inserter.bestAfter)
    }
  }
  fill()
  if (displaceLowerTiers(state, inserter, rng, started + timeLimitMs + FINAL_PHASE_GRACE_MS)) fill()
  return {
    state,
    iterations,
    bestIteration,
    bestElapsedMs,
    elapsedMs: performance.now() - started,
    cancelled,
    localSearch,
    converged,
  }
}
