// Per-test-file app and database. SQLite: a fresh in-memory database, migrated. PostgreSQL: a clone
// of the migrated template made by global-setup.ts, dropped when the file's tests end.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { inject } from 'vitest'
import { type App, buildApp } from '../src/app.js'
import { createDatabase, type DatabaseHandle, type Dialect } from '../src/db/database.js'
import { migrateToLatest } from '../src/db/migrator.js'
import type { PlanTier } from '../src/db/types.js'
import { createApiKey, type Scope } from '../src/modules/api-keys/service.js'
import type { AttachmentStore } from '../src/modules/attachments/store.js'
import type { WebhookConfig } from '../src/modules/automations/webhooks.js'
import { createOrganisation } from '../src/modules/organisations/service.js'
import type { ScryptParams } from '../src/modules/sessions/passwords.js'
import type { PositionSource } from '../src/modules/tracking/service.js'
import { adminPostgresUrl, browserTestDialects, postgresUrlFor, testDialects } from './dialects.js'

export const DIALECTS = testDialects()
/** The dialects of the browser tests (test/browser): see browserTestDialects. */
export const BROWSER_DIALECTS = browserTestDialects()

/** What test apps allow one address per minute on the routes that need no key: no test gets near it. */
export const TEST_IP_RATE_LIMIT_PER_MINUTE = 1_000_000_000

export interface TestDatabase extends DatabaseHandle {
  cleanup(): Promise<void>
}

export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const handle = createDatabase(':memory:')
    await migrateToLatest(handle.db, 'sqlite')
    return { ...handle, cleanup: () => handle.destroy() }
  }
  const name = `fs_test_${process.pid}_${randomBytes(4).toString('hex')}`
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`)
  const handle = createDatabase(postgresUrlFor(name), { pgPoolSize: 5 })
  return {
    ...handle,
    async cleanup() {
      await handle.destroy()
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}

/**
 * A migrated database reachable by URL, for tests that run the real server or CLI: a SQLite file in
 * a temporary folder, or a PostgreSQL clone of the template.
 */
export async function createTestDatabaseUrl(
  dialect: Dialect,
): Promise<{ url: string; cleanup(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'fieldservice-test-'))
    const url = join(dir, 'test.db')
    const handle = createDatabase(url)
    await migrateToLatest(handle.db, 'sqlite')
    await handle.destroy()
    return { url, cleanup: () => rm(dir, { recursive: true, force: true }) }
  }
  const name = `fs_test_${process.pid}_${randomBytes(4).toString('hex')}`
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`)
  return {
    url: postgresUrlFor(name),
    cleanup: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  }
}

async function adminQuery(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminPostgresUrl() })
  await admin.connect()
  try {
    await admin.query(sql)
  } finally {
    await admin.end()
  }
}

export interface TestContext {
  app: App
  database: TestDatabase
  dialect: Dialect
  close(): Promise<void>
}

export type TestAppConfig = Partial<
  {
    authCacheTtlMs: number
    defaultRateLimitPerMinute: number
    bodyLimitBytes: number
    planWorkers: number
    routePlanQueueMax: number
    ipRateLimitPerMinute: number
    trustProxy: boolean | number | string
    sessionIdleMs: number
    sessionMaxAgeMs: number
    sessionRateLimitPerMinute: number
    signInMaxFailuresPerAccountAndIp: number
    signInMaxFailuresPerAccount: number
    signInMaxFailuresPerIp: number
    signInMaxFailuresPerDevice: number
    changeSettleMs: number
    etaChangeMinutes: number
    positionRetentionDays: number
    liveRefreshSeconds: number
    publicBaseUrl: string
    smtpUrl: string
    smtpFrom: string
    geocoderUrl: string
    geocoderFormat: 'nominatim' | 'photon'
    routingOsrmUrl: string
    routingOsrmMaxTable: number
    routingOsrmTimeoutMs: number
  } & WebhookConfig
>

/** Cheap scrypt for test apps (a few ms a hash); the real parameters are tested on their own. */
export const TEST_PASSWORD_PARAMS: ScryptParams = { ln: 10, r: 8, p: 1 }

/**
 * An app on a fresh database. Webhooks: no background dispatcher (tests call
 * `app.webhooks.dispatcher.drain()`), loopback receivers allowed, a 2 s delivery timeout. No route
 * plan runner unless `planWorkers` says so. The per-IP limit of the routes that need no key is out of
 * reach (every request comes from 127.0.0.1): ip-rate-limit.test.ts sets its own.
 */
export async function createTestApp(
  dialect: Dialect,
  config: TestAppConfig = {},
  options: { clock?: () => number; positions?: PositionSource; attachmentStore?: AttachmentStore } = {},
): Promise<TestContext> {
  const database = await createTestDatabase(dialect)
  const app = await buildApp({
    db: database.db,
    dialect,
    passwordParams: TEST_PASSWORD_PARAMS,
    ...options,
    config: {
      authCacheTtlMs: 0,
      defaultRateLimitPerMinute: 100,
      bodyLimitBytes: 1024 * 1024,
      webhookDispatcher: false,
      webhookAllowPrivate: true,
      webhookTimeoutMs: 2000,
      planWorkers: 0,
      // Tests run the live day's minute refresh themselves (app.live.tick()).
      liveRefreshSeconds: 0,
      // …and the job series' hourly generation (app.series.generateAll()).
      seriesGenerateSeconds: 0,
      ipRateLimitPerMinute: TEST_IP_RATE_LIMIT_PER_MINUTE,
      ...config,
    },
  })
  await app.ready()
  return {
    app,
    database,
    dialect,
    async close() {
      await app.close()
      await database.cleanup()
    },
  }
}

export interface TestTenant {
  organisationId: string
  key: string
  headers: { authorization: string }
}

/** An organisation with one API key (read+write and a generous rate limit unless told otherwise). */
export async function createTenant(
  t: TestContext,
  options: {
    plan?: PlanTier
    scopes?: Scope[]
    rateLimitPerMinute?: number
    expiresAt?: string | null
    name?: string
  } = {},
): Promise<TestTenant> {
  const org = await createOrganisation(t.database.db, {
    name: options.name ?? `Org ${randomBytes(3).toString('hex')}`,
    plan: options.plan ?? 'PRO',
  })
  const { key } = await createApiKey(t.database.db, {
    organisationId: org.id,
    name: 'test',
    scopes: options.scopes ?? ['read', 'write'],
    rateLimitPerMinute: options.rateLimitPerMinute ?? 100_000,
    expiresAt: options.expiresAt ?? null,
  })
  return { organisationId: org.id, key, headers: { authorization: `Bearer ${key}` } }
}

/** An extra key for an existing organisation. */
export async function createKey(
  t: TestContext,
  organisationId: string,
  options: { scopes?: Scope[]; rateLimitPerMinute?: number; expiresAt?: string | null } = {},
): Promise<{ id: string; key: string; headers: { authorization: string } }> {
  const { key, record } = await createApiKey(t.database.db, {
    organisationId,
    name: 'extra',
    scopes: options.scopes ?? ['read'],
    rateLimitPerMinute: options.rateLimitPerMinute ?? 100_000,
    expiresAt: options.expiresAt ?? null,
  })
  return { id: record.id, key, headers: { authorization: `Bearer ${key}` } }
}

export interface ApiResponse {
  status: number
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
  body: any
  headers: Record<string, string | string[] | number | undefined>
}

/** Shorthand for requests through app.inject() with one tenant's key (public API by default). */
export function client(t: TestContext, headers: Record<string, string>, prefix = '/v1/public') {
  const send = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) => {
    const response = await t.app.inject({
      method,
      url: `${prefix}${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    let body: unknown = response.body
    try {
      body = response.json()
    } catch {
      // not JSON: keep the text
    }
    return { status: response.statusCode, body, headers: response.headers } as ApiResponse
  }
  return {
    get: (url: string) => send('GET', url),
    post: (url: string, payload?: unknown) => send('POST', url, payload),
    put: (url: string, payload: unknown) => send('PUT', url, payload),
    patch: (url: string, payload: unknown) => send('PATCH', url, payload),
    delete: (url: string) => send('DELETE', url),
  }
}

/** The same shorthand for the admin API (`/v1/admin`). */
export function adminClient(t: TestContext, headers: Record<string, string>) {
  return client(t, headers, '/v1/admin')
}
