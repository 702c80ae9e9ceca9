// A series' rule as a dispatcher sets it (repeats daily/weekly/monthly/yearly, every N, which days,
// when it ends) and the RFC 5545 text the API takes, both ways; the rule in words ("Every 3 months
// on the 2nd Tuesday, 09:00–12:00 (must be kept)"); and its next dates. Dates are calendar days
// (YYYY-MM-DD) in the depot's calendar: the rule is expanded as the server expands it
// (src/modules/job-series/rules.ts), by the rrule library over floating dates — DTSTART at the start
// date's 00:00 UTC, each occurrence's UTC date its date — so no browser time zone moves a day.
import { RRule, type Weekday as RRuleWeekday } from 'rrule'

export type Frequency = 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY'
export type Weekday = 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA' | 'SU'
/** Which of the month's weekdays: the 1st to the 4th, or the last (-1). */
export type Ordinal = 1 | 2 | 3 | 4 | -1
export type Ends = 'never' | 'on' | 'after'

export const WEEKDAYS: { value: Weekday; label: string; short: string }[] = [
  { value: 'MO', label: 'Monday', short: 'Mon' },
  { value: 'TU', label: 'Tuesday', short: 'Tue' },
  { value: 'WE', label: 'Wednesday', short: 'Wed' },
  { value: 'TH', label: 'Thursday', short: 'Thu' },
  { value: 'FR', label: 'Friday', short: 'Fri' },
  { value: 'SA', label: 'Saturday', short: 'Sat' },
  { value: 'SU', label: 'Sunday', short: 'Sun' },
]

export const ORDINALS: { value: Ordinal; label: string }[] = [
  { value: 1, label: '1st' },
  { value: 2, label: '2nd' },
  { value: 3, label: '3rd' },
  { value: 4, label: '4th' },
  { value: -1, label: 'last' },
]

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

export const FREQUENCIES: { value: Frequency; label: string; unit: string; units: string }[] = [
  { value: 'DAILY', label: 'Daily', unit: 'day', units: 'days' },
  { value: 'WEEKLY', label: 'Weekly', unit: 'week', units: 'weeks' },
  { value: 'MONTHLY', label: 'Monthly', unit: 'month', units: 'months' },
  { value: 'YEARLY', label: 'Yearly', unit: 'year', units: 'years' },
]

/** The rule as the editor holds it; numbers stay the text typed until the rule is read. */
export interface RuleModel {
  frequency: Frequency
  interval: string
  /** WEEKLY: the days of the week. */
  weekdays: Weekday[]
  /** MONTHLY: on a day of the month, or on the nth weekday. */
  monthlyBy: 'day' | 'weekday'
  /** MONTHLY by day and YEARLY: the day of the month. */
  monthDay: string
  ordinal: Ordinal
  ordinalWeekday: Weekday
  /** YEARLY: the month, 1–12. */
  month: number
  ends: Ends
  /** ends 'on': the last date (YYYY-MM-DD). */
  until: string
  /** ends 'after': how many times. */
  count: string
}

/** A window's times in the depot's zone, or null for any time that day. */
export interface WindowModel {
  startTime: string
  endTime: string
  type: 'HARD' | 'SOFT'
}

const DAY_MS = 86_400_000
const midnight = (date: string) => new Date(`${date}T00:00:00Z`)
const dateOf = (at: Date) => at.toISOString().slice(0, 10)

/** The date `days` after (or before) `date`. */
export function addDays(date: string, days: number): string {
  return dateOf(new Date(midnight(date).getTime() + days * DAY_MS))
}

/** The weekday of a date. */
export function weekdayOf(date: string): Weekday {
  // getUTCDay: 0 is Sunday.
  return (['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const)[midnight(date).getUTCDay()] as Weekday
}

/** The editor's rule for a start date: weekly on its weekday, the other frequencies' days from it. */
export function defaultRule(startDate: string): RuleModel {
  const day = Number(startDate.slice(8, 10)) || 1
  const month = Number(startDate.slice(5, 7)) || 1
  return {
    frequency: 'WEEKLY',
    interval: '1',
    weekdays: [weekdayOf(startDate)],
    monthlyBy: 'day',
    monthDay: String(day),
    // A 5th weekday of the month (29th–31st) is its last.
    ordinal: day > 28 ? -1 : (Math.ceil(day / 7) as Ordinal),
    ordinalWeekday: weekdayOf(startDate),
    month,
    ends: 'never',
    until: '',
    count: '10',
  }
}

/** Why the rule cannot be sent yet, by editor field ('interval', 'weekdays', …); empty when it can. */
export function ruleProblems(rule: RuleModel, startDate: string): Record<string, string> {
  const problems: Record<string, string> = {}
  const whole = (text: string, min: number, max: number) => {
    const n = Number(text)
    return /^\d+$/.test(text.trim()) && n >= min && n <= max
  }
  if (!whole(rule.interval, 1, 1000)) problems.interval = 'Every: a whole number from 1 to 1000'
  if (rule.frequency === 'WEEKLY' && rule.weekdays.length === 0) problems.weekdays = 'Choose at least one day'
  if ((rule.frequency === 'MONTHLY' && rule.monthlyBy === 'day') || rule.frequency === 'YEARLY') {
    if (!whole(rule.monthDay, 1, 31)) problems.monthDay = 'Day of the month: a whole number from 1 to 31'
  }
  if (rule.ends === 'on') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(rule.until)) problems.until = 'Choose the last date'
    else if (startDate && rule.until < startDate)
      problems.until = 'The last date must be on or after the start date'
  }
  if (rule.ends === 'after' && !whole(rule.count, 1, 1000))
    problems.count = 'Number of times: a whole number from 1 to 1000'
  return problems
}

/** The RRULE text of a rule (without DTSTART: the start date is sent apart), as the API takes it. */
export function toRRule(rule: RuleModel): string {
  const parts = [`FREQ=${rule.frequency}`]
  const interval = Number(rule.interval)
  if (interval > 1) parts.push(`INTERVAL=${interval}`)
  switch (rule.frequency) {
    case 'WEEKLY':
      parts.push(
        `BYDAY=${WEEKDAYS.filter((d) => rule.weekdays.includes(d.value))
          .map((d) => d.value)
          .join(',')}`,
      )
      break
    case 'MONTHLY':
      parts.push(
        rule.monthlyBy === 'day'
          ? `BYMONTHDAY=${Number(rule.monthDay)}`
          : `BYDAY=${rule.ordinal}${rule.ordinalWeekday}`,
      )
      break
    case 'YEARLY':
      parts.push(`BYMONTH=${rule.month}`, `BYMONTHDAY=${Number(rule.monthDay)}`)
      break
  }
  if (rule.ends === 'after') parts.push(`COUNT=${Number(rule.count)}`)
  if (rule.ends === 'on') parts.push(`UNTIL=${rule.until.replaceAll('-', '')}`)
  return parts.join(';')
}

/**
 * The editor's rule for RRULE text (the API's normalised text), or null when the editor cannot
 * show it (set through the API with parts it does not offer: several month days, BYDAY with DAILY…).
 */
export function fromRRule(text: string, startDate: string): RuleModel | null {
  const parts = new Map<string, string>()
  for (const item of text.replace(/^RRULE:/i, '').split(';')) {
    const [name = '', value = ''] = item.split('=')
    parts.set(name.toUpperCase(), value.toUpperCase())
  }
  const frequency = parts.get('FREQ') as Frequency | undefined
  if (!frequency || !FREQUENCIES.some((f) => f.value === frequency)) return null
  const rule: RuleModel = { ...defaultRule(startDate), frequency, interval: parts.get('INTERVAL') ?? '1' }
  const byDay = parts.get('BYDAY')
  const byMonthDay = parts.get('BYMONTHDAY')
  const byMonth = parts.get('BYMONTH')
  const known = new Set(['FREQ', 'INTERVAL', 'COUNT', 'UNTIL'])
  if (frequency === 'WEEKLY') {
    known.add('BYDAY')
    const days = (byDay ?? weekdayOf(startDate)).split(',')
    if (!days.every((d) => WEEKDAYS.some((w) => w.value === d))) return null
    rule.weekdays = days as Weekday[]
  }
  if (frequency === 'MONTHLY') {
    if (byDay !== undefined && byMonthDay === undefined) {
      const match = /^(-1|[1-4])(MO|TU|WE|TH|FR|SA|SU)$/.exec(byDay)
      if (!match) return null
      rule.monthlyBy = 'weekday'
      rule.ordinal = Number(match[1]) as Ordinal
      rule.ordinalWeekday = match[2] as Weekday
      known.add('BYDAY')
    } else {
      const day = byMonthDay ?? startDate.slice(8, 10)
      if (!/^\d+$/.test(day)) return null
      rule.monthlyBy = 'day'
      rule.monthDay = String(Number(day))
      known.add('BYMONTHDAY')
    }
  }
  if (frequency === 'YEARLY') {
    const day = byMonthDay ?? startDate.slice(8, 10)
    const month = byMonth ?? startDate.slice(5, 7)
    if (!/^\d+$/.test(day) || !/^\d+$/.test(month)) return null
    rule.monthDay = String(Number(day))
    rule.month = Number(month)
    known.add('BYMONTHDAY').add('BYMONTH')
  }
  if ([...parts.keys()].some((name) => !known.has(name))) return null
  const count = parts.get('COUNT')
  const until = parts.get('UNTIL')
  if (count !== undefined) {
    rule.ends = 'after'
    rule.count = count
  } else if (until !== undefined) {
    rule.ends = 'on'
    rule.until = `${until.slice(0, 4)}-${until.slice(4, 6)}-${until.slice(6, 8)}`
  }
  return rule
}

const ordinalWord = (ordinal: Ordinal) => ORDINALS.find((o) => o.value === ordinal)?.label ?? ''
const weekdayWord = (day: Weekday) => WEEKDAYS.find((d) => d.value === day)?.label ?? day

/** "Monday", "Monday and Thursday", "Monday, Wednesday and Friday". */
function listWords(words: string[]): string {
  if (words.length <= 1) return words.join('')
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`
}

/** "1st", "2nd", "14th", "23rd". */
export function dayWord(day: number): string {
  const teen = day % 100 >= 11 && day % 100 <= 13
  const suffix = teen ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th')
  return `${day}${suffix}`
}

/** "31 March 2027" */
export function longDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number)
  return `${day} ${MONTHS[(month ?? 1) - 1]} ${year}`
}

/** "Tue 9 Feb 2027" */
export function shortDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number)
  const weekday = WEEKDAYS.find((d) => d.value === weekdayOf(date))?.short
  return `${weekday} ${day} ${MONTHS[(month ?? 1) - 1]?.slice(0, 3)} ${year}`
}

/** The rule in words: "Every 3 months on the 2nd Tuesday", "Every year on 14 March, 3 times". */
export function ruleWords(rule: RuleModel): string {
  const interval = Number(rule.interval) || 1
  const frequency = FREQUENCIES.find((f) => f.value === rule.frequency) ?? FREQUENCIES[0]!
  let words = interval === 1 ? `Every ${frequency.unit}` : `Every ${interval} ${frequency.units}`
  switch (rule.frequency) {
    case 'WEEKLY': {
      const days = WEEKDAYS.filter((d) => rule.weekdays.includes(d.value)).map((d) => d.label)
      if (days.length === 7) words += ' on every day of the week'
      else if (days.length > 0) words += ` on ${listWords(days)}`
      break
    }
    case 'MONTHLY':
      words +=
        rule.monthlyBy === 'day'
          ? ` on the ${dayWord(Number(rule.monthDay) || 1)}`
          : ` on the ${ordinalWord(rule.ordinal)} ${weekdayWord(rule.ordinalWeekday)}`
      break
    case 'YEARLY':
      words += ` on ${Number(rule.monthDay) || 1} ${MONTHS[rule.month - 1]}`
      break
  }
  if (rule.ends === 'after') {
    const count = Number(rule.count) || 1
    words += count === 1 ? ', once' : `, ${count} times`
  }
  if (rule.ends === 'on' && rule.until) words += `, until ${longDate(rule.until)}`
  return words
}

/** "09:00–12:00 (must be kept)", "any time that day". */
export function windowWords(window: WindowModel | null): string {
  if (!window) return 'any time that day'
  return `${window.startTime}–${window.endTime} (${window.type === 'HARD' ? 'must be kept' : 'preferred'})`
}

/** The whole series in words: the rule, then its window. */
export function seriesWords(rule: RuleModel, window: WindowModel | null): string {
  return `${ruleWords(rule)}, ${windowWords(window)}`
}

/**
 * A stored series in words: its rule through the editor's words when the editor can show it, else
 * the server's `ruleText` (rrule's English), then its window.
 */
export function storedSeriesWords(series: {
  rrule: string
  ruleText: string
  startDate: string
  window: WindowModel | null
}): string {
  const rule = fromRRule(series.rrule, series.startDate)
  const words = rule
    ? ruleWords(rule)
    : `${series.ruleText.charAt(0).toUpperCase()}${series.ruleText.slice(1)}`
  return `${words}, ${windowWords(series.window)}`
}

const RRULE_DAYS: Record<Weekday, RRuleWeekday> = {
  MO: RRule.MO,
  TU: RRule.TU,
  WE: RRule.WE,
  TH: RRule.TH,
  FR: RRule.FR,
  SA: RRule.SA,
  SU: RRule.SU,
}

/**
 * The rule's first `count` dates from `startDate` that fall on or after `from` (and on or before
 * `endDate`), looking at most ten years ahead — as the server counts them.
 */
export function nextDates(
  rule: RuleModel,
  startDate: string,
  from: string,
  count: number,
  endDate: string | null = null,
): string[] {
  if (Object.keys(ruleProblems(rule, startDate)).length > 0 || !startDate) return []
  const interval = Number(rule.interval)
  const options: ConstructorParameters<typeof RRule>[0] = {
    freq: { DAILY: RRule.DAILY, WEEKLY: RRule.WEEKLY, MONTHLY: RRule.MONTHLY, YEARLY: RRule.YEARLY }[
      rule.frequency
    ],
    interval,
    dtstart: midnight(startDate),
  }
  if (rule.frequency === 'WEEKLY') options.byweekday = rule.weekdays.map((d) => RRULE_DAYS[d])
  if (rule.frequency === 'MONTHLY') {
    if (rule.monthlyBy === 'day') options.bymonthday = [Number(rule.monthDay)]
    else options.byweekday = [RRULE_DAYS[rule.ordinalWeekday].nth(rule.ordinal)]
  }
  if (rule.frequency === 'YEARLY') {
    options.bymonth = [rule.month]
    options.bymonthday = [Number(rule.monthDay)]
  }
  if (rule.ends === 'after') options.count = Number(rule.count)
  if (rule.ends === 'on') options.until = midnight(rule.until)
  const first = from > startDate ? from : startDate
  const last = addDays(first, 3653)
  return new RRule(options)
    .between(
      midnight(first),
      midnight(endDate && endDate < last ? endDate : last),
      true,
      (_d, i) => i < count,
    )
    .map(dateOf)
}

/** Today's date in a time zone. */
export function todayIn(timeZone: string, now: number = Date.now()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' }).format(new Date(now))
}
