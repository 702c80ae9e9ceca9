// The fast path's statements skip query building, and on SQLite even the driver when no transaction
// is open: they must still never see another transaction's uncommitted writes. Under test, a
// statement whose shape misses a branch of its SQL is refused.
import { sql, type Transaction } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, createTenant, createTestApp, DIALECTS, type TestContext } from '../../../test/helpers.js'
import { insertOutboxEvent } from '../../modules/events/repository.js'
import { getJob } from '../../modules/jobs/service.js'
import { newId } from '../ids.js'
import type { Database } from '../types.js'
import { fastPath, param, StaleStatementError } from './index.js'

const outboxRow = (organisationId: string, id: string, event = 'JOB_DELETED') => ({
  id,
  organisation_id: organisationId,
  event,
  data: '{}',
  occurred_at: new Date().toISOString(),
})

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

    it('run in their transaction only while it is open, and a failing one undoes it', async () => {
      const tenant = await createTenant(t)
      const org = tenant.organisationId
      const job = (await client(t, tenant.headers).post('/jobs', { title: 'Outside' })).body.data.job
      const db = t.database.db
      let kept: Transaction<Database> | undefined
      await db.transaction().execute(async (trx) => {
        kept = trx
        expect((await getJob(trx, org, job.id)).title).toBe('Outside')
        await trx.updateTable('jobs').set({ title: 'Inside' }).where('id', '=', job.id).execute()
        // The second hot statement of the transaction (on SQLite, straight on its connection).
        expect((await getJob(trx, org, job.id)).title).toBe('Inside')
      })
      await expect(getJob(kept as Transaction<Database>, org, job.id)).rejects.toThrow(/already committed/)

      const taken = newId()
      await insertOutboxEvent(db, outboxRow(org, taken))
      const failed = await db
        .transaction()
        .execute(async (trx) => {
          await getJob(trx, org, job.id)
          await trx.updateTable('jobs').set({ title: 'Undone' }).where('id', '=', job.id).execute()
          await insertOutboxEvent(trx, outboxRow(org, taken))
          return 'committed'
        })
        .catch(() => 'failed')
      expect(failed).toBe('failed')
      expect((await getJob(db, org, job.id)).title).toBe('Inside')
      // The connection goes on: the next transaction commits.
      await db.transaction().execute(async (trx) => {
        await getJob(trx, org, job.id)
        await trx.updateTable('jobs').set({ title: 'After' }).where('id', '=', job.id).execute()
        await insertOutboxEvent(trx, outboxRow(org, newId()))
      })
      expect((await getJob(db, org, job.id)).title).toBe('After')
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

    it('refuse a statement whose shape does not name a branch that changes its SQL', async () => {
      const tenant = await createTenant(t)
      const db = t.database.db
      const titled = (title?: string) =>
        fastPath.read<{ id: string }>(
          db,
          `test.jobs.titled:${dialect}`,
          () =>
            db
              .selectFrom('jobs')
              .select('id')
              .where('organisation_id', '=', param<string>('organisationId'))
              .$if(title !== undefined, (q) => q.where('title', '=', param<string>('title'))),
          { organisationId: tenant.organisationId, title },
        )
      expect(await titled()).toEqual([])
      await expect((async () => titled('Forgotten'))()).rejects.toThrow(StaleStatementError)
      await expect((async () => titled('Forgotten'))()).rejects.toThrow(/must name every branch/)
      // The same branch as the one cached runs.
      expect(await titled()).toEqual([])
    })

    it('answer a deferrable write with nothing, and have it done by the commit', async () => {
      const tenant = await createTenant(t)
      const db = t.database.db
      const id = newId()
      const answer = await db.transaction().execute((trx) =>
        fastPath.deferrableWrite(
          trx,
          'test.outbox.insert',
          () =>
            trx.insertInto('outbox_events').values({
              id: param('id'),
              organisation_id: param('organisation_id'),
              event: param('event'),
              data: param('data'),
              occurred_at: param('occurred_at'),
            }),
          outboxRow(tenant.organisationId, id),
        ),
      )
      expect(answer).toBeUndefined()
      expect(await db.selectFrom('outbox_events').select('id').where('id', '=', id).execute()).toHaveLength(1)
    })
  })
}

// On PostgreSQL a deferrable write in a transaction is answered before PostgreSQL has run it (it
// travels with the next statement or the commit): its failure must still fail the transaction.
describe.runIf(DIALECTS.includes('postgres'))('postgres: deferred writes', () => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestApp('postgres')
  })
  afterAll(() => t.close())

  it('fail the commit when one failed, and commit nothing', async () => {
    const tenant = await createTenant(t)
    const db = t.database.db
    const taken = newId()
    await insertOutboxEvent(db, outboxRow(tenant.organisationId, taken, 'JOB_DELETED'))
    const fresh = newId()
    const failed = await db
      .transaction()
      .execute(async (trx) => {
        await insertOutboxEvent(trx, outboxRow(tenant.organisationId, fresh, 'JOB_DELETED'))
        await insertOutboxEvent(trx, outboxRow(tenant.organisationId, taken, 'JOB_DELETED'))
        return 'committed'
      })
      .catch((error: { code?: string }) => error.code)
    expect(failed).toBe('23505')
    const stored = await db
      .selectFrom('outbox_events')
      .select('id')
      .where('id', 'in', [fresh, taken])
      .execute()
    expect(stored.map((row) => row.id)).toEqual([taken])
  })

  it('throw their own error at the next statement', async () => {
    const tenant = await createTenant(t)
    const db = t.database.db
    const taken = newId()
    await insertOutboxEvent(db, outboxRow(tenant.organisationId, taken, 'JOB_DELETED'))
    const seen: (string | undefined)[] = []
    await db
      .transaction()
      .execute(async (trx) => {
        await insertOutboxEvent(trx, outboxRow(tenant.organisationId, taken, 'JOB_DELETED'))
        await sql`select 1`.execute(trx).catch((error: { code?: string }) => seen.push(error.code))
        throw new Error('roll back')
      })
      .catch(() => {})
    // The unique violation, not PostgreSQL's "current transaction is aborted" (25P02).
    expect(seen).toEqual(['23505'])
    // The connection is usable afterwards: its next transaction commits.
    const id = newId()
    await db
      .transaction()
      .execute((trx) => insertOutboxEvent(trx, outboxRow(tenant.organisationId, id, 'JOB_DELETED')))
    expect(await db.selectFrom('outbox_events').select('id').where('id', '=', id).execute()).toHaveLength(1)
  })
})
