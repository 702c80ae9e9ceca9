import type { Kysely, Selectable, Transaction } from 'kysely'
import type { Database, TagsTable } from '../../db/types.js'

type Executor = Kysely<Database> | Transaction<Database>
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
