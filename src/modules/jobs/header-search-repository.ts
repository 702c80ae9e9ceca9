// The header search's jobs (GET /v1/admin/search): by number, by title or their own address, or of the
// customers the same search found, best first. Indexed (migrations 0026, 0028): the number by
// (organisation_id, number), titles and addresses by pg_trgm GIN indexes on PostgreSQL and the
// jobs_trigram FTS5 table on SQLite, a customer's jobs by jobs_customer_idx. Scoped by organisation; soft-deleted jobs are never found.
import { sql } from 'kysely'
import { isPostgres } from '../../db/database.js'
import type { Executor, JobStatus } from '../../db/types.js'
import { containsPattern, ftsPhrase, prefixPattern, type SearchTerms } from '../search/terms.js'

/**
 * On SQLite a common word's title matches are ranked among the organisation's newest this many (the
 * trigram table's rowids follow insertion): reading all 12,000 "boiler" jobs of a 100k-job
 * organisation took ~50 ms, these ~10 ms. PostgreSQL ranks every match in that time.
 */
const SQLITE_TITLE_CANDIDATES = 1000

export interface JobFoundRow {
  id: string
  number: number
  title: string
  status: JobStatus
  /** The job's date: its scheduled start, else its window's start; null when it has neither. */
  date: string | null
  customer_name: string | null
}

/**
 * Jobs matching the terms, best first: the number named, then titles starting with the text, then
 * titles containing it, then jobs whose own address contains it and jobs of `customerIds`; ties by the job's date, latest first (undated last).
 */
export async function findJobsMatching(
  db: Executor,
  organisationId: string,
  terms: SearchTerms,
  customerIds: readonly string[],
  limit: number,
): Promise<JobFoundRow[]> {
  const { text, number } = terms
  // Each candidate set comes from its own index; the union is small, and only it is ranked.
  const candidates = []
  if (number !== null) {
    candidates.push(sql`SELECT id FROM jobs WHERE organisation_id = ${organisationId} AND number = ${number}`)
  }
  if (text !== null) {
    candidates.push(
      isPostgres(db)
        ? // No organisation here: given one, the planner walked the organisation's jobs by
          // jobs_list_idx testing each title (13 ms at 100k jobs) instead of asking the trigram index.
          // The outer query keeps only the organisation's.
          sql`SELECT id FROM jobs WHERE deleted_at IS NULL AND lower(title) LIKE ${containsPattern(text)}
            UNION SELECT id FROM jobs WHERE deleted_at IS NULL AND address IS NOT NULL
              AND lower(address) LIKE ${containsPattern(text)}`
        : // Both of the trigram table's columns: the title and the job's own address (migration 0028).
          sql`SELECT job_id AS id FROM jobs_trigram_ids WHERE trigram_rowid IN (
            SELECT rowid FROM jobs_trigram WHERE jobs_trigram MATCH ${ftsPhrase(text)}
              AND organisation_id = ${organisationId}
            ORDER BY rowid DESC LIMIT ${SQLITE_TITLE_CANDIDATES})`,
    )
  }
  if (customerIds.length > 0) {
    candidates.push(sql`SELECT id FROM jobs WHERE organisation_id = ${organisationId} AND deleted_at IS NULL
      AND customer_id IN (${sql.join(customerIds)})`)
  }
  if (candidates.length === 0) return []
  // SQLite's own LIKE already ignores ASCII case, and a JavaScript lower() per candidate cost more
  // than the rest of a common word's search (12k candidates at 100k jobs); PostgreSQL's lower() is cheap.
  const title = isPostgres(db) ? sql`lower(jobs.title)` : sql`jobs.title`
  const rank = sql`CASE
    WHEN jobs.number = ${number ?? -1} THEN 0
    ${
      text === null
        ? sql``
        : sql`WHEN ${title} LIKE ${prefixPattern(text)} ESCAPE '\\' THEN 1
      WHEN ${title} LIKE ${containsPattern(text)} ESCAPE '\\' THEN 2`
    }
    ELSE 3 END`
  // PostgreSQL joins the candidates to jobs by primary key; SQLite tests `id IN (…)` (joined, it ran
  // the union once per job of the organisation: seconds).
  const union = sql.join(candidates, sql` UNION `)
  const from = isPostgres(db)
    ? sql`FROM (${union}) AS candidate JOIN jobs ON jobs.id = candidate.id`
    : sql`FROM jobs`
  const inCandidates = isPostgres(db) ? sql`` : sql`AND jobs.id IN (${union})`
  // Only the page's rows read their customer's name (after ORDER BY … LIMIT).
  const result = await sql<JobFoundRow>`SELECT found.id, found.number, found.title, found.status, found.date,
      (SELECT customers.name FROM customers
        WHERE customers.id = found.customer_id AND customers.organisation_id = ${organisationId}) AS customer_name
    FROM (
      SELECT jobs.id, jobs.number, jobs.title, jobs.status, jobs.customer_id,
        coalesce(jobs.scheduled_start, jobs.earliest_start) AS date, ${rank} AS rank
      ${from}
      WHERE jobs.organisation_id = ${organisationId} AND jobs.deleted_at IS NULL ${inCandidates}
      ORDER BY rank, date DESC NULLS LAST, jobs.id DESC
      LIMIT ${limit}
    ) AS found
    ORDER BY found.rank, found.date DESC NULLS LAST, found.id DESC`.execute(db)
  return result.rows
}
