// Hot reads skip query building, and on SQLite even the driver when no transaction is open: they
// must still never see another transaction's uncommitted writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, createTenant, createTestApp, DIALECTS, type TestContext } from '../../test/helpers.js'
import { getJob } from '../modules/jobs/service.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: hot reads`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    it('never read a write that is not committed, and see it once it is', async () => {
      const tenant = await createTenant(t)
      const org = tenant.organisationId
      const job = (await client(t, tenant.headers).post('/jobs', { title: 'Before' })).body.data.job
      const db = t.database.db
      let reading: Promise<{ title: string }> | undefined
      const rolledBack = db
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('jobs').set({ title: 'Uncommitted' }).where('id', '=', job.id).execute()
          reading = getJob(db, org, job.id)
          await new Promise((resolve) => setTimeout(resolve, 20))
          throw new Error('roll back')
        })
        .catch(() => 'rolled back')
      expect(await rolledBack).toBe('rolled back')
      expect((await reading)?.title).toBe('Before')

      await db.transaction().execute(async (trx) => {
        await trx.updateTable('jobs').set({ title: 'Committed' }).where('id', '=', job.id).execute()
      })
      expect((await getJob(db, org, job.id)).title).toBe('Committed')
      // Inside a transaction, a hot read sees that transaction's own writes.
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('jobs').set({ title: 'Mine' }).where('id', '=', job.id).execute()
        expect((await getJob(trx, org, job.id)).title).toBe('Mine')
      })
    })
  })
}
