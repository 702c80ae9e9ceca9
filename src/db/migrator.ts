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
import * as m0009 from './migrations/0009-api-key-successor.js'
import * as m0010 from './migrations/0010-location-code-unique.js'
import * as m0011 from './migrations/0011-route-plans.js'
import * as m0012 from './migrations/0012-user-sessions.js'
import * as m0013 from './migrations/0013-execution-response-headers.js'
import * as m0014 from './migrations/0014-idempotency-keys.js'
import * as m0015 from './migrations/0015-change-feed.js'
import * as m0016 from './migrations/0016-form-templates.js'
import * as m0017 from './migrations/0017-striped-job-counters.js'
import * as m0018 from './migrations/0018-server-secrets.js'
import * as m0019 from './migrations/0019-route-plan-queue.js'
import * as m0020 from './migrations/0020-idempotency-credentials.js'
import * as m0021 from './migrations/0021-job-recorded-times.js'
import * as m0022 from './migrations/0022-live-day.js'
import * as m0023 from './migrations/0023-route-plan-now.js'
import * as m0024 from './migrations/0024-tracking-and-customer-messages.js'
import * as m0025 from './migrations/0025-absences.js'
import * as m0026 from './migrations/0026-job-numbers-and-search.js'
import * as m0027 from './migrations/0027-organisation-map.js'
import * as m0028 from './migrations/0028-job-address.js'
import * as m0029 from './migrations/0029-user-colours.js'
import * as m0030 from './migrations/0030-job-series.js'
import * as m0031 from './migrations/0031-attachments.js'
import * as m0032 from './migrations/0032-imports.js'
import * as m0033 from './migrations/0033-completion-requirements.js'
import * as m0034 from './migrations/0034-bookings.js'
import * as m0036 from './migrations/0036-plan-balance.js'
import * as m0037 from './migrations/0037-week-plans.js'

// Migrations are listed here, in order, so they run the same from source and from dist/.
export const MIGRATIONS: MigrationList = {
  '0001-initial': m0001,
  '0002-admin': m0002,
  '0003-webhooks': m0003,
  '0004-job-counts': m0004,
  '0005-job-days': m0005,
  '0006-customer-search': m0006,
  '0007-customer-trigrams': m0007,
  '0008-deferred-job-counters': m0008,
  '0009-api-key-successor': m0009,
  '0010-location-code-unique': m0010,
  '0011-route-plans': m0011,
  '0012-user-sessions': m0012,
  '0013-execution-response-headers': m0013,
  '0014-idempotency-keys': m0014,
  '0015-change-feed': m0015,
  '0016-form-templates': m0016,
  '0017-striped-job-counters': m0017,
  '0018-server-secrets': m0018,
  '0019-route-plan-queue': m0019,
  '0020-idempotency-credentials': m0020,
  '0021-job-recorded-times': m0021,
  '0022-live-day': m0022,
  '0023-route-plan-now': m0023,
  '0024-tracking-and-customer-messages': m0024,
  '0025-absences': m0025,
  '0026-job-numbers-and-search': m0026,
  '0027-organisation-map': m0027,
  '0028-job-address': m0028,
  '0029-user-colours': m0029,
  '0030-job-series': m0030,
  '0031-attachments': m0031,
  '0032-imports': m0032,
  '0033-completion-requirements': m0033,
  '0034-bookings': m0034,
  '0036-plan-balance': m0036,
  '0037-week-plans': m0037,
}

export type MigrationList = Readonly<Record<string, { up(db: Kysely<any>, dialect: Dialect): Promise<void> }>>

/** `onStart` hears the name of each migration as it begins. Tests may pass their own list. */
export function createMigrator(
  db: Kysely<any>,
  dialect: Dialect,
  migrations: MigrationList = MIGRATIONS,
  onStart?: (name: string) => void,
): Migrator {
  return new Migrator({
    db,
    provider: {
      async getMigrations() {
        const resolved: Record<string, Migration> = {}
        for (const [name, migration] of Object.entries(migrations)) {
          resolved[name] = {
            up: (trx) => {
              onStart?.(name)
              return migration.up(trx, dialect)
            },
          }
        }
        return resolved
      },
    },
  })
}

/**
 * Applies every pending migration, one at a time (on PostgreSQL each in its own transaction), and
 * throws naming the one that failed: Kysely names it only when one of its statements throws, not
 * when its transaction fails to commit (a deferred constraint or trigger), so the migration that
 * began last is the one to blame. A failure before any migration began (the migration tables cannot
 * be created or locked) says so and lists what was pending. A database a newer build has already
 * migrated further is left alone (returns []): during a rolling deploy the old build's instances
 * keep starting and serving, as our migrations only ever add to the schema.
 */
export async function migrateToLatest(
  db: Kysely<any>,
  dialect: Dialect,
  migrations: MigrationList = MIGRATIONS,
): Promise<string[]> {
  if ((await newerMigrations(db, migrations)).length > 0) return []
  let started: string | undefined
  const migrator = createMigrator(db, dialect, migrations, (name) => {
    started = name
  })
  const applied: string[] = []
  for (;;) {
    started = undefined
    const { error, results } = (await migrator.migrateUp()) as MigrationResultSet
    if (error) {
      const reason = error instanceof Error ? error.message : String(error)
      const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? started
      if (failed) throw new Error(`Migration ${failed} failed: ${reason}`, { cause: error })
      const pending = await migrator
        .getMigrations()
        .then((list) => list.filter((m) => m.executedAt === undefined).map((m) => m.name))
        .catch(() => Object.keys(migrations))
      throw new Error(`Migrations could not start (pending: ${pending.join(', ')}): ${reason}`, {
        cause: error,
      })
    }
    const done = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
    if (done.length === 0) return applied
    applied.push(...done)
  }
}

/** Applied migrations this build does not know (none on a new database, which has no table yet). */
export async function newerMigrations(
  db: Kysely<any>,
  migrations: MigrationList = MIGRATIONS,
): Promise<string[]> {
  const applied = await db
    .selectFrom('kysely_migration')
    .select('name')
    .execute()
    .catch(() => [] as { name: string }[])
  return applied.map((row) => row.name as string).filter((name) => !Object.hasOwn(migrations, name))
}
