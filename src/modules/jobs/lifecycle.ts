// The job state machine (DESIGN.md "Job lifecycle") and the domain events each transition emits.
//
//   CREATED ──assign──▶ ASSIGNED ──start──▶ IN_PROGRESS ──complete──▶ COMPLETED
//      ▲                 │  ▲ └─assign (re-assign or re-schedule)
//      └────unassign─────┘
//   CREATED, ASSIGNED, IN_PROGRESS ──cancel──▶ CANCELLED
//
// Event `data` (spec §6 fixes only JOB_COMPLETED; the rest is ours, and events/schemas.ts is the
// contract). Every job event carries `jobId`, `title` and `status` (the status after the
// transition), plus:
//   STATUS_CHANGED  previousStatus, changedAt
//   JOB_ASSIGNED    customerId, assignedUserId, shiftId, scheduledStart, scheduledEnd
//   JOB_UNASSIGNED  previousAssignedUserId
//   JOB_COMPLETED   customerId, assignedUserId, completedAt (spec §6), attachments (ours)
//   JOB_CANCELLED   customerId, assignedUserId, previousStatus, cancelledAt, reason (null when none given)
// A transition emits its own event first, then STATUS_CHANGED when the status moved. Re-assigning an
// ASSIGNED job to a different worker emits JOB_UNASSIGNED (for the previous worker) then JOB_ASSIGNED,
// and no STATUS_CHANGED: receivers that track a worker's jobs see the job leave one list and join the
// other. Re-scheduling the same worker emits JOB_ASSIGNED alone.
import type { JobRow, JobStatus, JobUpdate } from '../../db/types.js'
import { AppError } from '../../http/errors.js'
import type { DomainEvent, EventData } from '../events/service.js'

export type LifecycleAction = 'assign' | 'unassign' | 'start' | 'complete' | 'cancel'

/** For each action: the statuses it may start from and the status it leads to. */
export const TRANSITIONS: Readonly<Record<LifecycleAction, { from: readonly JobStatus[]; to: JobStatus }>> = {
  assign: { from: ['CREATED', 'ASSIGNED'], to: 'ASSIGNED' },
  unassign: { from: ['ASSIGNED'], to: 'CREATED' },
  start: { from: ['ASSIGNED'], to: 'IN_PROGRESS' },
  complete: { from: ['IN_PROGRESS'], to: 'COMPLETED' },
  cancel: { from: ['CREATED', 'ASSIGNED', 'IN_PROGRESS'], to: 'CANCELLED' },
}

/** The status `action` leads to from `status`, or 422 INVALID_TRANSITION. */
export function assertTransition(status: JobStatus, action: LifecycleAction): JobStatus {
  const { from, to } = TRANSITIONS[action]
  if (!from.includes(status)) {
    throw new AppError(
      'INVALID_TRANSITION',
      `Cannot ${action} a job that is ${status}; ${action} is allowed only from ${from.join(' or ')}`,
    )
  }
  return to
}

export type JobEvent = DomainEvent

/** What a transition did: the row before and after, when, and the cancellation reason if any. */
export interface TransitionRecord {
  action: LifecycleAction
  before: JobRow
  after: JobRow
  at: string
  reason?: string | null
}

const subject = (job: JobRow) => ({ jobId: job.id, title: job.title, status: job.status })

/** A value the transition itself has just set: missing means a bug, not bad input. */
function present<T>(value: T | null, field: string): T {
  if (value === null) throw new Error(`${field} is not set after the transition`)
  return value
}

export function statusChangedEvent(after: JobRow, previousStatus: JobStatus, changedAt: string): JobEvent {
  return { event: 'STATUS_CHANGED', data: { ...subject(after), previousStatus, changedAt } }
}

export function jobAssignedEvent(after: JobRow): JobEvent {
  return {
    event: 'JOB_ASSIGNED',
    data: {
      ...subject(after),
      customerId: after.customer_id,
      assignedUserId: present(after.assigned_user_id, 'assigned_user_id'),
      shiftId: after.shift_id,
      scheduledStart: present(after.scheduled_start, 'scheduled_start'),
      scheduledEnd: present(after.scheduled_end, 'scheduled_end'),
    },
  }
}

export function jobUnassignedEvent(after: JobRow, previousAssignedUserId: string | null): JobEvent {
  return { event: 'JOB_UNASSIGNED', data: { ...subject(after), previousAssignedUserId } }
}

/**
 * Spec §6's six fields, and `attachments` (ours, additive): the proof the job was completed with,
 * which dispatch-service.ts fills in from the attachments in the completing transaction.
 */
export function jobCompletedEvent(after: JobRow): JobEvent {
  return {
    event: 'JOB_COMPLETED',
    data: {
      jobId: after.id,
      title: after.title,
      status: 'COMPLETED',
      customerId: after.customer_id,
      assignedUserId: after.assigned_user_id,
      completedAt: present(after.completed_at, 'completed_at'),
      attachments: [],
    },
  }
}

type CancellableStatus = EventData['JOB_CANCELLED']['previousStatus']

/** The status a job was cancelled from; assertTransition has refused the others already. */
function cancellableStatus(status: JobStatus): CancellableStatus {
  if (status === 'COMPLETED' || status === 'CANCELLED') throw new Error(`A ${status} job cannot be cancelled`)
  return status
}

export function jobCancelledEvent(
  after: JobRow,
  previousStatus: CancellableStatus,
  cancelledAt: string,
  reason: string | null,
): JobEvent {
  return {
    event: 'JOB_CANCELLED',
    data: {
      ...subject(after),
      status: 'CANCELLED',
      customerId: after.customer_id,
      assignedUserId: after.assigned_user_id,
      previousStatus,
      cancelledAt,
      reason,
    },
  }
}

/**
 * Every event a transition emits, in order: its own (JOB_UNASSIGNED before JOB_ASSIGNED when a job
 * changes worker), then STATUS_CHANGED when the status moved.
 */
export function eventsOf({ action, before, after, at, reason }: TransitionRecord): JobEvent[] {
  const events: JobEvent[] = []
  if (action === 'assign') {
    const previous = before.assigned_user_id
    if (before.status === 'ASSIGNED' && previous !== null && previous !== after.assigned_user_id) {
      events.push(jobUnassignedEvent(after, previous))
    }
    events.push(jobAssignedEvent(after))
  }
  if (action === 'unassign') events.push(jobUnassignedEvent(after, before.assigned_user_id))
  if (action === 'complete') events.push(jobCompletedEvent(after))
  if (action === 'cancel') {
    events.push(jobCancelledEvent(after, cancellableStatus(before.status), at, reason ?? null))
  }
  if (after.status !== before.status) events.push(statusChangedEvent(after, before.status, at))
  return events
}

/**
 * What `changes` (the new status among them) make of `before` at `at`: the row after and the events to
 * record, or null when they change nothing (re-assigning to the same plan), which writes nothing.
 */
export function changeOf(
  before: JobRow,
  action: LifecycleAction,
  changes: JobUpdate,
  at: string,
  reason?: string | null,
): { after: JobRow; events: JobEvent[] } | null {
  const changed = Object.entries(changes).some(([column, value]) => before[column as keyof JobRow] !== value)
  if (!changed) return null
  const after = { ...before, ...changes, updated_at: at } as JobRow
  return { after, events: eventsOf({ action, before, after, at, reason }) }
}

/** Whole seconds from start to completion; never negative, even if clocks disagree. */
export function actualDurationOf(startedAt: string | null, completedAt: string): number | null {
  if (startedAt === null) return null
  return Math.max(0, Math.floor((Date.parse(completedAt) - Date.parse(startedAt)) / 1000))
}
