import { type Kysely, type Migration, type MigrationResultSet, Migrator } from 'kysely'
import type { Dialect } from './database.js'
import * as m0001 from './migrations/0001-initial.js'
import * as m0002 from './migrations/0002-admin.js'
import * as m0003 from './migrations/0003-webhooks.js'
import * as m0004 from './migrations/0004-job-counts.js'
import * as m0005 from './migrations/0005-job-days.js'
import * as m0006 from './migrations/0006-customer-search.js'
import * as m0007 from './migrations/0007-customer-trigrams.js'
import * as m0008 from './migrations/0008-deferred-job-counters.js'

// Migrations are listed here, in order, so they run the same from source and from dist/.
const MIGRATIONS: Record<string, { up(db: Kysely<any>, dialect: Dialect): Promise<void> }> = {
  '0001-initial': m0001,
  '0002-admin': m0002,
  '0003-webhooks': m0003,
  '0004-job-counts': m0004,
  '0005-job-days': m0005,
  '0006-customer-search': m0006,
  '0007-customer-trigrams': m0007,
  '0008-deferred-job-counters': m0008,
}

export function createMigrator(db: Kysely<any>, dialect: Dialect): Migrator {
  return new Migrator({
    db,
    provider: {
      async getMigrations() {
        const migrations: Record<string, Migration> = {}
        for (const [name, migration] of Object.entries(MIGRATIONS)) {
          migrations[name] = { up: (trx) => migration.up(trx, dialect) }
        }
        return migrations
      },
    },
  })
}

/**
 * Applies every pending migration; throws with the failing migration's name. A database a newer
 * build has already migrated further is left alone (returns []): during a rolling deploy the old
 * build's instances keep starting and serving, as our migrations only ever add to the schema.
 */
export async function migrateToLatest(db: Kysely<any>, dialect: Dialect): Promise<string[]> {
  if ((await newerMigrations(db)).length > 0) return []
  const { error, results } = (await createMigrator(db, dialect).migrateToLatest()) as MigrationResultSet
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown'
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`)
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}

/** Applied migrations this build does not know (none on a new database, which has no table yet). */
export async function newerMigrations(db: Kysely<any>): Promise<string[]> {
  const applied = await db
    .selectFrom('kysely_migration')
    .select('name')
    .execute()
    .catch(() => [] as { name: string }[])
  return applied.map((row) => row.name as string).filter((name) => !Object.hasOwn(MIGRATIONS, name))
}
