// Cursors are opaque but not trusted: whatever a client puts in one (a date that does not exist, a NUL
// in the id, bytes that are not UTF-8, another kind's prefix, far too much of it) is refused with 400
// at /query/cursor before it reaches a query — PostgreSQL would fail on it with a 500. Every list that
// takes a cursor, in both of its orders, and the event feed; also the instants beside them.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeShift, makeShiftReferences } from '../../test/factories.js'
import { client, createTenant, createTestApp, DIALECTS, type TestContext } from '../../test/helpers.js'
import { newId } from '../db/ids.js'
import { isStoredInstant } from '../db/values.js'
import { decodeCursor, encodeCursor } from './cursor.js'

const EPOCH = '2000-01-01T00:00:00.000Z'
const raw = (text: string | Buffer) => Buffer.from(text).toString('base64url')

/** Cursors of the kind `prefix` that this API never issues. */
function forgedCursors(prefix: string): [string, string][] {
  const id = newId()
  // Recent, so the event feed does not answer 410 for its age first.
  const at = new Date(Date.now() - 3_600_000).toISOString()
  return [
    ['30 February', raw(`${prefix}|2026-02-30T10:00:00.000Z|${id}`)],
    ['31 April', raw(`${prefix}|2026-04-31T10:00:00.000Z|${id}`)],
    ['hour 24', raw(`${prefix}|2026-01-15T24:00:00.000Z|${id}`)],
    ['minute 60', raw(`${prefix}|2026-01-15T10:60:00.000Z|${id}`)],
    ['year 0000', raw(`${prefix}|0000-01-01T00:00:00.000Z|${id}`)],
    ['expanded year', raw(`${prefix}|+275760-09-13T00:00:00.000Z|${id}`)],
    ['offset instead of Z', raw(`${prefix}|2026-01-15T10:00:00.000+01:00|${id}`)],
    ['NUL in the id', raw(`${prefix}|${at}|${id.slice(0, -1)}\u0000`)],
    ['NUL after the id', raw(`${prefix}|${at}|${id}\u0000`)],
    ['NUL as the id', raw(`${prefix}|${at}|\u0000`)],
    ['control character in the id', raw(`${prefix}|${at}|${id.slice(0, -1)}\u001b`)],
    [
      'not UTF-8',
      raw(
        Buffer.concat([Buffer.from(`${prefix}|${at}|${id.slice(0, -3)}`), Buffer.from([0xed, 0xa0, 0x80])]),
      ),
    ],
    ['lone surrogate', raw(`${prefix}|${at}|${id.slice(0, -1)}\ud800`)],
    ['id not an id', raw(`${prefix}|${at}|x`)],
    ['id in capitals', raw(`${prefix}|${at}|${id.toUpperCase()}`)],
    ['id too long', raw(`${prefix}|${at}|${id}${'0'.repeat(200)}`)],
    ['SQL in the id', raw(`${prefix}|${at}|' OR 1=1 --`)],
    ['a fourth part', raw(`${prefix}|${at}|${id}|${id}`)],
    ['unknown prefix', raw(`z9|${at}|${id}`)],
    ['not base64', '!!!!'],
    ['over-long', 'A'.repeat(512)],
  ]
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: forged cursors`, () => {
    let t: TestContext
    let api: ReturnType<typeof client>
    let admin: ReturnType<typeof client>
    beforeAll(async () => {
      t = await createTestApp(dialect, { changeSettleMs: 0 })
      const tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      api = client(t, tenant.headers)
      admin = client(t, tenant.headers, '/v1/admin')
      // One row in every list, so each query really runs past its cursor.
      const db = t.database.db
      await api.post('/jobs', { title: 'Job' })
      await api.post('/customers', { name: 'Customer' })
      const { refs } = await makeShiftReferences(db, tenant.organisationId)
      await makeShift(db, tenant.organisationId, refs)
    })
    afterAll(() => t.close())

    const lists = ['/jobs', '/customers', '/locations', '/shifts', '/vehicles']
    const reads = [
      ...lists.flatMap((path) => [
        { api: () => api, path, query: '', prefix: 'v1' },
        { api: () => api, path, query: `updatedSince=${EPOCH}&`, prefix: 'c1' },
        { api: () => admin, path, query: '', prefix: 'v1' },
        { api: () => admin, path, query: `updatedSince=${EPOCH}&`, prefix: 'c1' },
      ]),
      { api: () => admin, path: '/jobs', query: 'search=Job&', prefix: 'v1' },
      { api: () => admin, path: '/jobs', query: 'targetDate=2026-01-15&', prefix: 'v1' },
      { api: () => api, path: '/events', query: '', prefix: 'e1' },
    ]

    it('refuses every forged cursor on every list with 400 at /query/cursor, never 500', async () => {
      const failures: string[] = []
      for (const read of reads) {
        for (const [label, cursor] of forgedCursors(read.prefix)) {
          const url = `${read.path}?${read.query}cursor=${cursor}`
          const response = await read.api().get(url)
          const detail = response.body?.details?.[0]
          if (
            response.status !== 400 ||
            response.body.code !== 'VALIDATION_ERROR' ||
            detail?.path !== '/query/cursor' ||
            !/^cursor /.test(response.body.error)
          )
            failures.push(`${label}: ${read.path}?${read.query} → ${response.status} ${response.body.code}`)
        }
      }
      expect(failures).toEqual([])
    })

    it('still follows the cursors it issued, on every list', async () => {
      for (const read of reads) {
        const first = await read.api().get(`${read.path}?${read.query}limit=1`)
        expect(first.status, read.path).toBe(200)
        const cursor =
          first.body.data.pagination.nextCursor ??
          first.body.data.pagination.resumeCursor ??
          encodeCursor(
            { at: new Date().toISOString(), id: newId() },
            read.prefix === 'c1' ? 'changes' : 'list',
          )
        const next = await read.api().get(`${read.path}?${read.query}cursor=${cursor}`)
        expect(next.status, `${read.path}?${read.query}`).toBe(200)
      }
    })

    it('refuses instants that do not exist in updatedSince, since and until', async () => {
      const instants = [
        '2026-02-30T00:00:00Z',
        '2026-01-15T24:00:00Z',
        '0000-01-01T00:00:00Z',
        '2026-12-31T23:59:60Z',
      ]
      const failures: string[] = []
      const urls = [
        ...lists.map((path) => ({ path, field: 'updatedSince' })),
        { path: '/events', field: 'since' },
        { path: '/events', field: 'until' },
      ]
      for (const { path, field } of urls) {
        for (const instant of instants) {
          const response = await api.get(`${path}?${field}=${encodeURIComponent(instant)}`)
          if (response.status !== 400 || response.body.details?.[0]?.path !== `/query/${field}`)
            failures.push(`${path}?${field}=${instant} → ${response.status} ${response.body.code}`)
        }
      }
      expect(failures).toEqual([])
    })
  })
}

describe('isStoredInstant', () => {
  const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z')
  const LATEST = Date.parse('9999-12-31T23:59:59.999Z')
  /** What it reads off the characters, said with a Date. */
  const roundTrip = (text: string) => {
    const time = Date.parse(text)
    return time >= EARLIEST && time <= LATEST && new Date(time).toISOString() === text
  }

  it('says what the Date round trip says, for real, shuffled and random instants', () => {
    const digits = (count: number) => fc.stringMatching(new RegExp(`^[0-9]{${count}}$`))
    const candidates = fc.oneof(
      fc.date({ min: new Date(-1e14), max: new Date(3e14), noInvalidDate: true }).map((d) => d.toISOString()),
      fc
        .tuple(digits(4), digits(2), digits(2), digits(2), digits(2), digits(2), digits(3))
        .map(([y, mo, d, h, mi, s, ms]) => `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`),
      fc.string({ maxLength: 30 }),
    )
    fc.assert(
      fc.property(candidates, (text) => isStoredInstant(text) === roundTrip(text)),
      { numRuns: 20_000 },
    )
    for (const text of [
      '2024-02-29T00:00:00.000Z',
      '2023-02-29T00:00:00.000Z',
      '2000-02-29T12:00:00.000Z',
      '1900-02-29T12:00:00.000Z',
      '0001-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
      '0000-12-31T23:59:59.999Z',
      '2026-01-15T10:00:00.000+00:00',
      '2026-01-15T10:00:00Z',
      '2026-01-15 10:00:00.000Z',
    ])
      expect(isStoredInstant(text), text).toBe(roundTrip(text))
  })
})

describe('decodeCursor', () => {
  it('gives back the position it encoded, of its own kind only', () => {
    const position = { at: '2026-01-15T10:00:00.123Z', id: newId() }
    expect(decodeCursor(encodeCursor(position, 'changes'), 'changes')).toEqual(position)
    expect(decodeCursor(encodeCursor(position, 'events'), 'events')).toEqual(position)
    expect(() => decodeCursor(encodeCursor(position, 'events'), 'list')).toThrow(/cursor/)
  })

  it('accepts the first and last instants the database stores, nothing outside', () => {
    const id = newId()
    expect(decodeCursor(encodeCursor({ at: '0001-01-01T00:00:00.000Z', id })).at).toBe(
      '0001-01-01T00:00:00.000Z',
    )
    expect(decodeCursor(encodeCursor({ at: '9999-12-31T23:59:59.999Z', id })).at).toBe(
      '9999-12-31T23:59:59.999Z',
    )
    expect(() => decodeCursor(encodeCursor({ at: '0000-12-31T23:59:59.999Z', id }))).toThrow(/cursor/)
  })
})
