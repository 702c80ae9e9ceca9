// SISR ruin (Christiaens & Vanden Berghe 2020, "Slack Induction by String Removals"): from a random
// seed customer, walk its nearest neighbours and cut one string (a run of consecutive customers,
// or a "split string" that keeps an inner run in place) from each of up to k_s distinct routes.
// Removing neighbouring strings from several routes creates slack where the recreate step can
// rebuild better routes.
import type { Random } from './random.js'
import type { SearchState } from './state.js'

export interface RuinParameters {
  /** Average number of customers removed (c̄). */
  averageRemoved: number
  /** Longest string (L^max). */
  maxString: number
  /** Probability of the split-string variant. */
  splitRate: number
  /** Probability of stopping the growth of the preserved run at each step (β). */
  splitDepth: number
}

export const DEFAULT_RUIN: RuinParameters = {
  averageRemoved: 10,
  maxString: 10,
  splitRate: 0.5,
  splitDepth: 0.01,
}

export class StringRemoval {
  /** Customers removed by the last ruin, in removal order. */
  readonly removed: Int32Array
  removedCount = 0
  readonly removedFlag: Uint8Array
  private readonly routeStamp: Int32Array
  private readonly ruinedRoutes: Int32Array
  private stamp = 0
  private readonly sequence: Int32Array

  constructor(n: number, routes: number) {
    this.removed = new Int32Array(n)
    this.removedFlag = new Uint8Array(n)
    this.routeStamp = new Int32Array(routes)
    this.ruinedRoutes = new Int32Array(routes)
    this.sequence = new Int32Array(n)
  }

  /**
   * SISR's string removals. With `wholeRoute` ≥ 0, a route removal: every customer of that route,
   * and strings around one of them (so that the routes near it make room), for a recreate that keeps
   * the route closed — the way from k routes to k − 1, which string removals alone rarely find (a
   * route's last customers are cheapest where they were).
   */
  ruin(s: SearchState, rng: Random, params: RuinParameters, wholeRoute = -1): void {
    const p = s.p
    this.removedCount = 0
    this.stamp++
    let assigned = 0
    let used = 0
    for (let r = 0; r < p.routes; r++) {
      if (s.count[r]! > 0) {
        assigned += s.count[r]!
        used++
      }
    }
    if (assigned === 0) return
    const lsMax = Math.min(params.maxString, assigned / used)
    const ksMax = (4 * params.averageRemoved) / (1 + lsMax) - 1
    const ks = Math.floor(1 + rng.next() * ksMax)
    // A random assigned seed customer (of the route removed whole, if any).
    let seed = rng.int(p.n)
    while (s.custRoute[seed] === -1 || (wholeRoute >= 0 && s.custRoute[seed] !== wholeRoute))
      seed = seed + 1 === p.n ? 0 : seed + 1
    let ruined = 0
    const k = p.neighbourCount
    for (let i = -1; i < k && ruined < ks; i++) {
      const c = i < 0 ? seed : p.neighbours[seed * k + i]!
      const r = s.custRoute[c]!
      if (r < 0 || this.routeStamp[r] === this.stamp || this.removedFlag[c] === 1) continue
      this.routeStamp[r] = this.stamp
      this.ruinedRoutes[ruined++] = r
      if (r === wholeRoute) {
        this.cutString(s, r, c, s.count[r]!, rng, params)
        continue
      }
      const ltMax = Math.min(s.count[r]!, lsMax)
      const lt = Math.floor(1 + rng.next() * ltMax)
      this.cutString(s, r, c, lt, rng, params)
    }
    let restored = 0
    for (let i = 0; i < ruined; i++) {
      const r = this.ruinedRoutes[i]!
      s.removeFlagged(r, this.removedFlag)
      // A removal before a break may have moved the start of the leg after it out of reach.
      if (s.feasible[r] === 0) restored += s.restoreRoute(r)
    }
    if (restored > 0) {
      let w = 0
      for (let i = 0; i < this.removedCount; i++) {
        const c = this.removed[i]!
        if (s.custRoute[c] === -1) this.removed[w++] = c
        else this.removedFlag[c] = 0
      }
      this.removedCount = w
    }
  }

  /** Flags a string of `lt` customers of route r containing c (or a split string). */
  private cutString(
    s: SearchState,
    r: number,
    c: number,
    lt: number,
    rng: Random,
    params: RuinParameters,
  ): void {
    const p = s.p
    const base = r * s.stride
    const len = s.len[r]!
    let m = 0
    let at = -1
    for (let i = 1; i < len - 1; i++) {
      const v = s.nodes[base + i]!
      if (v < p.n) {
        if (v === c) at = m
        this.sequence[m++] = v
      }
    }
    let keep = 0
    if (lt < m && rng.next() < params.splitRate) {
      keep = 1
      while (lt + keep < m && rng.next() >= params.splitDepth) keep++
    }
    const total = lt + keep
    // Start so that the string holds c and stays inside the route.
    const lo = Math.max(0, at - total + 1)
    const hi = Math.min(at, m - total)
    const start = lo + rng.int(hi - lo + 1)
    // The preserved run lies strictly inside the string and never preserves c itself.
    let keepFrom = -1
    if (keep > 0) {
      keepFrom = start + 1 + rng.int(Math.max(1, total - keep - 1))
      if (at >= keepFrom && at < keepFrom + keep) keepFrom = at + 1 <= start + total - keep ? at + 1 : start
    }
    for (let i = start; i < start + total; i++) {
      if (keep > 0 && i >= keepFrom && i < keepFrom + keep) continue
      const v = this.sequence[i]!
      if (this.removedFlag[v] === 1) continue
      this.removedFlag[v] = 1
      this.removed[this.removedCount++] = v
    }
  }

  /** Clears the removal flags after the recreate step. */
  clearFlags(): void {
    for (let i = 0; i < this.removedCount; i++) this.removedFlag[this.removed[i]!] = 0
  }
}
