// The total of a jobs list without a day or a search: from the trigger-maintained counters when they
// can answer, else by counting the matching rows.
import { param, prepareOnce } from '../../db/hot-query.js'
import type { Executor } from '../../db/types.js'
import { filterConditions, type JobEqualityFilters } from './list-repository.js'

/**
 * The number of live jobs matching `filters`. Status, priority and location alone are answered from
 * the trigger-maintained `job_counts` (one counter: its slots, at most 16 rows at any size); a
 * customer filter counts the matching rows through its index.
 */
export async function countJobs(
  db: Executor,
  organisationId: string,
  filters: JobEqualityFilters,
): Promise<number> {
  // '' and '*' are the counters' own keys, never a location id: count those the slow way (as 0).
  const countable = filters.locationId !== '' && filters.locationId !== '*'
  if (filters.customerId === undefined && countable) {
    const [counted] = await prepareOnce(db, 'jobs.count', () =>
      db
        .selectFrom('job_counts')
        .select((eb) => eb.fn.sum<number>('count').as('count'))
        .where('organisation_id', '=', param<string>('organisationId'))
        .where('status', '=', param<string>('status'))
        .where('priority', '=', param<string>('priority'))
        .where('location_id', '=', param<string>('locationId')),
    ).run<{ count: number }>({
      organisationId,
      status: filters.status ?? '*',
      priority: filters.priority ?? '*',
      locationId: filters.locationId ?? '*',
    })
    return Number(counted?.count ?? 0)
  }
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => filterConditions(eb, organisationId, filters))
    .executeTakeFirstOrThrow()
  return Number(row.total)
}
