// The cost of a route, priced in one place: fixed cost, distance and paid time (from the segments'
// duration), and SOFT lateness, which depends on the whole schedule and so is walked stop by stop
// (only on routes that serve SOFT jobs); and stability, the price of changing what a re-plan found:
// a job served on another route than before, a route whose next stop is another job.
import type { Problem } from './problem.js'

/**
 * Cost of used route r travelling `distance` over `duration` seconds, SOFT lateness aside; with
 * balance, plus its paid time beyond its limit, squared (WORKLOAD), and minus what it would cost
 * idle (an empty route costs 0, so the price of idling is counted as a used route's saving). Neither
 * shrinks as a route grows, so the insertion's lower bounds still hold.
 */
export function routeBaseCost(p: Problem, r: number, distance: number, duration: number): number {
  const paid = duration - p.unpaidBreak[r]!
  const cost = p.fixed[r]! + p.distCoef[r]! * distance + p.timeCoef[r]! * paid
  if (!p.balanced) return cost
  const excess = paid - p.workloadLimit[r]!
  return cost - p.idleCost[r]! + (excess > 0 ? p.workloadCoef * excess * excess : 0)
}

/**
 * Seconds of SOFT lateness of the node sequence nodes[base .. base + len), travelled at `invSpeed`
 * from `departure`, with node `extra` visited right after position `after` (extra −1: none).
 */
export function softLateness(
  p: Problem,
  nodes: Int32Array,
  base: number,
  len: number,
  invSpeed: number,
  departure: number,
  extra: number,
  after: number,
): number {
  let time = departure
  let last = p.nodeLoc[nodes[base]!]!
  let late = 0
  for (let i = 1; i < len; i++) {
    for (let k = 0; k < 2; k++) {
      let v: number
      if (k === 0) {
        v = nodes[base + i]!
        if (i === after + 1 && extra >= 0) v = extra
      } else {
        if (i !== after + 1 || extra < 0) break
        v = nodes[base + i]!
      }
      const loc = p.nodeLoc[v]!
      if (loc >= 0) {
        time += p.dur[last * p.size + loc]! * invSpeed
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
  }
  return late
}

/**
 * Stability cost of route r serving the node sequence nodes[base .. base + len) (start … end):
 * `moveCost` per customer that was on another route before, and `nextStopChangeCost` when the
 * first customer (none, for an empty route) is not the one the route had first before. Priced in
 * every route cost (the state's, the insertion's, the local search's), so moves see it.
 */
export function stabilityCost(p: Problem, r: number, nodes: Int32Array, base: number, len: number): number {
  if (!p.stable) return 0
  let cost = 0
  let first = -1
  for (let i = 1; i < len - 1; i++) {
    const v = nodes[base + i]!
    if (v >= p.n) continue
    if (first < 0) first = v
    const previous = p.previousRoute[v]!
    if (previous >= 0 && previous !== r) cost += p.moveCost
  }
  return cost + nextStopChange(p, r, first)
}

/** `nextStopChangeCost` when route r had a first stop before and `first` (−1: none) is another. */
export function nextStopChange(p: Problem, r: number, first: number): number {
  const previous = p.previousFirst[r]!
  return previous !== -1 && first !== previous ? p.nextStopChangeCost : 0
}
