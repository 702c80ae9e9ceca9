// How a job's status, priority and time window read, in one place for every page that shows them
// (jobs, customers' defaults).
import type { Schema } from '../../api/types'
import type { Tone } from '../../ui/badge'

type Job = Schema<'Job'>
export type JobStatus = Job['status']
export type JobPriority = Job['priority']
export type TimeWindowType = Job['timeWindowType']

export const STATUSES: { value: JobStatus; label: string; tone: Tone }[] = [
  { value: 'CREATED', label: 'Unassigned', tone: 'neutral' },
  { value: 'ASSIGNED', label: 'Assigned', tone: 'blue' },
  { value: 'IN_PROGRESS', label: 'In progress', tone: 'amber' },
  { value: 'COMPLETED', label: 'Completed', tone: 'green' },
  { value: 'CANCELLED', label: 'Cancelled', tone: 'red' },
]

export const PRIORITIES: { value: JobPriority; label: string; tone: Tone }[] = [
  { value: 'HIGH', label: 'High', tone: 'red' },
  { value: 'NORMAL', label: 'Normal', tone: 'neutral' },
  { value: 'LOW', label: 'Low', tone: 'neutral' },
]

/**
 * One wording for the two kinds of window, on every page and on the phone: HARD (the API's word) is
 * "must be kept", SOFT "preferred". The hints explain them where a kind is chosen.
 */
export const WINDOW_TYPES: { value: TimeWindowType; label: string; hint: string }[] = [
  {
    value: 'SOFT',
    label: 'Preferred',
    hint: 'Preferred (SOFT): a visit outside it is allowed, at a cost to the plan',
  },
  {
    value: 'HARD',
    label: 'Must be kept',
    hint: 'Must be kept (HARD): a visit outside it is refused, and plans never make one',
  },
]

/** "Must be kept" or "Preferred". */
export const windowTypeLabel = (type: TimeWindowType) => (type === 'HARD' ? 'Must be kept' : 'Preferred')

export const statusOf = (status: JobStatus) => STATUSES.find((s) => s.value === status) ?? STATUSES[0]!
export const priorityOf = (priority: JobPriority) =>
  PRIORITIES.find((p) => p.value === priority) ?? PRIORITIES[1]!
