import type { Kysely, Transaction } from 'kysely'
import { sqlBool } from '../../db/database.js'
import { idsOf, newId, nowIso } from '../../db/ids.js'
import type { Database, Executor, VehicleRow } from '../../db/types.js'
import { toNullableDecimalString } from '../../db/values.js'
import { AppError, describeUsage, type ErrorDetail, notFound, validationError } from '../../http/errors.js'
import { listOrderOf, readPage } from '../../http/list-order.js'
import type { ChangeFeedPagination } from '../../http/schemas.js'
import { summarise } from '../../http/validation.js'
import { referenceLocation } from '../locations/service.js'
import { findCapacityDimensionsByIds, findTagsByIds } from '../reference-data/service.js'
import type { CreateVehicleBody, UpdateVehicleBody } from './admin-schemas.js'
import type { VehicleUpdate } from './repository.js'
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
  settleMs = 0,
): Promise<{ vehicles: Vehicle[]; pagination: ChangeFeedPagination }> {
  const filters = { locationId: query.locationId, isActive: query.isActive }
  const order = listOrderOf(query, settleMs)
  const { rows, pagination } = await readPage(
    query,
    order,
    (limit) => repository.listVehicles(db, organisationId, filters, order, limit),
    () => repository.countVehicles(db, organisationId, filters, order),
  )
  return { vehicles: await serializeVehicles(db, organisationId, rows), pagination }
}

export async function getVehicle(db: Executor, organisationId: string, id: string): Promise<Vehicle> {
  const row = await repository.findVehicle(db, organisationId, id)
  if (!row) throw notFound('Vehicle')
  return (await serializeVehicles(db, organisationId, [row]))[0]!
}

export const VEHICLE_DEFAULTS = {
  fixedCost: 0,
  costPerKm: 0,
  costPerHour: 0,
  speedFactor: 1,
  endPolicy: 'RETURN_TO_ORIGIN',
} as const

type CapacityInput = NonNullable<CreateVehicleBody['capacities']>[number]

/** A route start needs both coordinates, or neither (the route then starts at the depot). */
function assertStartPair(latitude: string | null, longitude: string | null): void {
  if (latitude !== null && longitude === null) {
    throw validationError('/body/startLongitude', 'is required when startLatitude is set')
  }
  if (latitude === null && longitude !== null) {
    throw validationError('/body/startLatitude', 'is required when startLongitude is set')
  }
}

/** Every referenced id must exist in the organisation: one detail per unknown or repeated id. */
async function assertReferences(
  trx: Transaction<Database>,
  organisationId: string,
  refs: { locationId?: string; tagIds?: readonly string[]; capacities?: readonly CapacityInput[] },
): Promise<void> {
  const details: ErrorDetail[] = []
  const dimensionIds = refs.capacities?.map((capacity) => capacity.capacityDimensionId) ?? []
  const [locationFound, tags, dimensions] = await Promise.all([
    refs.locationId === undefined ? true : referenceLocation(trx, organisationId, refs.locationId),
    findTagsByIds(trx, organisationId, refs.tagIds ?? []).then(idsOf),
    findCapacityDimensionsByIds(trx, organisationId, dimensionIds).then(idsOf),
  ])
  if (!locationFound) {
    details.push({
      path: '/body/locationId',
      message: `location ${refs.locationId} does not exist in your organisation`,
    })
  }
  refs.tagIds?.forEach((tagId, index) => {
    if (!tags.has(tagId)) {
      details.push({
        path: `/body/tagIds/${index}`,
        message: `tag ${tagId} does not exist in your organisation`,
      })
    }
  })
  dimensionIds.forEach((dimensionId, index) => {
    const path = `/body/capacities/${index}/capacityDimensionId`
    if (dimensionIds.indexOf(dimensionId) < index) {
      details.push({ path, message: `capacity dimension ${dimensionId} is listed more than once` })
    } else if (!dimensions.has(dimensionId)) {
      details.push({ path, message: `capacity dimension ${dimensionId} does not exist in your organisation` })
    }
  })
  if (details.length > 0) throw new AppError('VALIDATION_ERROR', summarise(details), details)
}

export async function createVehicle(
  db: Kysely<Database>,
  organisationId: string,
  input: CreateVehicleBody,
): Promise<Vehicle> {
  const startLatitude = toNullableDecimalString(input.startLatitude)
  const startLongitude = toNullableDecimalString(input.startLongitude)
  assertStartPair(startLatitude, startLongitude)
  return db.transaction().execute(async (trx) => {
    await assertReferences(trx, organisationId, input)
    const now = nowIso()
    const row: VehicleRow = {
      id: newId(),
      organisation_id: organisationId,
      location_id: input.locationId,
      name: input.name,
      fixed_cost: input.fixedCost ?? VEHICLE_DEFAULTS.fixedCost,
      cost_per_km: input.costPerKm ?? VEHICLE_DEFAULTS.costPerKm,
      cost_per_hour: input.costPerHour ?? VEHICLE_DEFAULTS.costPerHour,
      speed_factor: input.speedFactor ?? VEHICLE_DEFAULTS.speedFactor,
      start_latitude: startLatitude,
      start_longitude: startLongitude,
      end_policy: input.endPolicy ?? VEHICLE_DEFAULTS.endPolicy,
      is_active: input.isActive ?? true,
      created_at: now,
      updated_at: now,
    }
    await repository.insertVehicle(trx, row)
    await repository.replaceVehicleTags(trx, organisationId, row.id, input.tagIds ?? [])
    await repository.replaceVehicleCapacities(trx, organisationId, row.id, input.capacities ?? [])
    return getVehicle(trx, organisationId, row.id)
  })
}

/** The column changes a PATCH asks for, limited to fields whose value really changes. */
function changesOf(current: VehicleRow, input: UpdateVehicleBody): VehicleUpdate {
  const requested: VehicleUpdate = {}
  if (input.name !== undefined) requested.name = input.name
  if (input.locationId !== undefined) requested.location_id = input.locationId
  if (input.fixedCost !== undefined) requested.fixed_cost = input.fixedCost
  if (input.costPerKm !== undefined) requested.cost_per_km = input.costPerKm
  if (input.costPerHour !== undefined) requested.cost_per_hour = input.costPerHour
  if (input.speedFactor !== undefined) requested.speed_factor = input.speedFactor
  if (input.startLatitude !== undefined) {
    requested.start_latitude = toNullableDecimalString(input.startLatitude)
  }
  if (input.startLongitude !== undefined) {
    requested.start_longitude = toNullableDecimalString(input.startLongitude)
  }
  if (input.endPolicy !== undefined) requested.end_policy = input.endPolicy
  if (input.isActive !== undefined && input.isActive !== Boolean(current.is_active)) {
    requested.is_active = sqlBool(input.isActive)
  }
  const changes: VehicleUpdate = {}
  for (const [column, value] of Object.entries(requested) as [keyof VehicleRow, unknown][]) {
    if (current[column] !== value) (changes as Record<string, unknown>)[column] = value
  }
  return changes
}

function sameTags(current: readonly repository.VehicleTagRow[], requested: readonly string[]): boolean {
  const ids = new Set(current.map((tag) => tag.id))
  return ids.size === requested.length && requested.every((id) => ids.has(id))
}

function sameCapacities(
  current: readonly repository.VehicleCapacityRow[],
  requested: readonly CapacityInput[],
): boolean {
  const values = new Map(current.map((capacity) => [capacity.id, capacity.max_value]))
  return (
    values.size === requested.length &&
    requested.every((capacity) => values.get(capacity.capacityDimensionId) === capacity.maxValue)
  )
}

export async function updateVehicle(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  input: UpdateVehicleBody,
): Promise<Vehicle> {
  return db.transaction().execute(async (trx) => {
    const current = await repository.findVehicleForUpdate(trx, organisationId, id)
    if (!current) throw notFound('Vehicle')
    const changes = changesOf(current, input)
    assertStartPair(
      changes.start_latitude !== undefined ? changes.start_latitude : current.start_latitude,
      changes.start_longitude !== undefined ? changes.start_longitude : current.start_longitude,
    )
    await assertReferences(trx, organisationId, {
      ...(changes.location_id !== undefined && { locationId: changes.location_id }),
      ...(input.tagIds !== undefined && { tagIds: input.tagIds }),
      ...(input.capacities !== undefined && { capacities: input.capacities }),
    })
    const [tags, capacities] = await Promise.all([
      repository.findTagsOfVehicles(trx, organisationId, [id]),
      repository.findCapacitiesOfVehicles(trx, organisationId, [id]),
    ])
    const tagsChanged = input.tagIds !== undefined && !sameTags(tags, input.tagIds)
    const capacitiesChanged = input.capacities !== undefined && !sameCapacities(capacities, input.capacities)
    if (tagsChanged) await repository.replaceVehicleTags(trx, organisationId, id, input.tagIds ?? [])
    if (capacitiesChanged) {
      await repository.replaceVehicleCapacities(trx, organisationId, id, input.capacities ?? [])
    }
    if (Object.keys(changes).length > 0 || tagsChanged || capacitiesChanged) {
      await repository.updateVehicle(trx, organisationId, id, { ...changes, updated_at: nowIso() })
    }
    return getVehicle(trx, organisationId, id)
  })
}

export async function deleteVehicle(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
): Promise<{ id: string; deletedAt: string }> {
  return db.transaction().execute(async (trx) => {
    if (!(await repository.findVehicleForUpdate(trx, organisationId, id))) throw notFound('Vehicle')
    const shifts = await repository.countShiftsOfVehicle(trx, organisationId, id)
    if (shifts > 0) {
      throw new AppError(
        'IN_USE',
        `Vehicle is used by ${describeUsage({ shift: shifts })}; move or delete them first, ` +
          'or deactivate the vehicle instead (PATCH isActive false)',
      )
    }
    await repository.deleteVehicle(trx, organisationId, id)
    return { id, deletedAt: nowIso() }
  })
}

/**
 * Writes a vehicle with its tags and capacities as given (ids and timestamps included): for the demo organisation (cli/demo-seed.ts), which writes a history no request could make; no rule is
 * checked, the demo's data is known good.
 */
export async function seedVehicle(
  db: Executor,
  row: VehicleRow,
  extras: { tagIds: readonly string[]; capacities: readonly (readonly [dimensionId: string, max: number])[] },
): Promise<void> {
  await repository.insertVehicle(db, row)
  for (const tagId of extras.tagIds) await repository.insertVehicleTag(db, row.organisation_id, row.id, tagId)
  for (const [dimensionId, max] of extras.capacities) {
    await repository.insertVehicleCapacity(db, row.organisation_id, row.id, dimensionId, max)
  }
}
