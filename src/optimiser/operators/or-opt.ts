// Or-opt: a chain of two or three consecutive customers that starts or ends at u moves next to its
// neighbour v (another route, or the same one over a short span), in order or reversed, so that u
// and v become adjacent.
import { evaluateChainMove, isChain } from './chain-move.js'
import { IMPROVEMENT, MoveOperator } from './context.js'

export class OrOpt extends MoveOperator {
  readonly name = 'or-opt'

  evaluate(u: number, v: number): number {
    const ctx = this.ctx
    const s = ctx.s
    const ru = s.custRoute[u]!
    const rv = s.custRoute[v]!
    const pu = s.custPos[u]!
    const pv = s.custPos[v]!
    this.two = ru !== rv
    for (let k = 2; k <= 3; k++) {
      for (let variant = 0; variant < 4; variant++) {
        // v → u: after v, the chain starting at u in order or the one ending at u reversed;
        // u → v: before v, the chain ending at u in order or the one starting at u reversed.
        const afterV = variant < 2
        const startsAtU = variant === 0 || variant === 3
        const reversed = variant === 1 || variant === 3
        const cs = startsAtU ? pu : pu - k + 1
        const ce = cs + k - 1
        const q = afterV ? pv : pv - 1
        if (!isChain(ctx, ru, cs, ce)) continue
        if (ru === rv && q >= cs - 1 && q <= ce) continue
        this.evaluations++
        const delta = evaluateChainMove(ctx, ru, cs, ce, reversed, rv, q)
        if (delta < -IMPROVEMENT) return delta
      }
    }
    return 0
  }
}
