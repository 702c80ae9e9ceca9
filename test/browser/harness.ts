// A real listening server built by buildApp, serving the built dashboard, on a fresh database, with
// the webhook dispatcher running; organisations with an admin, a dispatcher and a worker who have
// passwords; and signing in through the page like a person.
import { randomBytes } from 'node:crypto'
import type { Page } from 'playwright-core'
import { type App, buildApp } from '../../src/app.js'
import type { Dialect } from '../../src/db/database.js'
import type { PlanTier } from '../../src/db/types.js'
import { DEFAULT_DASHBOARD_DIR } from '../../src/http/dashboard.js'
import { createApiKey } from '../../src/modules/api-keys/service.js'
import { createOrganisation } from '../../src/modules/organisations/service.js'
import { createUser, setUserPassword } from '../../src/modules/organisations/users-service.js'
import type { PositionSource } from '../../src/modules/tracking/service.js'
import { createTestDatabase, TEST_IP_RATE_LIMIT_PER_MINUTE, type TestDatabase } from '../helpers.js'
import { ensureDashboardBuilt } from './build.js'

/** Cheap scrypt for tests: sign-in still runs the real code, without a second of CPU per user. */
const TEST_SCRYPT = { ln: 4, r: 8, p: 1 }

export interface DashboardServer {
  url: string
  app: App
  database: TestDatabase
  close(): Promise<void>
}

/**
 * `planWorkers`: route plan runners in the server (none unless a test plans a day); `clock`: the
 * server's "now" (sessions, route plans), for a test set at a fixed moment.
 */
export async function startDashboard(
  dialect: Dialect,
  options: {
    planWorkers?: number
    clock?: () => number
    positions?: PositionSource
    geocoderUrl?: string
    routingOsrmUrl?: string
  } = {},
): Promise<DashboardServer> {
  await ensureDashboardBuilt()
  const database = await createTestDatabase(dialect)
  const app = await buildApp({
    db: database.db,
    dialect,
    passwordParams: TEST_SCRYPT,
    dashboardDir: DEFAULT_DASHBOARD_DIR,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.positions ? { positions: options.positions } : {}),
    config: {
      authCacheTtlMs: 0,
      defaultRateLimitPerMinute: 100,
      bodyLimitBytes: 1024 * 1024,
      webhookDispatcher: true,
      webhookAllowPrivate: true,
      webhookTimeoutMs: 2000,
      webhookPollIntervalMs: 250,
      planWorkers: options.planWorkers ?? 0,
      ipRateLimitPerMinute: TEST_IP_RATE_LIMIT_PER_MINUTE,
      ...(options.geocoderUrl ? { geocoderUrl: options.geocoderUrl } : {}),
      ...(options.routingOsrmUrl ? { routingOsrmUrl: options.routingOsrmUrl } : {}),
    },
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    database,
    async close() {
      await app.close()
      await database.cleanup()
    },
  }
}

export interface Person {
  id: string
  name: string
  email: string
  password: string
}

export interface Organisation {
  id: string
  name: string
  admin: Person
  dispatcher: Person
  worker: Person
  /** A read+write key of the organisation, for causing events through the public API. */
  key: string
}

export async function createOrganisationWithTeam(
  server: DashboardServer,
  options: { plan?: PlanTier; name?: string } = {},
): Promise<Organisation> {
  const db = server.database.db
  const tag = randomBytes(3).toString('hex')
  const organisation = await createOrganisation(db, {
    name: options.name ?? `Acme ${tag}`,
    plan: options.plan ?? 'PRO',
  })
  const person = async (role: 'ADMIN' | 'DISPATCHER' | 'WORKER', name: string): Promise<Person> => {
    const email = `${role.toLowerCase()}.${tag}@example.com`
    const password = `correct horse ${role.toLowerCase()} ${tag}`
    const user = await createUser(db, organisation.id, { name, email, role })
    await setUserPassword(db, organisation.id, user.id, password, TEST_SCRYPT)
    return { id: user.id, name, email, password }
  }
  const { key } = await createApiKey(db, {
    organisationId: organisation.id,
    name: 'integration',
    scopes: ['read', 'write'],
    rateLimitPerMinute: 10_000,
    expiresAt: null,
  })
  return {
    id: organisation.id,
    name: organisation.name,
    admin: await person('ADMIN', 'Alex Admin'),
    dispatcher: await person('DISPATCHER', 'Dana Dispatcher'),
    worker: await person('WORKER', 'Wes Worker'),
    key,
  }
}

/** Signs in through the sign-in page and waits for the app to show the signed-in shell. */
export async function signIn(
  page: Page,
  person: Pick<Person, 'email' | 'password'>,
  path = '/',
): Promise<void> {
  await page.goto(path)
  await page.getByLabel('Email').fill(person.email)
  await page.getByLabel('Password').fill(person.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('button', { name: 'Sign out' }).waitFor()
}

/** `fetch` against the server with a key (the public API, as an integration would call it). */
export async function callApi(
  server: DashboardServer,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: await response.json().catch(() => null) }
}
