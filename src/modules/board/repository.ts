// What the dispatch board reads besides the day's shifts (route-plans/day-inputs.ts): the depots,
// the jobs shown (those scheduled on the day's shifts, and the waiting ones by id) with their
// customer and tags. Read-only, scoped by organisation.
import type { Executor } from '../../db/types.js'

/** Depots, the primary one first, then by creation: the first is the organisation's time zone. */
export async function findDepots(db: Executor, organisationId: string) {
  return db
    .selectFrom('locations')
    .select(['id', 'name', 'timezone', 'latitude', 'longitude', 'is_active'])
    .where('organisation_id', '=', organisationId)
    .orderBy('is_primary', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .execute()
}

/** The board's jobs with their customer: the day board's and the week view's one select. */
export function selectBoardJobs(db: Executor, organisationId: string) {
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
      'jobs.priority',
      'jobs.customer_id',
      'customers.name as customer_name',
      'customers.address as customer_address',
      'jobs.location_id',
      'jobs.job_latitude',
      'jobs.job_longitude',
      'customers.latitude as customer_latitude',
      'customers.longitude as customer_longitude',
      'jobs.service_duration',
      'jobs.time_window_type',
      'jobs.earliest_start',
      'jobs.latest_end',
      'jobs.scheduled_start',
      'jobs.scheduled_end',
      'jobs.assigned_user_id',
      'jobs.shift_id',
      'jobs.number',
      'jobs.address',
    ])
    .where('jobs.organisation_id', '=', organisationId)
    .where('jobs.deleted_at', 'is', null)
}

export type BoardJobRow = Awaited<ReturnType<ReturnType<typeof selectBoardJobs>['execute']>>[number]

/** Jobs of any status on these shifts whose scheduled visit overlaps [from, to). */
export async function findJobsOnShifts(
  db: Executor,
  organisationId: string,
  shiftIds: readonly string[],
  range: { from: string; to: string },
): Promise<BoardJobRow[]> {
  if (shiftIds.length === 0) return []
  return selectBoardJobs(db, organisationId)
    .where('jobs.shift_id', 'in', shiftIds)
    .where('jobs.scheduled_start', '<', range.to)
    .where('jobs.scheduled_end', '>', range.from)
    .orderBy('jobs.scheduled_start')
    .orderBy('jobs.id')
    .execute()
}

export async function findJobsByIds(
  db: Executor,
  organisationId: string,
  ids: readonly string[],
): Promise<BoardJobRow[]> {
  if (ids.length === 0) return []
  return selectBoardJobs(db, organisationId)
    .where('jobs.id', 'in', ids)
    .orderBy('jobs.created_at')
    .orderBy('jobs.id')
    .execute()
}

export async function findJobTags(db: Executor, organisationId: string, jobIds: readonly string[]) {
  if (jobIds.length === 0) return []
  return db
    .selectFrom('job_tags')
    .innerJoin('tags', (j) =>
      j
        .onRef('tags.id', '=', 'job_tags.tag_id')
        .onRef('tags.organisation_id', '=', 'job_tags.organisation_id'),
    )
    .select(['job_tags.job_id', 'tags.id', 'tags.name'])
    .where('job_tags.organisation_id', '=', organisationId)
    .where('job_tags.job_id', 'in', jobIds)
    .orderBy('tags.name')
    .execute()
}
