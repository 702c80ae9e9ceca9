import { type Selectable, sql, type Transaction, type Updateable } from 'kysely'
import { isPostgres } from '../../db/database.js'
import type { Database, Executor, TagsTable } from '../../db/types.js'

export type TagRow = Selectable<TagsTable>
export type TagUpdate = Updateable<TagsTable>

export async function insertTag(db: Executor, row: TagRow): Promise<void> {
  await db.insertInto('tags').values(row).execute()
}

export async function findTagByName(
  db: Executor,
  organisationId: string,
  name: string,
): Promise<TagRow | undefined> {
  return db
    .selectFrom('tags')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('name', '=', name)
    .executeTakeFirst()
}

/** A tag whose name equals `name` ignoring case (lower() is Unicode-aware on both engines). */
export async function findTagByNameIgnoringCase(
  db: Executor,
  organisationId: string,
  name: string,
): Promise<TagRow | undefined> {
  return db
    .selectFrom('tags')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst()
}

export async function listTags(
  db: Executor,
  organisationId: string,
  page: { limit: number; offset: number },
): Promise<TagRow[]> {
  return db
    .selectFrom('tags')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function countTags(db: Executor, organisationId: string): Promise<number> {
  const row = await db
    .selectFrom('tags')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('organisation_id', '=', organisationId)
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

export async function findTag(db: Executor, organisationId: string, id: string): Promise<TagRow | undefined> {
  return db
    .selectFrom('tags')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** The tag, locked on PostgreSQL so that no vehicle or job can take it until the transaction ends. */
export async function findTagForUpdate(
  trx: Transaction<Database>,
  organisationId: string,
  id: string,
): Promise<TagRow | undefined> {
  let query = trx
    .selectFrom('tags')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
  // SQLite has one writer at a time: a write transaction is already exclusive.
  if (isPostgres(trx)) query = query.forUpdate()
  return query.executeTakeFirst()
}

export async function findTagsByIds(
  db: Executor,
  organisationId: string,
  ids: readonly string[],
): Promise<TagRow[]> {
  // `in ()` is not valid SQL.
  if (ids.length === 0) return []
  let query = db
    .selectFrom('tags')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', 'in', [...new Set(ids)])
    .orderBy('name')
    .orderBy('id')
  // Inside a writer's transaction on PostgreSQL the rows stay key-share locked until it ends, so a
  // concurrent delete waits instead of breaking the writer's foreign keys.
  if (isPostgres(db)) query = query.forKeyShare()
  return query.execute()
}

export async function updateTag(
  db: Executor,
  organisationId: string,
  id: string,
  changes: TagUpdate,
): Promise<number> {
  const result = await db
    .updateTable('tags')
    .set(changes)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/** How many vehicles and live (not deleted) jobs carry the tag. */
export async function countTagUsage(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<{ vehicles: number; jobs: number }> {
  const [vehicles, jobs] = await Promise.all([
    db
      .selectFrom('vehicle_tags')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('organisation_id', '=', organisationId)
      .where('tag_id', '=', id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('job_tags')
      .innerJoin('jobs', (join) =>
        join
          .onRef('jobs.id', '=', 'job_tags.job_id')
          .onRef('jobs.organisation_id', '=', 'job_tags.organisation_id'),
      )
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('job_tags.organisation_id', '=', organisationId)
      .where('job_tags.tag_id', '=', id)
      .where('jobs.deleted_at', 'is', null)
      .executeTakeFirstOrThrow(),
  ])
  return { vehicles: Number(vehicles.total), jobs: Number(jobs.total) }
}

/**
 * Deletes the tag, first detaching it from soft-deleted jobs: those are gone from the API and must
 * not keep a tag alive forever. Callers check that no vehicle or live job carries it.
 */
export async function deleteTag(db: Executor, organisationId: string, id: string): Promise<number> {
  await db
    .deleteFrom('job_tags')
    .where('organisation_id', '=', organisationId)
    .where('tag_id', '=', id)
    .where('job_id', 'in', (eb) =>
      eb
        .selectFrom('jobs')
        .select('id')
        .where('organisation_id', '=', organisationId)
        .where('deleted_at', 'is not', null),
    )
    .execute()
  const result = await db
    .deleteFrom('tags')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
