// The dispatcher's housekeeping and guards: orphaned PENDING executions are failed, never re-sent;
// old logs are pruned; non-public targets are refused at delivery; writes wake the dispatcher; a
// receiver that hangs or drops connections never holds up API requests.
import type { AddressInfo } from 'node:net'
import { createServer as createNetServer } from 'node:net'
import Fastify from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.js'
import { waitUntil } from '../../../test/processes.js'
import { type Receiver, startReceiver } from '../../../test/webhook-receiver.js'
import { newId } from '../../db/ids.js'
import { WebhookSender } from './delivery.js'
import { INTERRUPTED_ERROR, WebhookDispatcher } from './dispatcher.js'
import { redeliverExecution } from './service.js'

const DAY_MS = 86_400_000
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString()

for (const dialect of DIALECTS) {
  describe(`${dialect}: webhook dispatcher`, () => {
    let t: TestContext
    let tenant: TestTenant
    let receiver: Receiver
    let sender: WebhookSender

    beforeAll(async () => {
      t = await createTestApp(dialect)
      tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      sender = new WebhookSender({ timeoutMs: 1000, allowPrivate: true })
    })
    afterAll(async () => {
      await sender.close()
      await t.close()
    })
    afterEach(() => receiver?.close())

    const freshDispatcher = (options: Partial<ConstructorParameters<typeof WebhookDispatcher>[2]> = {}) =>
      new WebhookDispatcher(t.database.db, sender, {
        pollIntervalMs: 1000,
        concurrency: 4,
        retentionDays: 30,
        ...options,
      })

    async function automationTo(url: string) {
      const response = await adminClient(t, tenant.headers).post('/automations', {
        event: 'JOB_CREATED',
        url,
      })
      expect(response.status).toBe(201)
      return response.body.data.automation.id as string
    }

    async function insertExecution(
      automationId: string,
      fields: { status: 'PENDING' | 'SUCCESS'; createdAt: string },
    ) {
      const id = newId()
      await t.database.db
        .insertInto('webhook_executions')
        .values({
          id,
          organisation_id: tenant.organisationId,
          automation_id: automationId,
          event_id: newId(),
          webhook_id: `msg_${id}`,
          event: 'JOB_CREATED',
          url: receiver.url,
          status: fields.status,
          http_status: null,
          error: null,
          duration_ms: null,
          request_body: '{"event":"JOB_CREATED","timestamp":"2026-01-01T00:00:00.000Z","data":{}}',
          response_body: null,
          response_headers: null,
          redelivery_of: null,
          created_at: fields.createdAt,
          completed_at: null,
        })
        .execute()
      return id
    }

    const executionRow = (id: string) =>
      t.database.db.selectFrom('webhook_executions').selectAll().where('id', '=', id).executeTakeFirst()

    it('fails a delivery orphaned by a stopped process instead of sending it again', async () => {
      receiver = await startReceiver()
      const automationId = await automationTo(receiver.url)
      const orphan = await insertExecution(automationId, { status: 'PENDING', createdAt: daysAgo(0.01) })
      const recent = await insertExecution(automationId, {
        status: 'PENDING',
        createdAt: new Date().toISOString(),
      })
      await freshDispatcher({ interruptedAfterMs: 60_000 }).drain()
      expect(await executionRow(orphan)).toMatchObject({ status: 'FAILED', error: INTERRUPTED_ERROR })
      // One that may still be in flight elsewhere is left alone.
      expect(await executionRow(recent)).toMatchObject({ status: 'PENDING', error: null })
      expect(receiver.received).toHaveLength(0)
      await t.database.db.deleteFrom('webhook_executions').where('id', '=', recent).execute()
    })

    it('prunes executions and dispatched events older than the retention period', async () => {
      receiver = await startReceiver()
      const automationId = await automationTo(receiver.url)
      const old = await insertExecution(automationId, { status: 'SUCCESS', createdAt: daysAgo(31) })
      const kept = await insertExecution(automationId, { status: 'SUCCESS', createdAt: daysAgo(29) })
      const event = (id: string, dispatchedAt: string | null) => ({
        id,
        organisation_id: tenant.organisationId,
        event: 'JOB_UPDATED',
        data: '{}',
        occurred_at: daysAgo(40),
        dispatched_at: dispatchedAt,
      })
      const [oldEvent, recentEvent] = [newId(), newId()]
      await t.database.db
        .insertInto('outbox_events')
        .values([event(oldEvent, daysAgo(31)), event(recentEvent, daysAgo(29))])
        .execute()
      await freshDispatcher().drain()
      expect(await executionRow(old)).toBeUndefined()
      expect(await executionRow(kept)).toBeDefined()
      const events = await t.database.db
        .selectFrom('outbox_events')
        .select('id')
        .where('id', 'in', [oldEvent, recentEvent])
        .execute()
      expect(events.map((e) => e.id)).toEqual([recentEvent])
    })

    it('refuses non-public targets at delivery time, whatever was accepted when saved', async () => {
      receiver = await startReceiver()
      const guarded = new WebhookSender({ timeoutMs: 1000, allowPrivate: false })
      try {
        const port = new URL(receiver.url).port
        for (const url of [
          `http://127.0.0.1:${port}/x`,
          `http://localhost:${port}/x`,
          `http://[::1]:${port}/x`,
          // IPv6 spellings carrying 127.0.0.1: refused before any connection is tried.
          `http://[::ffff:0:7f00:1]:${port}/x`,
          `http://[::7f00:1]:${port}/x`,
          `http://[2002:7f00:1::]:${port}/x`,
          `http://[64:ff9b:1::7f00:1]:${port}/x`,
          `http://[2001:0:7f00:1::80ff:fffe]:${port}/x`,
        ]) {
          const result = await guarded.send({ url, body: '{}', headers: {} })
          expect(result).toMatchObject({ status: 'FAILED', httpStatus: null })
          expect(result.error, url).toMatch(/non-public address \(.+\); not delivered$/)
        }
        expect(receiver.received).toHaveLength(0)
      } finally {
        await guarded.close()
      }
    })

    it('logs every failed delivery at warn, naming the automation and the execution', async () => {
      receiver = await startReceiver({ status: 500, body: 'nope' })
      const lines: Record<string, unknown>[] = []
      const stream = { write: (line: string) => lines.push(JSON.parse(line)) }
      const logger = Fastify({ logger: { level: 'info', stream } }).log
      const logged = new WebhookSender({ timeoutMs: 1000, allowPrivate: true, logger })
      // An organisation of its own: no other test's automation hears its event.
      const owner = await createTenant(t, { scopes: ['admin'] })
      try {
        const created = await adminClient(t, owner.headers).post('/automations', {
          event: 'JOB_CREATED',
          url: `${receiver.url}/hook?token=receiver-secret`,
        })
        const failing = created.body.data.automation.id as string
        const eventId = newId()
        await t.database.db
          .insertInto('outbox_events')
          .values({
            id: eventId,
            organisation_id: owner.organisationId,
            event: 'JOB_CREATED',
            data: '{}',
            occurred_at: new Date().toISOString(),
            dispatched_at: null,
          })
          .execute()
        await new WebhookDispatcher(t.database.db, logged, {
          pollIntervalMs: 1000,
          concurrency: 4,
          retentionDays: 30,
        }).drain()
        const execution = await t.database.db
          .selectFrom('webhook_executions')
          .selectAll()
          .where('event_id', '=', eventId)
          .executeTakeFirstOrThrow()
        expect(execution).toMatchObject({ automation_id: failing, status: 'FAILED', http_status: 500 })
        const warnings = lines.filter((line) => line.msg === 'webhook delivery failed')
        expect(warnings).toEqual([
          expect.objectContaining({
            level: 40,
            organisationId: owner.organisationId,
            automationId: failing,
            executionId: execution.id,
            event: 'JOB_CREATED',
            redeliveryOf: null,
            target: receiver.url,
            httpStatus: 500,
            error: 'Answered HTTP 500; not retried',
          }),
        ])
        // The receiver's own token in the URL stays out of the log.
        expect(JSON.stringify(lines)).not.toContain('receiver-secret')

        // A redelivery that fails is logged the same way, naming the execution it repeats.
        const again = await redeliverExecution(
          t.database.db,
          logged,
          owner.organisationId,
          failing,
          execution.id,
        )
        expect(again.status).toBe('FAILED')
        expect(lines.filter((line) => line.msg === 'webhook delivery failed').at(-1)).toMatchObject({
          level: 40,
          automationId: failing,
          executionId: again.id,
          redeliveryOf: execution.id,
        })

        // A success logs no warning; an unreachable receiver does.
        receiver.respond({ status: 204 })
        await redeliverExecution(t.database.db, logged, owner.organisationId, failing, execution.id)
        expect(lines.filter((line) => line.level === 40)).toHaveLength(2)
        await receiver.close()
        const unreachable = await redeliverExecution(
          t.database.db,
          logged,
          owner.organisationId,
          failing,
          execution.id,
        )
        expect(lines.filter((line) => line.level === 40).at(-1)).toMatchObject({
          automationId: failing,
          executionId: unreachable.id,
          httpStatus: null,
          error: unreachable.error,
        })
      } finally {
        await logged.close()
      }
    })

    it('runs in the background: a write wakes it, no drain needed', async () => {
      receiver = await startReceiver()
      const background = await createTestApp(dialect, {
        webhookDispatcher: true,
        webhookPollIntervalMs: 60_000,
      })
      try {
        const owner = await createTenant(background, { scopes: ['admin', 'read', 'write'] })
        const created = await adminClient(background, owner.headers).post('/automations', {
          event: 'STATUS_CHANGED',
          url: `${receiver.url}/bg`,
        })
        expect(created.status).toBe(201)
        const user = await adminClient(background, owner.headers).post('/team/users', {
          name: 'Wes Worker',
          email: 'wes@example.com',
          role: 'WORKER',
        })
        const job = await client(background, owner.headers).post('/jobs', { title: 'Replace valve' })
        const assigned = await adminClient(background, owner.headers).post(
          `/jobs/${job.body.data.job.id}/assign`,
          {
            userId: user.body.data.user.id,
            scheduledStart: '2026-11-23T09:00:00Z',
            scheduledEnd: '2026-11-23T10:00:00Z',
          },
        )
        expect(assigned.status).toBe(200)
        const [hook] = await receiver.waitFor(1, 5000)
        expect(hook?.json).toMatchObject({ event: 'STATUS_CHANGED', data: { status: 'ASSIGNED' } })
      } finally {
        await background.close()
      }
    })

    /** An app whose own dispatcher delivers in the background, two deliveries at a time. */
    const startDispatchingApp = () =>
      createTestApp(dialect, { webhookDispatcher: true, webhookTimeoutMs: 5000, webhookConcurrency: 2 })

    it('keeps answering API requests while a receiver hangs', async () => {
      receiver = await startReceiver({ hang: true })
      const background = await startDispatchingApp()
      try {
        const owner = await createTenant(background, { scopes: ['admin', 'read', 'write'] })
        const admin = adminClient(background, owner.headers)
        await admin.post('/automations', { event: 'STATUS_CHANGED', url: `${receiver.url}/slow` })
        const user = await admin.post('/team/users', {
          name: 'Ola',
          email: 'ola@example.com',
          role: 'WORKER',
        })
        const api = client(background, owner.headers)
        for (let i = 0; i < 4; i++) {
          const job = await api.post('/jobs', { title: `Job ${i}` })
          // One after another: assign refuses a visit overlapping the worker's others (OVERLAP).
          await admin.post(`/jobs/${job.body.data.job.id}/assign`, {
            userId: user.body.data.user.id,
            scheduledStart: `2026-11-23T${10 + i}:00:00Z`,
            scheduledEnd: `2026-11-23T${10 + i}:30:00Z`,
          })
        }
        await receiver.waitFor(2, 5000)
        expect(background.app.webhooks.dispatcher.deliveriesInFlight).toBeGreaterThan(0)
        // Deliveries are stuck, yet reads and writes go through.
        expect((await api.get('/jobs')).status).toBe(200)
        expect((await api.post('/jobs', { title: 'Still works' })).status).toBe(201)
      } finally {
        await receiver.close()
        await background.close()
      }
    })

    it('keeps answering API requests promptly while a receiver drops every connection', async () => {
      // Accepts the TCP connection and destroys it at once, before a byte of the request is read.
      let connections = 0
      const dropper = createNetServer((socket) => {
        connections++
        socket.destroy()
      })
      await new Promise<void>((resolve) => dropper.listen(0, '127.0.0.1', resolve))
      const { port } = dropper.address() as AddressInfo
      const background = await startDispatchingApp()
      try {
        const owner = await createTenant(background, { scopes: ['admin', 'read', 'write'] })
        const admin = adminClient(background, owner.headers)
        const automation = await admin.post('/automations', {
          event: 'JOB_CREATED',
          url: `http://127.0.0.1:${port}/drop`,
        })
        expect(automation.status).toBe(201)
        const api = client(background, owner.headers)
        const timed = async (send: () => Promise<{ status: number }>) => {
          const started = performance.now()
          const { status } = await send()
          return { status, ms: performance.now() - started }
        }
        // A burst of events, each a delivery that fails, with reads and writes in between.
        const answers = []
        for (let i = 0; i < 20; i++) {
          answers.push(await timed(() => api.post('/jobs', { title: `Burst ${i}` })))
          answers.push(await timed(() => api.get('/jobs?limit=5')))
        }
        const executionsPath = `/automations/${automation.body.data.automation.id}/executions?limit=100`
        const logged = await waitUntil(
          'every delivery to be logged',
          async () => {
            answers.push(await timed(() => api.get('/jobs?limit=5')))
            const log = await admin.get(executionsPath)
            const executions = log.body.data.executions as { status: string; error: string | null }[]
            return executions.length === 20 && executions.every((e) => e.status !== 'PENDING')
              ? executions
              : undefined
          },
          10_000,
        )
        expect(answers.map((answer) => answer.status)).toEqual(
          answers.map((_, i) => (i < 40 && i % 2 === 0 ? 201 : 200)),
        )
        // Nothing waits for a delivery: each answer comes well inside the 5 s webhook timeout (the
        // bound leaves room for a loaded 2-core machine; answers take a few milliseconds).
        expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(2000)
        expect(connections).toBeGreaterThanOrEqual(20)
        for (const execution of logged) {
          expect(execution).toMatchObject({ status: 'FAILED', httpStatus: null, error: expect.any(String) })
          // Failed on the dropped connection ("other side closed"), not by waiting out the timeout.
          expect(execution.error).not.toMatch(/Timed out/)
        }
        expect(background.app.webhooks.dispatcher.deliveriesInFlight).toBe(0)
      } finally {
        dropper.close()
        await background.close()
      }
    })
  })
}
