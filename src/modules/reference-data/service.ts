// Business rules of reference data, the same for every kind: the unique field is unique within an
// organisation (409 CONFLICT naming the field), and a row that a vehicle or a live job refers to
// cannot be deleted (409 IN_USE saying how many); what soft-deleted jobs referred to goes with it.
import type { Kysely } from 'kysely'
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js'
import { newId, nowIso } from '../../db/ids.js'
import type { Database, Executor } from '../../db/types.js'
import { AppError, describeUsage, notFound } from '../../http/errors.js'
import { offsetOf, paginationOf } from '../../http/pagination.js'
import type { Pagination } from '../../http/schemas.js'
import { type BaseRow, CAPACITY_DIMENSIONS, type FieldsOf, type ReferenceKind, TAGS } from './kinds.js'
import {
  type CapacityDimensionRow,
  capacityDimensionRepository,
  type ReferenceRepository,
  type TagRow,
  tagRepository,
} from './repository.js'
import type { ReferenceInput, ReferenceItem, ReferenceListQuery } from './schemas.js'

export interface ReferenceService<Row extends BaseRow> {
  /** The organisation's rows among `ids`, each once: callers compare the count with the distinct ids. */
  findByIds(db: Executor, organisationId: string, ids: readonly string[]): Promise<Row[]>
  list(
    db: Executor,
    organisationId: string,
    query: ReferenceListQuery,
  ): Promise<{ items: ReferenceItem[]; pagination: Pagination }>
  get(db: Executor, organisationId: string, id: string): Promise<ReferenceItem>
  create(db: Kysely<Database>, organisationId: string, input: ReferenceInput): Promise<ReferenceItem>
  update(
    db: Kysely<Database>,
    organisationId: string,
    id: string,
    input: ReferenceInput,
  ): Promise<ReferenceItem>
  delete(db: Kysely<Database>, organisationId: string, id: string): Promise<{ id: string; deletedAt: string }>
}

export function referenceService<Row extends BaseRow>(
  kind: ReferenceKind<Row>,
  repository: ReferenceRepository<Row>,
): ReferenceService<Row> {
  const fieldNames = Object.keys(kind.bodyFields) as (keyof FieldsOf<Row> & string)[]
  const { uniqueField, names, messages } = kind

  const serialize = (row: Row): ReferenceItem => {
    const item: Record<string, string> = { id: row.id }
    for (const field of fieldNames) item[field] = row[field] as string
    return { ...item, createdAt: row.created_at, updatedAt: row.updated_at } as ReferenceItem
  }

  /** The input with the kind's trimmed fields trimmed. */
  const normalise = (input: ReferenceInput): ReferenceInput =>
    Object.fromEntries(
      Object.entries(input).map(([field, value]) => [
        field,
        value !== undefined && (kind.trimmedFields as readonly string[]).includes(field)
          ? value.trim()
          : value,
      ]),
    )

  const taken = (value: string) =>
    new AppError('CONFLICT', messages.taken(value), [
      { path: `/body/${uniqueField}`, message: 'is already taken' },
    ])

  /** Runs a write, turning a unique-index refusal (a concurrent write of the same value) into 409. */
  async function guardUniqueRace<T>(value: string | undefined, write: () => Promise<T>): Promise<T> {
    try {
      return await write()
    } catch (error) {
      if (value !== undefined && isUniqueViolation(error)) throw taken(value)
      throw error
    }
  }

  async function assertUniqueFree(db: Executor, organisationId: string, value: string, exceptId?: string) {
    const holder = await repository.findByUniqueValue(db, organisationId, value)
    if (holder && holder.id !== exceptId) throw taken(holder[uniqueField] as string)
  }

  const inUse = (message: string) => new AppError('IN_USE', message)

  async function get(db: Executor, organisationId: string, id: string): Promise<ReferenceItem> {
    const row = await repository.find(db, organisationId, id)
    if (!row) throw notFound(names.noun)
    return serialize(row)
  }

  return {
    findByIds: (db, organisationId, ids) => repository.findByIds(db, organisationId, ids),

    async list(db, organisationId, query) {
      const [rows, total] = await Promise.all([
        repository.list(db, organisationId, { limit: query.limit, offset: offsetOf(query) }),
        repository.count(db, organisationId),
      ])
      return { items: rows.map(serialize), pagination: paginationOf(query, total) }
    },

    get,

    async create(db, organisationId, raw) {
      const input = normalise(raw)
      const unique = input[uniqueField] as string
      return guardUniqueRace(unique, () =>
        db.transaction().execute(async (trx) => {
          await assertUniqueFree(trx, organisationId, unique)
          const now = nowIso()
          const fields = Object.fromEntries(fieldNames.map((field) => [field, input[field]]))
          const row = {
            id: newId(),
            organisation_id: organisationId,
            ...fields,
            created_at: now,
            updated_at: now,
          }
          await repository.insert(trx, row as unknown as Row)
          return serialize(row as unknown as Row)
        }),
      )
    },

    async update(db, organisationId, id, raw) {
      const input = normalise(raw)
      return guardUniqueRace(input[uniqueField], () =>
        db.transaction().execute(async (trx) => {
          const current = await repository.find(trx, organisationId, id)
          if (!current) throw notFound(names.noun)
          const changes: Record<string, string> = {}
          for (const field of fieldNames) {
            const value = input[field]
            if (value !== undefined && value !== current[field]) changes[field] = value
          }
          // A change of case only ("Gas safe" → "Gas Safe") is a change of the same row's value.
          const unique = changes[uniqueField]
          if (unique !== undefined) await assertUniqueFree(trx, organisationId, unique, id)
          if (Object.keys(changes).length > 0) {
            await repository.update(trx, organisationId, id, {
              ...changes,
              updated_at: nowIso(),
            } as Partial<Row>)
          }
          return get(trx, organisationId, id)
        }),
      )
    },

    async delete(db, organisationId, id) {
      try {
        return await db.transaction().execute(async (trx) => {
          const current = await repository.findForUpdate(trx, organisationId, id)
          if (!current) throw notFound(names.noun)
          const usage = await repository.countUsage(trx, organisationId, id)
          if (usage.vehicles > 0 || usage.jobs > 0 || usage.series > 0) {
            const users = describeUsage({
              vehicle: usage.vehicles,
              job: usage.jobs,
              'job series': usage.series,
            })
            const label = current[uniqueField] as string
            throw inUse(`${names.noun} "${label}" is used by ${users}; ${messages.inUseRemedy}`)
          }
          await repository.delete(trx, organisationId, id)
          return { id, deletedAt: nowIso() }
        })
      } catch (error) {
        // Last line of defence: a reference committed between the usage check and the delete.
        if (isForeignKeyViolation(error))
          throw inUse(`${names.noun} is used by vehicles or jobs; remove it from them first`)
        throw error
      }
    },
  }
}

export const tags = referenceService(TAGS, tagRepository)
export const capacityDimensions = referenceService(CAPACITY_DIMENSIONS, capacityDimensionRepository)

/** The organisation's tags among `ids`, each once: callers compare the count with the distinct ids. */
export const findTagsByIds = (
  db: Executor,
  organisationId: string,
  ids: readonly string[],
): Promise<TagRow[]> => tags.findByIds(db, organisationId, ids)

/** The organisation's dimensions among `ids`, each once: callers compare the count with the distinct ids. */
export const findCapacityDimensionsByIds = (
  db: Executor,
  organisationId: string,
  ids: readonly string[],
): Promise<CapacityDimensionRow[]> => capacityDimensions.findByIds(db, organisationId, ids)

/**
 * Write a tag or a dimension as given (its id and timestamps included): for the demo organisation (cli/demo-seed.ts), which writes a history no request could make; no rule is
 * checked, the demo's data is known good.
 */
export const seedTag = (db: Executor, row: TagRow): Promise<void> => tagRepository.insert(db, row)
export const seedCapacityDimension = (db: Executor, row: CapacityDimensionRow): Promise<void> =>
  capacityDimensionRepository.insert(db, row)
