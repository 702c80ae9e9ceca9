// Idempotency-Key where it matters most: a retried POST /jobs never creates two jobs, even when the
// process dies between committing the job and answering (a real server, SIGKILLed by its test-only
// FIELDSERVICE_TEST_CRASH_AFTER_COMMIT hook, then restarted), and when retries race on two instances
// (two apps, two connection pools, one PostgreSQL database).
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../src/app.js'
import { createDatabase, type DatabaseHandle } from '../src/db/database.js'
import { CRASH_AFTER_COMMIT_ENV } from '../src/http/idempotency.js'
import { createApiKey } from '../src/modules/api-keys/service.js'
import { createOrganisation } from '../src/modules/organisations/service.js'
import { createTestDatabaseUrl, DIALECTS } from './helpers.js'
import { kill, type ServiceProcess, startService } from './processes.js'

const JOB = JSON.stringify({ title: 'Burst pipe', priority: 'HIGH' })

async function tenantOn(url: string): Promise<{ organisationId: string; headers: Record<string, string> }> {
  const handle = createDatabase(url)
  try {
    const org = await createOrganisation(handle.db, { name: 'Retry Plumbing', plan: 'PRO' })
    const { key } = await createApiKey(handle.db, {
      organisationId: org.id,
      name: 'erp',
      scopes: ['read', 'write'],
      rateLimitPerMinute: 1_000_000,
    })
    return {
      organisationId: org.id,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    }
  } finally {
    await handle.destroy()
  }
}

async function jobsIn(url: string, organisationId: string): Promise<string[]> {
  const handle = createDatabase(url)
  try {
    const rows = await handle.db
      .selectFrom('jobs')
      .select('id')
      .where('organisation_id', '=', organisationId)
      .execute()
    return rows.map((row) => row.id)
  } finally {
    await handle.destroy()
  }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: a retried POST /jobs across a crash between commit and answer`, () => {
    let database: { url: string; cleanup(): Promise<void> }
    const services: ServiceProcess[] = []

    beforeAll(async () => {
      database = await createTestDatabaseUrl(dialect)
    })
    afterAll(async () => {
      for (const service of services) await kill(service.child)
      await database?.cleanup()
    })

    it('creates exactly one job, and the retry after the restart gets the stored 201', async () => {
      const { organisationId, headers } = await tenantOn(database.url)
      const keyed = { ...headers, 'idempotency-key': randomUUID() }
      const crashing = await startService(database.url, {
        WEBHOOK_DISPATCHER: 'false',
        [CRASH_AFTER_COMMIT_ENV]: '1',
      })
      services.push(crashing)
      const exited = once(crashing.child, 'exit')
      const lost = await fetch(`${crashing.url}/v1/public/jobs`, {
        method: 'POST',
        headers: keyed,
        body: JOB,
      }).then(
        (response) => `answered ${response.status}`,
        (error: Error) => `no answer (${error.message})`,
      )
      expect(lost).toMatch(/^no answer/)
      const [, signal] = await exited
      expect(signal).toBe('SIGKILL')
      const [committed] = await jobsIn(database.url, organisationId)
      expect(committed).toBeDefined()

      const restarted = await startService(database.url, { WEBHOOK_DISPATCHER: 'false' })
      services.push(restarted)
      const retry = await fetch(`${restarted.url}/v1/public/jobs`, {
        method: 'POST',
        headers: keyed,
        body: JOB,
      })
      expect(retry.status).toBe(201)
      expect(retry.headers.get('idempotent-replayed')).toBe('true')
      const body = (await retry.json()) as { data: { job: { id: string; title: string } } }
      expect(body.data.job).toMatchObject({ id: committed, title: 'Burst pipe' })
      expect(await jobsIn(database.url, organisationId)).toEqual([committed])
      // Without the key, the same body is a new job: the key is what made the retry safe.
      const fresh = await fetch(`${restarted.url}/v1/public/jobs`, { method: 'POST', headers, body: JOB })
      expect(fresh.status).toBe(201)
      expect(await jobsIn(database.url, organisationId)).toHaveLength(2)
    }, 120_000)
  })
}

const describeOnPostgres = DIALECTS.includes('postgres') ? describe : describe.skip

describeOnPostgres('postgres: concurrent retries on two instances', () => {
  let database: { url: string; cleanup(): Promise<void> }
  const handles: DatabaseHandle[] = []
  const apps: App[] = []

  beforeAll(async () => {
    database = await createTestDatabaseUrl('postgres')
    for (let i = 0; i < 2; i++) {
      const handle = createDatabase(database.url, { pgPoolSize: 6 })
      handles.push(handle)
      const app = await buildApp({
        db: handle.db,
        dialect: 'postgres',
        config: {
          authCacheTtlMs: 0,
          defaultRateLimitPerMinute: 100,
          bodyLimitBytes: 1024 * 1024,
          webhookDispatcher: false,
          planWorkers: 0,
        },
      })
      await app.ready()
      apps.push(app)
    }
  })
  afterAll(async () => {
    for (const app of apps) await app.close()
    for (const handle of handles) await handle.destroy()
    await database?.cleanup()
  })

  it('runs each POST once: one fresh 201, every other answer a replay of it or 409 IN_USE', async () => {
    const { organisationId, headers } = await tenantOn(database.url)
    const outcomes = { fresh: 0, replayed: 0, inUse: 0 }
    for (let round = 0; round < 6; round++) {
      const keyed = { ...headers, 'idempotency-key': `burst-${round}` }
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (apps[i % 2] as App).inject({
            method: 'POST',
            url: '/v1/public/jobs',
            headers: keyed,
            payload: JOB,
          }),
        ),
      )
      const fresh = answers.filter(
        (a) => a.statusCode === 201 && a.headers['idempotent-replayed'] === undefined,
      )
      expect(fresh, `round ${round}`).toHaveLength(1)
      outcomes.fresh++
      for (const answer of answers) {
        if (answer === fresh[0]) continue
        if (answer.statusCode === 201) {
          expect(answer.headers['idempotent-replayed']).toBe('true')
          expect(answer.body).toBe(fresh[0]?.body)
          outcomes.replayed++
        } else {
          expect([answer.statusCode, answer.json().code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_USE'])
          outcomes.inUse++
        }
      }
    }
    expect(await jobsIn(database.url, organisationId)).toHaveLength(6)
    expect(outcomes.fresh + outcomes.replayed + outcomes.inUse).toBe(60)
    // Both kinds of answer occur when the retries really overlap.
    expect(outcomes.inUse).toBeGreaterThan(0)
  })
})
