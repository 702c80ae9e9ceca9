// SQL for vehicles. Every query is scoped by organisation; tags and capacities are loaded for a whole
// page of vehicles in one query each, never one query per vehicle.
import { type ExpressionBuilder, sql, type Transaction, type Updateable } from 'kysely'
import { isPostgres, sqlBool } from '../../db/database.js'
import { idList, inIdList, param, prepareOnce, presentFilters } from '../../db/hot-query.js'
import type { Database, Executor, VehicleRow, VehiclesTable } from '../../db/types.js'
import type { ListOrder } from '../../http/list-order.js'
import { countListed, type PreparedList, readListPage } from '../prepared-list.js'

export type VehicleUpdate = Updateable<VehiclesTable>

export interface VehicleFilters {
  locationId?: string
  isActive?: boolean
}

export interface VehicleListedRow extends VehicleRow {
  location_name: string
}

export interface VehicleTagRow {
  vehicle_id: string
  id: string
  name: string
}

export interface VehicleCapacityRow {
  vehicle_id: string
  id: string
  key: string
  label: string
  max_value: number
}

/** Conditions for the filters that are set; values are param() placeholders (see prepareOnce). */
function filterConditions(eb: ExpressionBuilder<Database, 'vehicles'>, present: readonly string[]) {
  const conditions = [eb('vehicles.organisation_id', '=', param<string>('organisationId'))]
  if (present.includes('locationId')) {
    conditions.push(eb('vehicles.location_id', '=', param<string>('locationId')))
  }
  if (present.includes('isActive')) conditions.push(eb('vehicles.is_active', '=', param<number>('isActive')))
  return eb.and(conditions)
}

/** The list's statements for the filters set: their names and values. */
function vehicleList(kind: 'list' | 'count', organisationId: string, filters: VehicleFilters): PreparedList {
  return {
    table: 'vehicles',
    shape: `vehicles.${kind}:${presentFilters(filters).join(',')}`,
    values: {
      organisationId,
      locationId: filters.locationId,
      isActive: filters.isActive === undefined ? undefined : sqlBool(filters.isActive),
    },
  }
}

function selectVehicles(db: Executor) {
  return db
    .selectFrom('vehicles')
    .innerJoin('locations', (join) =>
      join
        .onRef('locations.id', '=', 'vehicles.location_id')
        .onRef('locations.organisation_id', '=', 'vehicles.organisation_id'),
    )
    .selectAll('vehicles')
    .select('locations.name as location_name')
}

export async function listVehicles(
  db: Executor,
  organisationId: string,
  filters: VehicleFilters,
  order: ListOrder,
  limit: number,
): Promise<VehicleListedRow[]> {
  const present = presentFilters(filters)
  return readListPage<VehicleListedRow>(db, vehicleList('list', organisationId, filters), order, limit, () =>
    selectVehicles(db).where((eb) => filterConditions(eb, present)),
  )
}

export async function countVehicles(
  db: Executor,
  organisationId: string,
  filters: VehicleFilters,
  order?: ListOrder,
): Promise<number> {
  const present = presentFilters(filters)
  return countListed(db, vehicleList('count', organisationId, filters), order, () =>
    db
      .selectFrom('vehicles')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where((eb) => filterConditions(eb, present)),
  )
}

export async function findVehicle(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<VehicleListedRow | undefined> {
  return selectVehicles(db)
    .where('vehicles.organisation_id', '=', organisationId)
    .where('vehicles.id', '=', id)
    .executeTakeFirst()
}

/**
 * `column || ''`: the same value, but no index lookup on it. The organisation filter stays, while
 * the planner reaches the rows through the vehicle ids (the primary key's prefix) instead of walking
 * every row of the organisation.
 */
const notIndexed = (column: 'vehicle_tags.organisation_id' | 'vehicle_capacities.organisation_id') =>
  sql<string>`${sql.ref(column)} || ''`

export async function findTagsOfVehicles(
  db: Executor,
  organisationId: string,
  vehicleIds: readonly string[],
): Promise<VehicleTagRow[]> {
  if (vehicleIds.length === 0) return []
  // CROSS JOIN keeps SQLite's planner from walking every tag of the organisation (to read them in
  // name order) instead of starting from the page's vehicles; the page's few rows are sorted after.
  return prepareOnce(db, 'vehicles.tags', () =>
    db
      .selectFrom('vehicle_tags')
      .crossJoin('tags')
      .whereRef('tags.id', '=', 'vehicle_tags.tag_id')
      .whereRef('tags.organisation_id', '=', 'vehicle_tags.organisation_id')
      .select(['vehicle_tags.vehicle_id', 'tags.id', 'tags.name'])
      .where(notIndexed('vehicle_tags.organisation_id'), '=', param<string>('organisationId'))
      .where(inIdList(db, 'vehicle_tags.vehicle_id', 'vehicleIds'))
      .orderBy('tags.name')
      .orderBy('tags.id'),
  ).run<VehicleTagRow>({ organisationId, vehicleIds: idList(db, vehicleIds) })
}

export async function findCapacitiesOfVehicles(
  db: Executor,
  organisationId: string,
  vehicleIds: readonly string[],
): Promise<VehicleCapacityRow[]> {
  if (vehicleIds.length === 0) return []
  return prepareOnce(db, 'vehicles.capacities', () =>
    db
      .selectFrom('vehicle_capacities')
      .crossJoin('capacity_dimensions as dimension')
      .whereRef('dimension.id', '=', 'vehicle_capacities.capacity_dimension_id')
      .whereRef('dimension.organisation_id', '=', 'vehicle_capacities.organisation_id')
      .select([
        'vehicle_capacities.vehicle_id',
        'dimension.id',
        'dimension.key',
        'dimension.label',
        'vehicle_capacities.max_value',
      ])
      .where(notIndexed('vehicle_capacities.organisation_id'), '=', param<string>('organisationId'))
      .where(inIdList(db, 'vehicle_capacities.vehicle_id', 'vehicleIds'))
      .orderBy('dimension.key')
      .orderBy('dimension.id'),
  ).run<VehicleCapacityRow>({ organisationId, vehicleIds: idList(db, vehicleIds) })
}

export async function insertVehicle(db: Executor, row: VehicleRow): Promise<void> {
  await db
    .insertInto('vehicles')
    .values({ ...row, is_active: sqlBool(Boolean(row.is_active)) })
    .execute()
}

export async function insertVehicleTag(
  db: Executor,
  organisationId: string,
  vehicleId: string,
  tagId: string,
) {
  await db
    .insertInto('vehicle_tags')
    .values({ organisation_id: organisationId, vehicle_id: vehicleId, tag_id: tagId })
    .execute()
}

export async function insertVehicleCapacity(
  db: Executor,
  organisationId: string,
  vehicleId: string,
  capacityDimensionId: string,
  maxValue: number,
) {
  await db
    .insertInto('vehicle_capacities')
    .values({
      organisation_id: organisationId,
      vehicle_id: vehicleId,
      capacity_dimension_id: capacityDimensionId,
      max_value: maxValue,
    })
    .execute()
}

/** The vehicle row, locked against concurrent writers until the transaction ends (PostgreSQL). */
export async function findVehicleForUpdate(
  trx: Transaction<Database>,
  organisationId: string,
  id: string,
): Promise<VehicleRow | undefined> {
  let query = trx
    .selectFrom('vehicles')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
  // SQLite has one writer at a time: a write transaction is already exclusive.
  if (isPostgres(trx)) query = query.forUpdate()
  return query.executeTakeFirst()
}

export async function updateVehicle(
  db: Executor,
  organisationId: string,
  id: string,
  changes: VehicleUpdate,
): Promise<void> {
  await db
    .updateTable('vehicles')
    .set(changes)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .execute()
}

export async function replaceVehicleTags(
  db: Executor,
  organisationId: string,
  vehicleId: string,
  tagIds: readonly string[],
): Promise<void> {
  await db
    .deleteFrom('vehicle_tags')
    .where('organisation_id', '=', organisationId)
    .where('vehicle_id', '=', vehicleId)
    .execute()
  if (tagIds.length === 0) return
  await db
    .insertInto('vehicle_tags')
    .values(
      tagIds.map((tagId) => ({ organisation_id: organisationId, vehicle_id: vehicleId, tag_id: tagId })),
    )
    .execute()
}

export async function replaceVehicleCapacities(
  db: Executor,
  organisationId: string,
  vehicleId: string,
  capacities: readonly { capacityDimensionId: string; maxValue: number }[],
): Promise<void> {
  await db
    .deleteFrom('vehicle_capacities')
    .where('organisation_id', '=', organisationId)
    .where('vehicle_id', '=', vehicleId)
    .execute()
  if (capacities.length === 0) return
  await db
    .insertInto('vehicle_capacities')
    .values(
      capacities.map((capacity) => ({
        organisation_id: organisationId,
        vehicle_id: vehicleId,
        capacity_dimension_id: capacity.capacityDimensionId,
        max_value: capacity.maxValue,
      })),
    )
    .execute()
}

export async function countShiftsOfVehicle(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<number> {
  const row = await db
    .selectFrom('shifts')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('organisation_id', '=', organisationId)
    .where('vehicle_id', '=', id)
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

/** Deletes the vehicle; its tags and capacities go with it (ON DELETE CASCADE). */
export async function deleteVehicle(db: Executor, organisationId: string, id: string): Promise<void> {
  await db.deleteFrom('vehicles').where('organisation_id', '=', organisationId).where('id', '=', id).execute()
}
