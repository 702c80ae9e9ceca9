// The webhooks issue's "done when", end to end against a listening server with its background
// dispatcher: an admin creates one automation per event, a job goes through its whole life, every
// event arrives signed and matching its documented schema, and a delivery is redelivered.
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.js'
import { createDatabase } from '../src/db/database.js'
import { createApiKey } from '../src/modules/api-keys/service.js'
import { EVENT_TYPES, type EventType } from '../src/modules/events/schemas.js'
import { createOrganisation } from '../src/modules/organisations/service.js'
import { type RunningServer, startServer } from '../src/server.js'
import { assertDocumentedPayload } from './event-payloads.js'
import { createTestDatabaseUrl, DIALECTS } from './helpers.js'
import { type Receiver, startReceiver } from './webhook-receiver.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: every event, delivered and signed`, () => {
    let database: { url: string; cleanup(): Promise<void> }
    let server: RunningServer
    let receiver: Receiver
    let key: string

    beforeAll(async () => {
      database = await createTestDatabaseUrl(dialect)
      const handle = createDatabase(database.url)
      const org = await createOrganisation(handle.db, { name: 'Walkthrough Heating', plan: 'PRO' })
      key = (
        await createApiKey(handle.db, {
          organisationId: org.id,
          name: 'admin',
          scopes: ['admin'],
          rateLimitPerMinute: 100_000,
        })
      ).key
      await handle.destroy()
      receiver = await startReceiver()
      const env = { DATABASE_URL: database.url, LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE: 'true' }
      server = await startServer({ ...loadConfig(env), port: 0 })
    })
    afterAll(async () => {
      await server?.close()
      await receiver?.close()
      await database?.cleanup()
    })

    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
      const json = (await response.json()) as any
      expect(response.status, `${method} ${path}: ${JSON.stringify(json)}`).toBeLessThan(300)
      return json.data
    }

    it('delivers all eight events, each once, signed and as documented, and redelivers on request', async () => {
      const secrets = {} as Record<EventType, string>
      const automations = {} as Record<EventType, string>
      for (const event of EVENT_TYPES) {
        const created = await call('POST', '/v1/admin/automations', {
          event,
          url: `${receiver.url}/${event}`,
        })
        secrets[event] = created.secret
        automations[event] = created.automation.id
      }
      const worker = async (name: string) =>
        (await call('POST', '/v1/admin/team/users', { name, email: `${name}@example.com`, role: 'WORKER' }))
          .user.id
      const [ana, ben] = [await worker('ana'), await worker('ben')]
      const window = { scheduledStart: '2026-11-23T09:00:00Z', scheduledEnd: '2026-11-23T10:00:00Z' }

      const job = (await call('POST', '/v1/public/jobs', { title: 'Service boiler' })).job
      await call('PATCH', `/v1/public/jobs/${job.id}`, { priority: 'HIGH' })
      await call('POST', `/v1/admin/jobs/${job.id}/assign`, { userId: ana, ...window })
      await call('POST', `/v1/admin/jobs/${job.id}/assign`, { userId: ben, ...window })
      await call('POST', `/v1/admin/jobs/${job.id}/start`)
      const completed = (await call('POST', `/v1/admin/jobs/${job.id}/complete`)).job
      await call('POST', `/v1/admin/jobs/${job.id}/form-submissions`, {
        form: 'Boiler checklist',
        answers: { pressureBar: 1.4, flueOk: true },
        submittedByUserId: ben,
      })
      const other = (await call('POST', '/v1/public/jobs', { title: 'Never mind' })).job
      await call('POST', `/v1/admin/jobs/${other.id}/cancel`, { reason: 'Customer cancelled' })

      const expected: Record<EventType, number> = {
        JOB_CREATED: 2,
        JOB_UPDATED: 1,
        STATUS_CHANGED: 4,
        JOB_ASSIGNED: 2,
        JOB_UNASSIGNED: 1,
        JOB_COMPLETED: 1,
        JOB_CANCELLED: 1,
        FORM_SUBMITTED: 1,
        // Jobs without a shift have no eta to announce.
        JOB_ETA_CHANGED: 0,
        // Sent only by My day's "On my way" (test/tracking.test.ts); this walkthrough uses an API key.
        JOB_EN_ROUTE: 0,
        // Sent by uploads (src/modules/attachments/attachments.test.ts); none here.
        ATTACHMENT_ADDED: 0,
      }
      const total = Object.values(expected).reduce((a, b) => a + b, 0)
      const received = await receiver.waitFor(total)
      await new Promise((resolve) => setTimeout(resolve, 300)) // nothing more may come
      expect(receiver.received).toHaveLength(total)

      for (const hook of received) {
        const event = hook.path.slice(1) as EventType
        expect(hook.json.event).toBe(event)
        const headers = hook.headers as Record<string, string>
        expect(new Webhook(secrets[event]).verify(hook.body, headers)).toEqual(hook.json)
        assertDocumentedPayload(hook.json)
      }
      const counts = Object.fromEntries(
        EVENT_TYPES.map((e) => [e, received.filter((r) => r.json.event === e).length]),
      )
      expect(counts).toEqual(expected)

      const done = received.find((r) => r.json.event === 'JOB_COMPLETED')
      expect(done?.json.data).toEqual({
        jobId: job.id,
        title: 'Service boiler',
        status: 'COMPLETED',
        customerId: null,
        assignedUserId: ben,
        completedAt: completed.completedAt,
      })
      const unassigned = received.find((r) => r.json.event === 'JOB_UNASSIGNED')
      expect(unassigned?.json.data).toMatchObject({ jobId: job.id, previousAssignedUserId: ana })

      const log = await call('GET', `/v1/admin/automations/${automations.JOB_COMPLETED}/executions`)
      expect(log.executions).toHaveLength(1)
      expect(log.executions[0]).toMatchObject({ status: 'SUCCESS', httpStatus: 200, requestBody: done?.json })
      const again = await call(
        'POST',
        `/v1/admin/automations/${automations.JOB_COMPLETED}/executions/${log.executions[0].id}/redeliver`,
      )
      expect(again.execution).toMatchObject({ status: 'SUCCESS', redeliveryOf: log.executions[0].id })
      const redelivered = receiver.received.at(-1)
      expect(redelivered?.headers['webhook-id']).toBe(done?.headers['webhook-id'])
      expect(redelivered?.body).toBe(done?.body)
      const organisationLog = await call('GET', '/v1/admin/executions?limit=100')
      expect(organisationLog.pagination.total).toBe(total + 1)
    })
  })
}
