// A small geocoder on 127.0.0.1 that answers like the real ones, from their documentation:
// Nominatim's `GET /search?format=jsonv2&q=…&limit=…` (an array of places, `lat`/`lon` as strings,
// `display_name`) or Photon's `GET /api?q=…&limit=…` (a GeoJSON FeatureCollection, coordinates
// [lon, lat] as numbers, the address in `properties`). The other path answers 404, as the other
// server would. It can also answer slowly, or with an error status.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Place {
  housenumber?: string
  street: string
  postcode: string
  city: string
  country: string
  latitude: number
  longitude: number
}

export const PLACES: Place[] = [
  {
    housenumber: '221B',
    street: 'Baker Street',
    postcode: 'NW1 6XE',
    city: 'London',
    country: 'United Kingdom',
    latitude: 51.5237629,
    longitude: -0.1584743,
  },
  {
    housenumber: '10',
    street: 'Baker Street',
    postcode: 'W1U 3BT',
    city: 'London',
    country: 'United Kingdom',
    latitude: 51.5158,
    longitude: -0.1556,
  },
  {
    street: 'Bakers Lane',
    postcode: 'CM2 9JX',
    city: 'Chelmsford',
    country: 'United Kingdom',
    latitude: 51.7,
    longitude: 0.5,
  },
]

export const nominatimLabel = (p: Place) =>
  [[p.housenumber, p.street].filter(Boolean).join(' '), p.city, p.postcode, p.country].join(', ')

export interface FakeGeocoder {
  url: string
  requests: string[]
  /** Seconds-long answers from now on (0: at once). */
  delayMs: number
  /** Answer this status instead of results (0: results). */
  failWith: number
  close(): Promise<void>
}

export async function startFakeGeocoder(format: 'nominatim' | 'photon'): Promise<FakeGeocoder> {
  const state = { delayMs: 0, failWith: 0 }
  const requests: string[] = []
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? '')
    const url = new URL(request.url ?? '/', 'http://localhost')
    const answer = () => {
      const path = format === 'nominatim' ? '/search' : '/api'
      if (url.pathname !== path) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
        return
      }
      if (state.failWith) {
        response.writeHead(state.failWith, { 'content-type': 'text/plain' }).end('Service unavailable')
        return
      }
      const q = (url.searchParams.get('q') ?? '').toLowerCase()
      const limit = Number(url.searchParams.get('limit') ?? '10')
      const words = q.split(/[\s,]+/).filter(Boolean)
      const found = PLACES.filter((p) =>
        words.every((w) => nominatimLabel(p).toLowerCase().includes(w)),
      ).slice(0, limit)
      const body =
        format === 'nominatim'
          ? found.map((p, i) => ({
              place_id: 1000 + i,
              licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
              osm_type: 'node',
              osm_id: 2000 + i,
              lat: p.latitude.toFixed(7),
              lon: p.longitude.toFixed(7),
              category: 'place',
              type: 'house',
              place_rank: 30,
              importance: 0.5,
              addresstype: 'place',
              name: '',
              display_name: nominatimLabel(p),
              boundingbox: ['0', '0', '0', '0'],
            }))
          : {
              type: 'FeatureCollection',
              features: found.map((p, i) => ({
                type: 'Feature',
                geometry: { type: 'Point', coordinates: [p.longitude, p.latitude] },
                properties: {
                  osm_id: 2000 + i,
                  osm_type: 'N',
                  osm_key: 'place',
                  osm_value: 'house',
                  type: 'house',
                  ...(p.housenumber ? { housenumber: p.housenumber } : {}),
                  street: p.street,
                  postcode: p.postcode,
                  city: p.city,
                  country: p.country,
                  countrycode: 'GB',
                },
              })),
            }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    }
    if (state.delayMs > 0) setTimeout(answer, state.delayMs)
    else answer()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get delayMs() {
      return state.delayMs
    },
    set delayMs(value: number) {
      state.delayMs = value
    },
    get failWith() {
      return state.failWith
    },
    set failWith(value: number) {
      state.failWith = value
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
