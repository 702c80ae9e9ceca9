// Cheapest feasible insertion of one customer over every allowed route and position, each position
// evaluated in O(1) from the route's cached prefix and suffix segments (plus a walk of the route
// only where SOFT windows make lateness depend on the whole schedule). SISR's "blinks" skip a
// position with a small probability, which diversifies the recreate step.
import { nextStopChange, routeBaseCost, softLateness, stabilityCost } from './cost.js'
import type { Random } from './random.js'
import { fitsLoad, Segment } from './segment.js'
import type { SearchState } from './state.js'

export class Inserter {
  bestRoute = -1
  bestAfter = -1
  bestDelta = Number.POSITIVE_INFINITY
  /** A route no customer may be inserted into (−1: none): the route a route removal is emptying. */
  closedRoute = -1
  /**
   * Granular insertion (0: off): only the routes serving one of the customer's this many nearest
   * customers, and empty routes, are tried — every route when none of them has room, or only an
   * empty one.
   */
  granular = 0
  private readonly routeMark: Int32Array
  /** Evaluations of a position (statistics). */
  evaluations = 0
  private readonly classStamp: Int32Array
  private stamp = 0
  /** The route being priced: prefix ⊕ customer ⊕ suffix. */
  private readonly segment = new Segment()

  constructor(routeClasses: number) {
    this.classStamp = new Int32Array(routeClasses)
    this.routeMark = new Int32Array(routeClasses)
  }

  /**
   * Finds the cheapest feasible position of customer c (result in bestRoute/bestAfter/bestDelta;
   * bestRoute −1 when none). `blink` is the probability of skipping a position; `onlyRoute` ≥ 0
   * restricts the search to that route.
   */
  find(s: SearchState, c: number, rng: Random, blink: number, onlyRoute = -1): boolean {
    const p = s.p
    const R = p.routes
    const S = s.stride
    const size = p.size
    const dims = p.dims
    const dur = p.dur
    const dist = p.dist
    const uLoc = p.nodeLoc[c]!
    const uE = p.nodeE[c]!
    const uL = p.nodeL[c]!
    const uS = p.nodeS[c]!
    const uSoft = p.soft[c]!
    const pD = s.pD
    const pE = s.pE
    const pL = s.pL
    const pLast = s.pLast
    const sLD = s.sLD
    const sLE = s.sLE
    const sLL = s.sLL
    const sRD = s.sRD
    const sRE = s.sRE
    const sRL = s.sRL
    const sFirst = s.sFirst
    const nodes = s.nodes
    const segment = this.segment
    let bestDelta = Number.POSITIVE_INFINITY
    let bestRoute = -1
    let bestAfter = -1
    let evaluations = 0
    const stamp = ++this.stamp
    const firstRoute = Math.max(onlyRoute, 0)
    const endRoute = onlyRoute >= 0 ? onlyRoute + 1 : R
    const granular = onlyRoute < 0 && this.granular > 0
    if (granular) {
      const k = Math.min(this.granular, p.neighbourCount)
      const from = c * p.neighbourCount
      for (let i = 0; i < k; i++) {
        const r = s.custRoute[p.neighbours[from + i]!]!
        if (r >= 0) this.routeMark[r] = stamp
      }
    }
    routes: for (let r = firstRoute; r < endRoute; r++) {
      if (p.allowed[c * R + r] === 0 || r === this.closedRoute) continue
      if (granular && this.routeMark[r] !== stamp && s.count[r]! > 0) continue
      for (let d = 0; d < dims; d++) {
        if (!fitsLoad(p, r, d, s.load[r * dims + d]! + p.demand[c * dims + d]!)) continue routes
      }
      const base = r * S
      const len = s.len[r]!
      const inv = p.invSpeed[r]!
      const distCoef = p.distCoef[r]!
      const slow = uSoft === 1 || s.softCount[r]! > 0
      const oldCost = s.routeCost[r]!
      const empty = s.count[r] === 0
      if (empty) {
        // Identical empty routes give identical insertions: try one of each kind.
        const kind = p.routeClass[r]!
        if (this.classStamp[kind] === stamp) continue
        this.classStamp[kind] = stamp
      }
      const fixedPart = empty ? p.fixed[r]! - p.idleCost[r]! : 0
      const oldDist = s.pDist[base + len - 1]!
      // Lower bound of the delta from distance alone (duration never shrinks by an insertion when
      // travel times obey the triangle inequality; lateness can shrink by at most what it is now).
      const lowerSlack = slow ? s.routeLate[r]! * p.penaltyPerSecond : 0
      // Stability: the price of serving c here, and of c becoming the route's first stop (or not).
      let firstAt = len
      let stableBefore = 0
      let stableNow = 0
      let stableMoved = 0
      let stableFirst = 0
      if (p.stable) {
        firstAt = 1
        while (firstAt < len - 1 && nodes[base + firstAt]! >= p.n) firstAt++
        const first = firstAt < len - 1 ? nodes[base + firstAt]! : -1
        const previous = p.previousRoute[c]!
        stableMoved = previous >= 0 && previous !== r ? p.moveCost : 0
        stableBefore = nextStopChange(p, r, first)
        stableFirst = nextStopChange(p, r, c)
        stableNow = stabilityCost(p, r, nodes, base, len)
      }
      const stableSlack = stableBefore
      for (let after = 0; after < len - 1; after++) {
        const pb = base + after
        const a = pLast[pb]!
        const sb = pb + 1
        const b = sFirst[sb]!
        let dDist = dist[a * size + uLoc]!
        if (b >= 0) dDist += dist[uLoc * size + b]! - dist[a * size + b]!
        if (fixedPart + distCoef * dDist - lowerSlack - stableSlack >= bestDelta) continue
        if (blink > 0 && rng.next() < blink) continue
        evaluations++
        // prefix ⊕ u
        segment.set(pD[pb]!, pE[pb]!, pL[pb]!)
        const t = dur[a * size + uLoc]! * inv
        if (!segment.reaches(t, uL)) continue
        segment.merge(t, uS, uE, uL)
        // ⊕ leading transparent part of the suffix (no travel)
        if (!segment.reaches(0, sLL[sb]!)) continue
        segment.merge(0, sLD[sb]!, sLE[sb]!, sLL[sb]!)
        // ⊕ the rest, after the travel to its first real node
        if (b >= 0) {
          const t2 = dur[uLoc * size + b]! * inv
          if (!segment.reaches(t2, sRL[sb]!)) continue
          segment.merge(t2, sRD[sb]!, sRE[sb]!, sRL[sb]!)
        }
        let cost = routeBaseCost(p, r, oldDist + dDist, segment.duration)
        if (slow)
          cost += softLateness(p, s.nodes, base, len, inv, segment.earliest, c, after) * p.penaltyPerSecond
        let deltaCost = cost - oldCost
        // (routeCost holds the route's stability now; `cost` holds none.)
        if (p.stable)
          deltaCost += stableNow + stableMoved + (after < firstAt ? stableFirst : stableBefore) - stableBefore
        if (deltaCost < bestDelta) {
          bestDelta = deltaCost
          bestRoute = r
          bestAfter = after
        }
      }
    }
    this.bestDelta = bestDelta
    this.bestRoute = bestRoute
    this.bestAfter = bestAfter
    this.evaluations += evaluations
    if (granular && (bestRoute < 0 || s.count[bestRoute] === 0)) {
      // None of the near routes has room (or only an empty route does): every route, as without the
      // restriction — a far route with room is cheaper than opening one.
      const k = this.granular
      this.granular = 0
      const found = this.find(s, c, rng, blink)
      this.granular = k
      return found
    }
    return bestRoute >= 0
  }
}
