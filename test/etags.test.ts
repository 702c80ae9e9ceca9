// Optimistic concurrency (docs/integrators.md): strong ETags on single resources, 304 on
// If-None-Match, 412 PRECONDITION_FAILED on a stale If-Match — on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeShift, makeShiftReferences, makeTag, outboxEvents } from './factories.js'
import { adminClient, createTenant, createTestApp, DIALECTS, type TestContext } from './helpers.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: ETags`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    async function setup() {
      const tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      const send = (
        method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
        url: string,
        headers: Record<string, string> = {},
        payload?: object,
      ) =>
        t.app.inject({
          method,
          url: `/v1/public${url}`,
          headers: { ...tenant.headers, ...headers },
          ...(payload ? { payload } : {}),
        })
      const created = await send('POST', '/jobs', {}, { title: 'Boiler' })
      return { tenant, send, created, job: created.json().data.job }
    }

    it('names each version of a job with a strong ETag: 304 while it is current, 200 once it changed', async () => {
      const { send, created, job, tenant } = await setup()
      const read = await send('GET', `/jobs/${job.id}`)
      const etag = read.headers.etag as string
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
      expect(created.headers.etag).toBe(etag)
      expect((await send('GET', `/jobs/${job.id}`)).headers.etag).toBe(etag)

      const cached = await send('GET', `/jobs/${job.id}`, { 'if-none-match': etag })
      expect(cached.statusCode).toBe(304)
      expect(cached.body).toBe('')
      expect(cached.headers.etag).toBe(etag)
      expect((await send('GET', `/jobs/${job.id}`, { 'if-none-match': `"other", ${etag}` })).statusCode).toBe(
        304,
      )
      expect((await send('GET', `/jobs/${job.id}`, { 'if-none-match': '"other"' })).statusCode).toBe(200)

      const patched = await send('PATCH', `/jobs/${job.id}`, {}, { title: 'Boiler service' })
      expect(patched.headers.etag).not.toBe(etag)
      expect((await send('GET', `/jobs/${job.id}`)).headers.etag).toBe(patched.headers.etag)
      const stale = await send('GET', `/jobs/${job.id}`, { 'if-none-match': etag })
      expect(stale.statusCode).toBe(200)
      expect(stale.json().data.job.title).toBe('Boiler service')

      // A change the job's own row does not hold (its tags) is a new version too.
      const tag = await makeTag(t.database.db, tenant.organisationId, 'Gas')
      const admin = adminClient(t, tenant.headers)
      expect((await admin.put(`/jobs/${job.id}/tags`, { tagIds: [tag.id] })).status).toBe(200)
      expect((await send('GET', `/jobs/${job.id}`)).headers.etag).not.toBe(patched.headers.etag)
    })

    it('refuses a PATCH or DELETE whose If-Match is stale with 412, changing nothing', async () => {
      const { send, job, tenant } = await setup()
      const etag = (await send('GET', `/jobs/${job.id}`)).headers.etag as string
      const first = await send('PATCH', `/jobs/${job.id}`, { 'if-match': etag }, { title: 'Mine' })
      expect(first.statusCode).toBe(200)
      const events = await outboxEvents(t.database.db, tenant.organisationId)

      const second = await send('PATCH', `/jobs/${job.id}`, { 'if-match': etag }, { title: 'Theirs' })
      expect(second.statusCode).toBe(412)
      expect(second.json()).toMatchObject({ code: 'PRECONDITION_FAILED' })
      expect(second.headers.etag).toBe(first.headers.etag)
      const deleted = await send('DELETE', `/jobs/${job.id}`, { 'if-match': etag })
      expect(deleted.statusCode).toBe(412)
      expect((await send('GET', `/jobs/${job.id}`)).json().data.job.title).toBe('Mine')
      expect(await outboxEvents(t.database.db, tenant.organisationId)).toEqual(events)

      expect((await send('PATCH', `/jobs/${job.id}`, { 'if-match': '*' }, { title: 'Any' })).statusCode).toBe(
        200,
      )
      const current = (await send('GET', `/jobs/${job.id}`)).headers.etag as string
      expect((await send('DELETE', `/jobs/${job.id}`, { 'if-match': current })).statusCode).toBe(200)
      // Gone, unknown and another organisation's jobs are 404 whatever If-Match says.
      const other = await setup()
      for (const id of [job.id, 'no-such-job', other.job.id]) {
        expect((await send('PATCH', `/jobs/${id}`, { 'if-match': '*' }, { title: 'x' })).statusCode).toBe(404)
        expect((await send('DELETE', `/jobs/${id}`, { 'if-match': current })).statusCode).toBe(404)
      }
      expect((await other.send('GET', `/jobs/${other.job.id}`)).json().data.job.title).toBe('Boiler')
    })

    it('lets exactly one of two concurrent writers with the same If-Match win', async () => {
      const { send, job } = await setup()
      const etag = (await send('GET', `/jobs/${job.id}`)).headers.etag as string
      const answers = await Promise.all(
        ['A', 'B', 'C', 'D'].map((title) =>
          send('PATCH', `/jobs/${job.id}`, { 'if-match': etag }, { title }),
        ),
      )
      const statuses = answers.map((answer) => answer.statusCode).sort()
      expect(statuses).toEqual([200, 412, 412, 412])
      const winner = answers.find((answer) => answer.statusCode === 200)?.json().data.job.title
      expect((await send('GET', `/jobs/${job.id}`)).json().data.job.title).toBe(winner)
    })

    it('holds the If-Match check inside an idempotent request, and replays its answer', async () => {
      const { send, job } = await setup()
      const etag = (await send('GET', `/jobs/${job.id}`)).headers.etag as string
      const headers = { 'if-match': etag, 'idempotency-key': `etag-${job.id}` }
      const first = await send('PATCH', `/jobs/${job.id}`, headers, { title: 'Once' })
      expect(first.statusCode).toBe(200)
      const again = await send('PATCH', `/jobs/${job.id}`, headers, { title: 'Once' })
      expect(again.statusCode).toBe(200)
      expect(again.headers['idempotent-replayed']).toBe('true')
      const stale = await send(
        'PATCH',
        `/jobs/${job.id}`,
        { 'if-match': etag, 'idempotency-key': 'other' },
        { title: 'Twice' },
      )
      expect(stale.statusCode).toBe(412)
    })

    it('gives customers, vehicles, locations and shifts ETags too; customers take If-Match', async () => {
      const { send, tenant } = await setup()
      const customer = (
        await send('POST', '/customers', {}, { name: 'Acme', latitude: 53.4, longitude: -2.2 })
      ).json().data.customer
      const etag = (await send('GET', `/customers/${customer.id}`)).headers.etag as string
      expect((await send('GET', `/customers/${customer.id}`, { 'if-none-match': etag })).statusCode).toBe(304)
      expect(
        (await send('PATCH', `/customers/${customer.id}`, { 'if-match': '"stale"' }, { name: 'B' }))
          .statusCode,
      ).toBe(412)
      expect(
        (await send('PATCH', `/customers/${customer.id}`, { 'if-match': etag }, { name: 'B' })).statusCode,
      ).toBe(200)

      const refs = await makeShiftReferences(t.database.db, tenant.organisationId)
      const shift = await makeShift(t.database.db, tenant.organisationId, refs.refs)
      for (const url of [
        `/vehicles/${refs.vehicle.id}`,
        `/locations/${refs.location.id}`,
        `/shifts/${shift.id}`,
      ]) {
        const read = await send('GET', url)
        expect(read.headers.etag, url).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
        expect(
          (await send('GET', url, { 'if-none-match': read.headers.etag as string })).statusCode,
          url,
        ).toBe(304)
      }
      // Lists carry no ETag, and a request without the headers is answered as always.
      expect((await send('GET', '/jobs')).headers.etag).toBeUndefined()
    })
  })
}
