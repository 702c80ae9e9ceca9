import type { Insertable } from 'kysely'
import type { Executor, OrganisationRow, OrganisationsTable, OrganisationUpdate } from '../../db/types.js'

export async function insertOrganisation(db: Executor, row: Insertable<OrganisationsTable>): Promise<void> {
  await db.insertInto('organisations').values(row).execute()
}

export async function findOrganisation(db: Executor, id: string): Promise<OrganisationRow | undefined> {
  return db.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function findOrganisationByName(
  db: Executor,
  name: string,
): Promise<OrganisationRow | undefined> {
  return db
    .selectFrom('organisations')
    .selectAll()
    .where('name', '=', name)
    .orderBy('created_at')
    .executeTakeFirst()
}

export async function listOrganisations(db: Executor): Promise<OrganisationRow[]> {
  return db.selectFrom('organisations').selectAll().orderBy('created_at').orderBy('id').execute()
}

export async function updateOrganisation(
  db: Executor,
  id: string,
  changes: OrganisationUpdate & { updated_at: string },
): Promise<number> {
  const result = await db.updateTable('organisations').set(changes).where('id', '=', id).executeTakeFirst()
  return Number(result.numUpdatedRows)
}
