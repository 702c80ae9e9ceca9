// What the two geocoders we speak answer, read into one shape. Nominatim (`/search?format=jsonv2`):
// a JSON array of places with `lat` and `lon` as decimal strings and a ready `display_name`. Photon
// (`/api`): a GeoJSON FeatureCollection whose points are [longitude, latitude] numbers and whose
// label is put together from the address parts in `properties`. Anything else is not an answer.

export type GeocoderFormat = 'nominatim' | 'photon'

export interface GeocodeMatch {
  label: string
  /** Canonical decimal strings, like every coordinate of the API (no float noise, at most 7 places). */
  latitude: string
  longitude: string
}

/** A coordinate as the API writes it: at most 7 decimal places (about 1 cm), no trailing zeros. */
export function decimalString(value: unknown, limit: number): string | null {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  if (typeof number !== 'number' || !Number.isFinite(number) || Math.abs(number) > limit) return null
  const text = number.toFixed(7).replace(/\.?0+$/, '')
  return text === '-0' ? '0' : text
}

/** Which format a response body is in, or null when it is neither. */
export function formatOf(body: unknown): GeocoderFormat | null {
  if (Array.isArray(body)) return 'nominatim'
  if (body && typeof body === 'object' && Array.isArray((body as { features?: unknown }).features))
    return 'photon'
  return null
}

export function readNominatim(body: unknown[]): GeocodeMatch[] {
  return body.flatMap((place) => {
    if (!place || typeof place !== 'object') return []
    const { lat, lon, display_name: label } = place as Record<string, unknown>
    const latitude = decimalString(lat, 90)
    const longitude = decimalString(lon, 180)
    if (latitude === null || longitude === null || typeof label !== 'string' || label.trim() === '') return []
    return [{ label: label.trim(), latitude, longitude }]
  })
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null)

/** "Flat 2, 10 Downing Street, SW1A 2AA London, United Kingdom" from Photon's address parts. */
export function photonLabel(properties: Record<string, unknown>): string | null {
  const street = [text(properties.housenumber), text(properties.street)].filter(Boolean).join(' ')
  const town = [text(properties.postcode), text(properties.city) ?? text(properties.district)]
    .filter(Boolean)
    .join(' ')
  const parts = [text(properties.name), street, town, text(properties.state), text(properties.country)]
  const seen = new Set<string>()
  const label = parts.filter((part): part is string => {
    if (!part || seen.has(part)) return false
    seen.add(part)
    return true
  })
  return label.length > 0 ? label.join(', ') : null
}

export function readPhoton(body: { features: unknown[] }): GeocodeMatch[] {
  return body.features.flatMap((feature) => {
    if (!feature || typeof feature !== 'object') return []
    const { geometry, properties } = feature as { geometry?: unknown; properties?: unknown }
    const coordinates = (geometry as { coordinates?: unknown } | undefined)?.coordinates
    if (!Array.isArray(coordinates)) return []
    const longitude = decimalString(coordinates[0], 180)
    const latitude = decimalString(coordinates[1], 90)
    const label =
      properties && typeof properties === 'object' ? photonLabel(properties as Record<string, unknown>) : null
    if (latitude === null || longitude === null || label === null) return []
    return [{ label, latitude, longitude }]
  })
}

/** The matches in a body of the given format (the format detected from the body when not given). */
export function readMatches(body: unknown): GeocodeMatch[] | null {
  const format = formatOf(body)
  if (format === 'nominatim') return readNominatim(body as unknown[])
  if (format === 'photon') return readPhoton(body as { features: unknown[] })
  return null
}
