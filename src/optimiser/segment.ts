// Time-window segments (Vidal et al. 2013; PyVRP's `DurationSegment`): a stretch of a route summed
// up by its duration D (from its first service start to its last service end, waiting included),
// and the earliest E and latest L start of its first service such that it runs with the least
// waiting and meets every window. Two segments joined by a travel of t seconds merge in O(1): this
// file holds the engine's one merge, used by the search state's cached prefixes and suffixes, the
// insertion, and the routes the local-search moves build — and the engine's one load check.
//
// A segment is plain numbers: a cached one lives in typed arrays (the search state's), a running
// one in a `Segment` its owner allocates once; nothing is allocated per merge.
/** Stands in for ±infinity in windows without overflowing to NaN in segment arithmetic. */
export const BIG = 1e15

/** Slack tolerated on a time window or a capacity: float noise, never a real violation (the checker allows 1e-6). */
export const TOL = 1e-7

export class Segment {
  duration = 0
  earliest = -BIG
  latest = BIG

  /** The empty segment, which any segment merges onto unchanged. */
  clear(): void {
    this.duration = 0
    this.earliest = -BIG
    this.latest = BIG
  }

  set(duration: number, earliest: number, latest: number): void {
    this.duration = duration
    this.earliest = earliest
    this.latest = latest
  }

  /**
   * Whether a segment with latest start `latest`, reached `travel` seconds after this one ends, can
   * still start in time when this one starts at its earliest.
   */
  reaches(travel: number, latest: number): boolean {
    return this.earliest + (this.duration + travel) <= latest + TOL
  }

  /**
   * this ⊕ [duration, earliest, latest], reached after `travel` seconds (0 for a transparent node or
   * part). The caller has checked `reaches` where a late start matters. Keep the arithmetic in this
   * order: plans are compared bit for bit across refactorings.
   */
  merge(travel: number, duration: number, earliest: number, latest: number): void {
    const delta = this.duration + travel
    const wait = Math.max(earliest - delta - this.latest, 0)
    const nextEarliest = Math.max(earliest - delta, this.earliest) - wait
    this.latest = Math.min(latest - delta, this.latest)
    this.duration = this.duration + duration + travel + wait
    this.earliest = nextEarliest
  }
}

/** The capacities a load is checked against: a `Problem`'s (named by shape, so problem.ts can import BIG from here). */
interface Capacities {
  readonly capacity: ArrayLike<number>
  readonly dims: number
}

/** Whether route r carries `load` of capacity dimension d. */
export function fitsLoad(p: Capacities, r: number, d: number, load: number): boolean {
  return load <= p.capacity[r * p.dims + d]! + TOL
}
