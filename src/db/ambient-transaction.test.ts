// The request view of the database that route modules get: the database itself in a request without
// an ambient transaction, that request's one transaction inside it (reads see its writes; a service's
// own transaction joins it, unless it asks for more isolation than it gives; a rollback undoes all of
// it), callbacks deferred until it commits, and an error anywhere outside a request.
import { Kysely, sql, type Transaction } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/helpers.js'
import { createOrganisation } from '../modules/organisations/service.js'
import {
  afterCommit,
  ambientDatabase,
  inAmbientTransaction,
  JoinRefusedError,
  OutsideRequestError,
  runInRequestScope,
} from './ambient-transaction.js'
import { fastPath } from './fast-path/index.js'
import type { Database } from './types.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: ambient transactions`, () => {
    let database: TestDatabase

    beforeAll(async () => {
      database = await createTestDatabase(dialect)
    })
    afterAll(() => database.cleanup())

    /** PostgreSQL's isolation level of the transaction; SQLite has only one. */
    const isolationOf = async (trx: Transaction<Database>) => {
      if (dialect !== 'postgres') return 'serializable'
      const setting = sql<{ level: string }>`select current_setting('transaction_isolation') as level`
      return (await setting.execute(trx)).rows[0]?.level
    }

    const names = (db: TestDatabase['db']) =>
      db
        .selectFrom('organisations')
        .select('name')
        .orderBy('name')
        .execute()
        .then((rows) => rows.map((row) => row.name))

    it('cannot be used outside a request', async () => {
      const view = ambientDatabase(database.db)
      expect(() => view.selectFrom('organisations')).toThrow(OutsideRequestError)
      expect(() => view.transaction()).toThrow(
        /used outside a request .*background work must be given the database itself/,
      )
      await expect(createOrganisation(view, { name: 'Nowhere', plan: 'PRO' })).rejects.toThrow(
        OutsideRequestError,
      )
      expect(await names(database.db)).not.toContain('Nowhere')
      // A continuation a request leaves behind is still in its scope, and uses the database itself.
      await runInRequestScope(() => createOrganisation(view, { name: 'In a request', plan: 'PRO' }))
      expect(await names(database.db)).toContain('In a request')
    })

    it('refuses a joined transaction that asks for more isolation than the request gives, honours the rest', async () => {
      const view = ambientDatabase(database.db)
      const stricter = dialect === 'postgres' ? (['repeatable read', 'serializable'] as const) : ([] as const)
      const honoured =
        dialect === 'postgres' ? (['read committed'] as const) : (['read committed', 'serializable'] as const)
      await runInRequestScope(() =>
        inAmbientTransaction(database.db, async (trx) => {
          for (const level of stricter) {
            expect(() => view.transaction().setIsolationLevel(level)).toThrow(JoinRefusedError)
          }
          expect(() => view.transaction().setAccessMode('read only')).toThrow(/read only cannot join/)
          for (const level of honoured) {
            const inner = await view
              .transaction()
              .setIsolationLevel(level)
              .setAccessMode('read write')
              .execute(async (joined) => joined)
            expect(inner).toBe(trx)
          }
        }),
      )
      // In a request without an ambient transaction, the level asked for is the database's to give.
      const level = await runInRequestScope(() =>
        view
          .transaction()
          .setIsolationLevel('serializable')
          .execute((trx) => isolationOf(trx)),
      )
      expect(level).toBe('serializable')
    })

    it('is the database itself in a request without an ambient transaction', () =>
      runInRequestScope(async () => {
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
        expect((await fastPath.readSql<{ name: string }>(view, query, [])).map((r) => r.name)).toContain(
          'Own transaction',
        )
      }))

    it('follows the ambient transaction: its writes are visible inside, joined, and undone together', () =>
      runInRequestScope(async () => {
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
            await view
              .transaction()
              .execute((trx) => createOrganisation(trx, { name: 'Undone', plan: 'PRO' }))
            await createOrganisation(view, { name: 'Undone too', plan: 'PRO' })
            throw new Error('the handler failed')
          }),
        ).rejects.toThrow('the handler failed')
        expect(await names(database.db)).not.toContain('Undone')
        expect(await names(database.db)).not.toContain('Undone too')
      }))

    it('runs afterCommit callbacks once committed, never after a rollback, and at once outside', () =>
      runInRequestScope(async () => {
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
      }))
  })
}
