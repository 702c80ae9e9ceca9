// The board's arithmetic: the hours shown, where a drop lands (snapped to a quarter hour), the
// default free time of a job on a row, filters and the route drawn for a row.
import { describe, expect, it } from 'vitest'
import {
  addDays,
  type BoardJob,
  type BoardRow,
  blockFlags,
  duration,
  HOUR,
  instantAt,
  matchesFilters,
  percentOf,
  routePath,
  suggestStart,
  timelineRange,
} from './board-model'
import { jobBlock } from './board-views'

const DAY_START = '2026-12-07T00:00:00.000Z'
const DAY_END = '2026-12-08T00:00:00.000Z'
const at = (hhmm: string) => Date.parse(`2026-12-07T${hhmm}:00.000Z`)

const job = (overrides: Partial<BoardJob> = {}): BoardJob => ({
  id: 'j1',
  title: 'Boiler service',
  status: 'CREATED',
  priority: 'NORMAL',
  customer: null,
  locationId: null,
  latitude: '53.5',
  longitude: '-2.2',
  ownPosition: true,
  serviceDuration: 3600,
  timeWindowType: 'HARD',
  earliestStart: null,
  latestEnd: null,
  scheduledStart: null,
  scheduledEnd: null,
  assignedUserId: null,
  shiftId: null,
  tags: [],
  ...overrides,
})

const row: BoardRow = {
  shiftId: 's1',
  user: { id: 'u1', name: 'Ana', colour: 1 },
  vehicle: { id: 'v1', name: 'Van' },
  locationId: 'l1',
  start: '2026-12-07T08:00:00.000Z',
  end: '2026-12-07T16:00:00.000Z',
  breaks: [],
  partAbsences: [],
  origin: { latitude: '53.48', longitude: '-2.24' },
  endPolicy: 'RETURN_TO_ORIGIN',
  legs: [],
  totals: { distanceMeters: 0, driveSeconds: 0, overtimeSeconds: 0 },
}

describe('the timeline', () => {
  it('spans the shifts and visits with an hour either side, in whole hours, within the day', () => {
    expect(timelineRange(DAY_START, DAY_END, [{ start: at('08:30'), end: at('16:10') }])).toEqual({
      from: at('07:00'),
      to: at('18:00'),
    })
    expect(timelineRange(DAY_START, DAY_END, [{ start: at('00:30'), end: at('23:30') }])).toEqual({
      from: at('00:00'),
      to: Date.parse(DAY_END),
    })
    expect(timelineRange(DAY_START, DAY_END, [])).toEqual({ from: at('07:00'), to: at('19:00') })
  })

  it('turns a drop position into a time snapped to the quarter hour, and back', () => {
    const range = { from: at('07:00'), to: at('17:00') }
    // 1000 px for 10 hours: 100 px an hour.
    expect(new Date(instantAt(400, 1000, range)).toISOString()).toBe('2026-12-07T11:00:00.000Z')
    expect(new Date(instantAt(407, 1000, range)).toISOString()).toBe('2026-12-07T11:00:00.000Z')
    expect(new Date(instantAt(418, 1000, range)).toISOString()).toBe('2026-12-07T11:15:00.000Z')
    expect(instantAt(-50, 1000, range)).toBe(at('07:00'))
    expect(instantAt(5000, 1000, range)).toBe(at('17:00'))
    expect(percentOf(at('12:00'), range)).toBe(50)
    expect(percentOf(at('06:00'), range)).toBe(0)
  })
})

describe('a job on a row', () => {
  it('is suggested the first free quarter hour from the shift start or its window', () => {
    const busy = job({
      id: 'j0',
      status: 'ASSIGNED',
      shiftId: 's1',
      scheduledStart: '2026-12-07T08:00:00.000Z',
      scheduledEnd: '2026-12-07T09:10:00.000Z',
    })
    expect(suggestStart(row, [busy], job())).toBe(at('09:15'))
    expect(suggestStart(row, [], job({ earliestStart: '2026-12-07T10:05:00.000Z' }))).toBe(at('10:15'))
  })

  it('is kept by the filters it matches only', () => {
    const tagged = job({ priority: 'HIGH', tags: [{ id: 't1', name: 'gas-safe' }] })
    expect(matchesFilters(tagged, { priority: 'HIGH', tagId: 't1' })).toBe(true)
    expect(matchesFilters(tagged, { status: 'ASSIGNED' })).toBe(false)
    expect(matchesFilters(tagged, { tagId: 't2' })).toBe(false)
  })

  it('is drawn on its route after the start, skipping stops without a position, and back', () => {
    const stops = [
      job(),
      job({ latitude: null, longitude: null }),
      job({ latitude: '53.6', longitude: '-2.1' }),
    ]
    expect(routePath(row.origin, stops, true)).toEqual([
      [53.48, -2.24],
      [53.5, -2.2],
      [53.6, -2.1],
      [53.48, -2.24],
    ])
    expect(routePath(row.origin, stops, false)).toHaveLength(3)
    expect(routePath(row.origin, [], true)).toEqual([[53.48, -2.24]])
  })
})

describe('the block of a job', () => {
  const customer = { id: 'c1', name: 'Bakery', address: '41 Oldham Street' }
  const scheduled = { scheduledStart: '2026-12-07T09:00:00.000Z', scheduledEnd: '2026-12-07T10:00:00.000Z' }

  it('names the job’s own address when it has one, else its customer’s', () => {
    const own = jobBlock(job({ ...scheduled, customer, address: 'Unit 4, Westinghouse Road' }), 'UTC')
    expect(own.tooltip).toContain('Unit 4, Westinghouse Road')
    expect(own.tooltip).not.toContain('Oldham Street')
    expect(own.description).toContain('Unit 4, Westinghouse Road')
    const theirs = jobBlock(job({ ...scheduled, customer, ownPosition: false, address: null }), 'UTC')
    expect(theirs.tooltip).toContain('41 Oldham Street')
    expect(theirs.tooltip).not.toContain('own position')
  })

  it('says when the address shown is the customer’s but the job is elsewhere', () => {
    const elsewhere = jobBlock(job({ ...scheduled, customer, address: null }), 'UTC')
    expect(elsewhere.tooltip).toContain('41 Oldham Street (the customer’s; the job has its own position)')
  })
})

describe('the flags of a scheduled block', () => {
  const iso = (hhmm: string) => `2026-12-07T${hhmm}:00.000Z`
  const withBreak: BoardRow = { ...row, breaks: [{ start: iso('12:00'), end: iso('12:30'), isPaid: false }] }
  const visit = (start: string, end: string, overrides: Partial<BoardJob> = {}) =>
    job({
      status: 'ASSIGNED',
      shiftId: 's1',
      scheduledStart: iso(start),
      scheduledEnd: iso(end),
      ...overrides,
    })
  const codes = (j: BoardJob, on = withBreak) => blockFlags(j, on, 'UTC').map((f) => f.code)

  it('has none for a visit inside its window and shift and clear of breaks, or one not scheduled', () => {
    const window = { earliestStart: iso('08:00'), latestEnd: iso('16:00') }
    expect(blockFlags(visit('09:00', '10:00', window), withBreak, 'UTC')).toEqual([])
    expect(blockFlags(visit('11:00', '12:00', window), withBreak, 'UTC')).toEqual([])
    expect(blockFlags(visit('12:30', '13:30', window), withBreak, 'UTC')).toEqual([])
    expect(blockFlags(visit('15:00', '16:00', window), withBreak, 'UTC')).toEqual([])
    expect(blockFlags(job(), withBreak, 'UTC')).toEqual([])
  })

  it('says a window missed at either end; a missing bound is open', () => {
    const window = { timeWindowType: 'SOFT' as const, earliestStart: iso('10:00'), latestEnd: iso('11:00') }
    expect(blockFlags(visit('09:30', '10:30', window), withBreak, 'UTC')).toEqual([
      {
        code: 'SOFT_WINDOW_MISSED',
        message: 'Window missed: starts 09:30, before its window opens at 10:00',
      },
    ])
    expect(blockFlags(visit('10:30', '11:30', window), withBreak, 'UTC')).toEqual([
      { code: 'SOFT_WINDOW_MISSED', message: 'Window missed: ends 11:30, after its window closes at 11:00' },
    ])
    expect(codes(visit('09:00', '10:00', { latestEnd: iso('11:00') }))).toEqual([])
    expect(codes(visit('14:00', '15:00', { earliestStart: iso('10:00') }))).toEqual([])
  })

  it('says overtime past the end of the shift, by how much, in the zone shown', () => {
    expect(blockFlags(visit('15:30', '16:45'), withBreak, 'Europe/Berlin')).toEqual([
      { code: 'OVERTIME', message: 'Overtime: ends 17:45, 45 min after the shift ends at 17:00' },
    ])
    // Wholly after the shift: all of the visit is overtime.
    expect(blockFlags(visit('17:00', '18:00'), withBreak, 'UTC')[0]?.message).toBe(
      'Overtime: ends 18:00, 1 h after the shift ends at 16:00',
    )
  })

  it('says a visit over a break, and every problem a visit has at once', () => {
    expect(blockFlags(visit('11:45', '12:15'), withBreak, 'UTC')).toEqual([
      { code: 'IN_BREAK', message: 'In a break: the visit overlaps the break 12:00–12:30' },
    ])
    const lateBreak: BoardRow = { ...row, breaks: [{ start: iso('15:45'), end: iso('16:00'), isPaid: true }] }
    expect(codes(visit('15:30', '16:30', { latestEnd: iso('16:00') }), lateBreak)).toEqual([
      'SOFT_WINDOW_MISSED',
      'OVERTIME',
      'IN_BREAK',
    ])
  })
})

describe('a visit of a worker away', () => {
  const iso = (hhmm: string) => `2026-12-07T${hhmm}:00.000Z`
  const visit = (start: string, end: string) =>
    job({ status: 'ASSIGNED', shiftId: 's1', scheduledStart: iso(start), scheduledEnd: iso(end) })

  it('is flagged all day for a whole-day absence, and within its hours for part of a day', () => {
    const holiday: BoardRow = {
      ...row,
      absence: { id: 'a1', reason: 'HOLIDAY', startTime: null, endTime: null, note: null },
    }
    expect(blockFlags(visit('09:00', '10:00'), holiday, 'UTC')[0]).toEqual({
      code: 'WORKER_AWAY',
      message: `${row.user.name} is away (Holiday): give this visit to someone else`,
    })
    const dentist: BoardRow = {
      ...row,
      absence: { id: 'a2', reason: 'OTHER', startTime: '13:00', endTime: '14:00', note: 'Dentist' },
    }
    expect(blockFlags(visit('12:30', '13:15'), dentist, 'UTC').map((f) => f.message)).toEqual([
      `${row.user.name} is away 13:00–14:00 (Away): give this visit to someone else`,
    ])
    expect(blockFlags(visit('14:00', '15:00'), dentist, 'UTC')).toEqual([])
  })
})

describe('words', () => {
  it('says durations and moves dates', () => {
    expect(duration(5400)).toBe('1 h 30 min')
    expect(duration(2700)).toBe('45 min')
    expect(duration((2 * HOUR) / 1000)).toBe('2 h')
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
  })
})
