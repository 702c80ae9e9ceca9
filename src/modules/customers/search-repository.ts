// The header search's customers (GET /v1/admin/search): name, address and email by substring, the
// phone by its digits, best first. Indexed (migration 0026): pg_trgm GIN indexes on PostgreSQL, the
// customers_trigram FTS5 table on SQLite. Scoped by organisation.
import { sql } from 'kysely'
import { isPostgres } from '../../db/database.js'
import type { Executor } from '../../db/types.js'
import { containsPattern, ftsPhrase, prefixPattern, type SearchTerms } from '../search/terms.js'

export interface CustomerFoundRow {
  id: string
  name: string
  address: string
  phone: string | null
}

/**
 * Customers matching the terms, best first: the name starting with the text, then containing it, then
 * a match elsewhere (address, email, phone); ties by name. None when the terms hold no text or digits.
 */
export async function findCustomersMatching(
  db: Executor,
  organisationId: string,
  terms: SearchTerms,
  limit: number,
): Promise<CustomerFoundRow[]> {
  const { text, digits } = terms
  if (text === null && digits === null) return []
  const rank = text
    ? sql`CASE WHEN search_name LIKE ${prefixPattern(text)} ESCAPE '\\' THEN 0
        WHEN search_name LIKE ${containsPattern(text)} ESCAPE '\\' THEN 1 ELSE 2 END`
    : sql`2`
  const result = await sql<CustomerFoundRow>`SELECT id, name, address, phone FROM customers
    WHERE ${matching(db, organisationId, terms)}
    ORDER BY ${rank}, search_name, id
    LIMIT ${limit}`.execute(db)
  return result.rows
}

function matching(db: Executor, organisationId: string, { text, digits }: SearchTerms) {
  if (isPostgres(db)) {
    // Each test is the exact expression of a GIN trigram index (0007, 0026).
    const tests = []
    if (text) {
      const pattern = containsPattern(text)
      tests.push(
        sql`search_name LIKE ${pattern}`,
        sql`search_address LIKE ${pattern}`,
        sql`lower(email) LIKE ${pattern}`,
      )
    }
    if (digits) tests.push(sql`replace(phone, '+', '') LIKE ${containsPattern(digits)}`)
    // `|| ''` keeps the planner from walking the organisation's customers by customers_list_idx and
    // testing each row (8 ms at 5,000 customers), so it ORs the trigram indexes' matches instead.
    return sql`organisation_id || '' = ${organisationId} AND (${sql.join(tests, sql` OR `)})`
  }
  // The trigram table holds lower(name), lower(address), lower(email) and the phone without its +;
  // a phrase is a substring match there. `|| ''` keeps the planner from walking the organisation's
  // customers instead of starting from the matches.
  const queries = []
  if (text) queries.push(`{name address email} : ${ftsPhrase(text)}`)
  if (digits) queries.push(`phone : ${ftsPhrase(digits)}`)
  return sql`organisation_id || '' = ${organisationId} AND id IN (
    SELECT customer_id FROM customers_trigram_ids WHERE trigram_rowid IN (
      SELECT rowid FROM customers_trigram WHERE customers_trigram MATCH ${queries.join(' OR ')}))`
}
