// Webhooks across real processes: a server killed with SIGKILL loses no committed event and never
// sends one twice, and the README's example receiver verifies what we sign.
import { type ChildProcess, spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabase } from '../src/db/database.js'
import { createApiKey } from '../src/modules/api-keys/service.js'
import { createOrganisation } from '../src/modules/organisations/service.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  createTestDatabaseUrl,
  DIALECTS,
} from './helpers.js'
import { freePort, kill, PROCESS_TEST_TIMEOUT_MS, startService, waitUntil } from './processes.js'
import { type Receiver, startReceiver } from './webhook-receiver.js'

const ROOT = new URL('../', import.meta.url)

for (const dialect of DIALECTS) {
  describe(`${dialect}: webhooks across process crashes`, { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
    let database: { url: string; cleanup(): Promise<void> }
    let receiver: Receiver
    let headers: Record<string, string>
    const children: ChildProcess[] = []

    beforeAll(async () => {
      database = await createTestDatabaseUrl(dialect)
      const handle = createDatabase(database.url)
      const org = await createOrganisation(handle.db, { name: 'Crash Plumbing', plan: 'PRO' })
      const { key } = await createApiKey(handle.db, {
        organisationId: org.id,
        name: 'crash test',
        scopes: ['admin'],
        rateLimitPerMinute: 100_000,
      })
      await handle.destroy()
      headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
      receiver = await startReceiver()
    })
    afterAll(async () => {
      for (const child of children) await kill(child)
      await receiver?.close()
      await database?.cleanup()
    })

    const call = async (base: string, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
      return { status: response.status, body: (await response.json()) as any }
    }

    it('delivers events committed before a SIGKILL after the restart, each exactly once', async () => {
      // First life: no dispatcher, so every acknowledged job's event is still in the outbox when the
      // process dies.
      const first = await startService(database.url, { WEBHOOK_DISPATCHER: 'false' })
      children.push(first.child)
      const automation = await call(first.url, 'POST', '/v1/admin/automations', {
        event: 'JOB_CREATED',
        url: `${receiver.url}/created`,
      })
      expect(automation.status).toBe(201)
      const acknowledged: string[] = []
      for (let i = 0; i < 5; i++) {
        const job = await call(first.url, 'POST', '/v1/public/jobs', { title: `Leak ${i}` })
        expect(job.status).toBe(201)
        acknowledged.push(job.body.data.job.id)
      }
      await kill(first.child)
      expect(receiver.received).toHaveLength(0)

      const second = await startService(database.url)
      children.push(second.child)
      await receiver.waitFor(5)
      // Give it time to (wrongly) send anything twice.
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(receiver.received.map((r) => r.json.data.jobId).sort()).toEqual([...acknowledged].sort())
      const log = await call(
        second.url,
        'GET',
        `/v1/admin/automations/${automation.body.data.automation.id}/executions?limit=100`,
      )
      expect(log.body.data.executions).toHaveLength(5)
      expect(log.body.data.executions.every((e: { status: string }) => e.status === 'SUCCESS')).toBe(true)
      await kill(second.child)
    })

    it('never re-sends a delivery that was in flight when the process was killed', async () => {
      receiver.respond({ hang: true })
      const before = receiver.received.length
      const third = await startService(database.url, { WEBHOOK_TIMEOUT_MS: '60000' })
      children.push(third.child)
      const job = await call(third.url, 'POST', '/v1/public/jobs', { title: 'Burst pipe' })
      expect(job.status).toBe(201)
      await receiver.waitFor(before + 1)
      await kill(third.child)

      receiver.respond({ status: 200, body: 'ok' })
      const fourth = await startService(database.url)
      children.push(fourth.child)
      const after = await call(fourth.url, 'POST', '/v1/public/jobs', { title: 'After the crash' })
      const [, latest] = await receiver.waitFor(before + 2).then((all) => all.slice(-2))
      expect(latest?.json.data.jobId).toBe(after.body.data.job.id)
      await new Promise((resolve) => setTimeout(resolve, 500))
      const burst = receiver.received.filter((r) => r.json.data.jobId === job.body.data.job.id)
      expect(burst).toHaveLength(1)
      const pending = await call(fourth.url, 'GET', '/v1/admin/executions?status=PENDING')
      expect(
        pending.body.data.executions.map(
          (e: { requestBody: { data: { jobId: string } } }) => e.requestBody.data.jobId,
        ),
      ).toEqual([job.body.data.job.id])
      await kill(fourth.child)
    })
  })
}

describe('the example receiver in the README', () => {
  it('accepts our signed deliveries and refuses a wrong signature', async () => {
    const t = await createTestApp('sqlite')
    const port = await freePort()
    let receiver: ChildProcess | undefined
    try {
      const tenant = await createTenant(t, { scopes: ['admin', 'write'] })
      const admin = adminClient(t, tenant.headers)
      const url = `http://127.0.0.1:${port}/`
      const mine = (await admin.post('/automations', { event: 'JOB_CREATED', url })).body.data
      const foreign = (await admin.post('/automations', { event: 'JOB_CREATED', url })).body.data
      let printed = ''
      receiver = spawn(process.execPath, ['examples/webhook-receiver.mjs'], {
        cwd: ROOT,
        env: { ...process.env, WEBHOOK_SECRET: mine.secret, PORT: String(port) },
      })
      receiver.stdout?.on('data', (chunk) => {
        printed += chunk
      })
      await waitUntil('the example receiver', async () =>
        (await fetch(url)).status === 401 ? true : undefined,
      )
      const job = await client(t, tenant.headers).post('/jobs', { title: 'Signed and sealed' })
      await t.app.webhooks.dispatcher.drain()
      const outcome = async (id: string) =>
        (await admin.get(`/automations/${id}/executions`)).body.data.executions[0]
      expect(await outcome(mine.automation.id)).toMatchObject({ status: 'SUCCESS', httpStatus: 204 })
      expect(await outcome(foreign.automation.id)).toMatchObject({ status: 'FAILED', httpStatus: 401 })
      await waitUntil('the printed event', async () =>
        printed.includes(job.body.data.job.id) ? true : undefined,
      )
      expect(JSON.parse(printed.trim().split('\n')[0] as string)).toMatchObject({ event: 'JOB_CREATED' })
    } finally {
      if (receiver) await kill(receiver)
      await t.close()
    }
  })

  it('is the file examples/webhook-receiver.mjs, verbatim', async () => {
    const [readme, example] = await Promise.all([
      readFile(new URL('README.md', ROOT), 'utf8'),
      readFile(new URL('examples/webhook-receiver.mjs', ROOT), 'utf8'),
    ])
    expect(readme).toContain(example.trim())
  })
})
