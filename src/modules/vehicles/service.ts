import type { Executor } from '../../db/types.js'
import { notFound } from '../../http/errors.js'
import { offsetOf, paginationOf } from '../../http/pagination.js'
import type { Pagination } from '../../http/schemas.js'
import * as repository from './repository.js'
import type { Vehicle, VehicleListQuery } from './schemas.js'
import { serializeVehicle } from './serialize.js'

function groupByVehicle<T extends { vehicle_id: string }>(rows: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const row of rows) {
    const group = groups.get(row.vehicle_id)
    if (group) group.push(row)
    else groups.set(row.vehicle_id, [row])
  }
  return groups
}

/** Tags and capacities of every given vehicle: two queries however many vehicles there are. */
async function serializeVehicles(
  db: Executor,
  organisationId: string,
  rows: readonly repository.VehicleListedRow[],
): Promise<Vehicle[]> {
  const ids = rows.map((row) => row.id)
  const [tags, capacities] = await Promise.all([
    repository.findTagsOfVehicles(db, organisationId, ids),
    repository.findCapacitiesOfVehicles(db, organisationId, ids),
  ])
  const tagsByVehicle = groupByVehicle(tags)
  const capacitiesByVehicle = groupByVehicle(capacities)
  return rows.map((row) =>
    serializeVehicle(row, {
      tags: tagsByVehicle.get(row.id) ?? [],
      capacities: capacitiesByVehicle.get(row.id) ?? [],
    }),
  )
}

export async function listVehicles(
  db: Executor,
  organisationId: string,
  query: VehicleListQuery,
): Promise<{ vehicles: Vehicle[]; pagination: Pagination }> {
  const filters = { locationId: query.locationId, isActive: query.isActive }
  const [rows, total] = await Promise.all([
    repository.listVehicles(db, organisationId, filters, { limit: query.limit, offset: offsetOf(query) }),
    repository.countVehicles(db, organisationId, filters),
  ])
  return {
    vehicles: await serializeVehicles(db, organisationId, rows),
    pagination: paginationOf(query, total),
  }
}

export async function getVehicle(db: Executor, organisationId: string, id: string): Promise<Vehicle> {
  const row = await repository.findVehicle(db, organisationId, id)
  if (!row) throw notFound('Vehicle')
  return (await serializeVehicles(db, organisationId, [row]))[0]!
}
