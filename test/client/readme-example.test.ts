// The README's "Syncing jobs with the TypeScript client" example (clients/typescript/examples/sync-jobs.ts,
// shown verbatim in README.md and clients/typescript/README.md) run against a real listening server.
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  connect,
  pullOpenJobs,
  pushJob,
  reschedule,
  webhookHandler,
} from '../../clients/typescript/examples/sync-jobs.js'
import type { WebhookEvent } from '../../clients/typescript/src/index.js'
import { adminClient, createTenant, createTestApp, DIALECTS, type TestContext } from '../helpers.js'

const ROOT = new URL('../../', import.meta.url)

for (const dialect of DIALECTS) {
  describe(`${dialect}: the TypeScript client's README example`, () => {
    let t: TestContext
    let baseUrl: string
    let receiver: Server
    let receiverUrl: string
    const events: WebhookEvent[] = []
    let secret = ''

    beforeAll(async () => {
      t = await createTestApp(dialect)
      baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 })
      receiver = createServer((request, response) => {
        void webhookHandler(secret, async (event) => {
          events.push(event)
        })(request, response)
      })
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/fieldservice`
    })
    afterAll(async () => {
      receiver?.closeAllConnections()
      await new Promise((resolve) => receiver?.close(resolve))
      await t?.close()
    })

    it('pulls every open job, pushes one, reschedules by code and takes in verified webhooks', async () => {
      const tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      const admin = adminClient(t, tenant.headers)
      const automation = await admin.post('/automations', { event: 'JOB_CREATED', url: receiverUrl })
      secret = automation.body.data.secret
      const client = connect(baseUrl, tenant.key)

      const ids: string[] = []
      for (let i = 0; i < 3; i++) ids.push(await pushJob(client, `Order ${i}`))
      const cancelled = ids[2] as string
      await admin.post(`/jobs/${cancelled}/cancel`, {})
      const open = await pullOpenJobs(client)
      expect([...open.keys()].sort()).toEqual(ids.slice(0, 2).sort())
      expect(open.get(ids[0] as string)).toMatchObject({
        title: 'Order 0',
        priority: 'HIGH',
        serviceDuration: 3600,
      })

      const from = '2026-11-23T09:00:00.000Z'
      const to = '2026-11-23T12:00:00.000Z'
      expect(await reschedule(client, ids[0] as string, from, to)).toMatchObject({
        earliestStart: from,
        latestEnd: to,
      })
      expect(await reschedule(client, cancelled, from, to)).toBeUndefined()
      expect(await reschedule(client, '0193e2f4-5b7a-7c3d-9e1f-2a4b6c8d0e1f', from, to)).toBeUndefined()
      await expect(reschedule(client, ids[1] as string, to, from)).rejects.toThrow(/^rejected: /)

      await t.app.webhooks.dispatcher.drain()
      expect(events.map((e) => e.event)).toEqual(['JOB_CREATED', 'JOB_CREATED', 'JOB_CREATED'])
      expect(events.map((e) => (e.event === 'JOB_CREATED' ? e.data.jobId : '')).sort()).toEqual(
        [...ids].sort(),
      )

      const forged = await fetch(receiverUrl, {
        method: 'POST',
        headers: {
          'webhook-id': 'msg_1',
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': 'v1,AAAA',
        },
        body: JSON.stringify(events[0]),
      })
      expect(forged.status).toBe(401)
      expect(events).toHaveLength(3)
    })
  })
}

describe("the TypeScript client's README example", () => {
  it('is clients/typescript/examples/sync-jobs.ts, verbatim, in both READMEs', async () => {
    const example = (await readFile(new URL('clients/typescript/examples/sync-jobs.ts', ROOT), 'utf8')).trim()
    for (const readme of ['README.md', 'clients/typescript/README.md']) {
      expect(await readFile(new URL(readme, ROOT), 'utf8'), readme).toContain(example)
    }
  })
})
