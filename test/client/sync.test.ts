// The TypeScript client on the integrator additions: a change feed walked with listAll and
// updatedSince, the event feed (cursor-only pagination) with JOB_DELETED, and If-Match through
// per-call headers refused as a typed PRECONDITION_FAILED — against a listening server, both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FieldserviceClient, FieldserviceError, responseOf } from '../../clients/typescript/src/index.js'
import { createTenant, createTestApp, DIALECTS, type TestContext } from '../helpers.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: syncing with the TypeScript client`, () => {
    let t: TestContext
    let baseUrl: string
    beforeAll(async () => {
      t = await createTestApp(dialect, { changeSettleMs: 0 })
      baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 })
    })
    afterAll(async () => {
      await t?.close()
    })

    it('walks changed jobs and the event feed to their ends, and refuses a stale If-Match', async () => {
      const tenant = await createTenant(t)
      const client = new FieldserviceClient({ baseUrl, apiKey: tenant.key, retryBaseDelayMs: 10 })
      const ids: string[] = []
      for (let i = 0; i < 5; i++) ids.push((await client.jobs.create({ title: `Job ${i}` })).job.id)
      await client.jobs.delete(ids[0] as string)

      const changed: string[] = []
      for await (const job of client.jobs.listAll({ updatedSince: '2000-01-01T00:00:00Z', limit: 2 }))
        changed.push(job.id)
      expect(changed).toEqual(ids.slice(1))

      const events: string[] = []
      for await (const event of client.events.listAll({ limit: 2 })) events.push(event.event)
      expect(events).toEqual([
        'JOB_CREATED',
        'JOB_CREATED',
        'JOB_CREATED',
        'JOB_CREATED',
        'JOB_CREATED',
        'JOB_DELETED',
      ])

      const read = await client.jobs.get(ids[1] as string)
      const etag = responseOf(read)?.etag as string
      expect(etag).toMatch(/^"/)
      await client.jobs.update(ids[1] as string, { title: 'Mine' }, { headers: { 'If-Match': etag } })
      const stale = await client.jobs
        .update(ids[1] as string, { title: 'Theirs' }, { headers: { 'If-Match': etag } })
        .catch((error: unknown) => error)
      expect(stale).toBeInstanceOf(FieldserviceError)
      expect((stale as FieldserviceError).code).toBe('PRECONDITION_FAILED')
      expect((stale as FieldserviceError).status).toBe(412)
      expect((await client.jobs.get(ids[1] as string)).job.title).toBe('Mine')
    })
  })
}
