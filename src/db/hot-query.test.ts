// Hot reads skip query building, and on SQLite even the driver when no transaction is open: they
// must still never see another transaction's uncommitted writes.
import { sql } from 'kysely'
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

    it('keep answering after a migration adds a column to a table they read with *', async () => {
      const tenant = await createTenant(t)
      const api = client(t, tenant.headers)
      const job = (await api.post('/jobs', { title: 'Schema drift' })).body.data.job
      // Prepare the hot statements on the pool's connections, then change the jobs table under them.
      for (let i = 0; i < 5; i++) expect((await api.get(`/jobs/${job.id}`)).status).toBe(200)
      await sql`ALTER TABLE jobs ADD COLUMN added_by_a_newer_build text`.execute(t.database.db)
      for (let i = 0; i < 10; i++) {
        const response = await api.get(`/jobs/${job.id}`)
        expect(response.status).toBe(200)
        expect(response.body.data.job.title).toBe('Schema drift')
      }
      expect((await api.get('/jobs')).status).toBe(200)
    })
  })
}
