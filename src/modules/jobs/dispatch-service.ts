// Dispatch of jobs: the lifecycle transitions (assign, unassign, start, complete, cancel) and the tags
// and demands the optimiser dispatches by. Each call is one transaction that locks the job row, checks
// the state machine (lifecycle.ts), writes the job and records its events; bulk-dispatch.ts does the
// same for a whole route plan at once.

import type { Kysely, Transaction } from 'kysely'
import { type Clock, systemClock } from '../../clock.js'
import { idsOf, nowIso } from '../../db/ids.js'
import type { Database, JobRow, JobUpdate } from '../../db/types.js'
import { AppError, notFound, validationError } from '../../http/errors.js'
import { assertCompletionRequirements, completedAttachments } from '../completion/service.js'
import { type EventData, recordEvent, recordEvents } from '../events/service.js'
import { assertFormsSubmitted } from '../form-templates/service.js'
import { type AssignableUser, findUsersForAssignment } from '../organisations/users-service.js'
import { findCapacityDimensionsByIds, findTagsByIds } from '../reference-data/service.js'
import { assertWorkerPresent } from '../shifts/absences-service.js'
import { type AssignableShift, findShiftsForAssignment } from '../shifts/service.js'
import * as admin from './admin-repository.js'
import type { AssignJobBody, CancelJobBody, JobDemandsBody, JobTagsBody } from './admin-schemas.js'
import {
  type AssignmentProblem,
  checkAssignment,
  firstHardProblem,
  hardWindowMessage,
  type ProposedAssignment,
} from './assignment-check.js'
import { checkHappenedAt, type HappenedField } from './happened-at.js'
import { actualDurationOf, assertTransition, changeOf, type LifecycleAction } from './lifecycle.js'
import * as repository from './repository.js'
import type { JobDetail } from './schemas.js'
import { getJob, lockJob, parseInstant } from './service.js'

type Db = Kysely<Database>
const TERMINAL_STATUSES = new Set(['COMPLETED', 'CANCELLED'])

/**
 * Runs one lifecycle action inside `trx`: lock, check the transition, apply `changesFor` (which may
 * refuse with a 400), write the row and its events. Changing nothing (re-assigning to the same plan)
 * writes nothing.
 */
/**
 * `at`: when the transition happened (now, or the time the caller sent: happened-at.ts);
 * `recordedAt`: when the server received it.
 */
type ChangesFor = (
  trx: Transaction<Database>,
  current: JobRow,
  at: string,
  recordedAt: string,
) => Promise<JobUpdate> | JobUpdate

/** A start or completion's own time as the caller sent it (body field and value). */
export interface HappenedAt {
  field: HappenedField
  value: string
}

async function transitionIn(
  trx: Transaction<Database>,
  organisationId: string,
  id: string,
  action: LifecycleAction,
  changesFor: ChangesFor,
  reason?: string | null,
  assignee?: string,
  happened?: HappenedAt,
): Promise<void> {
  const before = await lockJob(trx, organisationId, id)
  // A worker acts only on their own jobs: anyone else's is not found, whatever its status.
  if (assignee !== undefined && before.assigned_user_id !== assignee) throw notFound('Job')
  const status = assertTransition(before.status, action)
  const recordedAt = nowIso()
  const at = happened
    ? await checkHappenedAt(
        trx,
        organisationId,
        before,
        happened.field,
        happened.value,
        Date.parse(recordedAt),
      )
    : recordedAt
  const changes: JobUpdate = { status, ...(await changesFor(trx, before, at, recordedAt)) }
  // The events' data carry when it happened (STATUS_CHANGED's changedAt, JOB_COMPLETED's completedAt);
  // the outbox orders them by when they were recorded, so a feed cursor never skips one sent late.
  const change = changeOf(before, action, changes, at, reason)
  if (change && action === 'complete') {
    // JOB_COMPLETED names the proof it was completed with (additive to spec §6's six fields).
    const attachments = await completedAttachments(trx, organisationId, id)
    for (const event of change.events) {
      if (event.event === 'JOB_COMPLETED') event.data = { ...event.data, attachments }
    }
  }
  if (change) {
    await repository.updateJob(trx, organisationId, id, { ...changes, updated_at: recordedAt })
    await recordEvents(trx, organisationId, change.events, recordedAt)
  }
}

/** One lifecycle action in its own transaction; answers the job as it now is. */
async function transition(
  db: Db,
  organisationId: string,
  id: string,
  action: LifecycleAction,
  changesFor: ChangesFor,
  reason?: string | null,
  assignee?: string,
  happened?: HappenedAt,
): Promise<JobDetail> {
  return db.transaction().execute(async (trx) => {
    await transitionIn(trx, organisationId, id, action, changesFor, reason, assignee, happened)
    return getJob(trx, organisationId, id)
  })
}

async function assertAssignable(
  trx: Transaction<Database>,
  organisationId: string,
  userId: string,
  shiftId: string | null,
): Promise<void> {
  const [user] = await findUsersForAssignment(trx, organisationId, [userId])
  assertUserAssignable(user, userId)
  if (shiftId === null) return
  const [shift] = await findShiftsForAssignment(trx, organisationId, [shiftId])
  assertShiftAssignable(shift, shiftId, userId)
}

/** 400 unless the user (as findUsersForAssignment reads it) exists and is active. */
export function assertUserAssignable(user: AssignableUser | undefined, userId: string): void {
  if (!user) throw validationError('/body/userId', `user ${userId} does not exist in your organisation`)
  if (!user.is_active) throw validationError('/body/userId', `user ${userId} is inactive`)
}

/** 400 unless the shift (as findShiftsForAssignment reads it) exists, is the user's, on an active vehicle. */
export function assertShiftAssignable(
  shift: AssignableShift | undefined,
  shiftId: string,
  userId: string,
): void {
  if (!shift) throw validationError('/body/shiftId', `shift ${shiftId} does not exist in your organisation`)
  if (shift.user_id !== userId) {
    throw validationError('/body/shiftId', `shift ${shiftId} belongs to another user, not ${userId}`)
  }
  if (!shift.vehicle_is_active) {
    throw validationError('/body/shiftId', `the vehicle ${shift.vehicle_id} of shift ${shiftId} is inactive`)
  }
}

/**
 * 422 OUTSIDE_TIME_WINDOW when the visit breaks the job's HARD window (assignment-check.ts
 * hardWindowMessage: the optimiser's VISIT_WITHIN rule; a SOFT window never refuses). A route plan
 * applied asks only this (bulk-dispatch.ts); a manual assignment asks every check.
 */
export function assertWithinHardWindow(job: JobRow, scheduledStart: string, scheduledEnd: string): void {
  const message = hardWindowMessage(job, scheduledStart, scheduledEnd)
  if (message) throw new AppError('OUTSIDE_TIME_WINDOW', message)
}

/** The assign body's instants in UTC; 400 unless scheduledEnd is after scheduledStart. */
function parseAssignment(input: AssignJobBody): ProposedAssignment {
  const scheduledStart = parseInstant('scheduledStart', input.scheduledStart)
  const scheduledEnd = parseInstant('scheduledEnd', input.scheduledEnd)
  if (scheduledEnd <= scheduledStart)
    throw validationError('/body/scheduledEnd', 'must be after scheduledStart')
  return { userId: input.userId, shiftId: input.shiftId ?? null, scheduledStart, scheduledEnd }
}

/**
 * A manual assignment: the user and shift as assign checks them (400s), then every problem of the
 * visit (assignment-check.ts), hard first. Writes nothing; 404 for a job not in the organisation.
 */
export async function checkJobAssignment(
  db: Db,
  organisationId: string,
  id: string,
  input: AssignJobBody,
  clock: Clock = systemClock,
): Promise<{ problems: AssignmentProblem[] }> {
  const assignment = parseAssignment(input)
  return db.transaction().execute(async (trx) => {
    if (!(await repository.jobExists(trx, organisationId, id))) throw notFound('Job')
    await assertAssignable(trx, organisationId, assignment.userId, assignment.shiftId)
    return { problems: await checkAssignment(trx, organisationId, id, assignment, clock()) }
  })
}

/** A manual assignment: refused with the first HARD problem of assignment-check.ts (422). */
export async function assignJob(
  db: Db,
  organisationId: string,
  id: string,
  input: AssignJobBody,
  clock: Clock = systemClock,
) {
  const assignment = parseAssignment(input)
  return db.transaction().execute(async (trx) => {
    await assignJobIn(trx, organisationId, id, assignment, { now: clock() })
    return getJob(trx, organisationId, id)
  })
}

/**
 * Assigns a job inside the caller's transaction (the same transition and events as a route plan's
 * stop). `check`: a manual assignment, refused with the first HARD problem of the visit
 * (assignment-check.ts, as of `now` in ms); without it only the HARD window and the worker's absence
 * are checked.
 */
export async function assignJobIn(
  trx: Transaction<Database>,
  organisationId: string,
  id: string,
  input: ProposedAssignment,
  check?: { now: number },
): Promise<void> {
  await transitionIn(trx, organisationId, id, 'assign', async (inner, current) => {
    await assertAssignable(inner, organisationId, input.userId, input.shiftId)
    if (check) {
      // The API's own words for a HARD window (the instants integrators compare), before the check's
      // (worded for the board in the depot's time).
      assertWithinHardWindow(current, input.scheduledStart, input.scheduledEnd)
      const refused = firstHardProblem(await checkAssignment(inner, organisationId, id, input, check.now))
      if (refused) throw new AppError(refused.code, refused.message)
    } else {
      assertWithinHardWindow(current, input.scheduledStart, input.scheduledEnd)
      await assertWorkerPresent(
        inner,
        organisationId,
        input.userId,
        input.shiftId,
        input.scheduledStart,
        input.scheduledEnd,
      )
    }
    return {
      assigned_user_id: input.userId,
      shift_id: input.shiftId,
      scheduled_start: input.scheduledStart,
      scheduled_end: input.scheduledEnd,
    }
  })
}

/** Unassigns a job inside the caller's transaction (a REPLAN_ALL plan took it off every route). */
export async function unassignJobIn(trx: Transaction<Database>, organisationId: string, id: string) {
  await transitionIn(trx, organisationId, id, 'unassign', () => UNASSIGNED)
}

export const UNASSIGNED = {
  assigned_user_id: null,
  shift_id: null,
  scheduled_start: null,
  scheduled_end: null,
}

export async function unassignJob(db: Db, organisationId: string, id: string) {
  return transition(db, organisationId, id, 'unassign', () => UNASSIGNED)
}

/** `assignee`: only if the job is assigned to this user (a worker's own action), else 404. */
/** The optional body of start and complete: when it happened, if not now. */
export interface HappenedBody {
  startedAt?: string
  completedAt?: string
  /** complete: the worker's notes, kept with the job's proof (completion/service.ts). */
  notes?: string
}

/**
 * `body.startedAt`: when the worker started (work done offline, sent later), checked by
 * happened-at.ts; now when omitted. startRecordedAt is always now.
 */
export async function startJob(
  db: Db,
  organisationId: string,
  id: string,
  assignee?: string,
  body: HappenedBody = {},
) {
  const happened =
    body.startedAt === undefined ? undefined : { field: 'startedAt' as const, value: body.startedAt }
  return transition(
    db,
    organisationId,
    id,
    'start',
    (_trx, _current, at, recordedAt) => ({ started_at: at, start_recorded_at: recordedAt }),
    null,
    assignee,
    happened,
  )
}

/**
 * 422 FORM_REQUIRED while a form template the job needs has no submission, then 422
 * COMPLETION_REQUIREMENTS while its signature, photos or notes are missing (`body.notes` counts).
 * `body.completedAt` as startJob's startedAt (and not before the job's startedAt).
 */
export async function completeJob(
  db: Db,
  organisationId: string,
  id: string,
  assignee?: string,
  body: HappenedBody = {},
) {
  const happened =
    body.completedAt === undefined ? undefined : { field: 'completedAt' as const, value: body.completedAt }
  return transition(
    db,
    organisationId,
    id,
    'complete',
    async (trx, current, at, recordedAt) => {
      await assertFormsSubmitted(trx, organisationId, id)
      await assertCompletionRequirements(trx, organisationId, id, { notes: body.notes, userId: assignee })
      return {
        completed_at: at,
        complete_recorded_at: recordedAt,
        actual_duration: actualDurationOf(current.started_at, at),
      }
    },
    null,
    assignee,
    happened,
  )
}

export async function cancelJob(db: Db, organisationId: string, id: string, input: CancelJobBody) {
  return transition(db, organisationId, id, 'cancel', () => ({}), input.reason ?? null)
}

/** Locks a job whose tags or demands may change: 404 when missing, 422 when finished. */
async function lockEditableJob(trx: Transaction<Database>, organisationId: string, id: string) {
  const job = await lockJob(trx, organisationId, id)
  if (TERMINAL_STATUSES.has(job.status)) {
    throw new AppError('TERMINAL_STATE', `Job is ${job.status} and can no longer be modified`)
  }
  return job
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n')

type JobChanges = EventData['JOB_UPDATED']['changes']

/** Moves updatedAt and records JOB_UPDATED for a change of the job's tags or demands. */
async function recordExtrasChange(
  trx: Transaction<Database>,
  organisationId: string,
  job: JobRow,
  changes: JobChanges,
): Promise<void> {
  const at = nowIso()
  await repository.updateJob(trx, organisationId, job.id, { updated_at: at })
  await recordEvent(
    trx,
    organisationId,
    'JOB_UPDATED',
    { jobId: job.id, title: job.title, status: job.status, updatedAt: at, changes },
    at,
  )
}

type Demand = JobDemandsBody['demands'][number]
const byDimension = (a: Demand, b: Demand) =>
  a.capacityDimensionId < b.capacityDimensionId ? -1 : a.capacityDimensionId > b.capacityDimensionId ? 1 : 0

export async function setJobTags(db: Db, organisationId: string, id: string, input: JobTagsBody) {
  return db.transaction().execute(async (trx) => {
    const job = await lockEditableJob(trx, organisationId, id)
    const existing = idsOf(await findTagsByIds(trx, organisationId, input.tagIds))
    const missing = input.tagIds.findIndex((tagId) => !existing.has(tagId))
    if (missing >= 0) {
      throw validationError(
        `/body/tagIds/${missing}`,
        `tag ${input.tagIds[missing]} does not exist in your organisation`,
      )
    }
    const previous = await admin.findJobTagIds(trx, organisationId, id)
    if (!sameSet(previous, input.tagIds)) {
      await admin.deleteJobTags(trx, organisationId, id)
      for (const tagId of input.tagIds) await repository.insertJobTag(trx, organisationId, id, tagId)
      await recordExtrasChange(trx, organisationId, job, {
        tags: { previous: [...previous].sort(), current: [...input.tagIds].sort() },
      })
    }
    return getJob(trx, organisationId, id)
  })
}

export async function setJobDemands(db: Db, organisationId: string, id: string, input: JobDemandsBody) {
  const dimensionIds = input.demands.map((demand) => demand.capacityDimensionId)
  const repeated = dimensionIds.findIndex((dimensionId, i) => dimensionIds.indexOf(dimensionId) !== i)
  if (repeated >= 0) {
    throw validationError(`/body/demands/${repeated}/capacityDimensionId`, 'appears more than once')
  }
  return db.transaction().execute(async (trx) => {
    const job = await lockEditableJob(trx, organisationId, id)
    const existing = idsOf(await findCapacityDimensionsByIds(trx, organisationId, dimensionIds))
    const missing = dimensionIds.findIndex((dimensionId) => !existing.has(dimensionId))
    if (missing >= 0) {
      throw validationError(
        `/body/demands/${missing}/capacityDimensionId`,
        `capacity dimension ${dimensionIds[missing]} does not exist in your organisation`,
      )
    }
    const stored = (await admin.findJobDemandValues(trx, organisationId, id)).map((demand) => ({
      capacityDimensionId: demand.capacity_dimension_id,
      requiredValue: demand.required_value,
    }))
    const key = (demand: Demand) => `${demand.capacityDimensionId}=${demand.requiredValue}`
    const unchanged = sameSet(stored.map(key), input.demands.map(key))
    if (!unchanged) {
      await admin.deleteJobDemands(trx, organisationId, id)
      for (const demand of input.demands) {
        await repository.insertJobDemand(
          trx,
          organisationId,
          id,
          demand.capacityDimensionId,
          demand.requiredValue,
        )
      }
      await recordExtrasChange(trx, organisationId, job, {
        demands: {
          previous: stored.sort(byDimension),
          current: input.demands
            .map(({ capacityDimensionId, requiredValue }) => ({ capacityDimensionId, requiredValue }))
            .sort(byDimension),
        },
      })
    }
    return getJob(trx, organisationId, id)
  })
}
