// Swap: customers u and v of two routes trade places.
import { fitsLoad } from '../segment.js'
import { MoveOperator } from './context.js'

export class Swap extends MoveOperator {
  readonly name = 'swap'

  evaluate(u: number, v: number): number {
    const ctx = this.ctx
    const s = ctx.s
    const p = ctx.p
    const ru = s.custRoute[u]!
    const rv = s.custRoute[v]!
    if (ru === rv) return 0
    const R = p.routes
    if (p.allowed[u * R + rv] === 0 || p.allowed[v * R + ru] === 0) return 0
    const dims = p.dims
    for (let d = 0; d < dims; d++) {
      const change = p.demand[v * dims + d]! - p.demand[u * dims + d]!
      if (!fitsLoad(p, ru, d, s.load[ru * dims + d]! + change)) return 0
      if (!fitsLoad(p, rv, d, s.load[rv * dims + d]! - change)) return 0
    }
    this.evaluations++
    const pu = s.custPos[u]!
    const pv = s.custPos[v]!
    const a = ctx.a
    a.start(ru, pu - 1)
    a.node(v)
    a.suffix(ru, pu + 1)
    if (!a.ok) return 0
    const b = ctx.b
    b.start(rv, pv - 1)
    b.node(u)
    b.suffix(rv, pv + 1)
    return ctx.delta(s.count[ru]!, s.count[rv]!)
  }
}
