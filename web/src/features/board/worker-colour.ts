// One colour per worker, wherever the worker is drawn — the board's rows, the map's routes and live
// markers, a plan's preview, the phone's map: the colour the server stores for the user (1–8, the
// route palette --route-1 … --route-8 of tokens.css), which an organisation's first eight people
// never share and an admin can change on the Team page. It never depends on row order or on the
// depot shown.

/** The number of route colours in tokens.css. */
export const ROUTE_COLOURS = 8

/** 1–8: the worker's route colour (`route-N` classes, `--route-N` tokens). */
export function colourOf(user: { id: string; colour?: number }): number {
  const { colour } = user
  return colour !== undefined && Number.isInteger(colour) && colour >= 1 && colour <= ROUTE_COLOURS
    ? colour
    : workerColour(user.id)
}

/**
 * The fallback for a user summary without a stored colour (a plan's result stored before colours
 * were): a hash of the id into the palette, stable but shared by two of a small team more often than not.
 */
export function workerColour(userId: string): number {
  // FNV-1a, 32 bits: every character of the id counts (ids sharing a time prefix still spread).
  let hash = 0x811c9dc5
  for (let i = 0; i < userId.length; i++) {
    hash ^= userId.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return (hash % ROUTE_COLOURS) + 1
}
