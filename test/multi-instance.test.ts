// Two real server processes behind one PostgreSQL and one Redis, as a load balancer would run them:
// one rate limit per key across both, each webhook event delivered once although both processes
// run a dispatcher, and a key revoked through one refused by the other within the auth cache TTL.
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabase } from '../src/db/database.js'
import { createApiKey } from '../src/modules/api-keys/service.js'
import { createOrganisation } from '../src/modules/organisations/service.js'
import { createTestDatabaseUrl, DIALECTS } from './helpers.js'
import { kill, type ServiceProcess, startService, waitUntil } from './processes.js'
import { type Receiver, startReceiver } from './webhook-receiver.js'

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const PREFIX = `fieldservice-test:${process.pid}:${randomBytes(4).toString('hex')}:`
// The default, which is what makes "within 5 s" hold.
const AUTH_CACHE_TTL_MS = 4000

// Several instances need a database they can share: SQLite is one process's file.
const describeOnPostgres = DIALECTS.includes('postgres') ? describe : describe.skip

describeOnPostgres('postgres: two instances on one database and one Redis', () => {
  let database: { url: string; cleanup(): Promise<void> }
  let receiver: Receiver
  let adminKey: string
  let a: ServiceProcess
  let b: ServiceProcess

  beforeAll(async () => {
    database = await createTestDatabaseUrl('postgres')
    const handle = createDatabase(database.url)
    try {
      const org = await createOrganisation(handle.db, { name: 'Twin Depots', plan: 'PRO' })
      adminKey = (
        await createApiKey(handle.db, {
          organisationId: org.id,
          name: 'operator',
          scopes: ['admin'],
          rateLimitPerMinute: 100_000,
        })
      ).key
    } finally {
      await handle.destroy()
    }
    receiver = await startReceiver()
    const env = {
      REDIS_URL,
      REDIS_KEY_PREFIX: PREFIX,
    }
    ;[a, b] = await Promise.all([startService(database.url, env), startService(database.url, env)])
  })
  afterAll(async () => {
    if (a) await kill(a.child, 'SIGTERM')
    if (b) await kill(b.child, 'SIGTERM')
    await receiver?.close()
    await database?.cleanup()
    const redis = new Redis(REDIS_URL)
    try {
      const keys = await redis.keys(`${PREFIX}*`)
      if (keys.length > 0) await redis.del(...keys)
    } finally {
      redis.disconnect()
    }
  })

  const call = async (
    service: ServiceProcess,
    method: string,
    path: string,
    key: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: {
        ...headers,
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
    return { status: response.status, headers: response.headers, body: (await response.json()) as any }
  }

  const issueKey = async (rateLimitPerMinute: number) => {
    const created = await call(a, 'POST', '/v1/admin/api-keys', adminKey, {
      name: `key ${randomBytes(3).toString('hex')}`,
      scopes: ['read'],
      rateLimitPerMinute,
    })
    expect(created.status).toBe(201)
    return { id: created.body.data.apiKey.id as string, key: created.body.data.key as string }
  }

  it('holds a key to its rate limit across both instances, exactly', async () => {
    const { key } = await issueKey(6)
    for (let i = 0; i < 6; i++) {
      const response = await call(i % 2 === 0 ? a : b, 'GET', '/v1/public/jobs', key)
      expect(response.status).toBe(200)
      expect(response.headers.get('x-ratelimit-limit')).toBe('6')
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(5 - i))
      expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0)
    }
    for (const service of [b, a]) {
      const limited = await call(service, 'GET', '/v1/public/jobs', key)
      expect(limited.status).toBe(429)
      expect(limited.body.code).toBe('RATE_LIMITED')
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0')
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    }
  })

  it('holds a key to its rate limit across both instances under a concurrent burst', async () => {
    const limit = 5
    const { key } = await issueKey(limit)
    // All in flight at once, half through each instance: the shared counter must not lose a count.
    const responses = await Promise.all(
      Array.from({ length: limit + 5 }, (_, i) => call(i % 2 === 0 ? a : b, 'GET', '/v1/public/jobs', key)),
    )
    const accepted = responses.filter((response) => response.status === 200)
    const limited = responses.filter((response) => response.status !== 200)
    expect(accepted).toHaveLength(limit)
    expect(limited.map((response) => [response.status, response.body.code])).toEqual(
      Array(5).fill([429, 'RATE_LIMITED']),
    )
    // Each accepted request took its own count: remaining 4, 3, 2, 1, 0, none twice.
    const remaining = accepted.map((response) => Number(response.headers.get('x-ratelimit-remaining')))
    expect(remaining.sort()).toEqual([0, 1, 2, 3, 4])
  })

  it('delivers each job created through either instance exactly once, with both dispatchers running', async () => {
    const automation = await call(a, 'POST', '/v1/admin/automations', adminKey, {
      event: 'JOB_CREATED',
      url: `${receiver.url}/created`,
    })
    expect(automation.status).toBe(201)
    // Concurrent writes through both instances, so both dispatchers see pending events at once.
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i % 2 === 0 ? a : b, 'POST', '/v1/public/jobs', adminKey, { title: `Boiler ${i}` }),
      ),
    )
    expect(created.map((response) => response.status)).toEqual(Array(20).fill(201))
    const ids = created.map((response) => response.body.data.job.id as string)
    await receiver.waitFor(20, 20_000)
    // Time for a duplicate to arrive, were there going to be one.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const delivered = receiver.received.map((webhook) => webhook.json.data.jobId as string)
    expect(delivered.sort()).toEqual([...ids].sort())
    const log = await call(
      b,
      'GET',
      `/v1/admin/automations/${automation.body.data.automation.id}/executions?limit=100`,
      adminKey,
    )
    expect(log.body.data.executions).toHaveLength(20)
    expect(log.body.data.executions.every((e: { status: string }) => e.status === 'SUCCESS')).toBe(true)
  })

  it('runs concurrent retries of one POST through both instances once', async () => {
    const title = `Once ${randomBytes(3).toString('hex')}`
    const headers = { 'idempotency-key': `retry-${title}` }
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(i % 2 === 0 ? a : b, 'POST', '/v1/public/jobs', adminKey, { title }, headers),
      ),
    )
    const statuses = answers.map((answer) => answer.status)
    expect(
      statuses.every((status) => status === 201 || status === 409),
      String(statuses),
    ).toBe(true)
    const created = answers.filter((answer) => answer.status === 201)
    expect(created.length).toBeGreaterThan(0)
    // Every 201 is the same job: one ran, the others are replays of its stored answer.
    expect(new Set(created.map((answer) => answer.body.data.job.id)).size).toBe(1)
    expect(created.filter((answer) => answer.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1)
    for (const conflict of answers.filter((answer) => answer.status === 409)) {
      expect(conflict.body.code).toBe('IDEMPOTENCY_KEY_IN_USE')
    }
    // A retry after they all finished, through either instance, replays it too.
    const late = await call(b, 'POST', '/v1/public/jobs', adminKey, { title }, headers)
    expect(late.status).toBe(201)
    expect(late.body.data.job.id).toBe(created[0]?.body.data.job.id)
    const listed = await call(a, 'GET', '/v1/public/jobs?limit=100', adminKey)
    expect(listed.body.data.jobs.filter((job: { title: string }) => job.title === title)).toHaveLength(1)
  })

  it('lets one of two writers with the same If-Match win, one through each instance', async () => {
    const job = (await call(a, 'POST', '/v1/public/jobs', adminKey, { title: 'Contested' })).body.data.job
    const read = await call(b, 'GET', `/v1/public/jobs/${job.id}`, adminKey)
    const etag = read.headers.get('etag') as string
    const answers = await Promise.all(
      [a, b, a, b].map((service, i) =>
        call(
          service,
          'PATCH',
          `/v1/public/jobs/${job.id}`,
          adminKey,
          { title: `Writer ${i}` },
          { 'if-match': etag },
        ),
      ),
    )
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412, 412, 412])
  })

  it('refuses a key revoked through one instance on the other within the auth cache TTL', async () => {
    const { id, key } = await issueKey(100_000)
    // Both instances resolve (and cache) the key.
    expect((await call(a, 'GET', '/v1/public/jobs', key)).status).toBe(200)
    expect((await call(b, 'GET', '/v1/public/jobs', key)).status).toBe(200)

    const revoked = await call(a, 'POST', `/v1/admin/api-keys/${id}/revoke`, adminKey)
    expect(revoked.status).toBe(200)
    const revokedAt = Date.now()
    // The instance that revoked it forgets it at once.
    expect((await call(a, 'GET', '/v1/public/jobs', key)).status).toBe(401)
    const refused = await waitUntil(
      'the other instance to refuse the revoked key',
      async () => {
        const response = await call(b, 'GET', '/v1/public/jobs', key)
        return response.status === 401 ? response : undefined
      },
      AUTH_CACHE_TTL_MS + 5000,
    )
    const elapsed = Date.now() - revokedAt
    expect(refused.body.code).toBe('UNAUTHORIZED')
    expect(refused.body.error).toMatch(/revoked/)
    // Issue 6: every instance refuses it within 5 s (the TTL, plus a second for a loaded machine).
    expect(elapsed).toBeLessThan(5000)
    expect((await call(b, 'GET', '/v1/public/jobs', key)).status).toBe(401)
  })

  it('applies a plan downgrade made through one instance on the other within 5 s', async () => {
    const { key } = await issueKey(100_000)
    expect((await call(b, 'GET', '/v1/public/jobs', key)).status).toBe(200)

    const downgraded = await call(a, 'PATCH', '/v1/admin/organisation', adminKey, { plan: 'STARTER' })
    expect(downgraded.status).toBe(200)
    const changedAt = Date.now()
    try {
      const refused = await waitUntil(
        'the other instance to refuse the downgraded organisation',
        async () => {
          const response = await call(b, 'GET', '/v1/public/jobs', key)
          return response.status === 403 ? response : undefined
        },
        AUTH_CACHE_TTL_MS + 5000,
      )
      expect(Date.now() - changedAt).toBeLessThan(5000)
      expect(refused.body.code).toBe('PLAN_UPGRADE_REQUIRED')
    } finally {
      // The admin key is refused too now; the plan goes back through the database.
      const handle = createDatabase(database.url)
      try {
        await handle.db.updateTable('organisations').set({ plan: 'PRO' }).execute()
      } finally {
        await handle.destroy()
      }
    }
  })

  it('counts in the shared Redis under the configured prefix', async () => {
    const redis = new Redis(REDIS_URL)
    try {
      expect((await redis.keys(`${PREFIX}key:*`)).length).toBeGreaterThan(0)
    } finally {
      redis.disconnect()
    }
  })
})
