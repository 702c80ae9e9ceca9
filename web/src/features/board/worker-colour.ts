// One colour per worker, wherever the worker is drawn — the board's rows, the map's routes and live
// markers, a plan's preview, the phone's map: a hash of the user's id into the route palette
// (--route-1 … --route-8 of tokens.css), so it never depends on row order or on the depot shown.

/** The number of route colours in tokens.css. */
export const ROUTE_COLOURS = 8

/** 1–8: the worker's route colour (`route-N` classes, `--route-N` tokens). */
export function workerColour(userId: string): number {
  // FNV-1a, 32 bits: every character of the id counts (ids sharing a time prefix still spread).
  let hash = 0x811c9dc5
  for (let i = 0; i < userId.length; i++) {
    hash ^= userId.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return (hash % ROUTE_COLOURS) + 1
}
