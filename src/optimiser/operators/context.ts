// What every local-search operator shares: the search state, two route builders (the routes a move
// would produce), the exact cost delta of what they hold, and the commit that writes them into the
// state. An operator (PyVRP's `LocalSearchOperator`, VROOM's operators) evaluates a move around a
// customer u and one of its granular neighbours v, returning the cost delta of an improving variant
// (or a value ≥ −IMPROVEMENT when it has none), and applies the last variant it evaluated.
import type { Problem } from '../problem.js'
import { compatibleRoutes, RouteEval } from '../route-eval.js'
import type { SearchState } from '../state.js'

/** A move improves when it lowers the cost by more than this (float noise never counts). */
export const IMPROVEMENT = 1e-6

const REMOVAL_CACHE = 8

export interface Operator {
  readonly name: string
  /**
   * Statistics (see OperatorStats): the operator counts the variants it prices, the local search
   * the improving ones and those applied.
   */
  evaluations: number
  improving: number
  applied: number
  /** Cost delta of an improving variant of the move around u and v, else a value ≥ −IMPROVEMENT. */
  evaluate(u: number, v: number): number
  /** Applies the variant the last evaluate() returned; false when the state refused it. */
  apply(): boolean
}

/**
 * What every operator shares: its move context, its statistics, and the commit of the routes its
 * last evaluate() built (`two`: whether that move changed two routes).
 */
export abstract class MoveOperator implements Operator {
  abstract readonly name: string
  evaluations = 0
  improving = 0
  applied = 0
  protected readonly ctx: MoveContext
  protected two = true

  constructor(ctx: MoveContext) {
    this.ctx = ctx
  }

  abstract evaluate(u: number, v: number): number

  apply(): boolean {
    return this.ctx.commit(this.two)
  }
}

export class MoveContext {
  readonly s: SearchState
  readonly p: Problem
  /** The first route a move rebuilds, and the second (unused by intra-route moves). */
  readonly a: RouteEval
  readonly b: RouteEval
  /** Whether every customer may go on every route (no skills, pins or oversize demands). */
  readonly allAllowed: boolean
  readonly compat: Uint8Array
  /** Routes the last commit changed (changedB −1 for an intra-route move). */
  changedA = -1
  changedB = -1
  /** Commits refused because a refreshed route came out infeasible (float noise; expected 0). */
  refused = 0
  /** Bumped whenever the routes may have changed: keys of the removal cache below. */
  version = 0
  // The cost of a route without a chain (cs..ce) of its customers, which many moves around the
  // same customer share: a small cache keyed by route, chain and version.
  private readonly cacheRoute = new Int32Array(REMOVAL_CACHE).fill(-1)
  private readonly cacheFrom = new Int32Array(REMOVAL_CACHE)
  private readonly cacheTo = new Int32Array(REMOVAL_CACHE)
  private readonly cacheVersion = new Int32Array(REMOVAL_CACHE)
  private readonly cacheCost = new Float64Array(REMOVAL_CACHE)
  private readonly oldA: Int32Array
  private readonly oldB: Int32Array

  constructor(s: SearchState) {
    this.s = s
    this.p = s.p
    this.compat = compatibleRoutes(s.p)
    this.a = new RouteEval(s, this.compat)
    this.b = new RouteEval(s, this.compat)
    this.allAllowed = s.p.allowed.every((x) => x === 1)
    this.oldA = new Int32Array(s.stride)
    this.oldB = new Int32Array(s.stride)
  }

  /**
   * Exact cost delta of replacing route a.r (and b.r when `customersB` ≥ 0) by what the builders
   * hold, serving `customersA` and `customersB` customers. SOFT lateness is walked only when the
   * cost without it already improves (lateness can only add to it).
   */
  delta(customersA: number, customersB: number): number {
    const s = this.s
    const a = this.a
    const b = this.b
    const two = customersB >= 0
    const baseA = a.baseCost(customersA)
    const baseB = two ? b.baseCost(customersB) : 0
    if (baseA === Number.POSITIVE_INFINITY || baseB === Number.POSITIVE_INFINITY) return baseA + baseB
    const oldCost = s.routeCost[a.r]! + (two ? s.routeCost[b.r]! : 0)
    let delta = baseA + baseB - oldCost
    if (delta >= -IMPROVEMENT) return delta
    if (s.softCount[a.r]! > 0 || (two && s.softCount[b.r]! > 0)) {
      const penalty = this.p.penaltyPerSecond
      if (customersA > 0) delta += a.lateness() * penalty
      if (two && customersB > 0) delta += b.lateness() * penalty
    }
    return delta
  }

  /**
   * Cost without SOFT lateness of route r without its customers at positions cs..ce (+∞ when
   * infeasible). Builds it in `a` unless cached; `built` tells whether `a` holds it now.
   */
  removalCost(r: number, cs: number, ce: number): number {
    const slot = (cs * 3 + ce) & (REMOVAL_CACHE - 1)
    if (
      this.cacheRoute[slot] === r &&
      this.cacheFrom[slot] === cs &&
      this.cacheTo[slot] === ce &&
      this.cacheVersion[slot] === this.version
    ) {
      this.built = false
      return this.cacheCost[slot]!
    }
    const a = this.a
    a.start(r, cs - 1)
    a.suffix(r, ce + 1)
    const cost = a.baseCost(this.s.count[r]! - (ce - cs + 1))
    this.cacheRoute[slot] = r
    this.cacheFrom[slot] = cs
    this.cacheTo[slot] = ce
    this.cacheVersion[slot] = this.version
    this.cacheCost[slot] = cost
    this.built = true
    return cost
  }

  /** Whether the last removalCost() built its route in `a`. */
  built = false

  /** Writes the built route(s) into the state; undoes and refuses if a refresh finds one infeasible. */
  commit(two: boolean): boolean {
    const s = this.s
    const a = this.a
    const b = this.b
    const ra = a.r
    const rb = two ? b.r : -1
    a.compose()
    if (two) b.compose()
    const lenA = s.len[ra]!
    const lenB = two ? s.len[rb]! : 0
    this.oldA.set(s.nodes.subarray(ra * s.stride, ra * s.stride + lenA))
    if (two) this.oldB.set(s.nodes.subarray(rb * s.stride, rb * s.stride + lenB))
    s.replaceRoute(ra, a.seq, a.seqLen)
    if (two) s.replaceRoute(rb, b.seq, b.seqLen)
    this.changedA = ra
    this.changedB = rb
    this.version++
    if (s.feasible[ra] === 1 && (!two || s.feasible[rb] === 1)) return true
    s.replaceRoute(ra, this.oldA, lenA)
    if (two) s.replaceRoute(rb, this.oldB, lenB)
    this.refused++
    return false
  }
}
