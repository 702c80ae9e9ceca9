// The header search's jobs (GET /v1/admin/search): by number, by title, or of the customers the same
// search found, best first. Indexed (migration 0026): the number by (organisation_id, number), titles
// by a pg_trgm GIN index on PostgreSQL and the jobs_trigram FTS5 table on SQLite, a customer's jobs by
// jobs_customer_idx. Scoped by organisation; soft-deleted jobs are never found.
import { sql } from 'kysely'
import { isPostgres } from '../../db/database.js'
import type { Executor, JobStatus } from '../../db/types.js'
import { containsPattern, ftsPhrase, prefixPattern, type SearchTerms } from '../search/terms.js'

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
 * titles containing it, then jobs of `customerIds`; ties by the job's date, latest first (undated last).
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
        ? sql`SELECT id FROM jobs WHERE organisation_id = ${organisationId} AND deleted_at IS NULL
            AND lower(title) LIKE ${containsPattern(text)}`
        : sql`SELECT job_id FROM jobs_trigram_ids WHERE trigram_rowid IN (
            SELECT rowid FROM jobs_trigram WHERE jobs_trigram MATCH ${ftsPhrase(text)})`,
    )
  }
  if (customerIds.length > 0) {
    candidates.push(sql`SELECT id FROM jobs WHERE organisation_id = ${organisationId} AND deleted_at IS NULL
      AND customer_id IN (${sql.join(customerIds)})`)
  }
  if (candidates.length === 0) return []
  const rank = sql`CASE
    WHEN number = ${number ?? -1} THEN 0
    ${
      text === null
        ? sql``
        : sql`WHEN lower(title) LIKE ${prefixPattern(text)} ESCAPE '\\' THEN 1
      WHEN lower(title) LIKE ${containsPattern(text)} ESCAPE '\\' THEN 2`
    }
    ELSE 3 END`
  const result = await sql<JobFoundRow>`SELECT id, number, title, status, date, customer_name FROM (
      SELECT jobs.id, jobs.number, jobs.title, jobs.status,
        coalesce(jobs.scheduled_start, jobs.earliest_start) AS date,
        (SELECT customers.name FROM customers
          WHERE customers.id = jobs.customer_id AND customers.organisation_id = jobs.organisation_id) AS customer_name,
        ${rank} AS rank
      FROM jobs
      WHERE jobs.organisation_id = ${organisationId} AND jobs.deleted_at IS NULL
        AND jobs.id IN (${sql.join(candidates, sql` UNION `)})
    ) AS found
    ORDER BY rank, date DESC NULLS LAST, id DESC
    LIMIT ${limit}`.execute(db)
  return result.rows
}
