// The jobs changed within a window (GET /jobs?updatedSince=…): read through
// (organisation_id, updated_at, id), in the change feed's order.
import type { ExpressionBuilder } from 'kysely'
import type { Database, Executor } from '../../db/types.js'
import {
  changedWithin,
  inListOrder,
  type LIST_ORDER_PARAMS,
  type ListOrder,
  listOrderValues,
} from '../../http/list-order.js'
import {
  filterConditions,
  type JobFilters,
  type JobListedRow,
  overlapConditions,
  selectJobs,
} from './list-repository.js'

/**
 * A page of the jobs changed within the window of `order` (by: 'updated'), any filter included: the
 * change feed reads through (organisation_id, updated_at, id).
 */
export async function listJobsChanged(
  db: Executor,
  organisationId: string,
  filters: JobFilters,
  order: ListOrder,
  limit: number,
): Promise<JobListedRow[]> {
  return inListOrder(
    selectJobs(db).where((eb) => changedJobConditions(eb, organisationId, filters)),
    'jobs',
    order,
    listOrderValues(order, limit) as typeof LIST_ORDER_PARAMS,
  ).execute() as Promise<JobListedRow[]>
}

/** How many live jobs match `filters` within the change window of `order`. */
export async function countJobsChanged(
  db: Executor,
  organisationId: string,
  filters: JobFilters,
  order: ListOrder,
): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => changedJobConditions(eb, organisationId, filters))
    .where(changedWithin('jobs', order, listOrderValues(order, 0)))
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

/** The equality filters and, with targetDate, the same overlap rule as day-repository.ts. */
function changedJobConditions(
  eb: ExpressionBuilder<Database, 'jobs'>,
  organisationId: string,
  filters: JobFilters,
) {
  const { overlapping } = filters
  if (!overlapping) return filterConditions(eb, organisationId, filters)
  return eb.and([filterConditions(eb, organisationId, filters), ...overlapConditions(eb, overlapping)])
}
