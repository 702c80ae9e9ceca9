// Travel matrices: the default great-circle provider and the Euclidean one of the Solomon format.
// A road-network table service would produce the same `TravelMatrix` (computed before solving).
import type { Coordinates, TravelMatrix } from './model.js'

export const DEFAULT_DETOUR_FACTOR = 1.3
export const DEFAULT_SPEED_KMH = 40
const EARTH_RADIUS_M = 6_371_008.8

export interface GreatCircleOptions {
  /** Road distance ≈ great-circle distance × detourFactor. */
  detourFactor?: number
  /** Base speed at speedFactor 1. */
  speedKmh?: number
}

function haversineMetres(a: Coordinates, b: Coordinates): number {
  const rad = Math.PI / 180
  const dLat = (b.lat - a.lat) * rad
  const dLng = (b.lng - a.lng) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** Whole metres and whole seconds: great-circle distance × detour factor at the base speed. */
export function greatCircleMatrix(points: Coordinates[], options: GreatCircleOptions = {}): TravelMatrix {
  const detour = options.detourFactor ?? DEFAULT_DETOUR_FACTOR
  const metresPerSecond = ((options.speedKmh ?? DEFAULT_SPEED_KMH) * 1000) / 3600
  if (!(detour > 0) || !(metresPerSecond > 0)) throw new RangeError('detourFactor and speedKmh must be > 0')
  const n = points.length
  const distance = new Float64Array(n * n)
  const duration = new Float64Array(n * n)
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const metres = Math.round(haversineMetres(points[i]!, points[j]!) * detour)
      const seconds = Math.round(metres / metresPerSecond)
      distance[i * n + j] = metres
      distance[j * n + i] = metres
      duration[i * n + j] = seconds
      duration[j * n + i] = seconds
    }
  }
  return { size: n, distance, duration }
}

/** Solomon: Euclidean distance in full double precision; travel time equals distance. */
export function euclideanMatrix(xs: ArrayLike<number>, ys: ArrayLike<number>): TravelMatrix {
  const n = xs.length
  const distance = new Float64Array(n * n)
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const dx = xs[i]! - xs[j]!
      const dy = ys[i]! - ys[j]!
      distance[i * n + j] = Math.sqrt(dx * dx + dy * dy)
    }
  }
  return { size: n, distance, duration: distance }
}
