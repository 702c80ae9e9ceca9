import type { Selectable } from 'kysely'
import type { Executor, TagsTable } from '../../db/types.js'

export type TagRow = Selectable<TagsTable>

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
