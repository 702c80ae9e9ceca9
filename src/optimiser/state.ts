// The search state: each route is a node sequence start … end (breaks among the customers) in one
// flat slab, with cached prefix and suffix time-window segments (Vidal et al. 2013: duration D,
// earliest start E, latest start L of a segment, concatenated in O(1)), so inserting a customer
// anywhere is evaluated from two cached segments.
//
// Breaks and END_AT_LAST_JOB ends are "transparent" nodes: the worker stays where they are, and
// the travel to the next real stop happens after them. A prefix is one segment plus its last real
// location; a suffix is a leading transparent part (L*) followed by a part starting at its first
// real location (R*), so the travel at a junction lands after the leading breaks and the
// concatenation stays associative.
import { routeBaseCost, softLateness, stabilityCost } from './cost.js'
import { type Problem, TIERS } from './problem.js'
import { Segment } from './segment.js'

export class SearchState {
  readonly p: Problem
  readonly stride: number
  readonly nodes: Int32Array
  readonly len: Int32Array
  readonly count: Int32Array
  readonly load: Float64Array
  // Prefix segments (nodes 0..i).
  readonly pD: Float64Array
  readonly pE: Float64Array
  readonly pL: Float64Array
  readonly pDist: Float64Array
  readonly pLast: Int32Array
  /** Prefix loads: pLoad[(slot) * dims + d] is the demand of dimension d served by nodes 0..i. */
  readonly pLoad: Float64Array
  // Suffix segments (nodes i..len-1): leading transparent part, then the part from the first real node.
  readonly sLD: Float64Array
  readonly sLE: Float64Array
  readonly sLL: Float64Array
  readonly sRD: Float64Array
  readonly sRE: Float64Array
  readonly sRL: Float64Array
  readonly sDist: Float64Array
  readonly sFirst: Int32Array
  readonly routeCost: Float64Array
  readonly routeLate: Float64Array
  readonly softCount: Int32Array
  /** Position of route r's last break node (0 when it has none): tails after it hold customers only. */
  readonly lastBreak: Int32Array
  /**
   * Whether route r's sequence is feasible. Insertions are checked exactly, but a removal can break
   * a route with a break: the travel after the break starts from the last stop before it, and
   * removing that stop moves the start of that leg (see ruin.ts, which then restores the route).
   */
  readonly feasible: Uint8Array
  readonly custRoute: Int32Array
  readonly custPos: Int32Array
  readonly unassignedByTier: Int32Array
  totalCost = 0

  // Undo log of one iteration.
  private readonly backupNodes: Int32Array
  private readonly backupLen: Int32Array
  private readonly touchedStamp: Int32Array
  readonly touched: Int32Array
  touchedCount = 0
  private stamp = 1
  private savedCost = 0
  private readonly savedTiers: Int32Array
  private readonly savedUnassigned: Int32Array
  private savedUnassignedCount = 0
  // Running segments of refresh(): the prefix; and, walking back, the suffix's leading transparent
  // part, its rest, and the segment being built.
  private readonly prefix = new Segment()
  private readonly lead = new Segment()
  private readonly rest = new Segment()
  private readonly built = new Segment()

  constructor(problem: Problem) {
    this.p = problem
    const R = problem.routes
    const S = problem.maxRouteNodes
    this.stride = S
    const slots = R * S
    this.nodes = new Int32Array(slots)
    this.len = new Int32Array(R)
    this.count = new Int32Array(R)
    this.load = new Float64Array(R * problem.dims)
    this.pD = new Float64Array(slots)
    this.pE = new Float64Array(slots)
    this.pL = new Float64Array(slots)
    this.pDist = new Float64Array(slots)
    this.pLast = new Int32Array(slots)
    this.pLoad = new Float64Array(slots * problem.dims)
    this.sLD = new Float64Array(slots)
    this.sLE = new Float64Array(slots)
    this.sLL = new Float64Array(slots)
    this.sRD = new Float64Array(slots)
    this.sRE = new Float64Array(slots)
    this.sRL = new Float64Array(slots)
    this.sDist = new Float64Array(slots)
    this.sFirst = new Int32Array(slots)
    this.routeCost = new Float64Array(R)
    this.routeLate = new Float64Array(R)
    this.softCount = new Int32Array(R)
    this.lastBreak = new Int32Array(R)
    this.feasible = new Uint8Array(R)
    this.custRoute = new Int32Array(problem.n).fill(-1)
    this.custPos = new Int32Array(problem.n).fill(-1)
    this.unassignedByTier = new Int32Array(TIERS)
    this.backupNodes = new Int32Array(slots)
    this.backupLen = new Int32Array(R)
    this.touchedStamp = new Int32Array(R)
    this.touched = new Int32Array(R)
    this.savedTiers = new Int32Array(TIERS)
    this.savedUnassigned = new Int32Array(problem.n)
    for (let c = 0; c < problem.n; c++) this.unassignedByTier[problem.tier[c]!]!++
    for (let r = 0; r < R; r++) {
      const base = r * S
      this.nodes[base] = problem.routeStart[r]!
      let i = 1
      for (let b = problem.breakOffset[r]!; b < problem.breakOffset[r + 1]!; b++)
        this.nodes[base + i++] = problem.breakNodes[b]!
      this.nodes[base + i++] = problem.routeEnd[r]!
      this.len[r] = i
      this.refresh(r)
    }
  }

  /**
   * Recomputes route r's positions, load, segments and cost from its node sequence. `from`: the
   * first position that changed since the last refresh (an insertion's or a removal's); the
   * prefixes before it are kept when that refresh found the route feasible (so they are unchanged
   * and every one of them reached its node), which gives the same numbers as a full pass.
   */
  refresh(r: number, from = 1): void {
    const p = this.p
    const S = this.stride
    const base = r * S
    const len = this.len[r]!
    const nodes = this.nodes
    const size = p.size
    const dur = p.dur
    const dist = p.dist
    const inv = p.invSpeed[r]!
    const dims = p.dims
    let count = 0
    let soft = 0
    // Prefixes: from the start, or kept up to `from` − 1 (see above).
    let v = nodes[base]!
    const prefix = this.prefix
    const pLoad = this.pLoad
    let dd = 0
    let last: number
    let feasible = 1
    let lastBreak = 0
    const start = from > 1 && from < len && this.feasible[r] === 1 ? from : 1
    if (start === 1) {
      for (let d = 0; d < dims; d++) this.load[r * dims + d] = 0
      prefix.set(p.nodeS[v]!, p.nodeE[v]!, p.nodeL[v]!)
      last = p.nodeLoc[v]!
      this.pD[base] = prefix.duration
      this.pE[base] = prefix.earliest
      this.pL[base] = prefix.latest
      this.pDist[base] = 0
      this.pLast[base] = last
      for (let d = 0; d < dims; d++) pLoad[base * dims + d] = 0
    } else {
      const at = base + start - 1
      prefix.set(this.pD[at]!, this.pE[at]!, this.pL[at]!)
      dd = this.pDist[at]!
      last = this.pLast[at]!
      for (let d = 0; d < dims; d++) this.load[r * dims + d] = pLoad[at * dims + d]!
      for (let i = 1; i < start; i++) {
        v = nodes[base + i]!
        if (v < p.n) {
          count++
          soft += p.soft[v]!
        } else lastBreak = i
      }
    }
    for (let i = start; i < len; i++) {
      v = nodes[base + i]!
      const loc = p.nodeLoc[v]!
      let t = 0
      if (loc >= 0) {
        t = dur[last * size + loc]! * inv
        dd += dist[last * size + loc]!
        last = loc
      }
      const l2 = p.nodeL[v]!
      if (!prefix.reaches(t, l2)) feasible = 0
      prefix.merge(t, p.nodeS[v]!, p.nodeE[v]!, l2)
      this.pD[base + i] = prefix.duration
      this.pE[base + i] = prefix.earliest
      this.pL[base + i] = prefix.latest
      this.pDist[base + i] = dd
      this.pLast[base + i] = last
      if (v < p.n) {
        count++
        this.custRoute[v] = r
        this.custPos[v] = i
        soft += p.soft[v]!
        for (let d = 0; d < dims; d++) this.load[r * dims + d]! += p.demand[v * dims + d]!
      } else if (i < len - 1) lastBreak = i
      for (let d = 0; d < dims; d++) pLoad[(base + i) * dims + d] = this.load[r * dims + d]!
    }
    // Suffixes: v ⊕ lead (no travel); at a real node, that ⊕ rest after the travel to rest's first.
    // The merged segment is built in a spare holder that then swaps places with the one it replaces.
    let lead = this.lead
    let rest = this.rest
    let built = this.built
    lead.clear()
    rest.clear()
    let first = -1
    dd = 0
    for (let i = len - 1; i >= 0; i--) {
      v = nodes[base + i]!
      const loc = p.nodeLoc[v]!
      built.set(p.nodeS[v]!, p.nodeE[v]!, p.nodeL[v]!)
      built.merge(0, lead.duration, lead.earliest, lead.latest)
      if (loc < 0) {
        const spare = lead
        lead = built
        built = spare
      } else {
        if (first >= 0) {
          const t = dur[loc * size + first]! * inv
          dd += dist[loc * size + first]!
          built.merge(t, rest.duration, rest.earliest, rest.latest)
        }
        const spare = rest
        rest = built
        built = spare
        lead.clear()
        first = loc
      }
      this.sLD[base + i] = lead.duration
      this.sLE[base + i] = lead.earliest
      this.sLL[base + i] = lead.latest
      this.sRD[base + i] = rest.duration
      this.sRE[base + i] = rest.earliest
      this.sRL[base + i] = rest.latest
      this.sDist[base + i] = dd
      this.sFirst[base + i] = first
    }
    this.count[r] = count
    this.softCount[r] = soft
    this.lastBreak[r] = lastBreak
    this.feasible[r] = feasible
    const late = soft > 0 ? softLateness(p, nodes, base, len, inv, this.pE[base + len - 1]!, -1, -1) : 0
    this.routeLate[r] = late
    const cost =
      (count === 0
        ? 0
        : routeBaseCost(p, r, this.pDist[base + len - 1]!, this.pD[base + len - 1]!) +
          late * p.penaltyPerSecond) + stabilityCost(p, r, nodes, base, len)
    this.totalCost += cost - this.routeCost[r]!
    this.routeCost[r] = cost
  }

  isUnassigned(c: number): boolean {
    return this.custRoute[c] === -1
  }

  /** Starts an iteration's undo log. */
  beginMove(unassigned: Int32Array, unassignedCount: number): void {
    this.stamp++
    this.touchedCount = 0
    this.savedCost = this.totalCost
    this.savedTiers.set(this.unassignedByTier)
    this.savedUnassigned.set(unassigned.subarray(0, unassignedCount))
    this.savedUnassignedCount = unassignedCount
  }

  /** Records route r's sequence before its first change in this iteration. */
  touch(r: number): void {
    if (this.touchedStamp[r] === this.stamp) return
    this.touchedStamp[r] = this.stamp
    this.touched[this.touchedCount++] = r
    const base = r * this.stride
    this.backupNodes.set(this.nodes.subarray(base, base + this.len[r]!), base)
    this.backupLen[r] = this.len[r]!
  }

  /** Undoes the iteration; returns the restored number of unassigned customers (in `unassigned`). */
  undoMove(unassigned: Int32Array): number {
    const S = this.stride
    for (let k = 0; k < this.touchedCount; k++) {
      const r = this.touched[k]!
      const base = r * S
      for (let i = 1; i < this.len[r]! - 1; i++) {
        const v = this.nodes[base + i]!
        if (v < this.p.n) this.custRoute[v] = -1
      }
    }
    for (let k = 0; k < this.touchedCount; k++) {
      const r = this.touched[k]!
      const base = r * S
      this.len[r] = this.backupLen[r]!
      this.nodes.set(this.backupNodes.subarray(base, base + this.len[r]!), base)
      this.refresh(r)
    }
    for (let i = 0; i < this.savedUnassignedCount; i++) {
      const c = this.savedUnassigned[i]!
      this.custRoute[c] = -1
      this.custPos[c] = -1
      unassigned[i] = c
    }
    this.unassignedByTier.set(this.savedTiers)
    this.totalCost = this.savedCost
    return this.savedUnassignedCount
  }

  /**
   * Puts route r back as it was before this iteration's first change to it; returns the number of
   * customers that came back (they are assigned again).
   */
  restoreRoute(r: number): number {
    const base = r * this.stride
    this.len[r] = this.backupLen[r]!
    this.nodes.set(this.backupNodes.subarray(base, base + this.len[r]!), base)
    let back = 0
    for (let i = 1; i < this.len[r]! - 1; i++) {
      const v = this.nodes[base + i]!
      if (v < this.p.n && this.custRoute[v] === -1) {
        this.unassignedByTier[this.p.tier[v]!]!--
        back++
      }
    }
    this.refresh(r)
    return back
  }

  /** Inserts customer c into route r after position `after`, then refreshes the route. */
  insert(c: number, r: number, after: number): void {
    this.touch(r)
    const base = r * this.stride
    const len = this.len[r]!
    this.nodes.copyWithin(base + after + 2, base + after + 1, base + len)
    this.nodes[base + after + 1] = c
    this.len[r] = len + 1
    this.unassignedByTier[this.p.tier[c]!]!--
    this.refresh(r, after + 1)
  }

  /**
   * Replaces route r's node sequence by seq[0..length) (same start, breaks and end; customers moved
   * between routes are re-registered by the refresh of the route that receives them).
   */
  replaceRoute(r: number, seq: Int32Array, length: number): void {
    this.touch(r)
    this.nodes.set(seq.subarray(0, length), r * this.stride)
    this.len[r] = length
    this.refresh(r)
  }

  /** Removes every customer flagged in `removed` from route r (one refresh). */
  removeFlagged(r: number, removed: Uint8Array): void {
    this.touch(r)
    const base = r * this.stride
    const len = this.len[r]!
    let w = base
    let first = len
    for (let i = 0; i < len; i++) {
      const v = this.nodes[base + i]!
      if (v < this.p.n && removed[v] === 1) {
        this.custRoute[v] = -1
        this.custPos[v] = -1
        this.unassignedByTier[this.p.tier[v]!]!++
        if (first === len) first = i
        continue
      }
      this.nodes[w++] = v
    }
    this.len[r] = w - base
    this.refresh(r, first)
  }

  /** Copies the routes into `into` (a snapshot of the best solution). */
  saveRoutes(into: Int32Array, intoLen: Int32Array): void {
    for (let r = 0; r < this.p.routes; r++) {
      const base = r * this.stride
      into.set(this.nodes.subarray(base, base + this.len[r]!), base)
      intoLen[r] = this.len[r]!
    }
  }

  /** Replaces every route by a snapshot taken with saveRoutes. */
  loadRoutes(from: Int32Array, fromLen: Int32Array): void {
    this.custRoute.fill(-1)
    this.custPos.fill(-1)
    this.unassignedByTier.fill(0)
    for (let r = 0; r < this.p.routes; r++) {
      const base = r * this.stride
      this.len[r] = fromLen[r]!
      this.nodes.set(from.subarray(base, base + fromLen[r]!), base)
      this.refresh(r)
    }
    for (let c = 0; c < this.p.n; c++) if (this.custRoute[c] === -1) this.unassignedByTier[this.p.tier[c]!]!++
  }
}
