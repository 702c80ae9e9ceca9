// The week view's arithmetic: where a week starts, capacity in words, why a day takes no work, and
// where a job dropped on another day or worker lands.
import { describe, expect, it } from 'vitest'
import {
  capacityOf,
  closedReason,
  dueText,
  firstFreeStart,
  hoursText,
  mondayOf,
  placeOnDay,
  type WeekCell,
  type WeekJob,
  type WeekShift,
  type WeekWorker,
} from './week-model'

const LONDON = 'Europe/London'
const NEW_YORK = 'America/New_York'
const at = (date: string, hhmm: string) => `${date}T${hhmm}:00.000Z`

function shift(date: string, from: string, to: string, extra: Partial<WeekShift> = {}): WeekShift {
  return {
    shiftId: `shift-${date}-${from}`,
    vehicle: { id: 'van', name: 'Van 7' },
    locationId: 'depot',
    start: at(date, from),
    end: at(date, to),
    breaks: [],
    off: null,
    absence: null,
    ...extra,
  }
}

function cell(
  date: string,
  shifts: WeekShift[],
  jobs: WeekJob[] = [],
  absence: WeekCell['absence'] = null,
): WeekCell {
  return { date, shifts, absence, jobs, minutesBooked: 0, minutesAvailable: 0 }
}

function job(id: string, start: string | null, end: string | null, extra: Partial<WeekJob> = {}): WeekJob {
  return {
    id,
    number: 'J-1',
    title: id,
    status: start ? 'ASSIGNED' : 'CREATED',
    priority: 'NORMAL',
    customer: null,
    locationId: null,
    serviceDuration: 3600,
    timeWindowType: 'SOFT',
    earliestStart: null,
    latestEnd: null,
    scheduledStart: start,
    scheduledEnd: end,
    assignedUserId: start ? 'ana' : null,
    shiftId: start ? 'shift-monday' : null,
    ...extra,
  }
}

const worker = (days: WeekCell[]): WeekWorker => ({ user: { id: 'ben', name: 'Ben', colour: 2 }, days })
const HOLIDAY = { id: 'a1', reason: 'HOLIDAY' as const, startTime: null, endTime: null, note: 'Lanzarote' }

describe('the week view', () => {
  it('starts a week on the Monday on or before a date', () => {
    expect(mondayOf('2026-12-07')).toBe('2026-12-07')
    expect(mondayOf('2026-12-09')).toBe('2026-12-07')
    expect(mondayOf('2026-12-13')).toBe('2026-12-07')
    expect(mondayOf('2027-01-01')).toBe('2026-12-28')
  })

  it('says capacity in hours and minutes, and when a day is overbooked', () => {
    expect(hoursText(390)).toBe('6 h 30')
    expect(hoursText(480)).toBe('8 h')
    expect(hoursText(65)).toBe('1 h 05')
    expect(hoursText(45)).toBe('45 min')
    expect(hoursText(0)).toBe('0 h')
    expect(capacityOf({ minutesBooked: 390, minutesAvailable: 480 })).toEqual({
      text: '6 h 30 of 8 h',
      share: 390 / 480,
      over: false,
    })
    expect(capacityOf({ minutesBooked: 540, minutesAvailable: 480 }).over).toBe(true)
    expect(capacityOf({ minutesBooked: 60, minutesAvailable: 0 })).toMatchObject({ over: true, share: 2 })
  })

  it('says why a day takes no work', () => {
    const date = '2026-12-08'
    expect(closedReason(cell(date, [shift(date, '08:00', '16:00')]))).toBeNull()
    expect(closedReason(cell(date, []))).toBe('No shift')
    expect(
      closedReason(
        cell(date, [shift(date, '08:00', '16:00', { off: 'ABSENT', absence: HOLIDAY })], [], HOLIDAY),
      ),
    ).toBe('Holiday')
    expect(closedReason(cell(date, [shift(date, '08:00', '16:00', { off: 'SHIFT_OFF' })]))).toBe(
      'Shift cancelled',
    )
    // One of two shifts off: the day still takes work.
    expect(
      closedReason(
        cell(date, [shift(date, '08:00', '12:00', { off: 'SHIFT_OFF' }), shift(date, '13:00', '17:00')]),
      ),
    ).toBeNull()
  })

  it('keeps a moved job’s time of day when a shift covers it on the new day', () => {
    const monday = job('boiler', at('2026-12-07', '09:00'), at('2026-12-07', '10:30'))
    const tuesday = cell('2026-12-08', [shift('2026-12-08', '08:00', '16:00')])
    expect(placeOnDay(monday, worker([tuesday]), tuesday, LONDON)).toEqual({
      userId: 'ben',
      shiftId: 'shift-2026-12-08-08:00',
      start: Date.parse(at('2026-12-08', '09:00')),
      end: Date.parse(at('2026-12-08', '10:30')),
    })
    // In New York (UTC-5 in December): 09:00 there is 14:00Z, on either day.
    const york = job('boiler', at('2026-12-07', '14:00'), at('2026-12-07', '15:00'))
    const thursday = cell('2026-12-10', [shift('2026-12-10', '13:00', '21:00')])
    expect(placeOnDay(york, worker([thursday]), thursday, NEW_YORK)?.start).toBe(
      Date.parse(at('2026-12-10', '14:00')),
    )
  })

  it('otherwise takes the first free quarter hour from the shift’s start, after visits and breaks', () => {
    const monday = job('boiler', at('2026-12-07', '07:00'), at('2026-12-07', '08:00'))
    const date = '2026-12-08'
    const lateShift = shift(date, '10:00', '18:00', {
      breaks: [{ start: at(date, '11:00'), end: at(date, '11:30'), isPaid: false }],
    })
    const busy = cell(date, [lateShift], [job('tap', at(date, '10:00'), at(date, '10:45'))])
    // 10:00–10:45 taken, 11:00–11:30 a break: an hour fits from 12:00 (a drive after the break).
    expect(placeOnDay(monday, worker([busy]), busy, LONDON)).toMatchObject({
      shiftId: lateShift.shiftId,
      start: Date.parse(at(date, '12:00')),
      end: Date.parse(at(date, '13:00')),
    })
    // Its own time taken on the new day: the first free quarter hour after it, a drive's allowance
    // after the visit there (09:00–10:00, so 10:30), not the shift's start.
    const nine = job('boiler', at('2026-12-07', '09:00'), at('2026-12-07', '10:00'))
    const early = shift(date, '08:00', '16:00')
    const taken = cell(date, [early], [job('tap', at(date, '09:00'), at(date, '10:00'))])
    expect(placeOnDay(nine, worker([taken]), taken, LONDON)).toMatchObject({
      start: Date.parse(at(date, '10:30')),
      end: Date.parse(at(date, '11:30')),
    })
    // A full shift: its start, and the server says what is wrong.
    expect(
      firstFreeStart(
        shift(date, '10:00', '11:00'),
        [job('x', at(date, '10:00'), at(date, '11:00'))],
        3_600_000,
      ),
    ).toBe(Date.parse(at(date, '10:00')))
  })

  it('places a waiting job at its earliest start’s time, else from the shift’s start; never on a day away', () => {
    const date = '2026-12-09'
    const day = cell(date, [shift(date, '08:00', '16:00')])
    const waiting = job('fence', null, null, {
      serviceDuration: 1800,
      earliestStart: at('2026-12-08', '13:00'),
    })
    expect(placeOnDay(waiting, worker([day]), day, LONDON)).toMatchObject({
      start: Date.parse(at(date, '13:00')),
      end: Date.parse(at(date, '13:30')),
    })
    const anyTime = job('gate', null, null)
    expect(placeOnDay(anyTime, worker([day]), day, LONDON)?.start).toBe(Date.parse(at(date, '08:00')))
    const away = cell(date, [shift(date, '08:00', '16:00', { off: 'ABSENT', absence: HOLIDAY })], [], HOLIDAY)
    expect(placeOnDay(anyTime, worker([away]), away, LONDON)).toBeNull()
    expect(placeOnDay(anyTime, worker([cell(date, [])]), cell(date, []), LONDON)).toBeNull()
  })

  it('says when a waiting job is due, and when it is overdue', () => {
    expect(dueText(at('2026-12-08', '16:00'), '2026-12-07', LONDON)).toBe('Due Tue 8 Dec')
    expect(dueText(at('2026-11-30', '12:00'), '2026-12-07', LONDON)).toBe('Overdue · was due Mon 30 Nov')
  })
})
