// The one place a shift's day is decided (shift-days.ts): pattern, then the date's change, then absences.
import { describe, expect, it } from 'vitest'
import type { AbsenceRow } from '../../db/types.js'
import { resolveShiftDay } from './shift-days.js'

const DATE = '2026-12-07' // a Monday; London is on UTC in December
const at = (hhmm: string) => Date.parse(`${DATE}T${hhmm}:00.000Z`)
const template = { id: 's1', user_id: 'u1', start_time: '08:00', end_time: '16:00' }
const lunch = [{ start_time: '12:00', end_time: '12:30', is_paid: 0 }]
const absence = (over: Partial<AbsenceRow>): AbsenceRow => ({
  id: 'a1',
  organisation_id: 'o1',
  user_id: 'u1',
  start_date: DATE,
  end_date: DATE,
  start_time: null,
  end_time: null,
  reason: 'HOLIDAY',
  note: null,
  created_at: '2026-11-01T00:00:00.000Z',
  ...over,
})
const day = (change?: Parameters<typeof resolveShiftDay>[4], absences: AbsenceRow[] = []) =>
  resolveShiftDay(template, DATE, 'Europe/London', lunch, change, absences)

describe('a shift on a date', () => {
  it('follows the weekly pattern when nothing changed', () => {
    expect(day()).toEqual({
      off: false,
      start: at('08:00'),
      end: at('16:00'),
      breaks: [{ start: at('12:00'), end: at('12:30'), isPaid: false, absenceId: null }],
      changed: false,
      absences: [],
    })
  })

  it('takes the hours of a one-off change, keeping the breaks that fit and cutting the others', () => {
    const shorter = day({ start_time: '12:15', end_time: '18:00', is_off: 0 })
    expect(shorter).toMatchObject({ off: false, start: at('12:15'), end: at('18:00'), changed: true })
    expect(shorter.off === false && shorter.breaks).toEqual([
      { start: at('12:15'), end: at('12:30'), isPaid: false, absenceId: null },
    ])
    const early = day({ start_time: '06:00', end_time: '11:00', is_off: 0 })
    expect(early.off === false && early.breaks).toEqual([])
    expect(day({ start_time: null, end_time: null, is_off: 1 })).toEqual({
      off: true,
      why: 'SHIFT_OFF',
      absence: null,
    })
  })

  it('is off with the reason while the worker is away, over every date of the absence', () => {
    const away = absence({ start_date: '2026-12-05', end_date: '2026-12-09', reason: 'SICK', note: 'Flu' })
    expect(day(undefined, [away])).toEqual({
      off: true,
      why: 'ABSENT',
      absence: { id: 'a1', reason: 'SICK', startTime: null, endTime: null, note: 'Flu' },
    })
    // An absence beats a change of hours; one of other dates changes nothing.
    expect(day({ start_time: '10:00', end_time: '12:00', is_off: 0 }, [away]).off).toBe(true)
    expect(day(undefined, [absence({ start_date: '2026-12-08', end_date: '2026-12-09' })]).off).toBe(false)
  })

  it('shortens the shift for a part-day absence at either edge, and blocks one in the middle', () => {
    const morning = day(undefined, [absence({ start_time: '07:00', end_time: '09:30' })])
    expect(morning).toMatchObject({ off: false, start: at('09:30'), end: at('16:00') })
    const afternoon = day(undefined, [absence({ start_time: '15:00', end_time: '18:00' })])
    expect(afternoon).toMatchObject({ off: false, start: at('08:00'), end: at('15:00') })
    // 11:00–12:15 swallows the lunch break it overlaps: one unpaid block 11:00–12:30.
    const dentist = day(undefined, [absence({ start_time: '11:00', end_time: '12:15', reason: 'OTHER' })])
    expect(dentist.off === false && dentist.breaks).toEqual([
      { start: at('11:00'), end: at('12:30'), isPaid: false, absenceId: 'a1' },
    ])
    expect(dentist.off === false && dentist.absences.map((a) => a.reason)).toEqual(['OTHER'])
    // Covering the whole shift is a day off; outside the shift it changes nothing.
    expect(day(undefined, [absence({ start_time: '07:00', end_time: '17:00' })]).off).toBe(true)
    expect(day(undefined, [absence({ start_time: '17:00', end_time: '18:00' })])).toEqual(day())
  })

  it('reads the hours on the depot’s clock (New York is UTC−5 in December)', () => {
    const york = resolveShiftDay(template, DATE, 'America/New_York', [], undefined, [])
    expect(york).toMatchObject({ start: at('13:00'), end: at('21:00') })
  })
})
