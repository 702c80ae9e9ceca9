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
import type { OperatorStats, SolveOptions, SolvePhase } from './model.js'
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
  /** Each operator's statistics: the local search's, then ruin and recreate's. */
  operators: OperatorStats[]
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

/** SISR's blink rate: the probability that the recreate step skips a position. */
const BLINK = 0.01

/**
 * The share of iterations that remove a whole route and recreate without it (ruin.ts, wholeRoute).
 * Solomon's 56 at 150,000 iterations (seeds 1 and 2; about half of 5 s): mean gap 0.53 → 0.33 and
 * 0.54 → 0.41 % with 1 %, C2 0.62 / 1.41 → 0.00 (C204 and C203 reach their 3-route best); 3 % read
 * 0.40 (seed 1).
 */
const ROUTE_REMOVAL = 0.01

/**
 * Days of this many customers or more recreate granularly: only the routes of a customer's 40
 * nearest customers (and empty routes) are tried (insert.ts). Gehring & Homberger 1000 at 30,000
 * iterations (seed 1): 3–4× less time (rc1 8.9 → 4.8 s, c2 34.1 → 8.6 s, r2 27.8 → 9.3 s, r1
 * 12.3 → 4.0 s) and distances −1.4 %, −1.9 %, −0.6 %, +0.7 % at the same iterations. At 200
 * customers it saved 0–25 % of the time and is not used.
 */
const GRANULAR_FROM = 400
const GRANULAR_NEIGHBOURS = 40

function compareTiers(a: Int32Array, b: Int32Array): number {
  for (let t = 0; t < TIERS; t++) if (a[t] !== b[t]) return a[t]! < b[t]! ? -1 : 1
  return 0
}

export function search(p: Problem, options: SolveOptions): SearchResult {
  return new Search(p, options).run()
}

/** One search: its state, the plan to beat, and the clock; `run()` reads top to bottom. */
class Search {
  private readonly p: Problem
  private readonly n: number
  private readonly options: SolveOptions
  private readonly started = performance.now()
  private readonly timeLimitMs: number
  private readonly maxIterations: number
  private readonly rng: Random
  private readonly state: SearchState
  private readonly inserter: Inserter
  private readonly removal: StringRemoval
  private readonly localSearch: LocalSearch | null
  /** Neighbours whose routes the recreate step tries (insert.ts granular); 0: every route. */
  private readonly granular: number
  /** Customers not on any route: unassigned[0..unassignedCount). */
  private readonly unassigned: Int32Array
  private unassignedCount = 0
  /** Customers to insert, and their sort keys (see recreate). */
  private readonly candidates: Int32Array
  private readonly keys: Float64Array
  /** Row of the first route's start in the distance matrix (SISR's far and close orders). */
  private readonly reference: number
  private readonly demandSum: Float64Array
  /** Per tier, customers that fit on no route even alone: the stall rule does not wait for them. */
  private readonly unplaceable = new Int32Array(TIERS)
  // The best plan so far.
  private readonly best: Int32Array
  private readonly bestLen: Int32Array
  private readonly bestTiers = new Int32Array(TIERS)
  private bestCost = 0
  private bestIteration = 0
  private bestElapsedMs = 0
  private readonly currentTiers = new Int32Array(TIERS)
  private iterations = 0
  /** Ruin-and-recreate iterations that improved on the current plan, and that it accepted. */
  private improving = 0
  private accepted = 0
  private converged = false
  private cancelled = false
  private lastProgress: number

  constructor(p: Problem, options: SolveOptions) {
    this.p = p
    this.n = p.n
    this.options = options
    this.timeLimitMs = options.timeLimitMs ?? 5000
    this.maxIterations = options.maxIterations ?? Number.POSITIVE_INFINITY
    this.lastProgress = this.started
    this.rng = new Random(options.seed ?? 1)
    this.state = new SearchState(p)
    this.inserter = new Inserter(p.routes)
    this.removal = new StringRemoval(p.n, p.routes)
    this.unassigned = new Int32Array(p.n)
    this.candidates = new Int32Array(p.n)
    this.keys = new Float64Array(p.n)
    this.reference = p.routes > 0 ? p.nodeLoc[p.routeStart[0]!]! * p.size : 0
    this.demandSum = new Float64Array(p.n)
    for (let c = 0; c < p.n; c++)
      for (let d = 0; d < p.dims; d++) this.demandSum[c]! += p.demand[c * p.dims + d]!
    this.localSearch =
      options.localSearch !== false && p.n > 1
        ? new LocalSearch(this.state, {
            interrupt: () => this.poll('BUILDING', 0, this.state.totalCost, this.unassignedCount),
          })
        : null
    this.granular = p.n >= GRANULAR_FROM ? GRANULAR_NEIGHBOURS : 0
    this.best = new Int32Array(this.state.nodes.length)
    this.bestLen = new Int32Array(p.routes)
  }

  run(): SearchResult {
    if (this.options.stopWhenStalled) this.countUnplaceable()
    const settled = this.construct()
    if (!settled) this.limitWorkload()
    this.keepBest(0)
    this.converged = settled
    if (!settled) this.anneal()
    this.state.loadRoutes(this.best, this.bestLen)
    // Final pass: any customer that still fits somewhere goes in, higher tiers first (the proof that
    // none is left out), then a higher-tier customer may displace one of a lower tier.
    this.fill()
    const deadline = this.started + this.timeLimitMs + FINAL_PHASE_GRACE_MS
    if (displaceLowerTiers(this.state, this.inserter, this.rng, deadline)) this.fill()
    const operators = this.localSearch?.stats() ?? []
    operators.push({
      name: 'ruin-and-recreate',
      evaluations: this.iterations,
      improving: this.improving,
      applied: this.accepted,
    })
    return {
      state: this.state,
      iterations: this.iterations,
      bestIteration: this.bestIteration,
      bestElapsedMs: this.bestElapsedMs,
      elapsedMs: performance.now() - this.started,
      cancelled: this.cancelled,
      localSearch: this.localSearch,
      operators,
      converged: this.converged,
    }
  }

  /** Counted before anything is inserted, while every route is empty (the loosest they get); blink 0 draws no number. */
  private countUnplaceable(): void {
    for (let c = 0; c < this.n; c++)
      if (!this.inserter.find(this.state, c, this.rng, 0)) this.unplaceable[this.p.tier[c]!]!++
  }

  /**
   * The first plan: every customer, cheapest insertion in a random SISR order, no blinks, polished
   * by the local search. Cancelling does not stop the insertions (the plan returned must hold every
   * job that fits); it only silences progress. Returns whether there is nothing to search for: one
   * job (its cheapest insertion is the best plan) or none placed (each was tried on every route while
   * all were empty, so none fits anywhere).
   */
  private construct(): boolean {
    const n = this.n
    for (let c = 0; c < n; c++) this.candidates[c] = c
    this.recreate(n, 0, true)
    this.collectUnassigned()
    const settled = n <= 1 || this.unassignedCount === n
    // Inside the ruin-and-recreate loop the local search did not pay for itself at the time limits
    // measured (docs/routing-benchmarks.md, "Method").
    if (!settled && !this.poll('BUILDING', 0, this.state.totalCost, this.unassignedCount))
      this.localSearch?.run(this.rng)
    return settled
  }

  /**
   * Balance (WORKLOAD): each route's fair share of the first plan's paid time, in proportion to its
   * shift's paid length, plus the tolerance, becomes its limit (cost.ts), and a route left idle
   * costs its share less the tolerance, priced like an excess (an idle worker is as uneven as an
   * overloaded one; a used route below its share is not priced, or routes would take detours to
   * grow). Every route is repriced. Set once, from the first plan, so the objective stays fixed
   * while the search runs.
   */
  private limitWorkload(): void {
    const p = this.p
    if (p.workloadCoef === 0) return
    const state = this.state
    /** Route r's shift, its unpaid breaks aside: how much paid time it could hold. */
    const paidSpan = (r: number) =>
      Math.max(0, p.nodeL[p.routeStart[r]!]! - p.nodeE[p.routeStart[r]!]! - p.unpaidBreak[r]!)
    let work = 0
    let capacity = 0
    for (let r = 0; r < p.routes; r++) {
      const len = state.len[r]!
      if (state.count[r]! > 0) work += state.pD[r * state.stride + len - 1]! - p.unpaidBreak[r]!
      capacity += paidSpan(r)
    }
    if (work <= 0 || capacity <= 0) return
    const share = work / capacity
    for (let r = 0; r < p.routes; r++) {
      const span = paidSpan(r)
      p.workloadLimit[r] = span * share * (1 + p.workloadTolerance)
      const floor = span * share * Math.max(0, 1 - p.workloadTolerance)
      p.idleCost[r] = p.idleCost[r]! + p.workloadCoef * floor * floor
      state.refresh(r)
    }
  }

  /** Ruin and recreate under simulated annealing until time, budget, cancellation or a stall. */
  private anneal(): void {
    const p = this.p
    const state = this.state
    let assigned = 0
    let used = 0
    // The temperature follows what the routes cost: the idle routes' prices come off the total.
    let idle = 0
    for (let r = 0; r < p.routes; r++) {
      assigned += state.count[r]!
      if (state.count[r]! > 0) {
        used++
        idle += p.idleCost[r]!
      }
    }
    const averageEdge = assigned > 0 ? (state.totalCost + idle) / (assigned + used) : 1
    const t0 = 1 * averageEdge
    const tf = 0.01 * averageEdge
    const maxIterations = this.maxIterations
    const cycle = Number.isFinite(maxIterations) ? maxIterations : plannedIterations(p, this.timeLimitMs)
    const stall = this.options.stopWhenStalled ? stallIterations(this.n, cycle) : Number.POSITIVE_INFINITY
    while (!this.cancelled && this.iterations < maxIterations) {
      const iterations = this.iterations
      if ((iterations & 15) === 0 && this.shouldStop(stall)) break
      const phase = (iterations % cycle) / cycle
      if (iterations > 0 && iterations % cycle === 0) {
        // A new cooling cycle restarts from the best solution.
        state.loadRoutes(this.best, this.bestLen)
        this.collectUnassigned()
      }
      this.iterations = iterations + 1
      this.iterate(t0 * (tf / t0) ** phase)
    }
  }

  /** The loop's clock check: out of time, cancelled, or (stall rule) stalled with every job that can be planned. */
  private shouldStop(stall: number): boolean {
    let unassignedTotal = 0
    let waiting = false
    for (let t = 0; t < TIERS; t++) {
      unassignedTotal += this.bestTiers[t]!
      if (this.bestTiers[t] !== this.unplaceable[t]) waiting = true
    }
    if (this.poll('SEARCHING', this.iterations, this.bestCost, unassignedTotal)) return true
    if (this.iterations - this.bestIteration >= stall && !waiting) {
      this.converged = true
      return true
    }
    return false
  }

  /** One ruin-and-recreate step at `temperature`: kept or undone, and kept as the best when it is. */
  private iterate(temperature: number): void {
    const state = this.state
    const rng = this.rng
    const removal = this.removal
    const unassigned = this.unassigned
    const candidates = this.candidates
    const currentCost = state.totalCost
    this.currentTiers.set(state.unassignedByTier)
    state.beginMove(unassigned, this.unassignedCount)
    const closed = rng.next() < ROUTE_REMOVAL ? this.routeToRemove() : -1
    removal.ruin(state, rng, DEFAULT_RUIN, closed)
    this.inserter.closedRoute = closed
    this.inserter.granular = this.granular
    let count = 0
    for (let i = 0; i < removal.removedCount; i++) candidates[count++] = removal.removed[i]!
    // Give customers left out so far another chance (all of them when few, else a sample).
    const left = this.unassignedCount
    if (left <= 8) for (let i = 0; i < left; i++) candidates[count++] = unassigned[i]!
    else for (let i = 0; i < 4; i++) candidates[count++] = unassigned[rng.int(left)]!
    this.recreate(count, BLINK)
    this.inserter.closedRoute = -1
    this.inserter.granular = 0
    removal.clearFlags()
    const tiers = compareTiers(state.unassignedByTier, this.currentTiers)
    const better = tiers < 0 || (tiers === 0 && state.totalCost < currentCost)
    const accept =
      tiers < 0 ||
      (tiers === 0 && state.totalCost < currentCost - temperature * Math.log(rng.next() + 1e-300))
    if (!accept) {
      this.unassignedCount = state.undoMove(unassigned)
      return
    }
    if (better) this.improving++
    this.accepted++
    // Rebuild the unassigned list from the previous list and the candidates.
    let w = 0
    for (let i = 0; i < left; i++) {
      const c = unassigned[i]!
      if (state.custRoute[c] === -1) unassigned[w++] = c
    }
    for (let i = 0; i < removal.removedCount; i++) {
      const c = removal.removed[i]!
      if (state.custRoute[c] === -1) unassigned[w++] = c
    }
    this.unassignedCount = w
    const vsBest = compareTiers(state.unassignedByTier, this.bestTiers)
    if (vsBest < 0 || (vsBest === 0 && state.totalCost < this.bestCost - 1e-9)) this.keepBest(this.iterations)
  }

  /**
   * The route a route removal empties: of two used routes drawn at random, the one with fewer
   * customers; −1 when fewer than two routes are used.
   */
  private routeToRemove(): number {
    const p = this.p
    const count = this.state.count
    let used = 0
    for (let r = 0; r < p.routes; r++) if (count[r]! > 0) used++
    if (used < 2) return -1
    const pick = () => {
      let k = this.rng.int(used)
      for (let r = 0; r < p.routes; r++) if (count[r]! > 0 && k-- === 0) return r
      return -1
    }
    const a = pick()
    const b = pick()
    return count[b]! < count[a]! ? b : a
  }

  private keepBest(iteration: number): void {
    this.state.saveRoutes(this.best, this.bestLen)
    this.bestTiers.set(this.state.unassignedByTier)
    this.bestCost = this.state.totalCost
    this.bestIteration = iteration
    this.bestElapsedMs = performance.now() - this.started
  }

  /**
   * Inserts candidates[0..count) in an order SISR draws at random, tiers first. The construction
   * (`building`) checks the clock as it goes: on a large day it takes seconds.
   */
  private recreate(count: number, blink: number, building = false): void {
    const p = this.p
    const rng = this.rng
    const state = this.state
    const inserter = this.inserter
    const candidates = this.candidates
    const keys = this.keys
    const reference = this.reference
    const draw = rng.next() * 11
    for (let i = 0; i < count; i++) {
      const c = candidates[i]!
      let key: number
      if (draw < 4) key = rng.next()
      else if (draw < 8) key = -this.demandSum[c]!
      else if (draw < 10) key = -p.dist[reference + p.nodeLoc[c]!]!
      else key = p.dist[reference + p.nodeLoc[c]!]!
      keys[i] = key
    }
    this.sortCandidates(count)
    let placed = 0
    for (let i = 0; i < count; i++) {
      const c = candidates[i]!
      if (building && i % CONSTRUCTION_CHECK === CONSTRUCTION_CHECK - 1)
        this.poll('BUILDING', 0, null, this.n - placed)
      // (a sample of the unassigned may hold a customer twice)
      if (state.custRoute[c] !== -1) continue
      if (inserter.find(state, c, rng, blink)) {
        state.insert(c, inserter.bestRoute, inserter.bestAfter)
        placed++
      }
    }
  }

  /**
   * Insertion sort of candidates[0..count) by tier, then by key (short lists). Two comparisons, not
   * one key of tier × 1e13 + key: that sum rounded a random key in [0, 1) to 1/256 at tier 2 and
   * 1/128 at tier 5, so the order of a recreate depended on how tiers were numbered.
   */
  private sortCandidates(count: number): void {
    const candidates = this.candidates
    const keys = this.keys
    const tier = this.p.tier
    for (let i = 1; i < count; i++) {
      const c = candidates[i]!
      const key = keys[i]!
      const t = tier[c]!
      let j = i - 1
      while (j >= 0 && (tier[candidates[j]!]! > t || (tier[candidates[j]!]! === t && keys[j]! > key))) {
        keys[j + 1] = keys[j]!
        candidates[j + 1] = candidates[j]!
        j--
      }
      keys[j + 1] = key
      candidates[j + 1] = c
    }
  }

  private collectUnassigned(): void {
    let count = 0
    for (let c = 0; c < this.n; c++) if (this.state.custRoute[c] === -1) this.unassigned[count++] = c
    this.unassignedCount = count
  }

  /** Every customer that fits somewhere goes in, higher tiers first. */
  private fill(): void {
    this.collectUnassigned()
    const count = this.unassignedCount
    for (let i = 0; i < count; i++) {
      this.candidates[i] = this.unassigned[i]!
      this.keys[i] = 0
    }
    this.sortCandidates(count)
    for (let i = 0; i < count; i++) {
      const c = this.candidates[i]!
      if (this.inserter.find(this.state, c, this.rng, 0))
        this.state.insert(c, this.inserter.bestRoute, this.inserter.bestAfter)
    }
  }

  /**
   * The clock check of every phase, every few milliseconds: notes a cancellation (after which
   * nothing more is reported), reports progress when due, and says whether to stop (cancelled or
   * out of time).
   */
  private poll(phase: SolvePhase, iterations: number, cost: number | null, unassignedTotal: number): boolean {
    const now = performance.now()
    const { signal, cancelFlag, onProgress } = this.options
    if (!this.cancelled && (signal?.aborted || (cancelFlag && Atomics.load(cancelFlag, 0) !== 0)))
      this.cancelled = true
    if (
      !this.cancelled &&
      onProgress &&
      now - this.lastProgress >= (this.options.progressIntervalMs ?? 250)
    ) {
      this.lastProgress = now
      onProgress({
        phase,
        elapsedMs: now - this.started,
        iterations,
        bestCost: cost,
        assigned: this.n - unassignedTotal,
        unassigned: unassignedTotal + this.p.fixedReasons.size,
      })
    }
    return this.cancelled || now - this.started >= this.timeLimitMs
  }
}
