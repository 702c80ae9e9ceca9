// Moving a chain of consecutive customers (positions cs..ce of route ru, no break among them) to
// after position q of route rv, in order or reversed: the move behind relocate (one customer) and
// Or-opt (two or three). Between routes: ru loses the chain (its prefix before it ⊕ its suffix
// after it) and rv gains it (prefix ⊕ chain ⊕ suffix), O(chain length). Within one route, the part
// between the chain and its new place is walked as well, so only short spans are tried.
import { fitsLoad } from '../segment.js'
import { IMPROVEMENT, type MoveContext } from './context.js'

/** Longest part of a route walked between a chain and its new place within the same route. */
export const INTRA_SPAN = 12

/** Whether positions from..to of route r exist and hold customers only. */
export function isChain(ctx: MoveContext, r: number, from: number, to: number): boolean {
  const s = ctx.s
  if (from < 1 || to > s.len[r]! - 2) return false
  const base = r * s.stride
  for (let i = from; i <= to; i++) if (s.nodes[base + i]! >= ctx.p.n) return false
  return true
}

/**
 * Cost delta of the chain move (ctx.a, and ctx.b between routes, hold the result), +∞ when it is
 * infeasible or not worth building; the caller ensures q lies outside cs−1..ce within one route.
 */
export function evaluateChainMove(
  ctx: MoveContext,
  ru: number,
  cs: number,
  ce: number,
  reversed: boolean,
  rv: number,
  q: number,
): number {
  const s = ctx.s
  const p = ctx.p
  const k = ce - cs + 1
  if (ru === rv) {
    const a = ctx.a
    if (q < cs - 1) {
      if (cs - 1 - q > INTRA_SPAN) return Number.POSITIVE_INFINITY
      a.start(ru, q)
      a.range(ru, cs, ce, reversed)
      a.range(ru, q + 1, cs - 1, false)
      a.suffix(ru, ce + 1)
    } else {
      if (q - ce > INTRA_SPAN) return Number.POSITIVE_INFINITY
      a.start(ru, cs - 1)
      a.range(ru, ce + 1, q, false)
      a.range(ru, cs, ce, reversed)
      a.suffix(ru, q + 1)
    }
    return ctx.delta(s.count[ru]!, -1)
  }
  const R = p.routes
  const dims = p.dims
  const base = ru * s.stride
  const nodes = s.nodes
  for (let i = cs; i <= ce; i++)
    if (p.allowed[nodes[base + i]! * R + rv] === 0) return Number.POSITIVE_INFINITY
  for (let d = 0; d < dims; d++) {
    const chain = s.pLoad[(base + ce) * dims + d]! - s.pLoad[(base + cs - 1) * dims + d]!
    if (!fitsLoad(p, rv, d, s.load[rv * dims + d]! + chain)) return Number.POSITIVE_INFINITY
  }
  const baseA = ctx.removalCost(ru, cs, ce)
  if (baseA === Number.POSITIVE_INFINITY) return baseA
  const removedFromA = ctx.built
  // Lower bound from distance alone: with the triangle inequality rv's duration cannot shrink by
  // an insertion, and its lateness can at most vanish.
  const size = p.size
  const dist = p.dist
  const slot = rv * s.stride + q
  const before = s.pLast[slot]!
  const after = s.sFirst[slot + 1]!
  const first = p.nodeLoc[nodes[base + (reversed ? ce : cs)]!]!
  const last = p.nodeLoc[nodes[base + (reversed ? cs : ce)]!]!
  let added = dist[before * size + first]!
  if (after >= 0) added += dist[last * size + after]! - dist[before * size + after]!
  let prev = first
  for (let i = 1; i < k; i++) {
    const loc = p.nodeLoc[nodes[base + (reversed ? ce - i : cs + i)]!]!
    added += dist[prev * size + loc]!
    prev = loc
  }
  // (Stability: rv's first stop may become its previous one again; its moves only add. Balance: an
  // empty rv stops paying for being idle.)
  const bound =
    baseA -
    s.routeCost[ru]! +
    p.distCoef[rv]! * added -
    (s.count[rv] === 0 ? p.idleCost[rv]! : 0) -
    s.routeLate[rv]! * p.penaltyPerSecond -
    (p.stable ? p.nextStopChangeCost : 0)
  if (bound >= -IMPROVEMENT) return Number.POSITIVE_INFINITY
  const b = ctx.b
  b.start(rv, q)
  b.range(ru, cs, ce, reversed)
  b.suffix(rv, q + 1)
  const baseB = b.baseCost(s.count[rv]! + k)
  if (baseA + baseB - s.routeCost[ru]! - s.routeCost[rv]! >= -IMPROVEMENT) return Number.POSITIVE_INFINITY
  if (!removedFromA) {
    // The removal came from the cache: rebuild it for the lateness walk and the commit.
    ctx.a.start(ru, cs - 1)
    ctx.a.suffix(ru, ce + 1)
  }
  return ctx.delta(s.count[ru]! - k, s.count[rv]! + k)
}
