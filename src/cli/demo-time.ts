// Clock and chance for the demo seeder: a seedable PRNG (the demo never uses Math.random) and
// wall-clock times in a depot's time zone turned into instants.

export { localTime, MINUTE, minutesOf } from '../modules/shifts/zoned-time.js'

import { MINUTE } from '../modules/shifts/zoned-time.js'

export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

/** mulberry32: small, fast and seedable; the demo must not depend on Math.random. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = Math.imul(state ^ (state >>> 15), state | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const iso = (ms: number) => new Date(ms).toISOString()
export const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms))
