// Dispatch: the job lifecycle and a job's tags and demands. Each call is one transaction that locks
// the job row, checks the state machine (lifecycle.ts), writes the job and records its events.
import type { Kysely, Transaction } from 'kysely'
import { idsOf, nowIso } from '../../db/ids.js'
import type { Database, JobRow, JobUpdate } from '../../db/types.js'
import { AppError, validationError } from '../../http/errors.js'
import { findCapacityDimensionsByIds } from '../capacity-dimensions/service.js'
import { type EventData, recordEvent, recordEvents } from '../events/service.js'
import { findTagsByIds } from '../tags/service.js'
import * as admin from './admin-repository.js'
import type { AssignJobBody, CancelJobBody, JobDemandsBody, JobTagsBody } from './admin-schemas.js'
import { actualDurationOf, assertTransition, eventsOf, type LifecycleAction } from './lifecycle.js'
import * as repository from './repository.js'
import type { JobDetail } from './schemas.js'
import { getJob, lockJob, parseInstant } from './service.js'

type Db = Kysely<Database>
const TERMINAL_STATUSES = new Set(['COMPLETED', 'CANCELLED'])

/**
 * Runs one lifecycle action: lock, check the transition, apply `changesFor` (which may refuse with a
 * 400), write the row and its events. Changing nothing (re-assigning to the same plan) writes nothing.
 */
async function transition(
  db: Db,
  organisationId: string,
  id: string,
  action: LifecycleAction,
  changesFor: (trx: Transaction<Database>, current: JobRow, at: string) => Promise<JobUpdate> | JobUpdate,
  reason?: string | null,
): Promise<JobDetail> {
  return db.transaction().execute(async (trx) => {
    const before = await lockJob(trx, organisationId, id)
    const status = assertTransition(before.status, action)
    const at = nowIso()
    const changes: JobUpdate = { status, ...(await changesFor(trx, before, at)) }
    const changed = Object.entries(changes).some(
      ([column, value]) => before[column as keyof JobRow] !== value,
    )
    if (changed) {
      const after: JobRow = { ...before, ...changes, updated_at: at } as JobRow
      await repository.updateJob(trx, organisationId, id, { ...changes, updated_at: at })
      await recordEvents(trx, organisationId, eventsOf({ action, before, after, at, reason }), at)
    }
    return getJob(trx, organisationId, id)
  })
}

async function assertAssignable(
  trx: Transaction<Database>,
  organisationId: string,
  userId: string,
  shiftId: string | null,
): Promise<void> {
  const user = await admin.findUserForAssignment(trx, organisationId, userId)
  if (!user) throw validationError('/body/userId', `user ${userId} does not exist in your organisation`)
  if (!user.is_active) throw validationError('/body/userId', `user ${userId} is inactive`)
  if (shiftId === null) return
  const shift = await admin.findShiftForAssignment(trx, organisationId, shiftId)
  if (!shift) throw validationError('/body/shiftId', `shift ${shiftId} does not exist in your organisation`)
  if (shift.user_id !== userId) {
    throw validationError('/body/shiftId', `shift ${shiftId} belongs to another user, not ${userId}`)
  }
  if (!shift.vehicle_is_active) {
    throw validationError('/body/shiftId', `the vehicle ${shift.vehicle_id} of shift ${shiftId} is inactive`)
  }
}

export async function assignJob(db: Db, organisationId: string, id: string, input: AssignJobBody) {
  const scheduledStart = parseInstant('scheduledStart', input.scheduledStart)
  const scheduledEnd = parseInstant('scheduledEnd', input.scheduledEnd)
  if (scheduledEnd <= scheduledStart)
    throw validationError('/body/scheduledEnd', 'must be after scheduledStart')
  const shiftId = input.shiftId ?? null
  return transition(db, organisationId, id, 'assign', async (trx) => {
    await assertAssignable(trx, organisationId, input.userId, shiftId)
    return {
      assigned_user_id: input.userId,
      shift_id: shiftId,
      scheduled_start: scheduledStart,
      scheduled_end: scheduledEnd,
    }
  })
}

export async function unassignJob(db: Db, organisationId: string, id: string) {
  return transition(db, organisationId, id, 'unassign', () => ({
    assigned_user_id: null,
    shift_id: null,
    scheduled_start: null,
    scheduled_end: null,
  }))
}

export async function startJob(db: Db, organisationId: string, id: string) {
  return transition(db, organisationId, id, 'start', (_trx, _current, at) => ({ started_at: at }))
}

export async function completeJob(db: Db, organisationId: string, id: string) {
  return transition(db, organisationId, id, 'complete', (_trx, current, at) => ({
    completed_at: at,
    actual_duration: actualDurationOf(current.started_at, at),
  }))
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
