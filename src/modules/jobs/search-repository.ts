// A title search over the jobs (GET /jobs?search=…), with the list's filters.
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely'
import type { Database, Executor, JobRow } from '../../db/types.js'
import type { CursorPosition } from '../../http/cursor.js'
import {
  filterConditions,
  type JobFilters,
  type JobListedRow,
  overlapConditions,
  selectJobs,
} from './list-repository.js'

/** `%term%` for LIKE, with LIKE's own wildcards in the term matched literally. */
function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** The list's filters: the equality filters, the day's overlap, and the title when searched. */
function searchConditions(
  eb: ExpressionBuilder<Database, 'jobs'>,
  organisationId: string,
  filters: JobFilters,
  search: string | undefined,
) {
  const conditions: Expression<SqlBool>[] = [filterConditions(eb, organisationId, filters)]
  if (search) {
    conditions.push(
      sql<boolean>`lower(${eb.ref('jobs.title')}) like ${containsPattern(search.toLowerCase())} escape '\\'`,
    )
  }
  if (filters.overlapping) conditions.push(...overlapConditions(eb, filters.overlapping))
  return eb.and(conditions)
}

/** A page of the jobs the list's filters (and search) match, in id order after `after`: CSV export. */
export function listJobsById(
  db: Executor,
  organisationId: string,
  filters: JobFilters,
  search: string | undefined,
  after: string | null,
  limit: number,
): Promise<JobRow[]> {
  let query = db
    .selectFrom('jobs')
    .selectAll()
    .where((eb) => searchConditions(eb, organisationId, filters, search))
  if (after !== null) query = query.where('jobs.id', '>', after)
  return query.orderBy('jobs.id').limit(limit).execute()
}

/**
 * A page of the jobs whose title contains `search` (ignoring case), newest first, with the number of
 * matches from the same query; `total` is undefined when the page is past the last match.
 */
export async function searchJobs(
  db: Executor,
  organisationId: string,
  filters: JobFilters,
  search: string,
  page: { limit: number; offset: number; after?: CursorPosition },
): Promise<{ rows: JobListedRow[]; total: number | undefined }> {
  const { after } = page
  const rows = (await selectJobs(db)
    .select((eb) => eb.fn.countAll<number | string>().over().as('matches'))
    .where((eb) => searchConditions(eb, organisationId, filters, search))
    .$if(after !== undefined, (q) =>
      q.where((eb) =>
        eb(
          eb.refTuple('jobs.created_at', 'jobs.id'),
          '<',
          eb.tuple(after?.createdAt as string, after?.id as string),
        ),
      ),
    )
    .orderBy('jobs.created_at', 'desc')
    .orderBy('jobs.id', 'desc')
    .limit(page.limit)
    .$if(after === undefined, (q) => q.offset(page.offset))
    .execute()) as (JobListedRow & { matches: number | string })[]
  const first = rows[0]
  // With a cursor the window counts only the rows after it: count every match separately then.
  let total: number | undefined
  if (after === undefined) total = first ? Number(first.matches) : page.offset === 0 ? 0 : undefined
  return { rows: rows.map(({ matches: _, ...row }) => row as JobListedRow), total }
}

export async function countJobSearch(
  db: Executor,
  organisationId: string,
  filters: JobFilters,
  search: string,
): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => searchConditions(eb, organisationId, filters, search))
    .executeTakeFirstOrThrow()
  return Number(row.total)
}
