// What the live day reads and writes: workers' positions, the jobs on the day's shifts with their
// customer's place and hours, the arrival last announced per job, and the leases of background work
// (the shift templates themselves come from the shifts module). Scoped by organisation, except the
// two sweeps of background work (which organisations have shifts now; pruning by age).
import { isPostgres } from '../../db/database.js'
import { newId } from '../../db/ids.js'
import type { Executor, JobStatus } from '../../db/types.js'

export interface PositionInput {
  latitude: string
  longitude: string
  accuracy: number | null
  recordedAt: string
}

export async function insertPositions(
  db: Executor,
  organisationId: string,
  userId: string,
  positions: readonly PositionInput[],
  receivedAt: string,
): Promise<void> {
  await db
    .insertInto('positions')
    .values(
      positions.map((p) => ({
        id: newId(),
        organisation_id: organisationId,
        user_id: userId,
        latitude: p.latitude,
        longitude: p.longitude,
        accuracy: p.accuracy,
        recorded_at: p.recordedAt,
        received_at: receivedAt,
      })),
    )
    .execute()
}

export interface PositionRow {
  user_id: string
  latitude: string
  longitude: string
  accuracy: number | null
  recorded_at: string
}

/** Each worker's latest position recorded at or after `since` (one indexed lookup per worker). */
export async function findLastPositions(
  db: Executor,
  organisationId: string,
  userIds: readonly string[],
  since: string,
): Promise<PositionRow[]> {
  const rows = await Promise.all(
    [...new Set(userIds)].map((userId) =>
      db
        .selectFrom('positions')
        .select(['user_id', 'latitude', 'longitude', 'accuracy', 'recorded_at'])
        .where('organisation_id', '=', organisationId)
        .where('user_id', '=', userId)
        .where('recorded_at', '>=', since)
        .orderBy('recorded_at', 'desc')
        .limit(1)
        .executeTakeFirst(),
    ),
  )
  return rows.filter((row): row is PositionRow => row !== undefined)
}

/** Deletes positions recorded before `before`, every organisation's (the retention is global). */
export async function deletePositionsBefore(db: Executor, before: string): Promise<number> {
  const result = await db.deleteFrom('positions').where('recorded_at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** A shift of the day as the live forecast reads it (the shifts module's one read). */
export type { ShiftOfDayRow as LiveShiftRow } from '../shifts/service.js'

export interface LiveJobRow {
  id: string
  title: string
  status: JobStatus
  shift_id: string | null
  assigned_user_id: string | null
  location_id: string | null
  job_latitude: string | null
  job_longitude: string | null
  customer_latitude: string | null
  customer_longitude: string | null
  customer_operational_start: string | null
  customer_operational_end: string | null
  service_duration: number
  time_window_type: 'HARD' | 'SOFT'
  earliest_start: string | null
  latest_end: string | null
  scheduled_start: string | null
  started_at: string | null
  completed_at: string | null
}

/**
 * The live jobs on these shifts scheduled within [from, to): ASSIGNED and IN_PROGRESS (the day still
 * to do) and COMPLETED (where the worker last was), in visiting order.
 */
export async function findShiftJobs(
  db: Executor,
  organisationId: string,
  shiftIds: readonly string[],
  from: string,
  to: string,
): Promise<LiveJobRow[]> {
  if (shiftIds.length === 0) return []
  return db
    .selectFrom('jobs')
    .leftJoin('customers', (j) =>
      j
        .onRef('customers.id', '=', 'jobs.customer_id')
        .onRef('customers.organisation_id', '=', 'jobs.organisation_id'),
    )
    .select([
      'jobs.id',
      'jobs.title',
      'jobs.status',
      'jobs.shift_id',
      'jobs.assigned_user_id',
      'jobs.location_id',
      'jobs.job_latitude',
      'jobs.job_longitude',
      'customers.latitude as customer_latitude',
      'customers.longitude as customer_longitude',
      'customers.operational_start as customer_operational_start',
      'customers.operational_end as customer_operational_end',
      'jobs.service_duration',
      'jobs.time_window_type',
      'jobs.earliest_start',
      'jobs.latest_end',
      'jobs.scheduled_start',
      'jobs.started_at',
      'jobs.completed_at',
    ])
    .where('jobs.organisation_id', '=', organisationId)
    .where('jobs.shift_id', 'in', shiftIds)
    .where('jobs.deleted_at', 'is', null)
    .where('jobs.status', 'in', ['ASSIGNED', 'IN_PROGRESS', 'COMPLETED'])
    .where('jobs.scheduled_start', '>=', from)
    .where('jobs.scheduled_start', '<', to)
    .orderBy('jobs.scheduled_start')
    .orderBy('jobs.id')
    .execute()
}

/** The shift and schedule of one job, or undefined when it has neither (or does not exist here). */
export async function findJobSchedule(db: Executor, organisationId: string, jobId: string) {
  return db
    .selectFrom('jobs')
    .innerJoin('shifts', (j) =>
      j.onRef('shifts.id', '=', 'jobs.shift_id').onRef('shifts.organisation_id', '=', 'jobs.organisation_id'),
    )
    .innerJoin('locations', (j) =>
      j
        .onRef('locations.id', '=', 'shifts.location_id')
        .onRef('locations.organisation_id', '=', 'shifts.organisation_id'),
    )
    .select(['jobs.shift_id', 'jobs.scheduled_start', 'shifts.user_id', 'locations.timezone'])
    .where('jobs.organisation_id', '=', organisationId)
    .where('jobs.id', '=', jobId)
    .where('jobs.deleted_at', 'is', null)
    .executeTakeFirst()
}

export async function locationExists(db: Executor, organisationId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('locations')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
  return row !== undefined
}

export async function findRoutingSettings(db: Executor, organisationId: string) {
  return db
    .selectFrom('organisations')
    .select(['routing_detour_factor', 'routing_speed_kmh'])
    .where('id', '=', organisationId)
    .executeTakeFirst()
}

/** The arrival last announced for these jobs (unlocked: a first look, rechecked under lock). */
export async function findSentEtas(db: Executor, organisationId: string, jobIds: readonly string[]) {
  if (jobIds.length === 0) return []
  return db
    .selectFrom('job_etas')
    .select(['job_id', 'scheduled_start', 'sent_eta'])
    .where('organisation_id', '=', organisationId)
    .where('job_id', 'in', jobIds)
    .execute()
}

/**
 * The job's announced arrival, created from `initial` when missing, locked until the transaction
 * ends (PostgreSQL; SQLite's one writer is alone anyway), so that two instances deciding about the
 * same job decide one after the other.
 */
export async function lockSentEta(
  trx: Executor,
  organisationId: string,
  jobId: string,
  initial: { scheduledStart: string | null; sentEta: string; at: string },
) {
  await trx
    .insertInto('job_etas')
    .values({
      organisation_id: organisationId,
      job_id: jobId,
      scheduled_start: initial.scheduledStart,
      sent_eta: initial.sentEta,
      updated_at: initial.at,
    })
    .onConflict((oc) => oc.columns(['organisation_id', 'job_id']).doNothing())
    .execute()
  let query = trx
    .selectFrom('job_etas')
    .select(['scheduled_start', 'sent_eta'])
    .where('organisation_id', '=', organisationId)
    .where('job_id', '=', jobId)
  if (isPostgres(trx)) query = query.forUpdate()
  return query.executeTakeFirstOrThrow()
}

export async function updateSentEta(
  trx: Executor,
  organisationId: string,
  jobId: string,
  values: { scheduledStart: string | null; sentEta: string; at: string },
): Promise<void> {
  await trx
    .updateTable('job_etas')
    .set({ scheduled_start: values.scheduledStart, sent_eta: values.sentEta, updated_at: values.at })
    .where('organisation_id', '=', organisationId)
    .where('job_id', '=', jobId)
    .execute()
}
