import type { ExpressionBuilder } from 'kysely'
import { sqlBool } from '../../db/database.js'
import type { Database, Executor, LocationRow } from '../../db/types.js'

export interface LocationFilters {
  isActive?: boolean
}

function listConditions(
  eb: ExpressionBuilder<Database, 'locations'>,
  organisationId: string,
  filters: LocationFilters,
) {
  const conditions = [eb('organisation_id', '=', organisationId)]
  if (filters.isActive !== undefined) conditions.push(eb('is_active', '=', sqlBool(filters.isActive)))
  return eb.and(conditions)
}

export async function listLocations(
  db: Executor,
  organisationId: string,
  filters: LocationFilters,
  page: { limit: number; offset: number },
): Promise<LocationRow[]> {
  return db
    .selectFrom('locations')
    .selectAll()
    .where((eb) => listConditions(eb, organisationId, filters))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function countLocations(
  db: Executor,
  organisationId: string,
  filters: LocationFilters,
): Promise<number> {
  const row = await db
    .selectFrom('locations')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => listConditions(eb, organisationId, filters))
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

export async function findLocation(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<LocationRow | undefined> {
  return db
    .selectFrom('locations')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function insertLocation(db: Executor, row: LocationRow): Promise<void> {
  await db
    .insertInto('locations')
    .values({
      ...row,
      is_primary: sqlBool(Boolean(row.is_primary)),
      is_active: sqlBool(Boolean(row.is_active)),
    })
    .execute()
}
