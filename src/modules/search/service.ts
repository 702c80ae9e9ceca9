// One search across jobs and customers: the customers found first, so that their jobs are found too
// (a caller reads out a phone number; the dispatcher wants the job).
import type { Executor } from '../../db/types.js'
import { findCustomersForSearch } from '../customers/service.js'
import { findJobsForSearch } from '../jobs/service.js'
import type { CustomerFound, JobFound, SearchQuery } from './schemas.js'
import { searchTermsOf } from './terms.js'

/** How many of the best customers found lend their jobs to the jobs found. */
const CUSTOMERS_WHOSE_JOBS_COUNT = 25

export async function search(
  db: Executor,
  organisationId: string,
  query: SearchQuery,
): Promise<{ jobs: JobFound[]; customers: CustomerFound[] }> {
  const terms = searchTermsOf(query.q)
  const customers = await findCustomersForSearch(db, organisationId, terms, CUSTOMERS_WHOSE_JOBS_COUNT)
  const customerIds = customers.map((customer) => customer.id)
  const jobs = await findJobsForSearch(db, organisationId, terms, customerIds, query.limit)
  return { jobs, customers: customers.slice(0, query.limit) }
}
