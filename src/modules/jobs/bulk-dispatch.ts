// Dispatch in bulk: a route plan applied assigns and unassigns up to thousands of jobs in one
// transaction. Job by job (assignJobIn) each took a lock, two reference reads, an update and two event
// inserts: 1,900 jobs held SQLite's only writer for 1–1.5 s (every other organisation's writes
// waited) and PostgreSQL's row locks for seconds. Here the jobs are read in one statement, the
// transitions worked out in memory by the same rules, and written in two: one UPDATE for every job,
// one INSERT for every event. What they write is what assignJobIn and unassignJobIn, called for each
// change in turn, would write — the same checks in the same order (the first failure throws), the
// same rows and events in the same order, and through the same row triggers the same counters — with
// one instant for the whole batch (bulk-dispatch.test.ts compares the two ways).
import type { Transaction } from 'kysely'
import { nowIso } from '../../db/ids.js'
import type { Database, JobRow, JobUpdate } from '../../db/types.js'
import { notFound } from '../../http/errors.js'
import { recordEventsInBulk } from '../events/service.js'
import { findUsersForAssignment } from '../organisations/users-service.js'
import { findShiftsForAssignment } from '../shifts/service.js'
import * as admin from './admin-repository.js'
import {
  assertShiftAssignable,
  assertUserAssignable,
  assertWithinHardWindow,
  UNASSIGNED,
} from './dispatch-service.js'
import { assertTransition, changeOf, type JobEvent, type LifecycleAction } from './lifecycle.js'
import * as repository from './repository.js'

export interface JobAssignment {
  jobId: string
  userId: string
  shiftId: string | null
  scheduledStart: string
  scheduledEnd: string
}

/**
 * Locks these live jobs until the caller's transaction ends (PostgreSQL; SQLite's writer is alone) and
 * answers them by id; a missing or deleted one is absent. Locked in id order, so two callers whose
 * sets overlap wait for each other instead of deadlocking.
 */
export async function lockJobsIn(
  trx: Transaction<Database>,
  organisationId: string,
  ids: readonly string[],
): Promise<Map<string, JobRow>> {
  const jobs = await repository.findJobsForUpdate(trx, organisationId, ids)
  return new Map(jobs.map((job) => [job.id, job]))
}

/**
 * Makes `assignments`, then `unassignments`, inside the caller's transaction, as assignJobIn and
 * unassignJobIn called for each in turn would. `locked`: the jobs as lockJobsIn answered them in this
 * transaction; a job missing there is not found.
 */
export async function assignJobsIn(
  trx: Transaction<Database>,
  organisationId: string,
  locked: ReadonlyMap<string, JobRow>,
  assignments: readonly JobAssignment[],
  unassignments: readonly string[],
): Promise<void> {
  const userIds = [...new Set(assignments.map((a) => a.userId))]
  const shiftIds = [...new Set(assignments.flatMap((a) => (a.shiftId === null ? [] : [a.shiftId])))]
  const users = new Map(
    (await findUsersForAssignment(trx, organisationId, userIds)).map((user) => [user.id, user]),
  )
  const shifts = new Map(
    (await findShiftsForAssignment(trx, organisationId, shiftIds)).map((shift) => [shift.id, shift]),
  )
  const at = nowIso()
  // Each job as the changes so far have left it: a job changed twice sees its first change.
  const current = new Map(locked)
  const written = new Map<string, JobRow>()
  const events: JobEvent[] = []
  const transition = (id: string, action: LifecycleAction, changesFor: (job: JobRow) => JobUpdate) => {
    const before = current.get(id)
    if (!before) throw notFound('Job')
    const status = assertTransition(before.status, action)
    const change = changeOf(before, action, { status, ...changesFor(before) }, at)
    if (!change) return
    current.set(id, change.after)
    written.set(id, change.after)
    events.push(...change.events)
  }
  for (const assignment of assignments) {
    transition(assignment.jobId, 'assign', (job) => {
      assertUserAssignable(users.get(assignment.userId), assignment.userId)
      if (assignment.shiftId !== null) {
        assertShiftAssignable(shifts.get(assignment.shiftId), assignment.shiftId, assignment.userId)
      }
      assertWithinHardWindow(job, assignment.scheduledStart, assignment.scheduledEnd)
      return {
        assigned_user_id: assignment.userId,
        shift_id: assignment.shiftId,
        scheduled_start: assignment.scheduledStart,
        scheduled_end: assignment.scheduledEnd,
      }
    })
  }
  for (const id of unassignments) transition(id, 'unassign', () => UNASSIGNED)
  // A job changed twice is written once, as it ends; its row triggers net out the same.
  await admin.updateAssignments(trx, organisationId, [...written.values()], at)
  await recordEventsInBulk(trx, organisationId, events, at)
}
