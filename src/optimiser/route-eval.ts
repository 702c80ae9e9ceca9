// Evaluates a route that a local-search move would build, from pieces of the current routes: the
// route's own cached prefix, a few nodes walked one by one, and a cached suffix — each appended to
// a running time-window segment (Vidal et al. 2013) in O(1), with the same junction rule as the
// search state (a transparent node takes no travel; the next real stop is reached from the last
// real one). Nothing is allocated: the running segment lives in fields, the pieces in typed arrays.
//
// A cached segment holds its own route's travel speed and end node, so a suffix of another route is
// used as is only when the two routes are compatible (same speed, same end location and window);
// otherwise its customers are walked at this route's speed and this route's end is appended.
import type { Problem } from './problem.js'
import { TOL as IMPORTED_TOL, type SearchState } from './state.js'

/** Module-local copies: an imported binding can compile to a getter call under some loaders (tsx). */
const TOL = IMPORTED_TOL

const PREFIX = 0
const RANGE = 1
const RANGE_REVERSED = 2
const SUFFIX = 3
const NODE = 4
const MAX_PIECES = 6

/** Whether route b's cached suffixes are valid inside route a: same speed and an equivalent end node. */
export function compatibleRoutes(p: Problem): Uint8Array {
  const R = p.routes
  const out = new Uint8Array(R * R)
  for (let a = 0; a < R; a++) {
    const ea = p.routeEnd[a]!
    for (let b = 0; b < R; b++) {
      const eb = p.routeEnd[b]!
      out[a * R + b] =
        p.invSpeed[a] === p.invSpeed[b] &&
        p.nodeLoc[ea] === p.nodeLoc[eb] &&
        p.nodeE[ea] === p.nodeE[eb] &&
        p.nodeL[ea] === p.nodeL[eb]
          ? 1
          : 0
    }
  }
  return out
}

export class RouteEval {
  /** The route being built. */
  r = -1
  /** Running segment: duration, earliest and latest start, last real location, distance. */
  D = 0
  E = 0
  L = 0
  last = 0
  dist = 0
  /** False once a window (or the shift end) cannot be met. */
  ok = true
  /** The composed node sequence (after compose()). */
  readonly seq: Int32Array
  seqLen = 0
  private readonly s: SearchState
  private readonly p: Problem
  private readonly compat: Uint8Array
  private inv = 1
  private pieces = 0
  private readonly kind = new Int32Array(MAX_PIECES)
  private readonly src = new Int32Array(MAX_PIECES)
  private readonly from = new Int32Array(MAX_PIECES)
  private readonly to = new Int32Array(MAX_PIECES)

  constructor(s: SearchState, compat: Uint8Array) {
    this.s = s
    this.p = s.p
    this.compat = compat
    this.seq = new Int32Array(s.stride)
  }

  /** Starts route r with its own prefix: nodes 0..to. */
  start(r: number, to: number): void {
    const s = this.s
    const slot = r * s.stride + to
    this.r = r
    this.inv = this.p.invSpeed[r]!
    this.D = s.pD[slot]!
    this.E = s.pE[slot]!
    this.L = s.pL[slot]!
    this.last = s.pLast[slot]!
    this.dist = s.pDist[slot]!
    this.ok = true
    this.kind[0] = PREFIX
    this.to[0] = to
    this.pieces = 1
  }

  /** Appends one node, travelling to it at this route's speed when it has a location. */
  node(v: number): void {
    if (!this.ok) return
    this.push(v)
    this.record(NODE, v, 0, 0)
  }

  /** Appends nodes from..to (inclusive) of route src, in order or reversed. */
  range(src: number, from: number, to: number, reversed: boolean): void {
    if (!this.ok) return
    const nodes = this.s.nodes
    const base = src * this.s.stride
    if (reversed) for (let i = to; i >= from && this.ok; i--) this.push(nodes[base + i]!)
    else for (let i = from; i <= to && this.ok; i++) this.push(nodes[base + i]!)
    this.record(reversed ? RANGE_REVERSED : RANGE, src, from, to)
  }

  /**
   * Appends the suffix of route src from position `from`, ending at this route's end. For another
   * route, the caller guarantees that the suffix holds no break (customers, then src's end).
   */
  suffix(src: number, from: number): void {
    if (!this.ok) return
    const r = this.r
    if (src !== r && this.compat[r * this.p.routes + src] === 0) {
      // Walk the customers at this route's speed, then this route's own end.
      const nodes = this.s.nodes
      const base = src * this.s.stride
      const end = this.s.len[src]! - 2
      for (let i = from; i <= end && this.ok; i++) this.push(nodes[base + i]!)
      if (this.ok) this.push(this.p.routeEnd[r]!)
      this.record(SUFFIX, src, from, 0)
      return
    }
    const s = this.s
    const p = this.p
    const sb = src * s.stride + from
    let D = this.D
    let E = this.E
    let L = this.L
    // ⊕ the leading transparent part (no travel)
    const e2 = s.sLE[sb]!
    const l2 = s.sLL[sb]!
    if (E + D > l2 + TOL) {
      this.ok = false
      return
    }
    let wt = Math.max(e2 - D - L, 0)
    let nE = Math.max(e2 - D, E) - wt
    let nL = Math.min(l2 - D, L)
    D = D + s.sLD[sb]! + wt
    E = nE
    L = nL
    // ⊕ the rest, after the travel to its first real node
    const b = s.sFirst[sb]!
    if (b >= 0) {
      const leg = this.last * p.size + b
      const t = p.dur[leg]! * this.inv
      const delta = D + t
      const e3 = s.sRE[sb]!
      const l3 = s.sRL[sb]!
      if (E + delta > l3 + TOL) {
        this.ok = false
        return
      }
      wt = Math.max(e3 - delta - L, 0)
      nE = Math.max(e3 - delta, E) - wt
      nL = Math.min(l3 - delta, L)
      D = D + s.sRD[sb]! + t + wt
      E = nE
      L = nL
      this.dist += p.dist[leg]! + s.sDist[sb]!
    }
    this.D = D
    this.E = E
    this.L = L
    this.record(SUFFIX, src, from, 0)
  }

  /** The route's cost without SOFT lateness (0 when it serves no one), +∞ when infeasible. */
  baseCost(customers: number): number {
    if (!this.ok) return Number.POSITIVE_INFINITY
    if (customers === 0) return 0
    const p = this.p
    const r = this.r
    return p.fixed[r]! + p.distCoef[r]! * this.dist + p.timeCoef[r]! * (this.D - p.unpaidBreak[r]!)
  }

  /** Seconds of SOFT lateness of the built route, departing at its earliest optimal time (walks it). */
  lateness(): number {
    this.compose()
    const p = this.p
    const seq = this.seq
    const inv = this.inv
    let time = this.E
    let last = p.nodeLoc[seq[0]!]!
    let late = 0
    for (let i = 1; i < this.seqLen; i++) {
      const v = seq[i]!
      const loc = p.nodeLoc[v]!
      if (loc >= 0) {
        time += p.dur[last * p.size + loc]! * inv
        last = loc
      }
      const e = p.nodeE[v]!
      if (time < e) time = e
      if (v < p.n && p.soft[v] === 1) {
        const due = p.startByDue ? time : time + p.nodeS[v]!
        if (due > p.softDue[v]!) late += due - p.softDue[v]!
      }
      time += p.nodeS[v]!
    }
    return late
  }

  /** Writes the built route's node sequence into `seq` (from the current routes, not yet changed). */
  compose(): void {
    const nodes = this.s.nodes
    const stride = this.s.stride
    const seq = this.seq
    let w = 0
    for (let k = 0; k < this.pieces; k++) {
      const kind = this.kind[k]!
      if (kind === PREFIX) {
        const base = this.r * stride
        for (let i = 0; i <= this.to[k]!; i++) seq[w++] = nodes[base + i]!
      } else if (kind === NODE) {
        seq[w++] = this.src[k]!
      } else if (kind === RANGE) {
        const base = this.src[k]! * stride
        for (let i = this.from[k]!; i <= this.to[k]!; i++) seq[w++] = nodes[base + i]!
      } else if (kind === RANGE_REVERSED) {
        const base = this.src[k]! * stride
        for (let i = this.to[k]!; i >= this.from[k]!; i--) seq[w++] = nodes[base + i]!
      } else {
        // A suffix: src's nodes up to its end, then this route's end.
        const src = this.src[k]!
        const base = src * stride
        const end = this.s.len[src]! - 2
        for (let i = this.from[k]!; i <= end; i++) seq[w++] = nodes[base + i]!
        seq[w++] = this.p.routeEnd[this.r]!
      }
    }
    this.seqLen = w
  }

  private record(kind: number, src: number, from: number, to: number): void {
    const k = this.pieces++
    this.kind[k] = kind
    this.src[k] = src
    this.from[k] = from
    this.to[k] = to
  }

  /** this ⊕ v (refresh's concatenation, one node). */
  private push(v: number): void {
    const p = this.p
    const loc = p.nodeLoc[v]!
    let t = 0
    if (loc >= 0) {
      const leg = this.last * p.size + loc
      t = p.dur[leg]! * this.inv
      this.dist += p.dist[leg]!
      this.last = loc
    }
    const D = this.D
    const E = this.E
    const L = this.L
    const delta = D + t
    const e2 = p.nodeE[v]!
    const l2 = p.nodeL[v]!
    if (E + delta > l2 + TOL) {
      this.ok = false
      return
    }
    const wt = Math.max(e2 - delta - L, 0)
    this.D = D + p.nodeS[v]! + t + wt
    this.E = Math.max(e2 - delta, E) - wt
    this.L = Math.min(l2 - delta, L)
  }
}
