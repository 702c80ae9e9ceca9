// After the search: a customer of a higher tier (pinned, HIGH, NORMAL) left unassigned takes the
// place of a single lower-tier customer when that makes it fit, so a plan never keeps a NORMAL job
// where dropping it would have let a HIGH one in.
import type { Inserter } from './insert.js'
import { TIER_LOW } from './problem.js'
import type { Random } from './random.js'
import type { SearchState } from './state.js'

/**
 * Returns whether any customer was displaced (the displaced ones are now unassigned). Stops at
 * `deadline` (performance.now()) on very large days.
 */
export function displaceLowerTiers(
  s: SearchState,
  inserter: Inserter,
  rng: Random,
  deadline: number,
): boolean {
  const p = s.p
  const flag = new Uint8Array(p.n)
  const waiting: number[] = []
  for (let c = 0; c < p.n; c++) if (s.custRoute[c] === -1 && p.tier[c]! < TIER_LOW) waiting.push(c)
  waiting.sort((a, b) => p.tier[a]! - p.tier[b]! || a - b)
  let changed = false
  for (const c of waiting) {
    if (performance.now() > deadline) break
    let placed = false
    for (let v = 0; v < p.n && !placed; v++) {
      const r = s.custRoute[v]!
      if (r < 0 || p.tier[v]! <= p.tier[c]! || p.allowed[c * p.routes + r] === 0) continue
      const after = s.custPos[v]! - 1
      flag[v] = 1
      s.removeFlagged(r, flag)
      flag[v] = 0
      // c fitted nowhere before, so only the route v left can take it now.
      if (s.feasible[r] === 1 && inserter.find(s, c, rng, 0, r)) {
        s.insert(c, inserter.bestRoute, inserter.bestAfter)
        placed = true
        changed = true
      } else {
        s.insert(v, r, after)
      }
    }
  }
  return changed
}
