// "Send test event": one signed sample delivery to one automation, logged, redeliverable, scoped.
import { Webhook } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { assertDocumentedPayload } from '../../../test/event-payloads.js'
import {
  adminClient,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.js'
import { type Receiver, startReceiver } from '../../../test/webhook-receiver.js'
import { EVENT_TYPES } from '../events/schemas.js'
import { sampleEventData } from './test-event.js'

describe('sample event data', () => {
  it.each(EVENT_TYPES)('%s matches the documented payload schema', (event) => {
    const timestamp = '2026-11-24T10:00:00.000Z'
    assertDocumentedPayload({ event, timestamp, data: sampleEventData(event, timestamp) })
  })
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: POST /v1/admin/automations/:id/test`, () => {
    let t: TestContext
    let tenant: TestTenant
    let admin: ReturnType<typeof adminClient>
    let receiver: Receiver

    beforeAll(async () => {
      t = await createTestApp(dialect)
      tenant = await createTenant(t, { scopes: ['admin'] })
      admin = adminClient(t, tenant.headers)
    })
    afterAll(() => t.close())
    afterEach(async () => {
      await t.app.webhooks.dispatcher.drain()
      await receiver?.close()
    })

    async function automation(body: object = {}) {
      const created = await admin.post('/automations', {
        event: 'JOB_COMPLETED',
        url: `${receiver.url}/hook`,
        ...body,
      })
      expect(created.status).toBe(201)
      return created.body.data as { automation: { id: string }; secret: string }
    }

    it('sends one signed sample event to the automation and logs it as a test execution', async () => {
      receiver = await startReceiver({ status: 202, body: 'thanks' })
      const { automation: hook, secret } = await automation()
      // Another automation on the same event must not receive the test.
      await automation()
      const response = await admin.post(`/automations/${hook.id}/test`)
      expect(response.status).toBe(201)
      const execution = response.body.data.execution
      expect(execution).toMatchObject({
        automationId: hook.id,
        event: 'JOB_COMPLETED',
        status: 'SUCCESS',
        httpStatus: 202,
        responseBody: 'thanks',
        isTest: true,
        redeliveryOf: null,
      })
      expect(execution.eventId).toMatch(/^test_/)
      expect(receiver.received).toHaveLength(1)
      const [request] = receiver.received
      expect(request?.json).toEqual(execution.requestBody)
      assertDocumentedPayload(request?.json)
      expect(request?.json.data).toMatchObject({ status: 'COMPLETED', title: 'Test event from fieldservice' })
      const headers = request?.headers as Record<string, string>
      expect(() => new Webhook(secret).verify(request?.body ?? '', headers)).not.toThrow()
      expect(headers['webhook-id']).toBe(execution.webhookId)

      const log = await admin.get(`/automations/${hook.id}/executions`)
      expect(log.body.data.executions.map((e: { id: string }) => e.id)).toEqual([execution.id])
      const redelivered = await admin.post(`/automations/${hook.id}/executions/${execution.id}/redeliver`)
      expect(redelivered.status).toBe(201)
      expect(redelivered.body.data.execution).toMatchObject({ isTest: true, redeliveryOf: execution.id })
      expect(receiver.received).toHaveLength(2)
    })

    it('is sent to an inactive automation too, and a failure is logged with its reason', async () => {
      receiver = await startReceiver({ status: 500, body: 'boom' })
      const { automation: hook } = await automation({ isActive: false })
      const response = await admin.post(`/automations/${hook.id}/test`, {})
      expect(response.status).toBe(201)
      expect(response.body.data.execution).toMatchObject({ status: 'FAILED', httpStatus: 500, isTest: true })
      expect(response.body.data.execution.error).toContain('500')
    })

    it('takes no body, and treats another organisation’s automation as missing', async () => {
      receiver = await startReceiver()
      const { automation: hook } = await automation()
      const withBody = await admin.post(`/automations/${hook.id}/test`, { event: 'JOB_CREATED' })
      expect(withBody.status).toBe(400)
      expect(withBody.body.code).toBe('VALIDATION_ERROR')
      const other = await createTenant(t, { scopes: ['admin'] })
      const foreign = await adminClient(t, other.headers).post(`/automations/${hook.id}/test`)
      expect(foreign.status).toBe(404)
      expect(foreign.body.code).toBe('NOT_FOUND')
      expect(receiver.received).toHaveLength(0)
      const readOnly = await createTenant(t, { scopes: ['read', 'write'] })
      expect((await adminClient(t, readOnly.headers).post(`/automations/${hook.id}/test`)).status).toBe(403)
    })
  })
}
