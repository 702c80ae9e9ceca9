// What the week view reads besides the shifts (the shifts module's templates and shift days): the jobs
// the workers have scheduled in the week, and the waiting jobs that fall due by its end. Read-only,
// scoped by organisation, one query each.
import type { Executor } from '../../db/types.js'

function selectWeekJobs(db: Executor, organisationId: string) {
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
      'jobs.priority',
      'jobs.customer_id',
      'customers.name as customer_name',
      'jobs.location_id',
      'jobs.service_duration',
      'jobs.time_window_type',
      'jobs.earliest_start',
      'jobs.latest_end',
      'jobs.scheduled_start',
      'jobs.scheduled_end',
      'jobs.assigned_user_id',
      'jobs.shift_id',
    ])
    .where('jobs.organisation_id', '=', organisationId)
    .where('jobs.deleted_at', 'is', null)
}

export type WeekJobRow = Awaited<ReturnType<ReturnType<typeof selectWeekJobs>['execute']>>[number]

/** Jobs of these workers, not cancelled, whose scheduled visit starts in [from, to). */
export async function findScheduledJobsOfWorkers(
  db: Executor,
  organisationId: string,
  userIds: readonly string[],
  range: { from: string; to: string },
): Promise<WeekJobRow[]> {
  if (userIds.length === 0) return []
  return selectWeekJobs(db, organisationId)
    .where('jobs.assigned_user_id', 'in', userIds)
    .where('jobs.status', '!=', 'CANCELLED')
    .where('jobs.scheduled_start', '>=', range.from)
    .where('jobs.scheduled_start', '<', range.to)
    .orderBy('jobs.scheduled_start')
    .orderBy('jobs.id')
    .execute()
}

/**
 * CREATED jobs due before `before` — due: latestEnd, else earliestStart (jobs with neither have no
 * due date) — soonest first; with locationId, those of that depot or of none. At most `limit`.
 */
export async function findJobsDueBy(
  db: Executor,
  organisationId: string,
  before: string,
  options: { locationId: string | null; limit: number },
): Promise<WeekJobRow[]> {
  let query = selectWeekJobs(db, organisationId)
    .where('jobs.status', '=', 'CREATED')
    .where((eb) => eb(eb.fn.coalesce('jobs.latest_end', 'jobs.earliest_start'), '<', before))
  if (options.locationId !== null) {
    const locationId = options.locationId
    query = query.where((eb) =>
      eb.or([eb('jobs.location_id', '=', locationId), eb('jobs.location_id', 'is', null)]),
    )
  }
  return query
    .orderBy((eb) => eb.fn.coalesce('jobs.latest_end', 'jobs.earliest_start'))
    .orderBy('jobs.id')
    .limit(options.limit)
    .execute()
}
