// The ambient-aware view of the database that route modules get: the database itself outside an
// idempotent request, that request's one transaction inside it (reads see its writes; a service's own
// transaction joins it; a rollback undoes all of it), and callbacks deferred until it commits.
import { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/helpers.js'
import { createOrganisation } from '../modules/organisations/service.js'
import { afterCommit, ambientDatabase, inAmbientTransaction } from './ambient-transaction.js'
import { runHotQuery } from './hot-query.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: ambient transactions`, () => {
    let database: TestDatabase

    beforeAll(async () => {
      database = await createTestDatabase(dialect)
    })
    afterAll(() => database.cleanup())

    const names = (db: TestDatabase['db']) =>
      db
        .selectFrom('organisations')
        .select('name')
        .orderBy('name')
        .execute()
        .then((rows) => rows.map((row) => row.name))

    it('is the database itself outside an ambient transaction', async () => {
      const view = ambientDatabase(database.db)
      expect(view instanceof Kysely).toBe(true)
      expect(view.isTransaction).toBe(false)
      await createOrganisation(view, { name: 'Outside', plan: 'PRO' })
      expect(await names(database.db)).toContain('Outside')
      // Services' transactions and hot reads work through it as through the database.
      await view
        .transaction()
        .execute((trx) => createOrganisation(trx, { name: 'Own transaction', plan: 'PRO' }))
      const query = {
        name: 'ambient_test_names',
        sqlite: 'SELECT name FROM organisations',
        postgres: 'SELECT name FROM organisations',
      }
      expect((await runHotQuery<{ name: string }>(view, query, [])).map((r) => r.name)).toContain(
        'Own transaction',
      )
    })

    it('follows the ambient transaction: its writes are visible inside, joined, and undone together', async () => {
      const view = ambientDatabase(database.db)
      const seen = await inAmbientTransaction(database.db, async (trx) => {
        await createOrganisation(view, { name: 'Inside', plan: 'PRO' })
        const joined = await view.transaction().execute(async (inner) => {
          expect(inner).toBe(trx)
          await createOrganisation(inner, { name: 'Joined', plan: 'PRO' })
          return names(view)
        })
        expect(view.isTransaction).toBe(true)
        return joined
      })
      expect(seen).toEqual(expect.arrayContaining(['Inside', 'Joined']))
      expect(await names(database.db)).toEqual(expect.arrayContaining(['Inside', 'Joined']))

      await expect(
        inAmbientTransaction(database.db, async () => {
          await view.transaction().execute((trx) => createOrganisation(trx, { name: 'Undone', plan: 'PRO' }))
          await createOrganisation(view, { name: 'Undone too', plan: 'PRO' })
          throw new Error('the handler failed')
        }),
      ).rejects.toThrow('the handler failed')
      expect(await names(database.db)).not.toContain('Undone')
      expect(await names(database.db)).not.toContain('Undone too')
    })

    it('runs afterCommit callbacks once committed, never after a rollback, and at once outside', async () => {
      const calls: string[] = []
      afterCommit(() => calls.push('outside'))
      expect(calls).toEqual(['outside'])
      let leftover: Promise<string[]> | undefined
      await inAmbientTransaction(database.db, async () => {
        afterCommit(() => calls.push('committed'))
        expect(calls).toEqual(['outside'])
        // A continuation the handler leaves behind runs on the database once the transaction is over.
        leftover = new Promise((resolve) => setTimeout(resolve, 20)).then(() =>
          names(ambientDatabase(database.db)),
        )
      })
      expect(calls).toEqual(['outside', 'committed'])
      await expect(leftover).resolves.toContain('Inside')
      await inAmbientTransaction(database.db, async () => {
        afterCommit(() => calls.push('rolled back'))
        throw new Error('no')
      }).catch(() => {})
      expect(calls).toEqual(['outside', 'committed'])
    })
  })
}
