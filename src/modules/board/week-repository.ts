// What the week view reads besides the shifts (the shifts module's templates and shift days): the jobs
// the workers have scheduled in the week, and the waiting jobs that fall due by its end. Read-only,
// scoped by organisation, one query each.
import type { Executor } from '../../db/types.js'
import { type BoardJobRow, selectBoardJobs } from './repository.js'

/** A job as the week view reads it: the day board's row (repository.ts selectBoardJobs). */
export type WeekJobRow = BoardJobRow

/** Jobs of these workers, not cancelled, whose scheduled visit starts in [from, to). */
export async function findScheduledJobsOfWorkers(
  db: Executor,
  organisationId: string,
  userIds: readonly string[],
  range: { from: string; to: string },
): Promise<WeekJobRow[]> {
  if (userIds.length === 0) return []
  return selectBoardJobs(db, organisationId)
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
  let query = selectBoardJobs(db, organisationId)
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
