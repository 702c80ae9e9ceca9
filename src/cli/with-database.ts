import type { Config } from '../config.js'
import { createDatabase, type DatabaseHandle } from '../db/database.js'
import { migrateToLatest } from '../db/migrator.js'

/** Opens the database, migrated first unless the action is the migration itself. */
export async function withDatabase<T>(
  config: Config,
  action: (database: DatabaseHandle) => Promise<T>,
  { migrate = true } = {},
): Promise<T> {
  const database = createDatabase(config.databaseUrl, { sqliteSynchronous: config.sqliteSynchronous })
  try {
    if (migrate) await migrateToLatest(database.db, database.dialect)
    return await action(database)
  } finally {
    await database.destroy()
  }
}
