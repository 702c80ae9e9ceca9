// Road travel times against a local server answering OSRM's documented table format: blocks no larger
// than the server allows, put back in the right places; the cache per organisation and day; null
// pairs; and straight lines with a warning whenever the server cannot be used, never a failure.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeOsrm, roadMetres, roadSeconds, startFakeOsrm } from '../../../test/fake-osrm.js'
import { loadConfig } from '../../config.js'
import type { Coordinates } from '../../optimiser/model.js'
import { greatCircleMatrix } from '../../optimiser/travel.js'
import { tableBlocks, wholeTable } from './osrm-table.js'
import { TravelTimes } from './travel-times.js'

const STRAIGHT = { detourFactor: 1.3, speedKmh: 40 }
const DAY = '2026-12-07'
/** Seven distinct places around Manchester, the first repeated at the end. */
const PLACES: Coordinates[] = [
  { lat: 53.4808, lng: -2.2426 },
  { lat: 53.45, lng: -2.3 },
  { lat: 53.47, lng: -2.27 },
  { lat: 53.49, lng: -2.24 },
  { lat: 53.51, lng: -2.21 },
  { lat: 53.43, lng: -2.33 },
  { lat: 53.53, lng: -2.18 },
  { lat: 53.4808, lng: -2.2426 },
]
const pair = (p: Coordinates): [number, number] => [p.lng, p.lat]
/** Whole metres of the server's answer (which has one decimal). */
const metres = (a: [number, number], b: [number, number]) =>
  Math.round(Math.round(roadMetres(a, b) * 10) / 10)

describe('road travel times from an OSRM table service', () => {
  let osrm: FakeOsrm
  beforeAll(async () => {
    osrm = await startFakeOsrm(3)
  })
  afterAll(() => osrm.close())
  beforeEach(() => {
    osrm.requests.length = 0
    osrm.failWith = 0
    osrm.code = ''
    osrm.delayMs = 0
    osrm.islands.clear()
  })
  const travelTimes = (timeoutMs = 2000) =>
    new TravelTimes({ osrm: { url: osrm.url, maxTable: 3, timeoutMs }, retryAfterMs: 60_000 })

  it('splits the table into blocks the server accepts and puts every cell back where it belongs', async () => {
    const travel = await travelTimes().travelMatrixFor('org-a', DAY, PLACES, STRAIGHT)
    expect(travel.source).toBe('ROAD_NETWORK')
    expect(travel.warnings).toEqual([])
    // 7 distinct places in blocks of 3: rows and columns in 3 chunks, 9 requests, none refused.
    expect(osrm.requests).toHaveLength(9)
    const n = PLACES.length
    expect(travel.matrix.size).toBe(n)
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const a = pair(PLACES[i]!)
        const b = pair(PLACES[j]!)
        expect(travel.matrix.duration[i * n + j]).toBe(Math.round(roadSeconds(a, b)))
        expect(travel.matrix.distance[i * n + j]).toBe(a[0] === b[0] && a[1] === b[1] ? 0 : metres(a, b))
      }
    }
    // The road is not the straight line: a matrix that fell back would differ.
    expect(travel.matrix.duration[1]).not.toBe(greatCircleMatrix(PLACES, STRAIGHT).duration[1])
  })

  it('covers every cell once, in blocks of at most 3 × 3', () => {
    const blocks = tableBlocks(wholeTable(7), 3)
    expect(blocks).toHaveLength(9)
    for (const block of blocks) {
      expect(block.sources.length).toBeLessThanOrEqual(3)
      expect(block.destinations.length).toBeLessThanOrEqual(3)
    }
    const cells = new Set(
      blocks.flatMap((b) => b.sources.flatMap((s) => b.destinations.map((d) => `${s}>${d}`))),
    )
    expect(cells.size).toBe(49)
  })

  it('asks once per organisation and day: the same places in another order are served from the cache', async () => {
    const travel = travelTimes()
    await travel.travelMatrixFor('org-a', DAY, PLACES, STRAIGHT)
    const asked = osrm.requests.length
    const shuffled = [PLACES[3]!, PLACES[0]!, PLACES[6]!, PLACES[1]!, PLACES[5]!, PLACES[2]!, PLACES[4]!]
    const again = await travel.travelMatrixFor('org-a', DAY, shuffled, STRAIGHT)
    expect(osrm.requests).toHaveLength(asked)
    expect(again.source).toBe('ROAD_NETWORK')
    expect(again.matrix.duration[0 * 7 + 1]).toBe(Math.round(roadSeconds(pair(PLACES[3]!), pair(PLACES[0]!))))
    // Another organisation, or another day, is asked for its own.
    await travel.travelMatrixFor('org-b', DAY, PLACES, STRAIGHT)
    expect(osrm.requests).toHaveLength(asked * 2)
    await travel.travelMatrixFor('org-a', '2026-12-08', PLACES, STRAIGHT)
    expect(osrm.requests).toHaveLength(asked * 3)
  })

  it('asks only for the rows and columns of new places when the day’s table holds the rest', async () => {
    const travel = travelTimes()
    await travel.travelMatrixFor('org-a', DAY, PLACES, STRAIGHT)
    osrm.requests.length = 0
    // A re-plan from now: one worker has moved; the six other places are known.
    const moved = { lat: 53.46, lng: -2.25 }
    const points = [moved, ...PLACES.slice(0, 6)]
    const again = await travel.travelMatrixFor('org-a', DAY, points, STRAIGHT)
    // Its row (1 × 7: three blocks of ≤ 3 columns) and its column (6 × 1: two blocks of ≤ 3 rows).
    expect(osrm.requests).toHaveLength(5)
    expect(again.source).toBe('ROAD_NETWORK')
    const n = points.length
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const [a, b] = [pair(points[i]!), pair(points[j]!)]
        expect(again.matrix.duration[i * n + j], `${i} → ${j}`).toBe(Math.round(roadSeconds(a, b)))
        expect(again.matrix.distance[i * n + j], `${i} → ${j}`).toBe(i === j ? 0 : metres(a, b))
      }
    }
    // Fewer than half the places known: the whole table again (3 × 3 blocks of 7).
    osrm.requests.length = 0
    const elsewhere = [0, 1, 2, 3, 4].map((i) => ({ lat: 52 + i * 0.01, lng: -1.5 }))
    await travel.travelMatrixFor('org-a', DAY, [...elsewhere, PLACES[0]!, PLACES[1]!], STRAIGHT)
    expect(osrm.requests).toHaveLength(9)
  })

  it('gives a pair the road network cannot join its straight-line values, and says so', async () => {
    const island = PLACES[6]!
    osrm.islands.add(`${island.lng.toFixed(6)},${island.lat.toFixed(6)}`)
    const travel = await travelTimes().travelMatrixFor('org-a', DAY, PLACES, STRAIGHT)
    const lines = greatCircleMatrix(PLACES, STRAIGHT)
    const n = PLACES.length
    expect(travel.source).toBe('ROAD_NETWORK')
    expect(travel.matrix.duration[6 * n + 1]).toBe(lines.duration[6 * n + 1])
    expect(travel.matrix.distance[1 * n + 6]).toBe(lines.distance[1 * n + 6])
    expect(travel.matrix.duration[1 * n + 2]).toBe(
      Math.round(roadSeconds(pair(PLACES[1]!), pair(PLACES[2]!))),
    )
    expect(travel.warnings).toEqual([expect.objectContaining({ code: 'TRAVEL_UNROUTABLE' })])
    expect(travel.warnings[0]?.message).toContain('14 of the trips')
  })

  const fallbacks: [string, (server: FakeOsrm) => void, string][] = [
    ['answers 500', (s) => (s.failWith = 500), 'answered HTTP 500 (InternalError)'],
    ['answers a code other than Ok', (s) => (s.code = 'NoSegment'), 'answered code "NoSegment"'],
    ['does not answer in time', (s) => (s.delayMs = 1000), 'did not answer within 0.2 s'],
  ]
  for (const [what, breakIt, why] of fallbacks) {
    it(`uses straight lines with a warning when the server ${what}`, async () => {
      breakIt(osrm)
      const started = Date.now()
      const travel = await travelTimes(200).travelMatrixFor('org-a', DAY, PLACES, STRAIGHT)
      expect(Date.now() - started).toBeLessThan(900)
      expect(travel.source).toBe('STRAIGHT_LINE')
      expect(Array.from(travel.matrix.duration)).toEqual(
        Array.from(greatCircleMatrix(PLACES, STRAIGHT).duration),
      )
      expect(travel.warnings).toEqual([{ code: 'TRAVEL_FALLBACK', message: expect.stringContaining(why) }])
    })
  }

  it('uses straight lines when nothing listens, and leaves the server alone for a while after', async () => {
    const gone = await startFakeOsrm(3)
    await gone.close()
    let now = 1_000_000
    const travel = new TravelTimes({
      osrm: { url: gone.url, maxTable: 3, timeoutMs: 2000 },
      retryAfterMs: 30_000,
      now: () => now,
    })
    const down = await travel.travelMatrixFor('org-a', DAY, PLACES, STRAIGHT)
    expect(down.source).toBe('STRAIGHT_LINE')
    expect(down.warnings[0]?.message).toContain('cannot be reached')
    // Within the back-off nothing is asked (the fake at osrm.url would count it if it were).
    const pointed = new TravelTimes({ osrm: { url: osrm.url, maxTable: 3, timeoutMs: 2000 }, now: () => now })
    osrm.failWith = 503
    await pointed.travelMatrixFor('org-a', DAY, PLACES, STRAIGHT)
    const asked = osrm.requests.length
    expect(asked).toBeGreaterThan(0)
    osrm.failWith = 0
    const quiet = await pointed.travelMatrixFor('org-a', DAY, PLACES, STRAIGHT)
    expect(quiet.source).toBe('STRAIGHT_LINE')
    expect(osrm.requests).toHaveLength(asked)
    now += 30_001
    const back = await pointed.travelMatrixFor('org-a', DAY, PLACES, STRAIGHT)
    expect(back.source).toBe('ROAD_NETWORK')
  })

  it('needs no server without ROUTING_OSRM_URL: straight lines, no warning', async () => {
    const travel = await new TravelTimes().travelMatrixFor('org-a', DAY, PLACES, STRAIGHT)
    expect(travel).toMatchObject({ source: 'STRAIGHT_LINE', warnings: [] })
    expect(osrm.requests).toEqual([])
  })
})

describe('ROUTING_OSRM_* settings', () => {
  it('reads the base URL without its trailing slash, with the table size and timeout defaults', () => {
    expect(loadConfig({ ROUTING_OSRM_URL: ' http://osrm.internal:5000/ ' })).toMatchObject({
      routingOsrmUrl: 'http://osrm.internal:5000',
      routingOsrmMaxTable: 100,
      routingOsrmTimeoutMs: 2000,
    })
    expect(loadConfig({})).toMatchObject({ routingOsrmUrl: undefined })
    expect(
      loadConfig({
        ROUTING_OSRM_URL: 'https://maps.example.com/osrm',
        ROUTING_OSRM_MAX_TABLE: '500',
        ROUTING_OSRM_TIMEOUT_MS: '5000',
      }),
    ).toMatchObject({
      routingOsrmUrl: 'https://maps.example.com/osrm',
      routingOsrmMaxTable: 500,
      routingOsrmTimeoutMs: 5000,
    })
  })

  it.each([
    [{ ROUTING_OSRM_URL: 'osrm host' }, /ROUTING_OSRM_URL must be an absolute http\(s\) URL/],
    [{ ROUTING_OSRM_URL: 'ftp://osrm.internal' }, /ROUTING_OSRM_URL must be an http\(s\) URL without query/],
    [
      { ROUTING_OSRM_URL: 'http://osrm.internal/?profile=car' },
      /ROUTING_OSRM_URL must be an http\(s\) URL without query/,
    ],
    [{ ROUTING_OSRM_MAX_TABLE: '0' }, /ROUTING_OSRM_MAX_TABLE must be at least 1/],
    [{ ROUTING_OSRM_TIMEOUT_MS: '1.5' }, /ROUTING_OSRM_TIMEOUT_MS must be a non-negative integer/],
  ])('refuses %o at start-up', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message)
  })
})
