// What checking one assignment reads (assignment-check.ts): the job and the jobs already on the same
// shift (or, without one, the same worker) around the proposed visit, with where each is, and their
// tags and demands. Read-only, scoped by organisation, soft-deleted jobs ignored.
import type { Executor, JobStatus, TimeWindowType } from '../../db/types.js'

export interface CheckedJobRow {
  id: string
  number: number
  title: string
  status: JobStatus
  time_window_type: TimeWindowType
  earliest_start: string | null
  latest_end: string | null
  scheduled_start: string | null
  scheduled_end: string | null
  /** The job's own coordinates, else its customer's. */
  job_latitude: string | null
  job_longitude: string | null
  customer_latitude: string | null
  customer_longitude: string | null
}

function checkedJobs(db: Executor, organisationId: string) {
  return db
    .selectFrom('jobs')
    .leftJoin('customers', (j) =>
      j
        .onRef('customers.id', '=', 'jobs.customer_id')
        .onRef('customers.organisation_id', '=', 'jobs.organisation_id'),
    )
    .select([
      'jobs.id',
      'jobs.number',
      'jobs.title',
      'jobs.status',
      'jobs.time_window_type',
      'jobs.earliest_start',
      'jobs.latest_end',
      'jobs.scheduled_start',
      'jobs.scheduled_end',
      'jobs.job_latitude',
      'jobs.job_longitude',
      'customers.latitude as customer_latitude',
      'customers.longitude as customer_longitude',
    ])
    .where('jobs.organisation_id', '=', organisationId)
    .where('jobs.deleted_at', 'is', null)
}

export async function findCheckedJob(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<CheckedJobRow | undefined> {
  return checkedJobs(db, organisationId).where('jobs.id', '=', id).executeTakeFirst()
}

/**
 * ASSIGNED and IN_PROGRESS jobs on `on` (a shift, or a worker's jobs whatever their shift) whose
 * scheduled visit overlaps [from, to), in scheduled order; `except` (the job being checked) left out.
 */
export async function findScheduledJobs(
  db: Executor,
  organisationId: string,
  on: { shiftId: string } | { userId: string },
  from: string,
  to: string,
  except: string,
): Promise<CheckedJobRow[]> {
  return checkedJobs(db, organisationId)
    .$if('shiftId' in on, (q) => q.where('jobs.shift_id', '=', (on as { shiftId: string }).shiftId))
    .$if('userId' in on, (q) => q.where('jobs.assigned_user_id', '=', (on as { userId: string }).userId))
    .where('jobs.status', 'in', ['ASSIGNED', 'IN_PROGRESS'])
    .where('jobs.id', '!=', except)
    .where('jobs.scheduled_start', '<', to)
    .where('jobs.scheduled_end', '>', from)
    .orderBy('jobs.scheduled_start')
    .orderBy('jobs.id')
    .execute()
}

export async function findTagsOfJobs(
  db: Executor,
  organisationId: string,
  jobIds: readonly string[],
): Promise<{ job_id: string; tag_id: string }[]> {
  if (jobIds.length === 0) return []
  return db
    .selectFrom('job_tags')
    .select(['job_id', 'tag_id'])
    .where('organisation_id', '=', organisationId)
    .where('job_id', 'in', jobIds)
    .execute()
}

export async function findDemandsOfJobs(
  db: Executor,
  organisationId: string,
  jobIds: readonly string[],
): Promise<{ job_id: string; capacity_dimension_id: string; required_value: number }[]> {
  if (jobIds.length === 0) return []
  return db
    .selectFrom('job_demands')
    .select(['job_id', 'capacity_dimension_id', 'required_value'])
    .where('organisation_id', '=', organisationId)
    .where('job_id', 'in', jobIds)
    .execute()
}

/** ASSIGNED and IN_PROGRESS jobs on any of `shiftIds` whose scheduled visit overlaps [from, to). */
export async function findScheduledJobsOfShifts(
  db: Executor,
  organisationId: string,
  shiftIds: readonly string[],
  from: string,
  to: string,
): Promise<(CheckedJobRow & { shift_id: string | null })[]> {
  if (shiftIds.length === 0) return []
  return checkedJobs(db, organisationId)
    .select('jobs.shift_id')
    .where('jobs.shift_id', 'in', shiftIds)
    .where('jobs.status', 'in', ['ASSIGNED', 'IN_PROGRESS'])
    .where('jobs.scheduled_start', '<', to)
    .where('jobs.scheduled_end', '>', from)
    .orderBy('jobs.scheduled_start')
    .orderBy('jobs.id')
    .execute()
}
