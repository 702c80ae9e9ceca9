import { type ExpressionBuilder, sql } from 'kysely'
import type { CustomerRow, CustomerUpdate, Database, Executor, NewCustomer } from '../../db/types.js'

/** `%term%` for LIKE, with LIKE's own wildcards in the term matched literally. */
function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

function listConditions(
  eb: ExpressionBuilder<Database, 'customers'>,
  organisationId: string,
  search?: string,
) {
  const conditions = [eb('organisation_id', '=', organisationId)]
  if (search) {
    const pattern = containsPattern(search)
    // search_name and search_address are lower(name) and lower(address), kept by triggers.
    conditions.push(
      eb.or([
        sql<boolean>`${eb.ref('search_name')} like ${pattern} escape '\\'`,
        sql<boolean>`${eb.ref('search_address')} like ${pattern} escape '\\'`,
      ]),
    )
  }
  return eb.and(conditions)
}

export async function listCustomers(
  db: Executor,
  organisationId: string,
  search: string | undefined,
  page: { limit: number; offset: number },
): Promise<CustomerRow[]> {
  return db
    .selectFrom('customers')
    .selectAll()
    .where((eb) => listConditions(eb, organisationId, search))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function countCustomers(db: Executor, organisationId: string, search?: string): Promise<number> {
  const row = await db
    .selectFrom('customers')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => listConditions(eb, organisationId, search))
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

export async function findCustomer(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<CustomerRow | undefined> {
  return db
    .selectFrom('customers')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
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
