// Prometheus metrics: requests go through app.inject(), and /metrics is scraped over HTTP from the
// metrics server, as Prometheus would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.js'
import { createDatabase } from '../src/db/database.js'
import { createApiKey } from '../src/modules/api-keys/service.js'
import { createOrganisation } from '../src/modules/organisations/service.js'
import { type MetricsServer, startMetricsServer } from '../src/ops/metrics-server.js'
import { startServer } from '../src/server.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  createTestDatabaseUrl,
  DIALECTS,
  type TestContext,
} from './helpers.js'
import { freePort } from './processes.js'
import { type Receiver, startReceiver } from './webhook-receiver.js'

/** The value of one series in Prometheus text, or undefined when it is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (.+)$/.exec(line)
    if (!match || match[1] !== name) continue
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    )
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3])
  }
  return undefined
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: metrics`, () => {
    let t: TestContext
    let server: MetricsServer
    let receivers: Receiver[] = []

    beforeAll(async () => {
      t = await createTestApp(dialect)
      server = await startMetricsServer({ host: '127.0.0.1', port: 0, scrape: () => t.app.metrics.scrape() })
    })
    afterAll(async () => {
      await server?.close()
      for (const receiver of receivers) await receiver.close()
      await t.close()
    })

    const scrape = async () => {
      const response = await fetch(server.url)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
      return response.text()
    }

    it('serves /metrics only, on its own server', async () => {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
      expect((await fetch(server.url.replace('/metrics', '/'))).status).toBe(404)
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404)
    })

    it('counts requests by method, route pattern and status; unmatched URLs share one label', async () => {
      const tenant = await createTenant(t)
      const api = client(t, tenant.headers)
      const before = await scrape()
      const jobPattern = { method: 'GET', route: '/v1/public/jobs/:id', status_code: '404' }
      const already = sample(before, 'fieldservice_http_requests_total', jobPattern) ?? 0
      for (const id of ['job_does_not_exist_1', 'job_does_not_exist_2', 'job_does_not_exist_3']) {
        expect((await api.get(`/jobs/${id}`)).status).toBe(404)
      }
      expect((await api.get('/jobs')).status).toBe(200)
      expect((await t.app.inject({ method: 'GET', url: '/no/such/path/42' })).statusCode).toBe(404)

      const text = await scrape()
      expect(sample(text, 'fieldservice_http_requests_total', jobPattern)).toBe(already + 3)
      expect(
        sample(text, 'fieldservice_http_requests_total', {
          method: 'GET',
          route: '/v1/public/jobs',
          status_code: '200',
        }),
      ).toBeGreaterThanOrEqual(1)
      expect(
        sample(text, 'fieldservice_http_requests_total', { route: 'unmatched', status_code: '404' }),
      ).toBeGreaterThanOrEqual(1)
      // Never a raw URL as a label.
      expect(text).not.toContain('job_does_not_exist')
      expect(text).not.toContain('/no/such/path')
      // The latency histogram has the same series, with cumulative buckets ending at the count.
      const labels = { ...jobPattern }
      const count = sample(text, 'fieldservice_http_request_duration_seconds_count', labels)
      expect(count).toBe(already + 3)
      expect(
        sample(text, 'fieldservice_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' }),
      ).toBe(count)
      expect(sample(text, 'fieldservice_http_request_duration_seconds_bucket', { ...labels, le: '10' })).toBe(
        count,
      )
      expect(sample(text, 'fieldservice_http_request_duration_seconds_sum', labels)).toBeGreaterThan(0)
    })

    it('counts 429 rate-limit rejections by route', async () => {
      const tenant = await createTenant(t, { rateLimitPerMinute: 2 })
      const api = client(t, tenant.headers)
      const statuses = []
      for (let i = 0; i < 4; i++) statuses.push((await api.get('/customers')).status)
      expect(statuses).toEqual([200, 200, 429, 429])
      const text = await scrape()
      expect(
        sample(text, 'fieldservice_rate_limit_rejections_total', { route: '/v1/public/customers' }),
      ).toBe(2)
      expect(
        sample(text, 'fieldservice_http_requests_total', {
          route: '/v1/public/customers',
          status_code: '429',
        }),
      ).toBe(2)
    })

    it('reports the outbox lag, and webhook deliveries by result', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const ok = await startReceiver({ status: 204 })
      const broken = await startReceiver({ status: 500, body: 'down' })
      receivers = [ok, broken]
      for (const receiver of receivers) {
        const created = await adminClient(t, tenant.headers).post('/automations', {
          event: 'JOB_CREATED',
          url: receiver.url,
        })
        expect(created.status).toBe(201)
      }
      await t.app.webhooks.dispatcher.drain()
      const before = await scrape()
      expect(sample(before, 'fieldservice_outbox_pending_events')).toBe(0)
      expect(sample(before, 'fieldservice_outbox_oldest_pending_age_seconds')).toBe(0)
      const success = sample(before, 'fieldservice_webhook_deliveries_total', { result: 'SUCCESS' }) ?? -1
      const failed = sample(before, 'fieldservice_webhook_deliveries_total', { result: 'FAILED' }) ?? -1
      expect(success).toBeGreaterThanOrEqual(0)

      // The background dispatcher is off in tests: the events wait in the outbox.
      for (const title of ['One', 'Two']) {
        expect((await client(t, tenant.headers).post('/jobs', { title })).status).toBe(201)
      }
      await new Promise((resolve) => setTimeout(resolve, 20))
      const waiting = await scrape()
      expect(sample(waiting, 'fieldservice_outbox_pending_events')).toBe(2)
      expect(sample(waiting, 'fieldservice_outbox_oldest_pending_age_seconds')).toBeGreaterThan(0)

      await t.app.webhooks.dispatcher.drain()
      const after = await scrape()
      expect(sample(after, 'fieldservice_outbox_pending_events')).toBe(0)
      expect(sample(after, 'fieldservice_webhook_deliveries_total', { result: 'SUCCESS' })).toBe(success + 2)
      expect(sample(after, 'fieldservice_webhook_deliveries_total', { result: 'FAILED' })).toBe(failed + 2)
    })

    it('reports the rate-limit store, and the process metrics once enabled', async () => {
      const text = await scrape()
      expect(sample(text, 'fieldservice_rate_limit_redis_connected')).toBe(0)
      expect(sample(text, 'fieldservice_rate_limit_fallback_active')).toBe(0)
      expect(sample(text, 'process_cpu_user_seconds_total')).toBeUndefined()
      t.app.metrics.collectProcessMetrics()
      const enabled = await scrape()
      // CPU time is counted from the moment the metrics were enabled, in the kernel's clock ticks:
      // it may still read 0 here. Resident memory never does.
      expect(sample(enabled, 'process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0)
      expect(sample(enabled, 'process_resident_memory_bytes')).toBeGreaterThan(0)
    })

    it('reports the database pool (PostgreSQL) or group commits (SQLite) of a running server', async () => {
      const database = await createTestDatabaseUrl(dialect)
      const config = loadConfig({
        DATABASE_URL: database.url,
        PORT: '0',
        METRICS_PORT: String(await freePort()),
        LOG_LEVEL: 'silent',
        WEBHOOK_DISPATCHER: 'false',
        SHUTDOWN_DELAY_MS: '0',
      })
      // The key is made before the server opens the file: a second SQLite connection in this process
      // would wait synchronously on a write lock that only this event loop can release.
      const handle = createDatabase(database.url)
      const { key } = await createApiKey(handle.db, {
        organisationId: (await createOrganisation(handle.db, { name: 'Metered', plan: 'PRO' })).id,
        name: 'metrics',
        scopes: ['write'],
        rateLimitPerMinute: 100,
      })
      await handle.destroy()
      const running = await startServer(config)
      try {
        const created = await fetch(`${running.url}/v1/public/jobs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'Counted' }),
        })
        expect(created.status).toBe(201)
        const text = await (await fetch(running.metricsUrl as string)).text()
        if (dialect === 'postgres') {
          expect(sample(text, 'fieldservice_db_pool_connections', { state: 'total' })).toBeGreaterThan(0)
          expect(sample(text, 'fieldservice_db_pool_waiting_requests')).toBeGreaterThanOrEqual(0)
        } else {
          expect(sample(text, 'fieldservice_sqlite_commits_total')).toBeGreaterThan(0)
          expect(sample(text, 'fieldservice_sqlite_committed_transactions_total')).toBeGreaterThan(0)
        }
      } finally {
        await running.close()
        await database.cleanup()
      }
    })
  })
}
