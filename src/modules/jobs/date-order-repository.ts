// The dashboard's Jobs list in the jobs' own date order (GET /jobs?sort=date, admin API only): the
// scheduled start, else the window's start, earliest first, jobs with neither last; with the list's
// filters, the day's overlap and the title search. Pages by offset (a createdAt cursor cannot follow
// this order). Scoped by organisation; soft-deleted jobs are never listed.
import { type Expression, type SqlBool, sql } from 'kysely'
import type { Executor } from '../../db/types.js'
import { containsPattern } from '../search/terms.js'
import {
  filterConditions,
  type JobFilters,
  type JobListedRow,
  overlapConditions,
  selectJobs,
} from './list-repository.js'

/** A page in date order and the number of matches (from the same query; undefined past the last). */
export async function listJobsByDate(
  db: Executor,
  organisationId: string,
  filters: JobFilters,
  search: string | undefined,
  page: { limit: number; offset: number },
): Promise<{ rows: JobListedRow[]; total: number | undefined }> {
  const rows = (await selectJobs(db)
    .select((eb) => eb.fn.countAll<number | string>().over().as('matches'))
    .where((eb) => {
      const conditions: Expression<SqlBool>[] = [filterConditions(eb, organisationId, filters)]
      if (filters.overlapping) conditions.push(...overlapConditions(eb, filters.overlapping))
      if (search) {
        conditions.push(
          sql<boolean>`lower(${eb.ref('jobs.title')}) like ${containsPattern(search.toLowerCase())} escape '\\'`,
        )
      }
      return eb.and(conditions)
    })
    .orderBy(sql`coalesce(jobs.scheduled_start, jobs.earliest_start) asc nulls last`)
    .orderBy('jobs.id', 'asc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()) as (JobListedRow & { matches: number | string })[]
  const first = rows[0]
  const total = first ? Number(first.matches) : page.offset === 0 ? 0 : undefined
  return { rows: rows.map(({ matches: _, ...row }) => row as JobListedRow), total }
}
