// What a change on the board means before and after it is sent, kept apart from the components so it
// can be tested alone: the look of a drop target from the server's check (red for the first HARD
// problem, amber for a SOFT one), whether a drop is sent, refused or waits for a second drop on the
// same slot, and the inverse call that undoes a change.
import type { BoardJob } from './board-model'
import type { Assignment, AssignmentProblem, Slot } from './queries'

export type Verdict =
  | { tone: 'checking' }
  | { tone: 'ok' }
  | { tone: 'hard'; message: string }
  | { tone: 'soft'; message: string }

/** The first HARD problem wins over any SOFT one; nothing to say is "ok"; not known yet is "checking". */
export function verdictOf(problems: readonly AssignmentProblem[] | undefined): Verdict {
  if (!problems) return { tone: 'checking' }
  const hard = problems.find((p) => p.severity === 'HARD')
  if (hard) return { tone: 'hard', message: hard.message }
  const soft = problems.find((p) => p.severity === 'SOFT')
  return soft ? { tone: 'soft', message: soft.message } : { tone: 'ok' }
}

/** The same job on the same row at the same time (the end follows from the job's duration). */
export const sameSlot = (a: Slot | null, b: Slot | null) =>
  a !== null && b !== null && a.jobId === b.jobId && a.shiftId === b.shiftId && a.start === b.start

export type DropDecision =
  | { action: 'send' }
  | { action: 'refuse'; message: string }
  | { action: 'confirm'; message: string }

/**
 * A drop with a HARD problem is not sent; one with a SOFT problem is sent only when it is the second
 * drop on the slot the first one asked to confirm (`awaiting`); a drop with none is sent. Problems
 * that could not be read (`undefined`) send it: the server still refuses a HARD one.
 */
export function decideDrop(
  slot: Slot,
  problems: readonly AssignmentProblem[] | undefined,
  awaiting: Slot | null,
): DropDecision {
  const verdict = verdictOf(problems)
  if (verdict.tone === 'hard') return { action: 'refuse', message: verdict.message }
  if (verdict.tone === 'soft' && !sameSlot(slot, awaiting)) {
    return { action: 'confirm', message: `${verdict.message} — drop again to confirm` }
  }
  return { action: 'send' }
}

export type BoardChange =
  | { kind: 'assign'; jobId: string; title: string; assignment: Assignment }
  | { kind: 'unassign'; jobId: string; title: string }

/**
 * The call that puts a job back as it was before a change (`before`: the job as the board showed it):
 * an unassigned job is unassigned again, an assigned one assigned again to its previous worker,
 * shift and times — so webhooks tell integrators of the undo too. Null for a job in any other state.
 */
export function undoOf(
  before: Pick<
    BoardJob,
    'id' | 'title' | 'status' | 'assignedUserId' | 'shiftId' | 'scheduledStart' | 'scheduledEnd'
  >,
): BoardChange | null {
  const { id: jobId, title } = before
  if (before.status === 'CREATED') return { kind: 'unassign', jobId, title }
  if (before.status !== 'ASSIGNED') return null
  const { assignedUserId, shiftId, scheduledStart, scheduledEnd } = before
  if (!assignedUserId || !scheduledStart || !scheduledEnd) return null
  return {
    kind: 'assign',
    jobId,
    title,
    assignment: {
      userId: assignedUserId,
      ...(shiftId ? { shiftId } : {}),
      scheduledStart,
      scheduledEnd,
    },
  }
}

/** Ctrl+Z, or Cmd+Z on a Mac, without Shift or Alt (those redo or type). */
export function isUndoKey(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>,
  mac: boolean,
): boolean {
  if (event.key.toLowerCase() !== 'z' || event.shiftKey || event.altKey) return false
  return mac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey
}
