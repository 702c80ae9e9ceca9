// Webhook delivery against real loopback receivers: one attempt, signed, logged, never twice.
import { Webhook } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  type ApiResponse,
  adminClient,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.js'
import { type Receiver, startReceiver } from '../../../test/webhook-receiver.js'
import { newId } from '../../db/ids.js'
import type { Executor } from '../../db/types.js'
import { RESPONSE_EXCERPT_BYTES, RESPONSE_HEADERS_BYTES, USER_AGENT } from './delivery.js'

/** An event committed to the outbox, as a service would record it. */
async function emit(db: Executor, organisationId: string, event: string, data: object = { jobId: newId() }) {
  const id = newId()
  await db
    .insertInto('outbox_events')
    .values({
      id,
      organisation_id: organisationId,
      event,
      data: JSON.stringify(data),
      occurred_at: new Date().toISOString(),
      dispatched_at: null,
    })
    .execute()
  return id
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: webhook delivery`, () => {
    let t: TestContext
    let tenant: TestTenant
    let receiver: Receiver
    let admin: ReturnType<typeof adminClient>

    const drain = () => t.app.webhooks.dispatcher.drain()
    async function automation(path: string, body: object = {}, client = admin) {
      const response = await client.post('/automations', {
        event: 'JOB_CREATED',
        url: `${receiver.url}${path}`,
        ...body,
      })
      expect(response.status).toBe(201)
      return response.body.data as { automation: { id: string }; secret: string }
    }
    const executions = async (automationId: string): Promise<ApiResponse> =>
      admin.get(`/automations/${automationId}/executions`)

    beforeAll(async () => {
      t = await createTestApp(dialect, { webhookTimeoutMs: 400 })
      tenant = await createTenant(t, { scopes: ['admin'] })
      admin = adminClient(t, tenant.headers)
    })
    afterAll(() => t.close())
    afterEach(async () => {
      await drain()
      await receiver?.close()
    })

    it('POSTs { event, timestamp, data } once, signed per Standard Webhooks', async () => {
      receiver = await startReceiver()
      const { automation: hook, secret } = await automation('/hooks/a')
      const eventId = await emit(t.database.db, tenant.organisationId, 'JOB_CREATED', {
        jobId: 'j1',
        title: 'Boiler',
      })
      await drain()
      await drain()
      expect(receiver.received).toHaveLength(1)
      const [request] = receiver.received
      expect(request?.path).toBe('/hooks/a')
      expect(request?.headers['content-type']).toBe('application/json')
      expect(request?.headers['user-agent']).toBe(USER_AGENT)
      expect(request?.json).toEqual({
        event: 'JOB_CREATED',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        data: { jobId: 'j1', title: 'Boiler' },
      })
      const verified = new Webhook(secret).verify(
        request?.body as string,
        request?.headers as Record<string, string>,
      )
      expect(verified).toEqual(request?.json)
      expect(() =>
        new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(
          request?.body as string,
          request?.headers as Record<string, string>,
        ),
      ).toThrow()

      const log = await executions(hook.id)
      expect(log.body.data.executions).toEqual([
        expect.objectContaining({
          automationId: hook.id,
          eventId,
          webhookId: request?.headers['webhook-id'],
          event: 'JOB_CREATED',
          status: 'SUCCESS',
          httpStatus: 200,
          error: null,
          requestBody: request?.json,
          responseBody: 'ok',
          redeliveryOf: null,
        }),
      ])
      expect(log.body.data.executions[0].durationMs).toBeGreaterThanOrEqual(0)
      expect(log.body.data.executions[0].completedAt).not.toBeNull()
    })

    it('sends each event to every matching automation of its organisation, and to no other', async () => {
      receiver = await startReceiver()
      const other = await createTenant(t, { scopes: ['admin'] })
      const otherAdmin = adminClient(t, other.headers)
      await automation('/mine-1')
      await automation('/mine-2')
      await automation('/mine-cancelled', { event: 'JOB_CANCELLED' })
      await automation('/theirs', {}, otherAdmin)
      await emit(t.database.db, tenant.organisationId, 'JOB_CREATED')
      await drain()
      expect(receiver.received.map((r) => r.path).sort()).toEqual(['/mine-1', '/mine-2'])
      await emit(t.database.db, other.organisationId, 'JOB_CREATED')
      await drain()
      expect(receiver.received.map((r) => r.path).sort()).toEqual(['/mine-1', '/mine-2', '/theirs'])
      const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']))
      expect(ids.size).toBe(3)
      // Each organisation's log holds only its own executions.
      const mine = await admin.get('/executions?event=JOB_CREATED')
      expect(mine.body.data.executions.map((e: { url: string }) => new URL(e.url).pathname).sort()).toEqual(
        expect.arrayContaining(['/mine-1', '/mine-2']),
      )
      expect(JSON.stringify(mine.body)).not.toContain('/theirs')
    })

    it('stays silent for an inactive automation, even after it is reactivated', async () => {
      receiver = await startReceiver()
      const { automation: hook } = await automation('/inactive', { isActive: false })
      await emit(t.database.db, tenant.organisationId, 'JOB_CREATED', { n: 1 })
      await drain()
      expect(receiver.received).toHaveLength(0)
      expect((await executions(hook.id)).body.data.executions).toHaveLength(0)
      expect((await admin.post(`/automations/${hook.id}/activate`)).status).toBe(200)
      await emit(t.database.db, tenant.organisationId, 'JOB_CREATED', { n: 2 })
      await drain()
      expect(receiver.received.map((r) => r.json.data)).toEqual([{ n: 2 }])
      await admin.post(`/automations/${hook.id}/deactivate`)
      await emit(t.database.db, tenant.organisationId, 'JOB_CREATED', { n: 3 })
      await drain()
      expect(receiver.received).toHaveLength(1)
    })

    it('calls a failing receiver exactly once and logs FAILED with its status and answer', async () => {
      receiver = await startReceiver({ status: 500, body: 'database on fire' })
      const { automation: hook } = await automation('/fails')
      await emit(t.database.db, tenant.organisationId, 'JOB_CREATED')
      await drain()
      await drain()
      expect(receiver.received).toHaveLength(1)
      const [execution] = (await executions(hook.id)).body.data.executions
      expect(execution).toMatchObject({
        status: 'FAILED',
        httpStatus: 500,
        responseBody: 'database on fire',
        error: expect.stringContaining('500'),
      })
      const failed = await admin.get(`/executions?status=FAILED&automationId=${hook.id}`)
      expect(failed.body.data.pagination.total).toBe(1)
    })

    it('does not follow redirects', async () => {
      receiver = await startReceiver({ status: 307, headers: { location: '/elsewhere' } })
      const { automation: hook } = await automation('/moved')
      await emit(t.database.db, tenant.organisationId, 'JOB_CREATED')
      await drain()
      expect(receiver.received.map((r) => r.path)).toEqual(['/moved'])
      const [execution] = (await executions(hook.id)).body.data.executions
      expect(execution).toMatchObject({
        status: 'FAILED',
        httpStatus: 307,
        error: expect.stringMatching(/redirect/i),
      })
    })

    it('gives up on a receiver that never answers at the timeout, and logs it', async () => {
      receiver = await startReceiver({ hang: true })
      const { automation: hook } = await automation('/hangs')
      await emit(t.database.db, tenant.organisationId, 'JOB_CREATED')
      await drain()
      expect(receiver.received).toHaveLength(1)
      const [execution] = (await executions(hook.id)).body.data.executions
      expect(execution).toMatchObject({
        status: 'FAILED',
        httpStatus: null,
        error: expect.stringMatching(/timed out/i),
      })
      expect(execution.durationMs).toBeGreaterThanOrEqual(390)
    })

    it('logs a dropped connection and an unreachable receiver as FAILED', async () => {
      receiver = await startReceiver({ drop: true })
      const { automation: dropped } = await automation('/drops')
      const unreachable = await admin.post('/automations', {
        event: 'JOB_CREATED',
        url: 'http://127.0.0.1:1/closed',
      })
      await emit(t.database.db, tenant.organisationId, 'JOB_CREATED')
      await drain()
      expect(receiver.received).toHaveLength(1)
      for (const id of [dropped.id, unreachable.body.data.automation.id]) {
        const [execution] = (await executions(id)).body.data.executions
        expect(execution).toMatchObject({ status: 'FAILED', httpStatus: null, error: expect.any(String) })
        expect(execution.error.length).toBeGreaterThan(0)
      }
      await admin.delete(`/automations/${unreachable.body.data.automation.id}`)
    })

    it("keeps the answer's headers (not set-cookie, at most 4 KB), and none when no answer came", async () => {
      receiver = await startReceiver({
        status: 422,
        body: '{"error":"unknown job"}',
        headers: { 'content-type': 'application/json', 'x-trace-id': 'abc123', 'set-cookie': 'sid=secret' },
      })
      const { automation: hook } = await automation('/headers')
      await emit(t.database.db, tenant.organisationId, 'JOB_CREATED')
      await drain()
      const [execution] = (await executions(hook.id)).body.data.executions
      expect(execution.responseHeaders).toMatchObject({
        'content-type': 'application/json',
        'x-trace-id': 'abc123',
      })
      expect(execution.responseHeaders).not.toHaveProperty('set-cookie')
      await receiver.close()

      receiver = await startReceiver({
        status: 200,
        headers: { 'x-big': 'x'.repeat(RESPONSE_HEADERS_BYTES) },
      })
      const { automation: big } = await automation('/big-headers')
      await emit(t.database.db, tenant.organisationId, 'JOB_CREATED')
      await drain()
      const [bigExecution] = (await executions(big.id)).body.data.executions
      expect(bigExecution.responseHeaders).not.toHaveProperty('x-big')
      expect(JSON.stringify(bigExecution.responseHeaders).length).toBeLessThan(RESPONSE_HEADERS_BYTES + 500)
      await receiver.close()

      receiver = await startReceiver({ drop: true })
      const { automation: dropped } = await automation('/no-answer')
      await emit(t.database.db, tenant.organisationId, 'JOB_CREATED')
      await drain()
      const [none] = (await executions(dropped.id)).body.data.executions
      expect(none.responseHeaders).toBeNull()
      await admin.delete(`/automations/${hook.id}`)
      await admin.delete(`/automations/${big.id}`)
      await admin.delete(`/automations/${dropped.id}`)
    })

    it('keeps only the first 2 KB of an answer', async () => {
      receiver = await startReceiver({ status: 200, body: 'é'.repeat(3000) })
      const { automation: hook } = await automation('/chatty')
      await emit(t.database.db, tenant.organisationId, 'JOB_CREATED')
      await drain()
      const [execution] = (await executions(hook.id)).body.data.executions
      expect(execution.status).toBe('SUCCESS')
      expect(Buffer.byteLength(execution.responseBody)).toBeLessThanOrEqual(RESPONSE_EXCERPT_BYTES + 2)
      expect(execution.responseBody.startsWith('é'.repeat(1000))).toBe(true)
    })

    it('redelivers on request: same body and webhook-id, fresh signature, new execution', async () => {
      receiver = await startReceiver({ status: 503 })
      const { automation: hook, secret } = await automation('/flaky')
      await emit(t.database.db, tenant.organisationId, 'JOB_CREATED', { attempt: 'first' })
      await drain()
      const [first] = (await executions(hook.id)).body.data.executions
      expect(first.status).toBe('FAILED')

      receiver.respond({ status: 200, body: 'thanks' })
      const redelivered = await admin.post(`/automations/${hook.id}/executions/${first.id}/redeliver`)
      expect(redelivered.status).toBe(201)
      expect(redelivered.body.data.execution).toMatchObject({
        status: 'SUCCESS',
        httpStatus: 200,
        responseBody: 'thanks',
        webhookId: first.webhookId,
        eventId: first.eventId,
        redeliveryOf: first.id,
        requestBody: first.requestBody,
      })
      expect(redelivered.body.data.execution.id).not.toBe(first.id)
      expect(receiver.received).toHaveLength(2)
      const [original, again] = receiver.received
      expect(again?.body).toBe(original?.body)
      expect(again?.headers['webhook-id']).toBe(original?.headers['webhook-id'])
      expect(
        new Webhook(secret).verify(again?.body as string, again?.headers as Record<string, string>),
      ).toEqual(original?.json)
      const log = (await executions(hook.id)).body.data.executions
      expect(log.map((e: { id: string }) => e.id)).toEqual([redelivered.body.data.execution.id, first.id])
      // The dispatcher does not send it a third time.
      await drain()
      expect(receiver.received).toHaveLength(2)
    })

    it('refuses to redeliver what is missing, in flight, or another organisation’s', async () => {
      receiver = await startReceiver()
      const { automation: hook } = await automation('/r')
      await emit(t.database.db, tenant.organisationId, 'JOB_CREATED')
      await drain()
      const [done] = (await executions(hook.id)).body.data.executions
      const other = await createTenant(t, { scopes: ['admin'] })
      const otherAdmin = adminClient(t, other.headers)
      expect((await otherAdmin.post(`/automations/${hook.id}/executions/${done.id}/redeliver`)).status).toBe(
        404,
      )
      expect((await admin.post(`/automations/${hook.id}/executions/${newId()}/redeliver`)).status).toBe(404)
      expect((await admin.post(`/automations/${newId()}/executions/${done.id}/redeliver`)).status).toBe(404)
      expect(
        (await admin.post(`/automations/${hook.id}/executions/${done.id}/redeliver`, { x: 1 })).status,
      ).toBe(400)

      await t.database.db
        .updateTable('webhook_executions')
        .set({ status: 'PENDING', completed_at: null })
        .where('id', '=', done.id)
        .execute()
      const inFlight = await admin.post(`/automations/${hook.id}/executions/${done.id}/redeliver`)
      expect(inFlight.status).toBe(409)
      expect(inFlight.body.code).toBe('CONFLICT')
      expect(receiver.received).toHaveLength(1)
    })
  })
}
