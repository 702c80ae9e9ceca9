// 2-opt*: routes ru and rv exchange their tails so that u and v become adjacent — u's route keeps
// its start up to u and continues with v's tail from v (u → v), or the other way round (v → u).
// Breaks and end nodes never change route: only cuts after a route's last break are tried, and a
// tail is appended before the receiving route's own end. A tail keeps its cached segment when the
// two routes have the same speed and an equivalent end; otherwise it is walked (short tails only).
import { fitsLoad } from '../segment.js'
import { IMPROVEMENT, MoveOperator } from './context.js'

/** Longest tail walked between routes whose cached segments differ (speed or end). */
export const WALKED_TAIL = 40

export class TwoOptStar extends MoveOperator {
  readonly name = '2-opt*'

  evaluate(u: number, v: number): number {
    const ctx = this.ctx
    const s = ctx.s
    const ru = s.custRoute[u]!
    const rv = s.custRoute[v]!
    if (ru === rv) return 0
    const pu = s.custPos[u]!
    const pv = s.custPos[v]!
    for (let variant = 0; variant < 2; variant++) {
      // u → v: ru keeps 0..pu, rv keeps 0..pv−1; v → u: ru keeps 0..pu−1, rv keeps 0..pv.
      const cutU = variant === 0 ? pu : pu - 1
      const cutV = variant === 0 ? pv - 1 : pv
      const delta = this.evaluateCut(ru, cutU, rv, cutV)
      if (delta < -IMPROVEMENT) return delta
    }
    return 0
  }

  /** Cost delta of ru = ru[0..cutU] + rv's tail, rv = rv[0..cutV] + ru's tail. */
  private evaluateCut(ru: number, cutU: number, rv: number, cutV: number): number {
    const ctx = this.ctx
    const s = ctx.s
    const p = ctx.p
    if (s.lastBreak[ru]! > cutU || s.lastBreak[rv]! > cutV) return 0
    // Every break is in the kept parts, so the parts' customers are counted by position.
    const keptU = cutU - (p.breakOffset[ru + 1]! - p.breakOffset[ru]!)
    const keptV = cutV - (p.breakOffset[rv + 1]! - p.breakOffset[rv]!)
    const tailU = s.count[ru]! - keptU
    const tailV = s.count[rv]! - keptV
    if (tailU === 0 && tailV === 0) return 0
    if (ctx.compat[ru * p.routes + rv] === 0 && (tailU > WALKED_TAIL || tailV > WALKED_TAIL)) return 0
    const dims = p.dims
    const slotU = ru * s.stride + cutU
    const slotV = rv * s.stride + cutV
    for (let d = 0; d < dims; d++) {
      const headU = s.pLoad[slotU * dims + d]!
      const headV = s.pLoad[slotV * dims + d]!
      const restU = s.load[ru * dims + d]! - headU
      const restV = s.load[rv * dims + d]! - headV
      if (!fitsLoad(p, ru, d, headU + restV)) return 0
      if (!fitsLoad(p, rv, d, headV + restU)) return 0
    }
    this.evaluations++
    const a = ctx.a
    a.start(ru, cutU)
    a.suffix(rv, cutV + 1)
    if (!a.ok) return 0
    const b = ctx.b
    b.start(rv, cutV)
    b.suffix(ru, cutU + 1)
    const delta = ctx.delta(keptU + tailV, keptV + tailU)
    if (delta >= -IMPROVEMENT || ctx.allAllowed) return delta
    return this.tailAllowed(rv, cutV, ru) && this.tailAllowed(ru, cutU, rv) ? delta : 0
  }

  /** Whether every customer after position `cut` of route `from` may go on route `to`. */
  private tailAllowed(from: number, cut: number, to: number): boolean {
    const s = this.ctx.s
    const p = this.ctx.p
    const base = from * s.stride
    const end = s.len[from]! - 2
    for (let i = cut + 1; i <= end; i++) if (p.allowed[s.nodes[base + i]! * p.routes + to] === 0) return false
    return true
  }
}
