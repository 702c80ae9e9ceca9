// A worker's colour is theirs: the one the server stores for them, the same whatever the rows around
// them (all depots, one depot, another order), on the timeline and on the map; a summary without one
// (a plan stored before colours were) falls back to a hash of the id.
import { describe, expect, it } from 'vitest'
import type { Board, BoardRow } from './board-model'
import { boardMapData, boardTimelineRows } from './board-views'
import { colourOf, ROUTE_COLOURS, workerColour } from './worker-colour'

const row = (userId: string, name: string, locationId: string, colour: number): BoardRow => ({
  shiftId: `shift-${userId}`,
  user: { id: userId, name, colour },
  vehicle: { id: `van-${userId}`, name: `Van ${name}` },
  locationId,
  start: '2026-12-07T08:00:00.000Z',
  end: '2026-12-07T16:00:00.000Z',
  breaks: [],
  partAbsences: [],
  origin: { latitude: '53.48', longitude: '-2.24' },
  endPolicy: 'RETURN_TO_ORIGIN',
  legs: [],
  totals: { distanceMeters: 0, driveSeconds: 0, overtimeSeconds: 0 },
})

const board = (rows: BoardRow[]): Board => ({
  date: '2026-12-07',
  locationId: null,
  timezone: 'Europe/London',
  dayStart: '2026-12-07T00:00:00.000Z',
  dayEnd: '2026-12-08T00:00:00.000Z',
  depots: [],
  rows,
  jobs: [],
})

// UUIDv7-like ids sharing a time prefix, as one import creates them.
const ids = Array.from(
  { length: 12 },
  (_, i) => `019a4c1e-7b2f-7${String(i).padStart(3, '0')}-8abc-0123456789ab`,
)

describe('a worker’s colour', () => {
  it('is the stored one, whatever the row order or the depot shown', () => {
    const rows = ids.map((id, i) => row(id, `W${i}`, i % 2 === 0 ? 'north' : 'south', (i % 8) + 1))
    const colourOf = (shown: BoardRow[]) =>
      new Map(boardTimelineRows(board(shown), [], 'Europe/London').map((r) => [r.id, r.colour]))
    const all = colourOf(rows)
    const reversed = colourOf([...rows].reverse())
    const south = colourOf(rows.filter((r) => r.locationId === 'south'))
    for (const r of rows) {
      expect(reversed.get(r.shiftId)).toBe(all.get(r.shiftId))
      if (r.locationId === 'south') expect(south.get(r.shiftId)).toBe(all.get(r.shiftId))
      expect(all.get(r.shiftId)).toBe(r.user.colour)
    }
    // Eight workers, eight colours: what the hash could not promise.
    expect(new Set(rows.slice(0, 8).map((r) => all.get(r.shiftId))).size).toBe(8)
    // The map's route of a row has the row's colour.
    const routes = boardMapData(board([...rows].reverse()), []).routes
    for (const route of routes) expect(route.colour).toBe(all.get(route.id))
  })

  it('falls back to the id’s hash without a stored colour, or with one outside the palette', () => {
    const id = ids[3] as string
    expect(colourOf({ id, colour: 5 })).toBe(5)
    expect(colourOf({ id })).toBe(workerColour(id))
    expect(colourOf({ id, colour: 0 })).toBe(workerColour(id))
    expect(colourOf({ id, colour: 9 })).toBe(workerColour(id))
  })

  it('falls back to a hash in the palette, and ids that share a prefix still spread over it', () => {
    const colours = ids.map(workerColour)
    for (const colour of colours) {
      expect(Number.isInteger(colour)).toBe(true)
      expect(colour).toBeGreaterThanOrEqual(1)
      expect(colour).toBeLessThanOrEqual(ROUTE_COLOURS)
    }
    expect(new Set(colours).size).toBeGreaterThanOrEqual(5)
    expect(workerColour(ids[0] as string)).toBe(workerColour(`${ids[0]}`))
  })
})
