// Team members (workers and dispatchers) of an organisation.
import type { Selectable } from 'kysely'
import { sqlBool } from '../../db/database.js'
import type { Executor, UsersTable } from '../../db/types.js'

export type UserRow = Selectable<UsersTable>

export async function insertUser(db: Executor, row: UserRow): Promise<void> {
  await db
    .insertInto('users')
    .values({ ...row, is_active: sqlBool(Boolean(row.is_active)) })
    .execute()
}
