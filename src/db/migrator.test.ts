// Rolling deploys: a build whose database a newer build has already migrated still starts and serves.
// A failing migration is named, however it fails. Migration 0010 makes location codes unique; 0012
// adds passwords and dashboard sessions; 0013 keeps the response headers of webhook deliveries; 0014
// keeps one idempotency key per organisation and key; 0020 one per organisation, credential and key,
// beside the table older builds still claim in.
import { randomBytes } from 'node:crypto'
import { type Kysely, sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminPostgresUrl, postgresUrlFor } from '../../test/dialects.js'
import { makeLocation } from '../../test/factories.js'
import { createTestApp, DIALECTS, type TestContext } from '../../test/helpers.js'
import { createOrganisation } from '../modules/organisations/service.js'
import { createDatabase, type DatabaseHandle, type Dialect } from './database.js'
import { newId } from './ids.js'
import { MIGRATIONS, type MigrationList, migrateToLatest, newerMigrations } from './migrator.js'

async function adminQuery(text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminPostgresUrl() })
  await admin.connect()
  try {
    await admin.query(text)
  } finally {
    await admin.end()
  }
}

/** A database with nothing in it, not even the migrations table. */
async function emptyDatabase(dialect: Dialect): Promise<DatabaseHandle & { cleanup(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const handle = createDatabase(':memory:')
    return { ...handle, cleanup: () => handle.destroy() }
  }
  const name = `fs_test_empty_${process.pid}_${randomBytes(4).toString('hex')}`
  await adminQuery(`CREATE DATABASE ${name}`)
  const handle = createDatabase(postgresUrlFor(name), { pgPoolSize: 2 })
  return {
    ...handle,
    async cleanup() {
      await handle.destroy()
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}

const appliedNames = async (db: Kysely<any>) =>
  (await db.selectFrom('kysely_migration').select('name').orderBy('name').execute()).map((r) => r.name)

const createsTable: MigrationList[string] = {
  up: async (db) => {
    await db.schema.createTable('first_table').addColumn('id', 'integer').execute()
  },
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: migrations`, () => {
    let t: TestContext

    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    it('has nothing to apply on a current database', async () => {
      expect(await migrateToLatest(t.database.db, dialect)).toEqual([])
      expect(await newerMigrations(t.database.db)).toEqual([])
    })

    it('leaves a database migrated by a newer build alone, and stays ready on it', async () => {
      const future = '9999-from-a-newer-build'
      await sql`INSERT INTO kysely_migration (name, timestamp) VALUES (${future}, ${new Date().toISOString()})`.execute(
        t.database.db,
      )
      expect(await newerMigrations(t.database.db)).toEqual([future])
      expect(await migrateToLatest(t.database.db, dialect)).toEqual([])
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' })
      expect(ready.statusCode).toBe(200)
      expect(ready.json()).toMatchObject({ status: 'ready', checks: { migrations: { status: 'ok' } } })
    })

    describe('a failing migration', () => {
      it('is named when one of its statements fails; the ones before it stay applied', async () => {
        const database = await emptyDatabase(dialect)
        try {
          const migrations: MigrationList = {
            '0001-creates-a-table': createsTable,
            '0002-selects-from-nothing': {
              up: async (db) => {
                await sql`SELECT * FROM no_such_table`.execute(db)
              },
            },
            '0003-never-runs': createsTable,
          }
          await expect(migrateToLatest(database.db, dialect, migrations)).rejects.toThrow(
            /^Migration 0002-selects-from-nothing failed: .*no_such_table/,
          )
          expect(await appliedNames(database.db)).toEqual(['0001-creates-a-table'])
        } finally {
          await database.cleanup()
        }
      })

      it('says when migrations cannot start at all, listing those pending', async () => {
        const database = await emptyDatabase(dialect)
        try {
          // A lock table left in another shape: Kysely cannot write its lock row.
          await database.db.schema.createTable('kysely_migration_lock').addColumn('other', 'text').execute()
          const migrations: MigrationList = {
            '0001-creates-a-table': createsTable,
            '0002-again': createsTable,
          }
          await expect(migrateToLatest(database.db, dialect, migrations)).rejects.toThrow(
            /^Migrations could not start \(pending: 0001-creates-a-table, 0002-again\): /,
          )
        } finally {
          await database.cleanup()
        }
      })

      it.runIf(dialect === 'postgres')('is named when its transaction fails to commit', async () => {
        const database = await emptyDatabase(dialect)
        try {
          const migrations: MigrationList = {
            '0001-creates-a-table': createsTable,
            '0002-breaks-a-deferred-key': {
              up: async (db) => {
                await sql`CREATE TABLE parent (id integer PRIMARY KEY)`.execute(db)
                await sql`CREATE TABLE child (parent_id integer REFERENCES parent (id)
                  DEFERRABLE INITIALLY DEFERRED)`.execute(db)
                await sql`INSERT INTO child VALUES (1)`.execute(db) // checked only at COMMIT
              },
            },
          }
          await expect(migrateToLatest(database.db, dialect, migrations)).rejects.toThrow(
            /^Migration 0002-breaks-a-deferred-key failed: .*violates foreign key constraint/,
          )
          expect(await appliedNames(database.db)).toEqual(['0001-creates-a-table'])
        } finally {
          await database.cleanup()
        }
      })
    })

    it('0010 makes location codes unique: the oldest keeps its code, later ones get a free suffix', async () => {
      const database = await emptyDatabase(dialect)
      try {
        const before0010 = Object.fromEntries(
          Object.entries(MIGRATIONS).filter(([name]) => name < '0010-location-code-unique'),
        )
        await migrateToLatest(database.db, dialect, before0010)
        const db = database.db
        const acme = await createOrganisation(db, { name: 'Acme', plan: 'PRO' })
        const other = await createOrganisation(db, { name: 'Other', plan: 'PRO' })
        const long = 'L'.repeat(32)
        const made: { updated_at: string }[] = []
        for (const [org, code] of [
          [acme.id, 'NTH'],
          [acme.id, 'NTH'],
          [acme.id, 'NTH-2'], // already taken by hand: the renamed one skips it
          [acme.id, 'NTH'],
          [acme.id, long],
          [acme.id, long],
          [acme.id, 'nth'], // another code: codes compare exactly
          [other.id, 'NTH'],
          [other.id, 'SKP'],
        ] as const) {
          made.push(await makeLocation(db, org, { code }))
        }

        expect((await migrateToLatest(db, dialect))[0]).toBe('0010-location-code-unique')
        const rows = await db
          .selectFrom('locations')
          .select(['id', 'code', 'updated_at'])
          .orderBy('created_at')
          .execute()
        expect(rows.map((row) => row.code)).toEqual([
          'NTH',
          'NTH-3',
          'NTH-2',
          'NTH-4',
          long,
          `${'L'.repeat(30)}-2`,
          'nth',
          'NTH',
          'SKP',
        ])
        // Only the renamed rows moved their updatedAt.
        const moved = rows.filter((row, i) => String(row.updated_at) !== String(made[i]?.updated_at))
        expect(moved.map((row) => row.code)).toEqual(['NTH-3', 'NTH-4', `${'L'.repeat(30)}-2`])
        // From now on the database itself refuses a duplicate.
        await expect(makeLocation(db, acme.id, { code: 'SKP' })).resolves.toBeDefined()
        await expect(makeLocation(db, acme.id, { code: 'SKP' })).rejects.toThrow(/unique|duplicate/i)
      } finally {
        await database.cleanup()
      }
    })

    it('0012 gives users no password (so no sign-in) and adds the sessions table', async () => {
      const database = await emptyDatabase(dialect)
      try {
        const before0012 = Object.fromEntries(
          Object.entries(MIGRATIONS).filter(([name]) => name < '0012-user-sessions'),
        )
        await migrateToLatest(database.db, dialect, before0012)
        const db = database.db
        const org = await createOrganisation(db, { name: 'Before', plan: 'PRO' })
        const [userId = ''] = await usersBefore0029(db, org.id, ['old@example.com'])
        const user = { id: userId }
        expect(await migrateToLatest(db, dialect, migrationsThrough('0012-user-sessions'))).toEqual([
          '0012-user-sessions',
        ])
        const row = await db
          .selectFrom('users')
          .select(['password_hash', 'password_changed_at'])
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow()
        expect(row).toEqual({ password_hash: null, password_changed_at: null })
        expect(await db.selectFrom('user_sessions').selectAll().execute()).toEqual([])
        // A session can only name a user of its own organisation.
        const other = await createOrganisation(db, { name: 'Other', plan: 'PRO' })
        const now = new Date().toISOString()
        const session = {
          id: 'h'.repeat(64),
          organisation_id: other.id,
          user_id: user.id,
          csrf_token: 't',
          created_at: now,
          last_seen_at: now,
          expires_at: now,
        }
        await expect(db.insertInto('user_sessions').values(session).execute()).rejects.toThrow(/foreign key/i)
        await db
          .insertInto('user_sessions')
          .values({ ...session, organisation_id: org.id })
          .execute()
      } finally {
        await database.cleanup()
      }
    })

    it("0029 numbers each organisation's users in id order, modulo the 8 colours", async () => {
      const database = await emptyDatabase(dialect)
      try {
        const db = database.db
        await migrateToLatest(db, dialect, migrationsThrough('0028-job-address'))
        const big = await createOrganisation(db, { name: 'Big', plan: 'PRO' })
        const small = await createOrganisation(db, { name: 'Small', plan: 'PRO' })
        const bigIds = await usersBefore0029(
          db,
          big.id,
          Array.from({ length: 10 }, (_, i) => `b${i}@example.com`),
        )
        const smallIds = await usersBefore0029(db, small.id, ['s0@example.com', 's1@example.com'])
        expect(await migrateToLatest(db, dialect, migrationsThrough('0029-user-colours'))).toEqual([
          '0029-user-colours',
        ])
        const colourOf = new Map(
          (await db.selectFrom('users').select(['id', 'colour']).execute()).map((r) => [r.id, r.colour]),
        )
        expect([...bigIds].sort().map((id) => colourOf.get(id))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 1, 2])
        expect([...smallIds].sort().map((id) => colourOf.get(id))).toEqual([1, 2])
        // Not null, 1–8 only.
        const now = new Date().toISOString()
        const row = {
          organisation_id: small.id,
          name: 'x',
          role: 'WORKER' as const,
          is_active: 1,
          created_at: now,
          updated_at: now,
        }
        await db
          .insertInto('users')
          .values({ ...row, id: newId(), email: 'd@example.com' })
          .execute()
        await expect(
          db
            .insertInto('users')
            .values({ ...row, id: newId(), email: 'n@example.com', colour: 9 })
            .execute(),
        ).rejects.toThrow(/check/i)
      } finally {
        await database.cleanup()
      }
    })

    it('0013 keeps no response headers for executions logged before it', async () => {
      const database = await emptyDatabase(dialect)
      try {
        const db = database.db
        await migrateToLatest(db, dialect, migrationsThrough('0012-user-sessions'))
        const org = await createOrganisation(db, { name: 'Before', plan: 'PRO' })
        const now = new Date().toISOString()
        await db
          .insertInto('automations')
          .values({
            id: 'a1',
            organisation_id: org.id,
            name: 'hook',
            event: 'JOB_CREATED',
            action: 'SEND_WEBHOOK',
            url: 'https://example.com/hook',
            is_active: 1,
            secret: 'whsec_x',
            previous_secret: null,
            previous_secret_expires_at: null,
            created_at: now,
            updated_at: now,
          } as never)
          .execute()
        await db
          .insertInto('webhook_executions')
          .values({
            id: 'e1',
            organisation_id: org.id,
            automation_id: 'a1',
            event_id: 'ev1',
            webhook_id: 'msg_e1',
            event: 'JOB_CREATED',
            url: 'https://example.com/hook',
            status: 'SUCCESS',
            http_status: 200,
            error: null,
            duration_ms: 5,
            request_body: '{}',
            response_body: 'ok',
            redelivery_of: null,
            created_at: now,
            completed_at: now,
          } as never)
          .execute()
        expect(
          await migrateToLatest(db, dialect, migrationsThrough('0013-execution-response-headers')),
        ).toEqual(['0013-execution-response-headers'])
        const row = await db
          .selectFrom('webhook_executions')
          .select(['response_body', 'response_headers'])
          .where('id', '=', 'e1')
          .executeTakeFirstOrThrow()
        expect(row).toEqual({ response_body: 'ok', response_headers: null })
      } finally {
        await database.cleanup()
      }
    })

    it('0014 keeps one idempotency key per organisation and key', async () => {
      const db = t.database.db
      const acme = await createOrganisation(db, { name: 'Acme', plan: 'PRO' })
      const other = await createOrganisation(db, { name: 'Other', plan: 'PRO' })
      const at = new Date().toISOString()
      const row = (organisation_id: string) => ({
        organisation_id,
        key: 'retry-1',
        fingerprint: 'f'.repeat(64),
        status: 'RUNNING' as const,
        claim_id: randomBytes(8).toString('hex'),
        response_status: null,
        response_body: null,
        locked_at: at,
        created_at: at,
        expires_at: at,
      })
      await db
        .insertInto('idempotency_keys')
        .values([row(acme.id), row(other.id)])
        .execute()
      await expect(db.insertInto('idempotency_keys').values(row(acme.id)).execute()).rejects.toThrow(
        /unique|duplicate/i,
      )
      await expect(
        db.insertInto('idempotency_keys').values(row('no-such-organisation')).execute(),
      ).rejects.toThrow(/foreign key/i)
    })

    it('0020 keeps one idempotency key per organisation, credential and key; older builds keep theirs', async () => {
      const db = t.database.db
      const acme = await createOrganisation(db, { name: 'Acme', plan: 'PRO' })
      const at = new Date().toISOString()
      const row = (credential: string) => ({
        organisation_id: acme.id,
        credential,
        key: 'retry-1',
        fingerprint: 'f'.repeat(64),
        status: 'RUNNING' as const,
        claim_id: randomBytes(8).toString('hex'),
        response_status: null,
        response_body: null,
        locked_at: at,
        created_at: at,
        expires_at: at,
      })
      await db
        .insertInto('idempotency_claims')
        .values([row('key:a'), row('key:b'), row('user:c')])
        .execute()
      await expect(db.insertInto('idempotency_claims').values(row('key:a')).execute()).rejects.toThrow(
        /unique|duplicate/i,
      )
      // An older build's claim, as it writes it, still works beside the new table.
      const { credential: _none, ...older } = row('')
      const claimed = await db
        .insertInto('idempotency_keys')
        .values(older)
        .onConflict((conflict) => conflict.columns(['organisation_id', 'key']).doNothing())
        .executeTakeFirst()
      expect(Number(claimed.numInsertedOrUpdatedRows)).toBe(1)
    })
  })
}

/** The migrations up to and including `last`, as an older build would have them. */
/** Users as a build before 0029 wrote them (no colour: the factory's insertUser picks one). */
async function usersBefore0029(db: Kysely<any>, organisationId: string, emails: string[]): Promise<string[]> {
  const ids: string[] = []
  for (const email of emails) {
    const now = new Date().toISOString()
    const id = newId()
    await db
      .insertInto('users')
      .values({
        id,
        organisation_id: organisationId,
        name: email,
        email,
        role: 'WORKER',
        is_active: 1,
        created_at: now,
        updated_at: now,
      })
      .execute()
    ids.push(id)
  }
  return ids
}

function migrationsThrough(last: string): MigrationList {
  return Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name <= last))
}
