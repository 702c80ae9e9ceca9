// Evaluates a route that a local-search move would build, from pieces of the current routes: the
// route's own cached prefix, a few nodes walked one by one, and a cached suffix — each appended to
// a running time-window segment (Vidal et al. 2013) in O(1), with the same junction rule as the
// search state (a transparent node takes no travel; the next real stop is reached from the last
// real one). Nothing is allocated: the running segment lives in fields, the pieces in typed arrays.
//
// A cached segment holds its own route's travel speed and end node, so a suffix of another route is
// used as is only when the two routes are compatible (same speed, same end location and window);
// otherwise its customers are walked at this route's speed and this route's end is appended.
import { routeBaseCost, softLateness, stabilityCost } from './cost.js'
import type { Problem } from './problem.js'
import { Segment } from './segment.js'
import type { SearchState } from './state.js'

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
  /** Running segment, its last real location and its distance. */
  readonly segment = new Segment()
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
    this.segment.set(s.pD[slot]!, s.pE[slot]!, s.pL[slot]!)
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
    const segment = this.segment
    // ⊕ the leading transparent part (no travel)
    if (!segment.reaches(0, s.sLL[sb]!)) {
      this.ok = false
      return
    }
    segment.merge(0, s.sLD[sb]!, s.sLE[sb]!, s.sLL[sb]!)
    // ⊕ the rest, after the travel to its first real node
    const b = s.sFirst[sb]!
    if (b >= 0) {
      const leg = this.last * p.size + b
      const t = p.dur[leg]! * this.inv
      if (!segment.reaches(t, s.sRL[sb]!)) {
        this.ok = false
        return
      }
      segment.merge(t, s.sRD[sb]!, s.sRE[sb]!, s.sRL[sb]!)
      this.dist += p.dist[leg]! + s.sDist[sb]!
    }
    this.record(SUFFIX, src, from, 0)
  }

  /**
   * The route's cost without SOFT lateness (0 when it serves no one, stability aside), +∞ when
   * infeasible.
   */
  baseCost(customers: number): number {
    if (!this.ok) return Number.POSITIVE_INFINITY
    const base = customers === 0 ? 0 : routeBaseCost(this.p, this.r, this.dist, this.segment.duration)
    if (!this.p.stable) return base
    // Stability depends on which customers the route holds and which is first: walk the result.
    this.compose()
    return base + stabilityCost(this.p, this.r, this.seq, 0, this.seqLen)
  }

  /** Seconds of SOFT lateness of the built route, departing at its earliest optimal time (walks it). */
  lateness(): number {
    this.compose()
    return softLateness(this.p, this.seq, 0, this.seqLen, this.inv, this.segment.earliest, -1, -1)
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
    if (!this.segment.reaches(t, p.nodeL[v]!)) {
      this.ok = false
      return
    }
    this.segment.merge(t, p.nodeS[v]!, p.nodeE[v]!, p.nodeL[v]!)
  }
}
