// A job's status as a badge (text and colour), and the "pending" mark of queued actions.
import { Badge, type Tone } from '../../ui/badge'
import type { JobStatus } from './types'

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
