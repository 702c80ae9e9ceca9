// Relocate: customer u moves right after or right before its neighbour v (another route, or the
// same one when the span between them is short).
import { evaluateChainMove } from './chain-move.js'
import { IMPROVEMENT, MoveOperator } from './context.js'

export class Relocate extends MoveOperator {
  readonly name = 'relocate'

  evaluate(u: number, v: number): number {
    const s = this.ctx.s
    const ru = s.custRoute[u]!
    const rv = s.custRoute[v]!
    const pu = s.custPos[u]!
    const pv = s.custPos[v]!
    this.two = ru !== rv
    for (let variant = 0; variant < 2; variant++) {
      // after v, then before v
      const q = variant === 0 ? pv : pv - 1
      if (ru === rv && (q === pu || q === pu - 1)) continue
      this.evaluations++
      const delta = evaluateChainMove(this.ctx, ru, pu, pu, false, rv, q)
      if (delta < -IMPROVEMENT) return delta
    }
    return 0
  }
}
