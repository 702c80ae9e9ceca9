// Business rules for tags: names are unique within an organisation ignoring case, and a tag that a
// vehicle or a live job carries cannot be deleted.
import type { Kysely } from 'kysely'
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js'
import { newId, nowIso } from '../../db/ids.js'
import type { Database, Executor } from '../../db/types.js'
import { AppError, describeUsage, notFound } from '../../http/errors.js'
import { offsetOf, paginationOf } from '../../http/pagination.js'
import type { Pagination } from '../../http/schemas.js'
import * as repository from './repository.js'
import type { CreateTagBody, Tag, TagListQuery, UpdateTagBody } from './schemas.js'
import { serializeTag } from './serialize.js'

export type { TagRow } from './repository.js'

const nameTaken = (name: string) =>
  new AppError('CONFLICT', `Your organisation already has a tag named "${name}"`, [
    { path: '/body/name', message: 'is already taken' },
  ])

/** Runs a write, turning a unique-index refusal (a concurrent insert of the same name) into 409. */
async function guardNameRace<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (name !== undefined && isUniqueViolation(error)) throw nameTaken(name)
    throw error
  }
}

async function assertNameFree(db: Executor, organisationId: string, name: string, exceptTagId?: string) {
  const holder = await repository.findTagByNameIgnoringCase(db, organisationId, name)
  if (holder && holder.id !== exceptTagId) throw nameTaken(holder.name)
}

/** The organisation's tags among `ids`, each once: callers compare the count with the distinct ids. */
export async function findTagsByIds(
  db: Executor,
  organisationId: string,
  ids: readonly string[],
): Promise<repository.TagRow[]> {
  return repository.findTagsByIds(db, organisationId, ids)
}

export async function listTags(
  db: Executor,
  organisationId: string,
  query: TagListQuery,
): Promise<{ tags: Tag[]; pagination: Pagination }> {
  const [rows, total] = await Promise.all([
    repository.listTags(db, organisationId, { limit: query.limit, offset: offsetOf(query) }),
    repository.countTags(db, organisationId),
  ])
  return { tags: rows.map(serializeTag), pagination: paginationOf(query, total) }
}

export async function getTag(db: Executor, organisationId: string, id: string): Promise<Tag> {
  const row = await repository.findTag(db, organisationId, id)
  if (!row) throw notFound('Tag')
  return serializeTag(row)
}

export async function createTag(
  db: Kysely<Database>,
  organisationId: string,
  input: CreateTagBody,
): Promise<Tag> {
  const name = input.name.trim()
  return guardNameRace(name, () =>
    db.transaction().execute(async (trx) => {
      await assertNameFree(trx, organisationId, name)
      const now = nowIso()
      const row = { id: newId(), organisation_id: organisationId, name, created_at: now, updated_at: now }
      await repository.insertTag(trx, row)
      return serializeTag(row)
    }),
  )
}

export async function updateTag(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  input: UpdateTagBody,
): Promise<Tag> {
  const name = input.name?.trim()
  return guardNameRace(name, () =>
    db.transaction().execute(async (trx) => {
      const current = await repository.findTag(trx, organisationId, id)
      if (!current) throw notFound('Tag')
      // A change of case only ("Gas safe" → "Gas Safe") is a rename of the same tag.
      if (name !== undefined && name !== current.name) {
        await assertNameFree(trx, organisationId, name, id)
        await repository.updateTag(trx, organisationId, id, { name, updated_at: nowIso() })
      }
      return getTag(trx, organisationId, id)
    }),
  )
}

const tagInUse = (message: string) => new AppError('IN_USE', message)

export async function deleteTag(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
): Promise<{ id: string; deletedAt: string }> {
  try {
    return await db.transaction().execute(async (trx) => {
      const current = await repository.findTagForUpdate(trx, organisationId, id)
      if (!current) throw notFound('Tag')
      const usage = await repository.countTagUsage(trx, organisationId, id)
      if (usage.vehicles > 0 || usage.jobs > 0) {
        const users = describeUsage({ vehicle: usage.vehicles, job: usage.jobs })
        throw tagInUse(`Tag "${current.name}" is used by ${users}; remove it from them first`)
      }
      await repository.deleteTag(trx, organisationId, id)
      return { id, deletedAt: nowIso() }
    })
  } catch (error) {
    // Last line of defence: a reference committed between the usage check and the delete.
    if (isForeignKeyViolation(error))
      throw tagInUse('Tag is used by vehicles or jobs; remove it from them first')
    throw error
  }
}
