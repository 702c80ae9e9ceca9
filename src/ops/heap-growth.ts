// How far V8 lets the heap grow between full collections. After each one it sets the next limit at
// the live size times a factor it picks from how fast the process allocates, up to 4× on a small
// heap: this service keeps ≈ 46 MB alive and was seen holding 300 MB resident under load on
// PostgreSQL, most of it garbage waiting for a collection that the limit said could wait. A fixed
// factor (HEAP_GROWTH_PERCENT: 100 → 2×) keeps the resident set near 200 MB for about the same CPU
// per request (bench/where-the-time-goes.md, "Memory"). Full collections come more often but each
// marks only what is alive, mostly on a helper thread. A smaller young generation was the other lever
// measured, and rejected: it promotes a list page's rows to the old generation, where they cost more.
import { setFlagsFromString } from 'node:v8'

/** 0 leaves V8's own choice. The flag is read at every full collection, so setting it at start is enough. */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`)
}
