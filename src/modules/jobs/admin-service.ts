// Dispatch: the job lifecycle and a job's tags and demands. Each call is one transaction that locks
// the job row, checks the state machine (lifecycle.ts), writes the job and records its events.
import type { Kysely, Transaction } from 'kysely'
import { nowIso } from '../../db/ids.js'
import type { Database, JobRow, JobUpdate } from '../../db/types.js'
import { AppError, notFound, validationError } from '../../http/errors.js'
import { findCapacityDimensionsByIds } from '../capacity-dimensions/service.js'
import { recordEvent } from '../events/service.js'
import { findTagsByIds } from '../tags/service.js'
import * as admin from './admin-repository.js'
import type { AssignJobBody, CancelJobBody, JobDemandsBody, JobTagsBody } from './admin-schemas.js'
import { actualDurationOf, assertTransition, eventsOf, type LifecycleAction } from './lifecycle.js'
import * as repository from './repository.js'
import type { JobDetail } from './schemas.js'
import { getJob } from './service.js'

type Db = Kysely<Database>
const TERMINAL_STATUSES = new Set(['COMPLETED', 'CANCELLED'])
// The range both engines store alike (see service.ts).
const EARLIEST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z')
const LATEST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z')

async function lockJob(trx: Transaction<Database>, organisationId: string, id: string): Promise<JobRow> {
  const job = await repository.findJobForUpdate(trx, organisationId, id)
  if (!job) throw notFound('Job')
  return job
}

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
      for (const { event, data } of eventsOf({ action, before, after, at, reason })) {
        await recordEvent(trx, organisationId, event, data, at)
      }
    }
    return getJob(trx, organisationId, id)
  })
}

function parseInstant(field: string, value: string): string {
  const time = Date.parse(value)
  if (Number.isNaN(time)) throw validationError(`/body/${field}`, 'is not a valid datetime')
  if (time < EARLIEST_INSTANT || time > LATEST_INSTANT) {
    throw validationError(
      `/body/${field}`,
      'must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z',
    )
  }
  return new Date(time).toISOString()
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

const idsOf = (rows: readonly { id: string }[]) => new Set(rows.map((row) => row.id))
const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n')

export async function setJobTags(db: Db, organisationId: string, id: string, input: JobTagsBody) {
  return db.transaction().execute(async (trx) => {
    await lockEditableJob(trx, organisationId, id)
    const existing = idsOf(await findTagsByIds(trx, organisationId, input.tagIds))
    const missing = input.tagIds.findIndex((tagId) => !existing.has(tagId))
    if (missing >= 0) {
      throw validationError(
        `/body/tagIds/${missing}`,
        `tag ${input.tagIds[missing]} does not exist in your organisation`,
      )
    }
    if (!sameSet(await admin.findJobTagIds(trx, organisationId, id), input.tagIds)) {
      await admin.deleteJobTags(trx, organisationId, id)
      for (const tagId of input.tagIds) await repository.insertJobTag(trx, organisationId, id, tagId)
      await repository.updateJob(trx, organisationId, id, { updated_at: nowIso() })
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
    await lockEditableJob(trx, organisationId, id)
    const existing = idsOf(await findCapacityDimensionsByIds(trx, organisationId, dimensionIds))
    const missing = dimensionIds.findIndex((dimensionId) => !existing.has(dimensionId))
    if (missing >= 0) {
      throw validationError(
        `/body/demands/${missing}/capacityDimensionId`,
        `capacity dimension ${dimensionIds[missing]} does not exist in your organisation`,
      )
    }
    const stored = await admin.findJobDemandValues(trx, organisationId, id)
    const key = (dimensionId: string, value: number) => `${dimensionId}=${value}`
    const unchanged = sameSet(
      stored.map((demand) => key(demand.capacity_dimension_id, demand.required_value)),
      input.demands.map((demand) => key(demand.capacityDimensionId, demand.requiredValue)),
    )
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
      await repository.updateJob(trx, organisationId, id, { updated_at: nowIso() })
    }
    return getJob(trx, organisationId, id)
  })
}
