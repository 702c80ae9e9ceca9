// Route plan words for a dispatcher: why a job could not be planned, what a mode does, what a
// status means.
import type { PlanResult, RoutePlan } from './queries'

type Reason = PlanResult['unassigned'][number]['reason']
export type PlanBalance = RoutePlan['balance']

export const REASONS: Record<Reason, string> = {
  NO_LOCATION: 'Not on the map: neither the job nor its customer has coordinates',
  TIME_WINDOW: 'No worker can get there within its time window',
  CAPACITY: 'No van has room for what it needs',
  SKILL: 'No van has every tag (skill or equipment) it needs',
  NO_SHIFT: 'Nobody is working that day',
  WINDOW_PASSED: 'Its time window has already closed today',
}

export const MODES: { value: RoutePlan['mode']; label: string; hint: string }[] = [
  {
    value: 'KEEP_ASSIGNED',
    label: 'Keep assigned jobs',
    hint: 'Jobs already assigned stay with their worker; the waiting ones are fitted around them.',
  },
  {
    value: 'REPLAN_ALL',
    label: 'Replan everything',
    hint: 'Assigned jobs of the day may move to another worker or time, or back to the tray.',
  },
  {
    value: 'REPLAN_REMAINING',
    label: 'Re-plan rest of day',
    hint: 'From now: each worker goes on from where they are, after the job in progress; done work stays done.',
  },
]

/** Modes offered for a date: re-planning the rest of the day only makes sense today. */
export const modesFor = (isToday: boolean) =>
  MODES.filter((option) => isToday || option.value !== 'REPLAN_REMAINING')

/** The most days one plan may cover (the API's limit). */
export const MAX_PLAN_DAYS = 7

export const STABILITIES = [
  { value: 0, label: 'Re-plan freely' },
  { value: 0.5, label: 'Some changes' },
  { value: 1, label: 'As few changes as possible' },
]

export const BALANCES: { value: PlanBalance; label: string }[] = [
  { value: 'NONE', label: 'Cheapest plan' },
  { value: 'WORKLOAD', label: 'Even working time' },
  { value: 'USE_ALL', label: 'Work for every worker' },
]

export const PLAN_STATUS: Record<
  RoutePlan['status'],
  { label: string; tone: 'neutral' | 'green' | 'red' | 'amber' | 'blue' | 'purple' }
> = {
  QUEUED: { label: 'Queued', tone: 'neutral' },
  RUNNING: { label: 'Running', tone: 'blue' },
  DONE: { label: 'Ready to apply', tone: 'purple' },
  APPLIED: { label: 'Applied', tone: 'green' },
  FAILED: { label: 'Failed', tone: 'red' },
  CANCELLED: { label: 'Discarded', tone: 'neutral' },
  STALE: { label: 'Out of date', tone: 'amber' },
}

export const TIME_LIMITS = [
  { seconds: 1, label: '1 second (a quick look)' },
  { seconds: 5, label: '5 seconds' },
  { seconds: 10, label: '10 seconds' },
  { seconds: 30, label: '30 seconds' },
  { seconds: 60, label: '1 minute' },
  { seconds: 120, label: '2 minutes' },
  { seconds: 300, label: '5 minutes' },
]

const dayMonth = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' })
const dayMonthYear = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
})
const utc = (date: string) => new Date(`${date}T00:00:00Z`)

/** A plan's days in short: "7–11 Dec 2026", "30 Nov – 4 Dec 2026", "28 Dec 2026 – 1 Jan 2027". */
export function dayRange(from: string, to: string): string {
  if (from.slice(0, 4) !== to.slice(0, 4))
    return `${dayMonthYear.format(utc(from))} – ${dayMonthYear.format(utc(to))}`
  if (from.slice(0, 7) !== to.slice(0, 7))
    return `${dayMonth.format(utc(from))} – ${dayMonthYear.format(utc(to))}`
  return `${Number(from.slice(8))}–${dayMonthYear.format(utc(to))}`
}

/** "5 jobs", "1 day". */
export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** "12 jobs assigned on 3 days": a plan's jobs, and the days that have some. */
export function appliedWords(plan: RoutePlan): string {
  const days = plan.result?.days?.filter((day) => day.assignedJobs > 0).length ?? 0
  return `${count(plan.result?.totals.assignedJobs ?? 0, 'job')} assigned on ${count(days, 'day')}`
}

const money = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
export const formatCost = (value: number) => money.format(value)
export const formatNumber = (value: number, digits = 1) =>
  value.toLocaleString('en-GB', { maximumFractionDigits: digits })
