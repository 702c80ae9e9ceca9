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

const RAD = Math.PI / 180

/** Haversine, given each point's cos(latitude) (computed once per point, not once per pair). */
function haversineMetres(a: Coordinates, b: Coordinates, cosLatA: number, cosLatB: number): number {
  const dLat = (b.lat - a.lat) * RAD
  const dLng = (b.lng - a.lng) * RAD
  const h = Math.sin(dLat / 2) ** 2 + cosLatA * cosLatB * Math.sin(dLng / 2) ** 2
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
  const cosLat = Float64Array.from(points, (point) => Math.cos(point.lat * RAD))
  for (let i = 0; i < n; i++) {
    const a = points[i]!
    const cosA = cosLat[i]!
    for (let j = i + 1; j < n; j++) {
      const metres = Math.round(haversineMetres(a, points[j]!, cosA, cosLat[j]!) * detour)
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
