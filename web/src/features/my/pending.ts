// What the worker sees while actions wait in the offline queue: each job with its queued actions
// applied (a queued start shows the job in progress, a queued form as filled in, a queued completion
// closes the job on the phone), and which of its parts are still pending, so the screen says so next
// to them. A completion the server does not have yet is not "Completed": it shows and counts as
// pending until it is sent.
import type { QueuedAction } from './offline-queue'
import type { MyJob } from './types'

export interface ShownJob {
  job: MyJob
  /** This job's queued actions, oldest first. */
  pending: QueuedAction[]
}

export function applyPending(job: MyJob, actions: readonly QueuedAction[]): ShownJob {
  const pending = actions.filter((action) => action.jobId === job.id)
  let shown = job
  for (const action of pending) {
    if (action.kind === 'start' && shown.status === 'ASSIGNED') {
      shown = { ...shown, status: 'IN_PROGRESS', startedAt: action.queuedAt }
    } else if (action.kind === 'complete' && shown.status === 'IN_PROGRESS') {
      shown = { ...shown, status: 'COMPLETED', completedAt: action.queuedAt }
    } else if (action.kind === 'form') {
      shown = {
        ...shown,
        forms: shown.forms.map((form) =>
          form.template.id === action.templateId && !form.submission
            ? { ...form, submission: { id: action.key, submittedAt: action.queuedAt } }
            : form,
        ),
      }
    }
  }
  return { job: shown, pending }
}

/** Whether this form's submission is one still waiting in the queue. */
export function isFormPending(pending: readonly QueuedAction[], templateId: string): boolean {
  return pending.some((action) => action.kind === 'form' && action.templateId === templateId)
}

/** The forms a job needs that nobody has submitted yet (queued ones count as submitted). */
export function missingForms(job: MyJob) {
  return job.forms.filter((form) => !form.submission)
}

/** Whether the job's completion is one still waiting in the queue. */
export function isCompletionPending(pending: readonly QueuedAction[]): boolean {
  return pending.some((action) => action.kind === 'complete')
}

/** Done as far as the office knows: completed on the server, not just on the phone. */
export function isDone({ job, pending }: ShownJob): boolean {
  return job.status === 'COMPLETED' && !isCompletionPending(pending)
}

/** Still to do today: not completed (on the server or on the phone) nor cancelled. */
export function isRemaining({ job }: ShownJob): boolean {
  return job.status !== 'COMPLETED' && job.status !== 'CANCELLED'
}

/**
 * Late: not started (nor started on the phone) and past when it was due — the end of its window, or
 * without a window its scheduled start — at `now`.
 */
export function isLate(job: MyJob, now: number): boolean {
  if (job.status !== 'ASSIGNED') return false
  const due = job.latestEnd ?? job.scheduledStart
  return due !== null && Date.parse(due) < now
}

/** When a late job was due: the end of its window, or its scheduled start. */
export function dueAt(job: MyJob): string | null {
  return job.latestEnd ?? job.scheduledStart
}
