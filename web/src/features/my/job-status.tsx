// A job's status as a badge (text and colour), the "pending" mark of queued actions, and the "late"
// flag of a job past its time and not started.
import { Badge, type Tone } from '../../ui/badge'
import { clock } from './format'
import type { QueuedAction } from './offline-queue'
import { dueAt, isCompletionPending, isLate } from './pending'
import type { JobStatus, MyJob } from './types'

const LOOK: Record<JobStatus, { tone: Tone; label: string }> = {
  CREATED: { tone: 'neutral', label: 'Not assigned' },
  ASSIGNED: { tone: 'blue', label: 'To do' },
  IN_PROGRESS: { tone: 'amber', label: 'In progress' },
  COMPLETED: { tone: 'green', label: 'Completed' },
  CANCELLED: { tone: 'red', label: 'Cancelled' },
}

export function JobStatusBadge({ status }: { status: JobStatus }) {
  const look = LOOK[status]
  return <Badge tone={look.tone}>{look.label}</Badge>
}

export function PendingBadge({ what = 'Pending' }: { what?: string }) {
  return (
    <span className="badge my-pending" title="Saved on this phone, not yet sent">
      <span className="my-queue-dot" aria-hidden="true" />
      {what}
    </span>
  )
}

/**
 * The status as the worker should read it: a completion still on the phone is "Completing… waiting to
 * send", never the green "Completed" the office has not seen.
 */
export function ShownStatusBadge({ job, pending }: { job: MyJob; pending: readonly QueuedAction[] }) {
  if (job.status === 'COMPLETED' && isCompletionPending(pending)) {
    return <PendingBadge what="Completing… waiting to send" />
  }
  return <JobStatusBadge status={job.status} />
}

/** "On the way" once the worker said so ("On my way"), until the job starts. */
export function EnRouteBadge({ job }: { job: MyJob }) {
  if (job.status !== 'ASSIGNED' || !job.enRouteAt) return null
  return <Badge tone="purple">On the way</Badge>
}

/**
 * The forecast's warning for a stop still to visit: "At risk" (it will start near the end of its
 * window, or a preferred window is already missed), "Will miss its window" (a must-be-kept window can no
 * longer be met). Not shown beside "Late", which already says the time has passed.
 */
export function RiskBadge({ job, now }: { job: MyJob; now: number }) {
  if (isLate(job, now) || job.status === 'COMPLETED' || job.status === 'CANCELLED') return null
  if (job.risk === 'AT_RISK') return <Badge tone="amber">At risk</Badge>
  if (job.risk === 'LATE') return <Badge tone="red">Will miss its window</Badge>
  return null
}

/** "Late · due 08:00" when the job is past its time at `now` and not started. */
export function LateBadge({ job, now }: { job: MyJob; now: number }) {
  if (!isLate(job, now)) return null
  return <Badge tone="red">Late · due {clock(dueAt(job), job.timeZone)}</Badge>
}
