// The TypeScript client (clients/typescript) against a real listening server, on both databases:
// jobs through their whole life, every page of a list, errors as typed exceptions, a 429 waited out
// as Retry-After says, a POST retried after a lost answer that creates one job, and a real signed
// webhook delivery verified.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  FieldserviceClient,
  FieldserviceConnectionError,
  FieldserviceError,
  isFieldserviceError,
  responseOf,
  verifyWebhook,
  WebhookVerificationError,
} from '../../clients/typescript/src/index.js'
import { adminClient, createTenant, createTestApp, DIALECTS, type TestContext } from '../helpers.js'
import { type Receiver, startReceiver } from '../webhook-receiver.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

interface Sent {
  method: string
  url: URL
  headers: Headers
  status?: number
}

/** A fetch that records every request and its status before handing the answer back. */
function recordingFetch(sent: Sent[]): typeof fetch {
  return async (input, init) => {
    const entry: Sent = {
      method: init?.method ?? 'GET',
      url: new URL(String(input)),
      headers: new Headers(init?.headers),
    }
    sent.push(entry)
    const response = await fetch(input, init)
    entry.status = response.status
    return response
  }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the TypeScript client against a listening server`, () => {
    let t: TestContext
    let baseUrl: string

    beforeAll(async () => {
      t = await createTestApp(dialect)
      baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 })
    })
    afterAll(async () => {
      await t?.close()
    })
    afterEach(() => {
      vi.restoreAllMocks()
    })

    const clientFor = async (options: { rateLimitPerMinute?: number } = {}) => {
      const tenant = await createTenant(t, options)
      const sent: Sent[] = []
      const client = new FieldserviceClient({
        baseUrl,
        apiKey: tenant.key,
        retryBaseDelayMs: 10,
        fetch: recordingFetch(sent),
      })
      return { tenant, client, sent }
    }

    it('creates, reads, updates and deletes a job, each answer unwrapped from its envelope', async () => {
      const { client, sent } = await clientFor()
      const created = await client.jobs.create({ title: 'Service boiler', priority: 'HIGH' })
      expect(created.job).toMatchObject({ title: 'Service boiler', priority: 'HIGH', status: 'CREATED' })
      expect(responseOf(created)).toMatchObject({ status: 201, replayed: false, attempts: 1 })
      expect(responseOf(created)?.idempotencyKey).toMatch(UUID)
      expect(sent[0]?.headers.get('idempotency-key')).toBe(responseOf(created)?.idempotencyKey)
      expect(sent[0]?.url.pathname).toBe('/v1/public/jobs')

      const { job } = await client.jobs.get(created.job.id)
      expect(job).toMatchObject({ id: created.job.id, title: 'Service boiler', tags: [], demands: [] })
      expect(sent[1]?.headers.has('idempotency-key')).toBe(false)

      const updated = await client.jobs.update(job.id, {
        title: 'Service boiler and flue',
        description: null,
      })
      expect(updated.job).toMatchObject({ id: job.id, title: 'Service boiler and flue', description: null })
      const updateKey = sent[2]?.headers.get('idempotency-key')
      expect(updateKey).toMatch(UUID)
      expect(updateKey).not.toBe(sent[0]?.headers.get('idempotency-key'))

      const deleted = await client.jobs.delete(job.id)
      expect(deleted.job.id).toBe(job.id)
      expect(Date.parse(deleted.job.deletedAt)).not.toBeNaN()
      const gone = await client.jobs.get(job.id).catch((error: unknown) => error)
      expect(gone).toBeInstanceOf(FieldserviceError)
      expect(gone).toMatchObject({ status: 404, code: 'NOT_FOUND' })
    })

    it('walks every page of a cursor-paged list and of a page-numbered one', async () => {
      const { client, sent } = await clientFor()
      const titles = Array.from({ length: 7 }, (_, i) => `Job ${i + 1}`)
      for (const title of titles) await client.jobs.create({ title, priority: 'LOW' })
      await client.jobs.create({ title: 'Not low', priority: 'HIGH' })
      sent.length = 0

      const walked: string[] = []
      for await (const job of client.jobs.listAll({ priority: 'LOW', limit: 3 })) walked.push(job.title)
      expect(walked).toEqual([...titles].reverse()) // newest first, none twice, none missing
      const pages = sent.map((s) => Object.fromEntries(s.url.searchParams))
      expect(pages).toHaveLength(3)
      expect(pages[0]).toEqual({ priority: 'LOW', limit: '3' })
      expect(pages[1]).toMatchObject({ priority: 'LOW', limit: '3', cursor: expect.any(String) })
      expect(pages[2]?.cursor).not.toBe(pages[1]?.cursor)

      for (let i = 1; i <= 5; i++)
        await client.customers.create({ name: `C${i}`, latitude: 51.5, longitude: -0.1 })
      sent.length = 0
      const names: string[] = []
      for await (const customer of client.customers.listAll({ limit: 2 })) names.push(customer.name)
      expect(names).toEqual(['C5', 'C4', 'C3', 'C2', 'C1'])
      expect(sent.map((s) => s.url.searchParams.get('page'))).toEqual([null, '2', '3'])

      sent.length = 0
      const everyJob: string[] = []
      for await (const job of client.jobs.listAll()) everyJob.push(job.id)
      expect(everyJob).toHaveLength(8)
      expect(sent.map((s) => s.url.searchParams.get('limit'))).toEqual(['100']) // the largest page
    })

    it('throws a FieldserviceError carrying the code: 404 for a missing job or another tenant’s', async () => {
      const { client } = await clientFor()
      const other = await clientFor()
      const theirs = (await other.client.jobs.create({ title: 'Not yours' })).job
      for (const id of ['0193e2f4-5b7a-7c3d-9e1f-2a4b6c8d0e1f', theirs.id]) {
        const error = await client.jobs.update(id, { title: 'Mine now' }).catch((e: unknown) => e)
        expect(isFieldserviceError(error, 'NOT_FOUND')).toBe(true)
        expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', details: [] })
        expect((error as FieldserviceError).requestId).toEqual(expect.any(String))
      }
      expect((await other.client.jobs.get(theirs.id)).job.title).toBe('Not yours')
    })

    it('throws 400 VALIDATION_ERROR naming the field, and 422 with its business code', async () => {
      const { client } = await clientFor()
      const error = await client.jobs.create({ title: '' }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(FieldserviceError)
      const invalid = error as FieldserviceError
      expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' })
      expect(invalid.message).toContain('title')
      expect(invalid.details.length).toBeGreaterThan(0)
      expect(new Set(invalid.details.map((d) => d.path))).toEqual(new Set(['/body/title']))

      const window = { earliestStart: '2026-11-23T17:00:00Z', latestEnd: '2026-11-23T09:00:00Z' }
      const order = await client.jobs.create({ title: 'Backwards', ...window }).catch((e: unknown) => e)
      expect(order).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' })
      expect((order as FieldserviceError).message).toMatch(/latestEnd|earliestStart/)

      const tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      const admin = new FieldserviceClient({ baseUrl, apiKey: tenant.key })
      const { job } = await admin.jobs.create({ title: 'Cancelled' })
      expect((await adminClient(t, tenant.headers).post(`/jobs/${job.id}/cancel`, {})).status).toBe(200)
      const terminal = await admin.jobs.update(job.id, { title: 'Too late' }).catch((e: unknown) => e)
      expect(terminal).toMatchObject({ status: 422, code: 'TERMINAL_STATE' })
    })

    it('waits out a 429 for as long as Retry-After says, then succeeds', async () => {
      const { client, sent } = await clientFor({ rateLimitPerMinute: 1 })
      await client.jobs.list()
      // The key's minute is almost over: move the server's clock 57 s on, so Retry-After is ~3 s.
      const realNow = Date.now.bind(Date)
      vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 57_000)
      const started = performance.now()
      const page = await client.jobs.list()
      const waited = performance.now() - started
      expect(page.pagination.total).toBe(0)
      expect(sent.map((s) => s.status)).toEqual([200, 429, 200])
      expect(responseOf(page)?.attempts).toBe(2)
      // Exponential backoff alone (10 ms, 20 ms, …) would have retried long before, and hit 429 again.
      expect(waited).toBeGreaterThanOrEqual(2000)

      const limited = await client.jobs.list({}, { maxAttempts: 1 }).catch((e: unknown) => e)
      expect(limited).toMatchObject({ status: 429, code: 'RATE_LIMITED' })
      expect((limited as FieldserviceError).retryAfterSeconds).toBeGreaterThan(0)
      expect((limited as FieldserviceError).retryAfterSeconds).toBeLessThanOrEqual(60)
    }, 30_000)

    it('retries a POST whose answer was lost with the same Idempotency-Key: one job, not two', async () => {
      const tenant = await createTenant(t)
      const keys: (string | null)[] = []
      let dropped = 0
      // The request reaches the server and commits; the answer is lost on the way back, once.
      const lossyFetch: typeof fetch = async (input, init) => {
        keys.push(new Headers(init?.headers).get('idempotency-key'))
        const response = await fetch(input, init)
        if (init?.method === 'POST' && dropped === 0) {
          dropped++
          await response.arrayBuffer()
          throw new TypeError('fetch failed: socket hang up')
        }
        return response
      }
      const client = new FieldserviceClient({
        baseUrl,
        apiKey: tenant.key,
        retryBaseDelayMs: 10,
        fetch: lossyFetch,
      })
      const created = await client.jobs.create({ title: 'Exactly once' })
      expect(keys).toHaveLength(2)
      expect(keys[0]).toMatch(UUID)
      expect(keys[1]).toBe(keys[0])
      expect(responseOf(created)).toMatchObject({ status: 201, replayed: true, attempts: 2 })
      const listed = await client.jobs.list()
      expect(listed.jobs.map((j) => j.id)).toEqual([created.job.id])

      // Without a key the client cannot know whether the first try ran, so it does not try again.
      dropped = 0
      const unkeyed = await client.jobs
        .create({ title: 'At most once' }, { idempotencyKey: false })
        .catch((e: unknown) => e)
      expect(unkeyed).toBeInstanceOf(FieldserviceConnectionError)
      expect(unkeyed).toMatchObject({ attempts: 1, timedOut: false })
      expect(keys.at(-1)).toBeNull()
      expect((await client.jobs.list()).pagination.total).toBe(2)
    })

    it('sends per-call headers and a caller-chosen Idempotency-Key', async () => {
      const { client, sent } = await clientFor()
      const first = await client.jobs.create(
        { title: 'From ERP order 42' },
        { idempotencyKey: 'erp-order-42' },
      )
      const again = await client.jobs.create(
        { title: 'From ERP order 42' },
        { idempotencyKey: 'erp-order-42' },
      )
      expect(again.job.id).toBe(first.job.id)
      expect(responseOf(again)?.replayed).toBe(true)
      const reused = await client.jobs
        .create({ title: 'Something else' }, { idempotencyKey: 'erp-order-42' })
        .catch((e: unknown) => e)
      expect(reused).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' })

      const job = await client.jobs.get(first.job.id, { headers: { 'X-Request-Id': 'sync-run-7' } })
      expect(sent.at(-1)?.headers.get('x-request-id')).toBe('sync-run-7')
      expect(responseOf(job)?.requestId).toBe('sync-run-7')
    })

    describe('webhooks', () => {
      let receiver: Receiver
      beforeAll(async () => {
        receiver = await startReceiver({ status: 204 })
      })
      afterAll(async () => {
        await receiver?.close()
      })

      it('verifies a real signed delivery, and refuses it tampered, too old or under another secret', async () => {
        const tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
        const admin = adminClient(t, tenant.headers)
        const automation = await admin.post('/automations', {
          event: 'JOB_CREATED',
          url: `${receiver.url}/hook`,
        })
        expect(automation.status).toBe(201)
        const secret: string = automation.body.data.secret
        const client = new FieldserviceClient({ baseUrl, apiKey: tenant.key })
        const { job } = await client.jobs.create({ title: 'Signed and sealed' })
        await t.app.webhooks.dispatcher.drain()
        const [delivery] = await receiver.waitFor(1)
        if (!delivery) throw new Error('no delivery')

        const event = await verifyWebhook(secret, delivery.headers, delivery.body)
        expect(event.event).toBe('JOB_CREATED')
        if (event.event !== 'JOB_CREATED') throw new Error('narrowing')
        expect(event.data).toMatchObject({ jobId: job.id, title: 'Signed and sealed' })
        expect(
          await verifyWebhook(
            secret,
            new Headers(delivery.headers as Record<string, string>),
            Buffer.from(delivery.body),
          ),
        ).toEqual(event)

        const refused = (promise: Promise<unknown>) =>
          promise.then(
            () => 'accepted',
            (e: unknown) => (e instanceof WebhookVerificationError ? e.reason : e),
          )
        const tampered = delivery.body.replace('Signed and sealed', 'Signed and sealer')
        expect(await refused(verifyWebhook(secret, delivery.headers, tampered))).toBe('INVALID_SIGNATURE')
        const later = new Date(Date.now() + 6 * 60_000)
        expect(await refused(verifyWebhook(secret, delivery.headers, delivery.body, { now: later }))).toBe(
          'TIMESTAMP_TOO_OLD',
        )
        expect(
          await refused(
            verifyWebhook(secret, delivery.headers, delivery.body, { now: later, toleranceSeconds: 600 }),
          ),
        ).toBe('accepted')
        const otherSecret = (
          await admin.post('/automations', { event: 'JOB_UPDATED', url: `${receiver.url}/x` })
        ).body.data.secret
        expect(await refused(verifyWebhook(otherSecret, delivery.headers, delivery.body))).toBe(
          'INVALID_SIGNATURE',
        )
      })
    })
  })
}
