import { type ExpressionBuilder, sql } from 'kysely'
import { isPostgres } from '../../db/database.js'
import { fastPath, param } from '../../db/fast-path/index.js'
import type { CustomerRow, CustomerUpdate, Database, Executor, NewCustomer } from '../../db/types.js'
import {
  changedWithin,
  inListOrder,
  type ListOrder,
  type ListOrderValues,
  listOrderValues,
} from '../../http/list-order.js'

/** `%term%` for LIKE, with LIKE's own wildcards in the term matched literally. */
function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** Trigram indexes only hold substrings of three characters or more. */
const MIN_TRIGRAM_CHARACTERS = 3

function listConditions(
  eb: ExpressionBuilder<Database, 'customers'>,
  pg: boolean,
  organisationId: string,
  search?: string,
) {
  if (!search) return eb('organisation_id', '=', organisationId)
  const term = search.toLowerCase()
  const pattern = containsPattern(term)
  // search_name and search_address are lower(name) and lower(address), kept by triggers (0006).
  const matches = eb.or([
    sql<boolean>`${eb.ref('search_name')} like ${pattern} escape '\\'`,
    sql<boolean>`${eb.ref('search_address')} like ${pattern} escape '\\'`,
  ])
  // PostgreSQL's planner uses the pg_trgm indexes (0007) for the LIKE by itself. On SQLite the
  // trigram table narrows the candidates to customers holding every trigram of the term, and the
  // LIKE stays the exact test; `|| ''` keeps the planner from walking the organisation's customers
  // instead, which it would otherwise prefer for the ORDER BY.
  if (pg || [...term].length < MIN_TRIGRAM_CHARACTERS) {
    return eb.and([eb('organisation_id', '=', organisationId), matches])
  }
  const phrase = `"${term.replaceAll('"', '""')}"`
  return eb.and([
    sql<boolean>`${eb.ref('organisation_id')} || '' = ${organisationId}`,
    matches,
    sql<boolean>`${eb.ref('id')} in (select customer_id from customers_trigram_ids where trigram_rowid in
      (select rowid from customers_trigram where customers_trigram match ${phrase}))`,
  ])
}

/** One page of the customers (matching `search`, if given) in `order`. */
export async function listCustomers(
  db: Executor,
  organisationId: string,
  search: string | undefined,
  order: ListOrder,
  limit: number,
): Promise<CustomerRow[]> {
  return inListOrder(
    db
      .selectFrom('customers')
      .selectAll()
      .where((eb) =>
        search
          ? listConditions(eb, isPostgres(db), organisationId, search)
          : eb('organisation_id', '=', organisationId),
      ),
    'customers',
    order,
    listOrderValues(order, limit) as ListOrderValues,
  ).execute()
}

/**
 * One page of a search and the number of matches, in one query: a search must find every match to
 * sort them anyway, so the window count costs nothing extra. `total` is undefined when the page is
 * past the last match (no row carries it); count separately then.
 */
export async function searchCustomers(
  db: Executor,
  organisationId: string,
  search: string,
  page: { limit: number; offset: number },
): Promise<{ rows: CustomerRow[]; total: number | undefined }> {
  const rows = await db
    .selectFrom('customers')
    .selectAll()
    .select((eb) => eb.fn.countAll<number | string>().over().as('matches'))
    .where((eb) => listConditions(eb, isPostgres(db), organisationId, search))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
  const first = rows[0]
  return {
    rows,
    total: first ? Number(first.matches) : page.offset === 0 ? 0 : undefined,
  }
}

export async function countCustomers(
  db: Executor,
  organisationId: string,
  search?: string,
  order?: ListOrder,
): Promise<number> {
  const row = await db
    .selectFrom('customers')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => listConditions(eb, isPostgres(db), organisationId, search))
    .$if(order !== undefined, (q) =>
      q.where(changedWithin('customers', order as ListOrder, listOrderValues(order as ListOrder, 0))),
    )
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

export async function findCustomer(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<CustomerRow | undefined> {
  const [row] = await fastPath.read<CustomerRow>(
    db,
    'customers.find',
    () =>
      db
        .selectFrom('customers')
        .selectAll()
        .where('organisation_id', '=', param<string>('organisationId'))
        .where('id', '=', param<string>('id')),
    { organisationId, id },
  )
  return row
}

export async function insertCustomer(db: Executor, customer: NewCustomer): Promise<void> {
  await db.insertInto('customers').values(customer).execute()
}

export async function updateCustomer(
  db: Executor,
  organisationId: string,
  id: string,
  changes: CustomerUpdate,
): Promise<number> {
  const result = await db
    .updateTable('customers')
    .set(changes)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/** The customers with these externalIds (migration 0032's unique index reads them). */
export async function findCustomersByExternalIds(
  db: Executor,
  organisationId: string,
  externalIds: readonly string[],
): Promise<CustomerRow[]> {
  if (externalIds.length === 0) return []
  return db
    .selectFrom('customers')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('external_id', 'in', externalIds)
    .execute()
}

/** A page of customers in id order after `after` (CSV export's keyset), optionally matching `search`. */
export async function listCustomersById(
  db: Executor,
  organisationId: string,
  search: string | undefined,
  after: string | null,
  limit: number,
): Promise<CustomerRow[]> {
  let query = db.selectFrom('customers').selectAll().where('organisation_id', '=', organisationId)
  if (after !== null) query = query.where('id', '>', after)
  if (search) {
    const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    query = query.where((eb) =>
      eb.or([
        eb('search_name', 'like', sql<string>`${pattern} escape '\\'`),
        eb('search_address', 'like', sql<string>`${pattern} escape '\\'`),
      ]),
    )
  }
  return query.orderBy('id').limit(limit).execute()
}
