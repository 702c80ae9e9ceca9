import type { Schema } from '../../api/types'

export type EventName = Schema<'Automation'>['event']

/** Every event an automation can trigger on (spec §6), with what it means for a person. */
export const EVENTS: { value: EventName; label: string; hint: string }[] = [
  { value: 'JOB_CREATED', label: 'Job created', hint: 'A new job is created' },
  { value: 'JOB_UPDATED', label: 'Job updated', hint: 'A job’s details are modified' },
  { value: 'STATUS_CHANGED', label: 'Status changed', hint: 'A job’s status changes' },
  { value: 'JOB_ASSIGNED', label: 'Job assigned', hint: 'A job is assigned to a worker' },
  { value: 'JOB_UNASSIGNED', label: 'Job unassigned', hint: 'A job is removed from a worker' },
  { value: 'JOB_COMPLETED', label: 'Job completed', hint: 'A job is marked completed' },
  { value: 'JOB_CANCELLED', label: 'Job cancelled', hint: 'A job is cancelled' },
  { value: 'FORM_SUBMITTED', label: 'Form submitted', hint: 'A form submission is received' },
  {
    value: 'JOB_ETA_CHANGED',
    label: 'Arrival time changed',
    hint: 'A stop’s predicted arrival moves by more than 15 minutes',
  },
  { value: 'JOB_EN_ROUTE', label: 'On the way', hint: 'A worker taps “On my way” (with the tracking link)' },
  {
    value: 'ATTACHMENT_ADDED',
    label: 'Attachment added',
    hint: 'A photo, signature or file is attached to a job',
  },
]

// Fails to compile when the API gains an event this list lacks.
type Missing = Exclude<EventName, (typeof EVENTS)[number]['value']>
const exhaustive: Missing extends never ? true : Missing = true
void exhaustive

export function eventLabel(event: EventName): string {
  return EVENTS.find((e) => e.value === event)?.label ?? event
}
