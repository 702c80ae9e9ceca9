// Where every travel matrix of the service comes from: road times from the OSRM table service of
// ROUTING_OSRM_URL when one is set, else (or when it cannot answer) the optimiser's straight-line
// model — great-circle distance × the organisation's detour factor at its speed. Fetched here, before
// a solve, so the optimiser stays pure: it is handed the matrix (RoutingModel.travel).
//
// Road tables are cached in memory per organisation and day, keyed by the set of distinct
// coordinates (in any order, repeated or not), least recently used first out, bounded by cells; a
// new set mostly made of a cached one's places asks only for the rows and columns of the others. An
// unreachable service never fails or holds up a caller: each request has a timeout, the straight
// lines are used with a TRAVEL_FALLBACK warning, and for a while after a failure the service is not
// asked at all (every board and plan would otherwise wait for the timeout). A pair the road
// network cannot join (OSRM's null) takes its straight-line value, with a TRAVEL_UNROUTABLE warning:
// the job stays plannable and the dispatcher is told to look at it.
import { createHash } from 'node:crypto'
import type { Coordinates, TravelMatrix } from '../../optimiser/model.js'
import { type GreatCircleOptions, greatCircleMatrix } from '../../optimiser/travel.js'
import { fetchOsrmTable, type OsrmTable, OsrmUnavailable, osrmCoordinate } from './osrm-table.js'

export type TravelSource = 'ROAD_NETWORK' | 'STRAIGHT_LINE'
export type TravelWarningCode = 'TRAVEL_FALLBACK' | 'TRAVEL_UNROUTABLE'

export interface TravelWarning {
  code: TravelWarningCode
  message: string
}

/** A matrix over the points asked for, and where it came from. */
export interface DayTravel {
  matrix: TravelMatrix
  source: TravelSource
  warnings: TravelWarning[]
}

export interface OsrmSettings {
  url: string
  maxTable: number
  timeoutMs: number
}

export interface TravelTimesOptions {
  /** Unset: straight lines only. */
  osrm?: OsrmSettings | undefined
  /** Cells (of the distinct points' matrices) the cache may hold; each costs 16 bytes. */
  cacheCells?: number
  /** After a failure the service is left alone this long. */
  retryAfterMs?: number
  now?: () => number
}

/** 4 M cells: 64 MB, a day of 2,000 distinct places or many smaller days. */
const DEFAULT_CACHE_CELLS = 4_000_000
const DEFAULT_RETRY_AFTER_MS = 30_000

interface CachedTable {
  /** Whose day: a table is only ever reused within it. */
  day: string
  /** Distinct coordinates (osrmCoordinate), sorted: row i of the table is keys[i]. */
  keys: string[]
  rowOf: Map<string, number>
  table: OsrmTable
}

export class TravelTimes {
  private readonly osrm: OsrmSettings | undefined
  private readonly cacheCells: number
  private readonly retryAfterMs: number
  private readonly now: () => number
  private readonly cache = new Map<string, CachedTable>()
  private cachedCells = 0
  private failure: { until: number; reason: string } | undefined

  constructor(options: TravelTimesOptions = {}) {
    this.osrm = options.osrm
    this.cacheCells = options.cacheCells ?? DEFAULT_CACHE_CELLS
    this.retryAfterMs = options.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS
    this.now = options.now ?? Date.now
  }

  /**
   * The travel matrix over `points` (row-major, whole metres and seconds at speed factor 1) for
   * an organisation's day (`date`, YYYY-MM-DD: what the cache is kept by). `straightLine` is the
   * organisation's model, used without a road service, on failure, and for pairs with no road.
   */
  async travelMatrixFor(
    organisationId: string,
    date: string,
    points: Coordinates[],
    straightLine: GreatCircleOptions,
    signal?: AbortSignal,
  ): Promise<DayTravel> {
    const lines = () => greatCircleMatrix(points, straightLine)
    if (!this.osrm || points.length < 2) return { matrix: lines(), source: 'STRAIGHT_LINE', warnings: [] }
    const failure = this.failure
    if (failure && failure.until > this.now()) return this.fallback(lines(), failure.reason)
    const keyOf = points.map(osrmCoordinate)
    const keys = [...new Set(keyOf)].sort()
    const day = `${organisationId}|${date}`
    const cacheKey = `${day}|${createHash('sha256').update(keys.join(';')).digest('base64url')}`
    let cached = this.recall(cacheKey)
    if (!cached) {
      try {
        cached = await this.fetchTable(day, keys, signal)
      } catch (error) {
        if (!(error instanceof OsrmUnavailable)) throw error
        const reason = `The road travel service ${error.message}`
        // A caller that stopped waiting (a cancelled plan) says nothing about the service.
        if (!signal?.aborted) this.failure = { until: this.now() + this.retryAfterMs, reason }
        return this.fallback(lines(), reason)
      }
      this.failure = undefined
      this.remember(cacheKey, cached)
    }
    return expand(cached, keyOf, lines)
  }

  /**
   * The table over `keys`. When a table of the same day already holds most of them (a re-plan from
   * now: the same jobs, workers elsewhere), only the rows and columns of the new places are asked
   * for and the rest is copied from it.
   */
  private async fetchTable(
    day: string,
    keys: string[],
    signal: AbortSignal | undefined,
  ): Promise<CachedTable> {
    const distinct = keys.map((key) => {
      const [lng, lat] = key.split(',').map(Number)
      return { lat: lat!, lng: lng! }
    })
    const rowOf = new Map(keys.map((key, i) => [key, i]))
    const base = this.bestOfDay(day, keys)
    const options = { ...this.osrm!, ...(signal ? { signal } : {}) }
    if (!base) return { day, keys, rowOf, table: await fetchOsrmTable(distinct, options) }
    const fresh = keys.flatMap((key, i) => (base.rowOf.has(key) ? [] : [i]))
    const known = keys.flatMap((key, i) => (base.rowOf.has(key) ? [i] : []))
    const all = keys.map((_, i) => i)
    const table = await fetchOsrmTable(distinct, options, [
      { sources: fresh, destinations: all },
      { sources: known, destinations: fresh },
    ])
    const u = base.table.size
    for (const a of known) {
      const from = base.rowOf.get(keys[a]!)! * u
      for (const b of known) {
        const cell = a * table.size + b
        const old = from + base.rowOf.get(keys[b]!)!
        table.duration[cell] = base.table.duration[old]!
        table.distance[cell] = base.table.distance[old]!
      }
    }
    return { day, keys, rowOf, table }
  }

  /** The day's cached table sharing the most places with `keys`, when it holds more than half of them. */
  private bestOfDay(day: string, keys: string[]): CachedTable | undefined {
    let best: CachedTable | undefined
    let bestShared = Math.floor(keys.length / 2)
    for (const entry of this.cache.values()) {
      if (entry.day !== day) continue
      const shared = keys.reduce((sum, key) => sum + (entry.rowOf.has(key) ? 1 : 0), 0)
      if (shared > bestShared) {
        best = entry
        bestShared = shared
      }
    }
    return best
  }

  private fallback(matrix: TravelMatrix, reason: string): DayTravel {
    return {
      matrix,
      source: 'STRAIGHT_LINE',
      warnings: [{ code: 'TRAVEL_FALLBACK', message: `${reason}: travel times are straight-line estimates` }],
    }
  }

  private recall(key: string): CachedTable | undefined {
    const hit = this.cache.get(key)
    if (hit) {
      this.cache.delete(key)
      this.cache.set(key, hit)
    }
    return hit
  }

  private remember(key: string, entry: CachedTable): void {
    const cells = entry.table.size * entry.table.size
    if (cells > this.cacheCells) return
    this.cache.set(key, entry)
    this.cachedCells += cells
    for (const [oldest, old] of this.cache) {
      if (this.cachedCells <= this.cacheCells) break
      this.cache.delete(oldest)
      this.cachedCells -= old.table.size * old.table.size
    }
  }
}

/** The distinct points' table spread over the points as asked (repeats, any order), in whole units. */
function expand(cached: CachedTable, keyOf: string[], lines: () => TravelMatrix): DayTravel {
  const index = keyOf.map((key) => cached.rowOf.get(key)!)
  const n = keyOf.length
  const u = cached.table.size
  const distance = new Float64Array(n * n)
  const duration = new Float64Array(n * n)
  let straight: TravelMatrix | undefined
  let unroutable = 0
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const a = index[i]!
      const b = index[j]!
      if (a === b) continue
      const seconds = cached.table.duration[a * u + b]!
      const metres = cached.table.distance[a * u + b]!
      const cell = i * n + j
      if (Number.isNaN(seconds) || Number.isNaN(metres)) {
        straight ??= lines()
        unroutable++
        duration[cell] = straight.duration[cell]!
        distance[cell] = straight.distance[cell]!
      } else {
        duration[cell] = Math.round(seconds)
        distance[cell] = Math.round(metres)
      }
    }
  }
  const warnings: TravelWarning[] =
    unroutable === 0
      ? []
      : [
          {
            code: 'TRAVEL_UNROUTABLE',
            message: `The road network joins no route for ${unroutable} of the trips between these places: those use straight-line estimates`,
          },
        ]
  return { matrix: { size: n, distance, duration }, source: 'ROAD_NETWORK', warnings }
}

/** Metres and seconds (at speed factor 1) from one of `points` to another, read from their matrix. */
export type LegTravel = (from: Coordinates, to: Coordinates) => { distance: number; duration: number }

export function legTravel(points: Coordinates[], matrix: TravelMatrix): LegTravel {
  const index = new Map(points.map((point, i) => [osrmCoordinate(point), i]))
  return (from, to) => {
    const a = index.get(osrmCoordinate(from))
    const b = index.get(osrmCoordinate(to))
    if (a === undefined || b === undefined) throw new RangeError('a place outside the matrix')
    const cell = a * matrix.size + b
    return { distance: matrix.distance[cell] ?? 0, duration: matrix.duration[cell] ?? 0 }
  }
}
