// Rolling deploys: a build whose database a newer build has already migrated still starts and serves.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, DIALECTS, type TestContext } from '../../test/helpers.js'
import { migrateToLatest, newerMigrations } from './migrator.js'

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
  })
}
