// Idempotency-Key beyond POST /jobs: PATCH, the admin API's creates, PUT and lifecycle actions (the
// technician app retries start and complete), operations whose answer holds a secret (no key), and a
// webhook redelivery, whose effect leaves the database and so runs outside the request transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outboxEvents } from '../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../test/helpers.js'
import { type Receiver, startReceiver } from '../../test/webhook-receiver.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: Idempotency-Key on every write`, () => {
    let t: TestContext
    let receiver: Receiver

    beforeAll(async () => {
      t = await createTestApp(dialect)
      receiver = await startReceiver()
    })
    afterAll(async () => {
      await t.close()
      await receiver.close()
    })

    const admin = async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      return {
        tenant,
        keyed: (key: string) => adminClient(t, { ...tenant.headers, 'idempotency-key': key }),
        publicKeyed: (key: string) => client(t, { ...tenant.headers, 'idempotency-key': key }),
        plain: adminClient(t, tenant.headers),
      }
    }

    it('replays a PATCH without changing the resource again', async () => {
      const { publicKeyed } = await admin()
      const customer = (
        await publicKeyed('new-customer').post('/customers', { name: 'Ada', latitude: 51.5, longitude: 0 })
      ).body.data.customer
      const first = await publicKeyed('rename-ada').patch(`/customers/${customer.id}`, {
        name: 'Ada Lovelace',
      })
      expect(first.status).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 5))
      const replay = await publicKeyed('rename-ada').patch(`/customers/${customer.id}`, {
        name: 'Ada Lovelace',
      })
      expect([replay.status, replay.headers['idempotent-replayed']]).toEqual([200, 'true'])
      expect(replay.body).toEqual(first.body)
      expect(replay.body.data.customer.updatedAt).toBe(first.body.data.customer.updatedAt)
    })

    it('replays admin creates, PUTs and lifecycle actions, with their events once', async () => {
      const { tenant, keyed, plain } = await admin()
      const tag = await keyed('tag-1').post('/tags', { name: 'Gas Safe' })
      const again = await keyed('tag-1').post('/tags', { name: 'Gas Safe' })
      expect([tag.status, again.status, again.headers['idempotent-replayed']]).toEqual([201, 201, 'true'])
      expect(again.body).toEqual(tag.body)
      expect((await plain.get('/tags')).body.data.pagination.total).toBe(1)

      const job = (await client(t, tenant.headers).post('/jobs', { title: 'Leak' })).body.data.job
      const tagIds = [tag.body.data.tag.id]
      const put = await keyed('tags-of-job').put(`/jobs/${job.id}/tags`, { tagIds })
      const putAgain = await keyed('tags-of-job').put(`/jobs/${job.id}/tags`, { tagIds })
      expect([put.status, putAgain.status, putAgain.headers['idempotent-replayed']]).toEqual([
        200,
        200,
        'true',
      ])

      const cancel = await keyed('cancel-leak').post(`/jobs/${job.id}/cancel`, {
        reason: 'Fixed by the tenant',
      })
      expect(cancel.status).toBe(200)
      // A retry of the same action is answered as the first was, not refused as a second cancel.
      const retry = await keyed('cancel-leak').post(`/jobs/${job.id}/cancel`, {
        reason: 'Fixed by the tenant',
      })
      expect([retry.status, retry.headers['idempotent-replayed']]).toEqual([200, 'true'])
      expect(retry.body).toEqual(cancel.body)
      const second = await keyed('cancel-leak-2').post(`/jobs/${job.id}/cancel`, {
        reason: 'Fixed by the tenant',
      })
      expect([second.status, second.body.code]).toEqual([422, 'INVALID_TRANSITION'])
      const events = (await outboxEvents(t.database.db, tenant.organisationId)).map((e) => e.event)
      expect(events.filter((e) => e === 'JOB_CANCELLED')).toHaveLength(1)
    })

    it('refuses the key on operations whose answer or request holds a secret, which is never stored', async () => {
      const { keyed, plain } = await admin()
      for (const [url, body] of [
        ['/api-keys', { name: 'ERP', scopes: ['read'] }],
        ['/automations', { event: 'JOB_CREATED', url: `${receiver.url}/hook` }],
      ] as const) {
        const refused = await keyed('with-secret').post(url, body)
        expect([refused.status, refused.body.code], url).toEqual([400, 'VALIDATION_ERROR'])
        expect(refused.body.error).toMatch(/^idempotency-key is not accepted by this operation/)
        expect((await plain.post(url, body)).status, url).toBe(201)
      }
      // A password in the body: its fingerprint would be a fast hash of it.
      const user = (await plain.post('/team/users', { name: 'Dee', email: `dee-${Date.now()}@example.com` }))
        .body.data.user
      const password = await keyed('with-secret').put(`/team/users/${user.id}/password`, {
        password: 'long enough, surely',
      })
      expect([password.status, password.body.code]).toEqual([400, 'VALIDATION_ERROR'])
      const signIn = await t.app.inject({
        method: 'POST',
        url: '/v1/admin/session',
        headers: { 'idempotency-key': 'with-secret' },
        payload: { email: 'nobody@example.com', password: 'whatever it is' },
      })
      expect([signIn.statusCode, signIn.json().code]).toEqual([400, 'VALIDATION_ERROR'])
      expect(
        await t.database.db
          .selectFrom('idempotency_claims')
          .select('key')
          .where('key', '=', 'with-secret')
          .execute(),
      ).toEqual([])
    })

    it('runs a redelivery outside the transaction: 409 while it waits on the receiver, then its answer', async () => {
      const { tenant, keyed, plain } = await admin()
      const automation = (
        await plain.post('/automations', { event: 'JOB_CREATED', url: `${receiver.url}/hook` })
      ).body.data.automation
      await client(t, tenant.headers).post('/jobs', { title: 'Boiler' })
      await t.app.webhooks.dispatcher.drain()
      const [execution] = (await plain.get(`/automations/${automation.id}/executions`)).body.data.executions
      const delivered = receiver.received.length

      receiver.respond({ hang: true })
      const url = `/automations/${automation.id}/executions/${execution.id}/redeliver`
      const first = keyed('redeliver-1').post(url)
      await receiver.waitFor(delivered + 1)
      // The receiver holds the first request open; the database is free meanwhile.
      const busy = await keyed('redeliver-1').post(url)
      expect([busy.status, busy.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE'])
      expect((await plain.get(`/automations/${automation.id}`)).status).toBe(200)
      const done = await first
      receiver.respond({ status: 200, body: 'ok' })
      expect([done.status, done.body.data.execution.status]).toEqual([201, 'FAILED'])
      const replay = await keyed('redeliver-1').post(url)
      expect([replay.status, replay.headers['idempotent-replayed']]).toEqual([201, 'true'])
      expect(replay.body).toEqual(done.body)
      expect(receiver.received).toHaveLength(delivered + 1)
    })
  })
}
