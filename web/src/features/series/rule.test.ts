import { describe, expect, it } from 'vitest'
import {
  defaultRule,
  fromRRule,
  nextDates,
  type RuleModel,
  ruleProblems,
  ruleWords,
  seriesWords,
  storedSeriesWords,
  toRRule,
} from './rule'

const rule = (changes: Partial<RuleModel>, start = '2027-02-09'): RuleModel => ({
  ...defaultRule(start),
  ...changes,
})

describe('a series rule', () => {
  it('says the rules of the brief in words', () => {
    const quarterly = rule({ frequency: 'MONTHLY', interval: '3', monthlyBy: 'weekday' })
    expect(seriesWords(quarterly, { startTime: '09:00', endTime: '12:00', type: 'HARD' })).toBe(
      'Every 3 months on the 2nd Tuesday, 09:00–12:00 (must be kept)',
    )
    expect(seriesWords(rule({ weekdays: ['TH', 'MO'] }), null)).toBe(
      'Every week on Monday and Thursday, any time that day',
    )
    const yearly = rule({ frequency: 'YEARLY', month: 3, monthDay: '14', ends: 'after', count: '3' })
    expect(ruleWords(yearly)).toBe('Every year on 14 March, 3 times')
    expect(ruleWords(rule({ frequency: 'DAILY', interval: '2', ends: 'on', until: '2027-03-31' }))).toBe(
      'Every 2 days, until 31 March 2027',
    )
    expect(ruleWords(rule({ frequency: 'MONTHLY', monthDay: '23', ends: 'after', count: '1' }))).toBe(
      'Every month on the 23rd, once',
    )
    expect(ruleWords(rule({ weekdays: ['MO', 'WE', 'FR'], interval: '2' }))).toBe(
      'Every 2 weeks on Monday, Wednesday and Friday',
    )
  })

  it('defaults from its start date: the weekday, the day and the nth weekday of the month', () => {
    expect(defaultRule('2027-02-09')).toMatchObject({
      weekdays: ['TU'],
      monthDay: '9',
      ordinal: 2,
      ordinalWeekday: 'TU',
      month: 2,
    })
    expect(defaultRule('2027-03-30')).toMatchObject({ ordinal: -1, ordinalWeekday: 'TU' })
  })

  it('writes RRULE text the API takes and reads the API’s back', () => {
    const cases: [Partial<RuleModel>, string][] = [
      [{ frequency: 'MONTHLY', interval: '3', monthlyBy: 'weekday' }, 'FREQ=MONTHLY;INTERVAL=3;BYDAY=2TU'],
      [{ weekdays: ['TH', 'MO'] }, 'FREQ=WEEKLY;BYDAY=MO,TH'],
      [
        { frequency: 'YEARLY', month: 3, monthDay: '14', ends: 'after', count: '3' },
        'FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=14;COUNT=3',
      ],
      [
        { frequency: 'MONTHLY', monthlyBy: 'weekday', ordinal: -1, ordinalWeekday: 'FR' },
        'FREQ=MONTHLY;BYDAY=-1FR',
      ],
      [{ frequency: 'DAILY', ends: 'on', until: '2027-03-31' }, 'FREQ=DAILY;UNTIL=20270331'],
    ]
    for (const [changes, text] of cases) {
      const model = rule(changes)
      expect(toRRule(model)).toBe(text)
      expect(toRRule(fromRRule(text, '2027-02-09') as RuleModel)).toBe(text)
    }
    // Rules the editor does not offer are left to the server's words.
    expect(fromRRule('FREQ=MONTHLY;BYMONTHDAY=1,15', '2027-02-09')).toBeNull()
    expect(fromRRule('FREQ=DAILY;BYDAY=MO', '2027-02-09')).toBeNull()
    expect(
      storedSeriesWords({
        rrule: 'FREQ=MONTHLY;BYMONTHDAY=1,15',
        ruleText: 'every month on the 1st and 15th',
        startDate: '2027-01-01',
        window: null,
      }),
    ).toBe('Every month on the 1st and 15th, any time that day')
  })

  it('finds the next dates from a day, as the server does', () => {
    const quarterly = rule({ frequency: 'MONTHLY', interval: '3', monthlyBy: 'weekday' })
    expect(nextDates(quarterly, '2027-02-09', '2027-01-01', 4)).toEqual([
      '2027-02-09',
      '2027-05-11',
      '2027-08-10',
      '2027-11-09',
    ])
    expect(nextDates(quarterly, '2027-02-09', '2027-02-10', 2)).toEqual(['2027-05-11', '2027-08-10'])
    const yearly = rule({ frequency: 'YEARLY', month: 3, monthDay: '14', ends: 'after', count: '3' })
    expect(nextDates(yearly, '2027-02-09', '2027-02-09', 4)).toEqual([
      '2027-03-14',
      '2028-03-14',
      '2029-03-14',
    ])
    expect(nextDates(rule({ frequency: 'DAILY' }), '2027-02-09', '2027-02-09', 4, '2027-02-10')).toEqual([
      '2027-02-09',
      '2027-02-10',
    ])
    expect(nextDates(rule({ weekdays: [] }), '2027-02-09', '2027-02-09', 4)).toEqual([])
  })

  it('names what is wrong before anything is sent', () => {
    expect(ruleProblems(rule({ interval: '0', weekdays: [] }), '2027-02-09')).toEqual({
      interval: 'Every: a whole number from 1 to 1000',
      weekdays: 'Choose at least one day',
    })
    expect(ruleProblems(rule({ frequency: 'YEARLY', monthDay: '32' }), '2027-02-09')).toHaveProperty(
      'monthDay',
    )
    expect(ruleProblems(rule({ ends: 'on', until: '2027-01-01' }), '2027-02-09')).toEqual({
      until: 'The last date must be on or after the start date',
    })
    expect(ruleProblems(rule({ ends: 'after', count: 'x' }), '2027-02-09')).toHaveProperty('count')
  })
})
