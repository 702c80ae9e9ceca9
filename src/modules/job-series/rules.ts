// The recurrence rule of a series: the RFC 5545 RRULE subset we take (refused with 400 at
// /body/rrule otherwise), its normalised text, its words, and its dates. rrule (the library) expands
// it over *floating dates*: DTSTART is the start date at 00:00 UTC and each occurrence's UTC calendar
// date is its date, so no time zone or daylight-saving change can move an occurrence to another day;
// the window's time of day is placed on that date in the depot's zone afterwards (occurrences.ts).
import rrule from 'rrule'
import { validationError } from '../../http/errors.js'

const { RRule } = rrule
type RRuleOptions = ConstructorParameters<typeof RRule>[0]

export const DAY_MS = 86_400_000
const EARLIEST_DAY = Date.parse('0001-01-01T00:00:00Z')
const LATEST_DAY = Date.parse('9999-12-31T00:00:00Z')
/**
 * How far ahead a search for the next dates looks. rrule walks every period up to its end, so an
 * unbounded search for a rule that never matches (every day, on 31 February) would take seconds.
 */
export const LOOKAHEAD_DAYS = 3653
/** The last date a series may reach (the API's calendar days end there too). */
const LAST_DATE = '9998-12-31'

export const ALLOWED_RULE =
  'FREQ=DAILY|WEEKLY|MONTHLY|YEARLY, INTERVAL, BYDAY (an ordinal such as 2TU or -1FR only with ' +
  'FREQ=MONTHLY), BYMONTHDAY, BYMONTH, and COUNT or UNTIL (a date, YYYYMMDD), separated by ";"'

const FREQUENCIES = { DAILY: RRule.DAILY, WEEKLY: RRule.WEEKLY, MONTHLY: RRule.MONTHLY, YEARLY: RRule.YEARLY }
const WEEKDAY = /^([+-]?[1-5])?(MO|TU|WE|TH|FR|SA|SU)$/
/** The parts in the order the normalised text lists them. */
const PARTS = ['FREQ', 'INTERVAL', 'BYMONTH', 'BYMONTHDAY', 'BYDAY', 'COUNT', 'UNTIL'] as const
type Part = (typeof PARTS)[number]

/** A rule we accept: its normalised text and what rrule needs to expand it. */
export interface Rule {
  text: string
  options: Partial<RRuleOptions>
}

const refuse = (message: string) => validationError('/body/rrule', message)

function integerList(name: Part, value: string, min: number, max: number, nonZero = false): number[] {
  return value.split(',').map((item) => {
    const n = /^[+-]?\d{1,4}$/.test(item) ? Number(item) : Number.NaN
    if (!Number.isInteger(n) || n < min || n > max || (nonZero && n === 0)) {
      throw refuse(`${name}=${value} is not allowed: each value must be a whole number from ${min} to ${max}`)
    }
    return n
  })
}

/** YYYYMMDD → YYYY-MM-DD, or 400. */
function untilDate(value: string): string {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(value)
  const date = match ? `${match[1]}-${match[2]}-${match[3]}` : ''
  if (!match || !isCalendarDate(date)) {
    throw refuse(`UNTIL=${value} is not allowed: UNTIL is a date, YYYYMMDD (no time of day)`)
  }
  return date
}

/** Whether `date` is a real YYYY-MM-DD calendar date (not 2027-02-30). */
export function isCalendarDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || date < '0001-01-01') return false
  return new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) === date
}

/**
 * The rule in `text` (an optional "RRULE:" prefix), checked against the subset we take; 400 at
 * /body/rrule saying what is allowed when it is not.
 */
export function parseRule(text: string): Rule {
  const body = text.trim().replace(/^RRULE:/i, '')
  const given = new Map<Part, string>()
  for (const item of body.split(';')) {
    const [rawName = '', value, extra] = item.split('=')
    const name = rawName.trim().toUpperCase()
    if (value === undefined || extra !== undefined || value.trim() === '') {
      throw refuse(`"${item}" is not NAME=VALUE; allowed: ${ALLOWED_RULE}`)
    }
    if (!(PARTS as readonly string[]).includes(name)) {
      throw refuse(
        `${name} is not allowed (DTSTART is the startDate, times of day are the window); allowed: ${ALLOWED_RULE}`,
      )
    }
    if (given.has(name as Part)) throw refuse(`${name} appears more than once`)
    given.set(name as Part, value.trim().toUpperCase())
  }
  const freq = given.get('FREQ')
  if (freq === undefined || !(freq in FREQUENCIES)) {
    throw refuse(`FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY; allowed: ${ALLOWED_RULE}`)
  }
  if (given.has('COUNT') && given.has('UNTIL')) throw refuse('COUNT and UNTIL cannot both be given')
  const options: Partial<RRuleOptions> = { freq: FREQUENCIES[freq as keyof typeof FREQUENCIES] }
  const normal: string[] = [`FREQ=${freq}`]
  const interval = given.get('INTERVAL')
  if (interval !== undefined) {
    const [n = 1] = integerList('INTERVAL', interval, 1, 1000)
    if (n !== 1) normal.push(`INTERVAL=${n}`)
    options.interval = n
  }
  const byMonth = given.get('BYMONTH')
  if (byMonth !== undefined) {
    options.bymonth = integerList('BYMONTH', byMonth, 1, 12)
    normal.push(`BYMONTH=${options.bymonth.join(',')}`)
  }
  const byMonthDay = given.get('BYMONTHDAY')
  if (byMonthDay !== undefined) {
    options.bymonthday = integerList('BYMONTHDAY', byMonthDay, -31, 31, true)
    normal.push(`BYMONTHDAY=${options.bymonthday.join(',')}`)
  }
  const byDay = given.get('BYDAY')
  if (byDay !== undefined) {
    const days = byDay.split(',').map((day) => {
      const match = WEEKDAY.exec(day)
      if (!match)
        throw refuse(
          `BYDAY=${byDay} is not allowed: each day is MO…SU, with an ordinal (2TU, -1FR) for MONTHLY`,
        )
      if (match[1] !== undefined && freq !== 'MONTHLY') {
        throw refuse(`BYDAY=${byDay}: an ordinal (${day}) is only allowed with FREQ=MONTHLY`)
      }
      const n = match[1] === undefined ? undefined : Number(match[1])
      const weekday = RRule[match[2] as 'MO']
      return { text: `${n ?? ''}${match[2]}`, weekday: n === undefined ? weekday : weekday.nth(n) }
    })
    options.byweekday = days.map((day) => day.weekday)
    normal.push(`BYDAY=${days.map((day) => day.text).join(',')}`)
  }
  const count = given.get('COUNT')
  if (count !== undefined) {
    const [n = 1] = integerList('COUNT', count, 1, 1000)
    options.count = n
    normal.push(`COUNT=${n}`)
  }
  const until = given.get('UNTIL')
  if (until !== undefined) {
    const date = untilDate(until)
    options.until = new Date(`${date}T00:00:00Z`)
    normal.push(`UNTIL=${date.replaceAll('-', '')}`)
  }
  return { text: normal.join(';'), options }
}

const dateOf = (at: Date) => at.toISOString().slice(0, 10)
const midnight = (date: string) => new Date(`${date}T00:00:00Z`)

function expander(rule: Rule, startDate: string) {
  return new RRule({ ...rule.options, dtstart: midnight(startDate) })
}

/** The rule's dates from `startDate` within [from, to] (inclusive), at most `limit` of them. */
export function datesBetween(
  rule: Rule,
  startDate: string,
  from: string,
  to: string,
  limit = 1000,
): string[] {
  if (from > to) return []
  return expander(rule, startDate)
    .between(midnight(from), midnight(to), true, (_date, i) => i < limit)
    .map(dateOf)
}

/** The first `count` dates of the rule on or after `from`, within `lookaheadDays` of it. */
export function datesFrom(
  rule: Rule,
  startDate: string,
  from: string,
  count: number,
  lookaheadDays = LOOKAHEAD_DAYS,
): string[] {
  const last = addDays(from, lookaheadDays)
  return datesBetween(rule, startDate, from, last < LAST_DATE ? last : LAST_DATE, count)
}

/** Whether `date` is one of the rule's dates. */
export function isOccurrence(rule: Rule, startDate: string, date: string): boolean {
  return datesBetween(rule, startDate, date, date, 1).length === 1
}

/** The rule in English ("every 3 months on the 2nd Tuesday for 4 times"). */
export function ruleText(rule: Rule): string {
  return new RRule(rule.options).toText()
}

/** YYYY-MM-DD `days` after (or before) `date`, within years 0001–9999. */
export function addDays(date: string, days: number): string {
  const at = Date.parse(`${date}T00:00:00Z`) + days * DAY_MS
  return new Date(Math.min(Math.max(at, EARLIEST_DAY), LATEST_DAY)).toISOString().slice(0, 10)
}
