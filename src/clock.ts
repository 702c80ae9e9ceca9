// The server's "now" (DESIGN.md, the live day): ETAs, late risk and everything timed by the live
// day read one clock handed to them, never Date.now() directly, so tests can set any time of day.

/** Milliseconds since the Unix epoch. */
export type Clock = () => number

export const systemClock: Clock = () => Date.now()
