import { randomUUID } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { type ReceivedWebhook, type Receiver, startReceiver } from '../../../test/webhook-receiver.js'

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/
const DAY_MS = 86_400_000
// Timestamps have millisecond precision: a pause makes "newer" and "updatedAt moved" observable.
const pause = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms))
const verifies = (secret: string, hook: ReceivedWebhook) => {
  try {
    new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>)
    return true
  } catch {
    return false
  }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: automations admin API`, () => {
    let t: TestContext
    let receiver: Receiver
    beforeAll(async () => {
      t = await createTestApp(dialect)
      receiver = await startReceiver()
    })
    afterAll(async () => {
      await receiver.close()
      await t.close()
    })

    async function setup() {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const admin = adminClient(t, tenant.headers)
      // One receiver serves the file; each tenant's automations post to a path of their own.
      const path = `/${randomUUID()}`
      const create = async (body: Record<string, unknown> = {}) => {
        const response = await admin.post('/automations', {
          event: 'JOB_CREATED',
          url: `${receiver.url}${path}`,
          ...body,
        })
        expect(response.status, JSON.stringify(response.body)).toBe(201)
        return response.body.data as { automation: Record<string, unknown> & { id: string }; secret: string }
      }
      /** Creates a job (JOB_CREATED), delivers every pending event, returns what reached `path`. */
      const fire = async () => {
        const job = await client(t, tenant.headers).post('/jobs', { title: 'Boiler service' })
        expect(job.status).toBe(201)
        await t.app.webhooks.dispatcher.drain()
        return receiver.received.filter((hook) => hook.path === path)
      }
      return { tenant, admin, path, create, fire }
    }

    it('creates an automation, shows its secret once and never again', async () => {
      const { admin, create, path } = await setup()
      const before = Date.now()
      const { automation, secret } = await create()
      expect(secret).toMatch(SECRET)
      expect(automation).toEqual({
        id: expect.any(String),
        name: 'JOB_CREATED webhook',
        event: 'JOB_CREATED',
        action: 'SEND_WEBHOOK',
        url: `${receiver.url}${path}`,
        isActive: true,
        secretHint: expect.stringMatching(/^whsec_.{4}…$/),
        previousSecretExpiresAt: null,
        createdAt: automation.createdAt,
        updatedAt: automation.createdAt,
      })
      expect(secret.startsWith((automation.secretHint as string).replace(/…$/, ''))).toBe(true)
      expect(Date.parse(automation.createdAt as string)).toBeGreaterThanOrEqual(before - 1)

      const named = await create({
        name: 'ERP',
        event: 'JOB_COMPLETED',
        isActive: false,
        action: 'SEND_WEBHOOK',
      })
      expect(named.automation).toMatchObject({ name: 'ERP', event: 'JOB_COMPLETED', isActive: false })
      expect(named.secret).not.toBe(secret)

      const get = await admin.get(`/automations/${automation.id}`)
      expect(get.status).toBe(200)
      expect(get.body).toEqual({ data: { automation }, message: 'Success' })
      const list = await admin.get('/automations')
      expect(list.body.data.automations).toHaveLength(2)
      for (const response of [get, list]) {
        expect(JSON.stringify(response.body)).not.toContain(secret)
        expect(JSON.stringify(response.body)).not.toContain(named.secret)
      }
    })

    it('lists newest first, pages, filters, and refuses bad queries', async () => {
      const { admin, create } = await setup()
      const ids: string[] = []
      for (const [event, isActive] of [
        ['JOB_CREATED', true],
        ['JOB_COMPLETED', false],
        ['JOB_CREATED', false],
      ] as const) {
        ids.push((await create({ event, isActive })).automation.id)
        await pause()
      }
      const all = await admin.get('/automations')
      expect(all.body.data.automations.map((a: { id: string }) => a.id)).toEqual([...ids].reverse())
      expect(all.body.data.pagination).toEqual({ page: 1, limit: 50, total: 3, totalPages: 1 })
      const page2 = await admin.get('/automations?limit=2&page=2')
      expect(page2.body.data.automations.map((a: { id: string }) => a.id)).toEqual([ids[0]])
      expect(page2.body.data.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 })
      const created = await admin.get('/automations?event=JOB_CREATED')
      expect(created.body.data.automations.map((a: { id: string }) => a.id)).toEqual([ids[2], ids[0]])
      const inactive = await admin.get('/automations?isActive=false')
      expect(inactive.body.data.automations.map((a: { id: string }) => a.id)).toEqual([ids[2], ids[1]])
      const both = await admin.get('/automations?isActive=true&event=JOB_CREATED')
      expect(both.body.data.pagination.total).toBe(1)
      for (const [query, path] of [
        ['limit=101', '/query/limit'],
        ['limit=0', '/query/limit'],
        ['page=0', '/query/page'],
        ['secret=x', '/query/secret'],
        ['event=NOPE', '/query/event'],
        ['isActive=maybe', '/query/isActive'],
      ]) {
        const response = await admin.get(`/automations?${query}`)
        expect(response.status, query).toBe(400)
        expect(response.body.code).toBe('VALIDATION_ERROR')
        expect(response.body.details.map((d: { path: string }) => d.path)).toContain(path)
      }
    })

    it('patches only the fields sent and bumps updatedAt only on a change', async () => {
      const { admin, create } = await setup()
      const { automation } = await create({ name: 'Before' })
      await pause()
      const same = await admin.patch(`/automations/${automation.id}`, { name: 'Before', isActive: true })
      expect(same.status).toBe(200)
      expect(same.body.data.automation).toEqual(automation)
      expect((await admin.patch(`/automations/${automation.id}`, {})).body.data.automation).toEqual(
        automation,
      )

      const renamed = await admin.patch(`/automations/${automation.id}`, { name: 'After' })
      expect(renamed.status).toBe(200)
      const after = renamed.body.data.automation
      expect(after).toEqual({ ...automation, name: 'After', updatedAt: after.updatedAt })
      expect(after.updatedAt > (automation.updatedAt as string)).toBe(true)
      expect((await admin.get(`/automations/${automation.id}`)).body.data.automation).toEqual(after)

      const moved = await admin.patch(`/automations/${automation.id}`, {
        event: 'JOB_CANCELLED',
        url: 'http://127.0.0.1:1/moved',
        isActive: false,
      })
      expect(moved.body.data.automation).toMatchObject({
        name: 'After',
        event: 'JOB_CANCELLED',
        url: 'http://127.0.0.1:1/moved',
        isActive: false,
        secretHint: automation.secretHint,
        createdAt: automation.createdAt,
      })
      for (const body of [{ secret: 'whsec_x' }, { name: '' }, { isActive: 'no' }, { event: 'NOPE' }]) {
        const refused = await admin.patch(`/automations/${automation.id}`, body)
        expect(refused.status, JSON.stringify(body)).toBe(400)
        expect(refused.body.code).toBe('VALIDATION_ERROR')
      }
      expect((await admin.get(`/automations/${automation.id}`)).body.data.automation).toEqual(
        moved.body.data.automation,
      )
    })

    it('activates and deactivates idempotently, with or without a body', async () => {
      const { admin, create } = await setup()
      const { automation } = await create()
      await pause()
      const off = await admin.post(`/automations/${automation.id}/deactivate`)
      expect(off.status).toBe(200)
      expect(off.body.data.automation.isActive).toBe(false)
      expect(off.body.data.automation.updatedAt > (automation.updatedAt as string)).toBe(true)
      await pause()
      const again = await admin.post(`/automations/${automation.id}/deactivate`, {})
      expect(again.status).toBe(200)
      expect(again.body.data.automation).toEqual(off.body.data.automation)
      const on = await admin.post(`/automations/${automation.id}/activate`, {})
      expect(on.body.data.automation.isActive).toBe(true)
      expect((await admin.post(`/automations/${automation.id}/activate`)).body.data.automation).toEqual(
        on.body.data.automation,
      )
      for (const action of ['activate', 'deactivate']) {
        const refused = await admin.post(`/automations/${automation.id}/${action}`, { isActive: false })
        expect(refused.status).toBe(400)
        expect(refused.body.details).toEqual([
          { path: '/body/isActive', message: 'unknown field "isActive"' },
        ])
      }
      expect((await admin.get(`/automations/${automation.id}`)).body.data.automation.isActive).toBe(true)
    })

    it('deletes an automation together with its execution log', async () => {
      const { admin, create, fire } = await setup()
      const { automation } = await create()
      const kept = await create({ name: 'Kept' })
      expect(await fire()).toHaveLength(2)
      const logged = await admin.get(`/executions?automationId=${automation.id}`)
      expect(logged.body.data.pagination.total).toBe(1)

      const deleted = await admin.delete(`/automations/${automation.id}`)
      expect(deleted.status).toBe(200)
      expect(deleted.body).toEqual({
        data: { automation: { id: automation.id, deletedAt: expect.any(String) } },
        message: 'Success',
      })
      expect(Math.abs(Date.parse(deleted.body.data.automation.deletedAt) - Date.now())).toBeLessThan(10_000)
      expect((await admin.get(`/automations/${automation.id}`)).status).toBe(404)
      expect((await admin.delete(`/automations/${automation.id}`)).status).toBe(404)
      const gone = await admin.get(`/executions?automationId=${automation.id}`)
      expect(gone.status).toBe(200)
      expect(gone.body.data.pagination.total).toBe(0)
      expect((await admin.get(`/automations/${automation.id}/executions`)).status).toBe(404)
      // The other automation and its log are untouched.
      expect(
        (await admin.get(`/automations/${kept.automation.id}/executions`)).body.data.pagination.total,
      ).toBe(1)
      expect(
        (await admin.get('/automations')).body.data.automations.map((a: { id: string }) => a.id),
      ).toEqual([kept.automation.id])
    })

    it('rotates the secret with a grace period (default 1 day, 0 for none, at most 7 days)', async () => {
      const { admin, create } = await setup()
      const { automation, secret } = await create()
      const rotated = await admin.post(`/automations/${automation.id}/rotate-secret`)
      expect(rotated.status).toBe(201)
      const next = rotated.body.data
      expect(next.secret).toMatch(SECRET)
      expect(next.secret).not.toBe(secret)
      expect(next.automation.secretHint).toBe(`${next.secret.slice(0, 10)}…`)
      expect(
        Math.abs(Date.parse(next.automation.previousSecretExpiresAt) - (Date.now() + DAY_MS)),
      ).toBeLessThan(10_000)
      const got = await admin.get(`/automations/${automation.id}`)
      expect(got.body.data.automation).toEqual(next.automation)
      expect(JSON.stringify(got.body)).not.toContain(next.secret)
      expect(JSON.stringify(got.body)).not.toContain(secret)

      const hour = await admin.post(`/automations/${automation.id}/rotate-secret`, {
        gracePeriodSeconds: 3600,
      })
      expect(Date.parse(hour.body.data.automation.previousSecretExpiresAt) - Date.now()).toBeLessThan(
        3_610_000,
      )
      const none = await admin.post(`/automations/${automation.id}/rotate-secret`, { gracePeriodSeconds: 0 })
      expect(none.status).toBe(201)
      expect(none.body.data.automation.previousSecretExpiresAt).toBeNull()

      for (const body of [
        { gracePeriodSeconds: 604_801 },
        { gracePeriodSeconds: -1 },
        { gracePeriodSeconds: 1.5 },
        { grace: 1 },
      ]) {
        const refused = await admin.post(`/automations/${automation.id}/rotate-secret`, body)
        expect(refused.status, JSON.stringify(body)).toBe(400)
        expect(refused.body.code).toBe('VALIDATION_ERROR')
      }
      const unchanged = (await admin.get(`/automations/${automation.id}`)).body.data.automation
      expect(unchanged).toEqual(none.body.data.automation)
    })

    it('signs with both secrets during the grace period and with the new one only after grace 0', async () => {
      const { admin, create, fire } = await setup()
      const { automation, secret: first } = await create()
      const [original] = await fire()
      expect(original && verifies(first, original)).toBe(true)

      const second = (await admin.post(`/automations/${automation.id}/rotate-secret`, {})).body.data.secret
      const graced = (await fire())[1] as ReceivedWebhook
      expect(graced.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/)
      expect(verifies(second, graced)).toBe(true)
      expect(verifies(first, graced)).toBe(true)

      const third = (
        await admin.post(`/automations/${automation.id}/rotate-secret`, { gracePeriodSeconds: 0 })
      ).body.data.secret
      const after = (await fire())[2] as ReceivedWebhook
      expect(after.headers['webhook-signature']).toMatch(/^v1,\S+$/)
      expect(verifies(third, after)).toBe(true)
      expect(verifies(second, after)).toBe(false)
      expect(verifies(first, after)).toBe(false)
    })

    it('logs each delivery: list, filters, one execution, and tenant isolation', async () => {
      const { admin, create, fire } = await setup()
      const { automation } = await create()
      const other = await create({ name: 'Other' })
      const delivered = await fire()
      receiver.respond({ status: 500, body: 'down' })
      await fire().finally(() => receiver.respond({ status: 200, body: 'ok' }))

      const log = await admin.get(`/automations/${automation.id}/executions`)
      expect(log.status).toBe(200)
      expect(log.body.data.pagination).toEqual({ page: 1, limit: 50, total: 2, totalPages: 1 })
      const [failed, success] = log.body.data.executions
      expect(success).toEqual({
        id: expect.any(String),
        automationId: automation.id,
        eventId: expect.any(String),
        isTest: false,
        webhookId: expect.any(String),
        event: 'JOB_CREATED',
        url: automation.url,
        status: 'SUCCESS',
        httpStatus: 200,
        error: null,
        durationMs: expect.any(Number),
        requestBody: expect.any(Object),
        responseBody: 'ok',
        responseHeaders: expect.objectContaining({ 'content-type': 'text/plain' }),
        redeliveryOf: null,
        createdAt: expect.any(String),
        completedAt: expect.any(String),
      })
      // Both automations got the first event; this one's request carries its webhookId.
      const hook = delivered.find((h) => h.headers['webhook-id'] === success.webhookId)
      expect(delivered).toHaveLength(2)
      expect(success.requestBody).toEqual(hook?.json)
      expect(success.requestBody).toMatchObject({ event: 'JOB_CREATED', data: expect.any(Object) })
      expect(success.durationMs).toBeGreaterThanOrEqual(0)
      expect(success.completedAt >= success.createdAt).toBe(true)
      expect(failed).toMatchObject({ status: 'FAILED', httpStatus: 500, responseBody: 'down' })
      expect(failed.error).toContain('500')

      const one = await admin.get(`/automations/${automation.id}/executions/${success.id}`)
      expect(one.body).toEqual({ data: { execution: success }, message: 'Success' })
      const wrongParent = await admin.get(`/automations/${other.automation.id}/executions/${success.id}`)
      expect([wrongParent.status, wrongParent.body.code]).toEqual([404, 'NOT_FOUND'])

      const ids = async (url: string) => {
        const response = await admin.get(url)
        expect(response.status, url).toBe(200)
        return response.body.data.executions.map((e: { id: string }) => e.id)
      }
      expect(await ids(`/automations/${automation.id}/executions?status=SUCCESS`)).toEqual([success.id])
      expect(await ids(`/automations/${automation.id}/executions?status=FAILED`)).toEqual([failed.id])
      expect(await ids(`/automations/${automation.id}/executions?event=JOB_COMPLETED`)).toEqual([])
      expect(await ids(`/automations/${automation.id}/executions?limit=1&page=2`)).toEqual([success.id])
      expect(await ids('/executions')).toHaveLength(4)
      expect(await ids(`/executions?automationId=${automation.id}`)).toEqual([failed.id, success.id])
      expect(await ids(`/executions?automationId=${other.automation.id}&status=SUCCESS`)).toHaveLength(1)
      expect(await ids('/executions?event=JOB_CREATED&status=FAILED')).toHaveLength(2)
      for (const query of ['status=DONE', 'event=NOPE', 'limit=101', 'automation=x']) {
        expect((await admin.get(`/executions?${query}`)).status, query).toBe(400)
        expect((await admin.get(`/automations/${automation.id}/executions?${query}`)).status, query).toBe(400)
      }
      expect((await admin.get(`/automations/${automation.id}/executions?automationId=x`)).status).toBe(400)

      // Another organisation sees none of it.
      const stranger = (await setup()).admin
      expect(await ids('/executions')).toHaveLength(4)
      expect((await stranger.get('/executions')).body.data.pagination.total).toBe(0)
      expect((await stranger.get(`/executions?automationId=${automation.id}`)).body.data.executions).toEqual(
        [],
      )
      expect((await stranger.get(`/automations/${automation.id}/executions`)).status).toBe(404)
      expect((await stranger.get(`/automations/${automation.id}/executions/${success.id}`)).status).toBe(404)
      expect((await admin.get(`/automations/${randomUUID()}/executions`)).status).toBe(404)
    })
  })
}
