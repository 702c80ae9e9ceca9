import type { Kysely, Transaction } from 'kysely'
import { sqlBool } from '../../db/database.js'
import type { Database, VehicleRow } from '../../db/types.js'

type Executor = Kysely<Database> | Transaction<Database>

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
