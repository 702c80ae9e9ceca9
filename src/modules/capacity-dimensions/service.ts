// Business rules for capacity dimensions: keys are unique within an organisation, and a dimension in
// which a vehicle has a capacity or a live job a demand cannot be deleted.
import type { Kysely } from 'kysely'
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js'
import { newId, nowIso } from '../../db/ids.js'
import type { Database, Executor } from '../../db/types.js'
import { AppError, describeUsage, notFound } from '../../http/errors.js'
import { offsetOf, paginationOf } from '../../http/pagination.js'
import type { Pagination } from '../../http/schemas.js'
import * as repository from './repository.js'
import type {
  CapacityDimension,
  CapacityDimensionListQuery,
  CreateCapacityDimensionBody,
  UpdateCapacityDimensionBody,
} from './schemas.js'
import { serializeCapacityDimension } from './serialize.js'

export type { CapacityDimensionRow } from './repository.js'

const keyTaken = (key: string) =>
  new AppError('CONFLICT', `Your organisation already has a capacity dimension with the key "${key}"`, [
    { path: '/body/key', message: 'is already taken' },
  ])

/** Runs a write, turning a unique-index refusal (a concurrent insert of the same key) into 409. */
async function guardKeyRace<T>(key: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (key !== undefined && isUniqueViolation(error)) throw keyTaken(key)
    throw error
  }
}

async function assertKeyFree(db: Executor, organisationId: string, key: string, exceptId?: string) {
  const holder = await repository.findCapacityDimensionByKey(db, organisationId, key)
  if (holder && holder.id !== exceptId) throw keyTaken(key)
}

/** The organisation's dimensions among `ids`, each once: callers compare the count with the distinct ids. */
export async function findCapacityDimensionsByIds(
  db: Executor,
  organisationId: string,
  ids: readonly string[],
): Promise<repository.CapacityDimensionRow[]> {
  return repository.findCapacityDimensionsByIds(db, organisationId, ids)
}

export async function listCapacityDimensions(
  db: Executor,
  organisationId: string,
  query: CapacityDimensionListQuery,
): Promise<{ capacityDimensions: CapacityDimension[]; pagination: Pagination }> {
  const [rows, total] = await Promise.all([
    repository.listCapacityDimensions(db, organisationId, { limit: query.limit, offset: offsetOf(query) }),
    repository.countCapacityDimensions(db, organisationId),
  ])
  return { capacityDimensions: rows.map(serializeCapacityDimension), pagination: paginationOf(query, total) }
}

export async function getCapacityDimension(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<CapacityDimension> {
  const row = await repository.findCapacityDimension(db, organisationId, id)
  if (!row) throw notFound('Capacity dimension')
  return serializeCapacityDimension(row)
}

export async function createCapacityDimension(
  db: Kysely<Database>,
  organisationId: string,
  input: CreateCapacityDimensionBody,
): Promise<CapacityDimension> {
  return guardKeyRace(input.key, () =>
    db.transaction().execute(async (trx) => {
      await assertKeyFree(trx, organisationId, input.key)
      const now = nowIso()
      const row = {
        id: newId(),
        organisation_id: organisationId,
        key: input.key,
        label: input.label,
        created_at: now,
        updated_at: now,
      }
      await repository.insertCapacityDimension(trx, row)
      return serializeCapacityDimension(row)
    }),
  )
}

export async function updateCapacityDimension(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  input: UpdateCapacityDimensionBody,
): Promise<CapacityDimension> {
  return guardKeyRace(input.key, () =>
    db.transaction().execute(async (trx) => {
      const current = await repository.findCapacityDimension(trx, organisationId, id)
      if (!current) throw notFound('Capacity dimension')
      const changes: repository.CapacityDimensionUpdate = {}
      if (input.label !== undefined && input.label !== current.label) changes.label = input.label
      if (input.key !== undefined && input.key !== current.key) {
        await assertKeyFree(trx, organisationId, input.key, id)
        changes.key = input.key
      }
      if (Object.keys(changes).length > 0) {
        await repository.updateCapacityDimension(trx, organisationId, id, {
          ...changes,
          updated_at: nowIso(),
        })
      }
      return getCapacityDimension(trx, organisationId, id)
    }),
  )
}

const dimensionInUse = (message: string) => new AppError('IN_USE', message)

export async function deleteCapacityDimension(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
): Promise<{ id: string; deletedAt: string }> {
  try {
    return await db.transaction().execute(async (trx) => {
      const current = await repository.findCapacityDimensionForUpdate(trx, organisationId, id)
      if (!current) throw notFound('Capacity dimension')
      const usage = await repository.countCapacityDimensionUsage(trx, organisationId, id)
      if (usage.vehicles > 0 || usage.jobs > 0) {
        const users = describeUsage({ vehicle: usage.vehicles, job: usage.jobs })
        throw dimensionInUse(
          `Capacity dimension "${current.key}" is used by ${users}; ` +
            'remove their capacities and demands in it first',
        )
      }
      await repository.deleteCapacityDimension(trx, organisationId, id)
      return { id, deletedAt: nowIso() }
    })
  } catch (error) {
    // Last line of defence: a reference committed between the usage check and the delete.
    if (isForeignKeyViolation(error)) {
      throw dimensionInUse('Capacity dimension is used by vehicles or jobs; remove it from them first')
    }
    throw error
  }
}
