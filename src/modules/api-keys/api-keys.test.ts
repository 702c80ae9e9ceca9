import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  adminClient,
  client,
  createKey,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.js'
import { AppError } from '../../http/errors.js'
import {
  getApiKey,
  hashApiKey,
  issueApiKey,
  MAX_RATE_LIMIT_PER_MINUTE,
  revokeApiKey,
  rotateApiKey,
} from './service.js'

const HOUR_MS = 3_600_000
const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

for (const dialect of DIALECTS) {
  describe(`${dialect}: admin API keys`, () => {
    let t: TestContext
    let tenant: TestTenant
    let admin: ReturnType<typeof adminClient>

    beforeAll(async () => {
      // A long cache TTL: only the routes' invalidation can make a revocation apply at once.
      t = await createTestApp(dialect, { authCacheTtlMs: 60_000, defaultRateLimitPerMinute: 42 })
      tenant = await createTenant(t, { scopes: ['admin'] })
      admin = adminClient(t, tenant.headers)
    })
    afterAll(() => t.close())

    const create = async (body: Record<string, unknown>) => {
      const response = await admin.post('/api-keys', body)
      expect(response.status).toBe(201)
      return response.body.data as { apiKey: Record<string, unknown> & { id: string }; key: string }
    }
    const publicJobs = (key: string) => client(t, bearer(key)).get('/jobs')

    it('creates a key that works on the public API with exactly its scopes and rate limit', async () => {
      const response = await admin.post('/api-keys', {
        name: 'ERP sync',
        scopes: ['read'],
        rateLimitPerMinute: 7,
      })
      expect(response.status).toBe(201)
      const { apiKey, key } = response.body.data
      expect(key).toMatch(/^svc_live_[0-9A-Za-z]{40}$/)
      expect(response.body).toEqual({
        data: {
          key,
          apiKey: {
            id: apiKey.id,
            name: 'ERP sync',
            prefix: key.slice(0, 17),
            scopes: ['read'],
            rateLimitPerMinute: 7,
            createdAt: apiKey.createdAt,
            lastUsedAt: null,
            expiresAt: null,
            revokedAt: null,
          },
        },
        message: 'Success',
      })
      expect(Date.now() - Date.parse(apiKey.createdAt)).toBeLessThan(10_000)
      const row = await t.database.db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', apiKey.id)
        .executeTakeFirstOrThrow()
      expect(row.organisation_id).toBe(tenant.organisationId)
      expect(row.key_hash).toBe(hashApiKey(key))

      const read = await publicJobs(key)
      expect(read.status).toBe(200)
      expect(read.headers['x-ratelimit-limit']).toBe('7')
      const write = await client(t, bearer(key)).post('/jobs', { title: 'Boiler service' })
      expect(write.status).toBe(403)
      expect(write.body.code).toBe('FORBIDDEN')
      // A read key is not an admin key.
      expect((await adminClient(t, bearer(key)).get('/api-keys')).status).toBe(403)
    })

    it('defaults the rate limit to DEFAULT_RATE_LIMIT_PER_MINUTE and stores scopes in canonical order', async () => {
      const { apiKey, key } = await create({ name: 'Full access', scopes: ['admin', 'write', 'read'] })
      expect(apiKey.rateLimitPerMinute).toBe(42)
      expect(apiKey.scopes).toEqual(['read', 'write', 'admin'])
      expect((await publicJobs(key)).headers['x-ratelimit-limit']).toBe('42')
      const writer = await client(t, bearer(key)).post('/jobs', { title: 'Boiler service' })
      expect(writer.status).toBe(201)
    })

    it('stores an expiry in UTC and refuses one that is not in the future', async () => {
      const { apiKey } = await create({
        name: 'Temp',
        scopes: ['read'],
        expiresAt: '2099-06-01T12:00:00+02:00',
      })
      expect(apiKey.expiresAt).toBe('2099-06-01T10:00:00.000Z')
      const past = await admin.post('/api-keys', {
        name: 'Temp',
        scopes: ['read'],
        expiresAt: new Date(Date.now() - 1000).toISOString(),
      })
      expect(past.status).toBe(400)
      expect(past.body.code).toBe('VALIDATION_ERROR')
      expect(past.body.details).toEqual([{ path: '/body/expiresAt', message: 'must be in the future' }])
    })

    it.each([
      ['an unknown field', { name: 'x', scopes: ['read'], owner: 'me' }, '/body/owner'],
      ['a name of the wrong type', { name: 42, scopes: ['read'] }, '/body/name'],
      ['a missing name', { scopes: ['read'] }, '/body/name'],
      ['a blank name', { name: '   ', scopes: ['read'] }, '/body/name'],
      ['a name over 100 characters', { name: 'x'.repeat(101), scopes: ['read'] }, '/body/name'],
      ['missing scopes', { name: 'x' }, '/body/scopes'],
      ['no scopes', { name: 'x', scopes: [] }, '/body/scopes'],
      ['an unknown scope', { name: 'x', scopes: ['read', 'superuser'] }, '/body/scopes/1'],
      ['a repeated scope', { name: 'x', scopes: ['read', 'read'] }, '/body/scopes'],
      [
        'a zero rate limit',
        { name: 'x', scopes: ['read'], rateLimitPerMinute: 0 },
        '/body/rateLimitPerMinute',
      ],
      [
        'a rate limit above the maximum',
        { name: 'x', scopes: ['read'], rateLimitPerMinute: MAX_RATE_LIMIT_PER_MINUTE + 1 },
        '/body/rateLimitPerMinute',
      ],
      [
        'a fractional rate limit',
        { name: 'x', scopes: ['read'], rateLimitPerMinute: 1.5 },
        '/body/rateLimitPerMinute',
      ],
      [
        'an expiry without offset',
        { name: 'x', scopes: ['read'], expiresAt: '2099-01-01T00:00:00' },
        '/body/expiresAt',
      ],
    ])('refuses %s with 400', async (_case, body, path) => {
      const before = await t.database.db.selectFrom('api_keys').select('id').execute()
      const response = await admin.post('/api-keys', body)
      expect(response.status).toBe(400)
      expect(response.body.code).toBe('VALIDATION_ERROR')
      expect(response.body.details.map((d: { path: string }) => d.path)).toContain(path)
      expect(await t.database.db.selectFrom('api_keys').select('id').execute()).toHaveLength(before.length)
    })

    it('lists keys newest first, never with the secret or its hash, and shows when a key was last used', async () => {
      const org = await createTenant(t, { scopes: ['admin'] })
      const own = adminClient(t, org.headers)
      const first = (await own.post('/api-keys', { name: 'First', scopes: ['read'] })).body.data
      const second = (await own.post('/api-keys', { name: 'Second', scopes: ['write'] })).body.data
      // Distinct creation times, so the order does not rest on ids minted in the same millisecond.
      for (const [id, at] of [
        [first.apiKey.id, '2030-01-01T00:00:00.000Z'],
        [second.apiKey.id, '2030-01-02T00:00:00.000Z'],
      ]) {
        await t.database.db.updateTable('api_keys').set({ created_at: at }).where('id', '=', id).execute()
      }
      expect((await publicJobs(first.key)).status).toBe(200)
      await own.post(`/api-keys/${second.apiKey.id}/revoke`)

      await vi.waitFor(async () => {
        const listed = await own.get('/api-keys')
        expect(listed.body.data.apiKeys[1].lastUsedAt).not.toBeNull()
      })
      const response = await own.get('/api-keys')
      expect(response.status).toBe(200)
      const { apiKeys, pagination } = response.body.data
      expect(apiKeys.map((k: { name: string }) => k.name)).toEqual(['Second', 'First', 'test'])
      expect(pagination).toEqual({ page: 1, limit: 50, total: 3, totalPages: 1 })
      expect(apiKeys[1]).toEqual({
        ...first.apiKey,
        createdAt: '2030-01-01T00:00:00.000Z',
        lastUsedAt: apiKeys[1].lastUsedAt,
      })
      expect(Date.now() - Date.parse(apiKeys[1].lastUsedAt)).toBeLessThan(60_000)
      expect(Object.keys(apiKeys[0]).sort()).toEqual([
        'createdAt',
        'expiresAt',
        'id',
        'lastUsedAt',
        'name',
        'prefix',
        'rateLimitPerMinute',
        'revokedAt',
        'scopes',
      ])
      const text = JSON.stringify(response.body)
      for (const secret of [first.key, second.key, org.key]) {
        expect(text).not.toContain(secret)
        expect(text).not.toContain(secret.slice(17))
        expect(text).not.toContain(hashApiKey(secret))
      }

      const live = await own.get('/api-keys?includeRevoked=false')
      expect(live.body.data.apiKeys.map((k: { name: string }) => k.name)).toEqual(['First', 'test'])
      expect(live.body.data.pagination.total).toBe(2)
      const paged = await own.get('/api-keys?limit=1&page=2')
      expect(paged.body.data.apiKeys.map((k: { name: string }) => k.name)).toEqual(['First'])
      expect(paged.body.data.pagination).toEqual({ page: 2, limit: 1, total: 3, totalPages: 3 })
      expect((await own.get(`/api-keys/${first.apiKey.id}`)).body.data.apiKey).toEqual(apiKeys[1])
    })

    it.each([['?includeRevoked=maybe'], ['?limit=101'], ['?owner=me']])(
      'refuses the list query %s',
      async (q) => {
        const response = await admin.get(`/api-keys${q}`)
        expect(response.status).toBe(400)
        expect(response.body.code).toBe('VALIDATION_ERROR')
      },
    )

    it('revokes a key so that its next request is refused at once, and again changes nothing', async () => {
      const { apiKey, key } = await create({ name: 'Revoke me', scopes: ['read'] })
      expect((await publicJobs(key)).status).toBe(200) // now in the 60 s cache
      const response = await admin.post(`/api-keys/${apiKey.id}/revoke`)
      expect(response.status).toBe(200)
      const revoked = response.body.data.apiKey
      expect(revoked).toEqual({ ...apiKey, lastUsedAt: revoked.lastUsedAt, revokedAt: expect.any(String) })
      expect(Date.now() - Date.parse(revoked.revokedAt)).toBeLessThan(10_000)
      const refused = await publicJobs(key)
      expect(refused.status).toBe(401)
      expect(refused.body.error).toMatch(/revoked/)

      const again = await admin.post(`/api-keys/${apiKey.id}/revoke`)
      expect(again.status).toBe(200)
      // The background last-used stamp of the request above may land in between.
      expect({ ...again.body.data.apiKey, lastUsedAt: revoked.lastUsedAt }).toEqual(revoked)
      expect(await admin.post(`/api-keys/${apiKey.id}/rotate`, {})).toMatchObject({
        status: 409,
        body: { code: 'CONFLICT', error: 'API key is revoked' },
      })
    })

    it('only applies a revocation made elsewhere when the cache entry expires', async () => {
      // The control for the test above: without the route's invalidation the key stays cached.
      const { apiKey, key } = await create({ name: 'Cached', scopes: ['read'] })
      expect((await publicJobs(key)).status).toBe(200)
      await revokeApiKey(t.database.db, tenant.organisationId, apiKey.id)
      expect((await publicJobs(key)).status).toBe(200)
    })

    it('lets a key revoke itself', async () => {
      const self = await create({ name: 'Self', scopes: ['admin'] })
      const own = adminClient(t, bearer(self.key))
      const response = await own.post(`/api-keys/${self.apiKey.id}/revoke`)
      expect(response.status).toBe(200)
      expect(response.body.data.apiKey.revokedAt).not.toBeNull()
      expect((await own.get('/api-keys')).status).toBe(401)
    })

    it('rotates with no grace period: the old key is revoked, the new one copies its settings', async () => {
      const expiresAt = new Date(Date.now() + 48 * HOUR_MS).toISOString()
      const old = await create({
        name: 'Rotate me',
        scopes: ['read', 'write'],
        rateLimitPerMinute: 9,
        expiresAt,
      })
      expect((await publicJobs(old.key)).status).toBe(200)
      // No body at all: the defaults apply.
      const response = await admin.post(`/api-keys/${old.apiKey.id}/rotate`)
      expect(response.status).toBe(201)
      const { apiKey, key, previous } = response.body.data
      expect(key).toMatch(/^svc_live_[0-9A-Za-z]{40}$/)
      expect(key).not.toBe(old.key)
      expect(apiKey).toEqual({
        id: apiKey.id,
        name: 'Rotate me',
        prefix: key.slice(0, 17),
        scopes: ['read', 'write'],
        rateLimitPerMinute: 9,
        createdAt: apiKey.createdAt,
        lastUsedAt: null,
        expiresAt,
        revokedAt: null,
      })
      expect(apiKey.id).not.toBe(old.apiKey.id)
      expect(previous).toEqual({
        ...old.apiKey,
        lastUsedAt: previous.lastUsedAt,
        revokedAt: expect.any(String),
      })
      expect((await publicJobs(old.key)).status).toBe(401)
      const fresh = await publicJobs(key)
      expect(fresh.status).toBe(200)
      expect(fresh.headers['x-ratelimit-limit']).toBe('9')
      // The last-used stamp is written in the background, so it may land after the rotation answered.
      const stored = (await admin.get(`/api-keys/${old.apiKey.id}`)).body.data.apiKey
      expect({ ...stored, lastUsedAt: previous.lastUsedAt }).toEqual(previous)
    })

    it('rotates with a grace period: both keys work and the old one expires at the end of it', async () => {
      const old = await create({ name: 'Graceful', scopes: ['read'] })
      expect((await publicJobs(old.key)).status).toBe(200)
      const before = Date.now()
      const response = await admin.post(`/api-keys/${old.apiKey.id}/rotate`, { gracePeriodSeconds: 3600 })
      const after = Date.now()
      expect(response.status).toBe(201)
      const { previous, key } = response.body.data
      expect(previous.revokedAt).toBeNull()
      expect(Date.parse(previous.expiresAt)).toBeGreaterThanOrEqual(before + HOUR_MS)
      expect(Date.parse(previous.expiresAt)).toBeLessThanOrEqual(after + HOUR_MS)
      expect(response.body.data.apiKey.expiresAt).toBeNull()
      expect((await publicJobs(old.key)).status).toBe(200)
      expect((await publicJobs(key)).status).toBe(200)

      // The grace period never extends a key past its own expiry.
      const soon = new Date(Date.now() + 600_000).toISOString()
      const short = await create({ name: 'Short', scopes: ['read'], expiresAt: soon })
      const rotated = await admin.post(`/api-keys/${short.apiKey.id}/rotate`, { gracePeriodSeconds: 3600 })
      expect(rotated.body.data.previous.expiresAt).toBe(soon)
      expect(rotated.body.data.apiKey.expiresAt).toBe(soon)
    })

    const successorsOf = async (name: string) =>
      t.database.db
        .selectFrom('api_keys')
        .select(['id', 'expires_at', 'replaced_by_id'])
        .where('organisation_id', '=', tenant.organisationId)
        .where('name', '=', name)
        .execute()

    it('rotates a key once: again, in its grace period or after, is 409 KEY_ALREADY_ROTATED', async () => {
      const old = await create({ name: 'Rotate once', scopes: ['read'] })
      const first = await admin.post(`/api-keys/${old.apiKey.id}/rotate`, { gracePeriodSeconds: 3600 })
      expect(first.status).toBe(201)
      const successor = first.body.data.apiKey
      // No expiry stays no expiry: never the old key's grace end.
      expect(successor.expiresAt).toBeNull()
      expect(first.body.data.previous.expiresAt).not.toBeNull()

      for (const body of [{ gracePeriodSeconds: 3600 }, { gracePeriodSeconds: 0 }, undefined]) {
        const again = await admin.post(`/api-keys/${old.apiKey.id}/rotate`, body)
        expect(again.status).toBe(409)
        expect(again.body).toEqual({
          error: `API key has already been rotated; its replacement is ${successor.id}: rotate that one instead`,
          code: 'KEY_ALREADY_ROTATED',
        })
      }
      // Nothing changed: one successor, the old key still in its grace period and working.
      expect((await successorsOf('Rotate once')).length).toBe(2)
      expect((await admin.get(`/api-keys/${old.apiKey.id}`)).body.data.apiKey).toMatchObject({
        expiresAt: first.body.data.previous.expiresAt,
        revokedAt: null,
      })
      expect((await publicJobs(old.key)).status).toBe(200)

      // The successor is a key like any other: it rotates once too, and keeps "never expires".
      const next = await admin.post(`/api-keys/${successor.id}/rotate`, { gracePeriodSeconds: 60 })
      expect(next.status).toBe(201)
      expect(next.body.data.apiKey.expiresAt).toBeNull()

      // Rotated without a grace period (revoked at once): still "already rotated", not just revoked.
      const revokedAtOnce = await create({ name: 'Rotate at once', scopes: ['read'] })
      expect((await admin.post(`/api-keys/${revokedAtOnce.apiKey.id}/rotate`)).status).toBe(201)
      const twice = await admin.post(`/api-keys/${revokedAtOnce.apiKey.id}/rotate`)
      expect(twice.status).toBe(409)
      expect(twice.body.code).toBe('KEY_ALREADY_ROTATED')
      expect((await successorsOf('Rotate at once')).length).toBe(2)
    })

    it('keeps an expiry the key was issued with, never the grace end, for its successor', async () => {
      const expiresAt = new Date(Date.now() + 30 * 24 * HOUR_MS).toISOString()
      const old = await create({ name: 'Dated', scopes: ['read'], expiresAt })
      const rotated = await admin.post(`/api-keys/${old.apiKey.id}/rotate`, { gracePeriodSeconds: 600 })
      expect(rotated.status).toBe(201)
      expect(rotated.body.data.apiKey.expiresAt).toBe(expiresAt)
      expect(Date.parse(rotated.body.data.previous.expiresAt)).toBeLessThan(Date.parse(expiresAt))
      expect((await admin.post(`/api-keys/${old.apiKey.id}/rotate`)).body.code).toBe('KEY_ALREADY_ROTATED')
    })

    it('lets only one of two simultaneous rotations of a key through', async () => {
      for (const gracePeriodSeconds of [3600, 0]) {
        const name = `Raced ${gracePeriodSeconds}`
        const old = await create({ name, scopes: ['read'] })
        const responses = await Promise.all([
          admin.post(`/api-keys/${old.apiKey.id}/rotate`, { gracePeriodSeconds }),
          admin.post(`/api-keys/${old.apiKey.id}/rotate`, { gracePeriodSeconds }),
        ])
        expect(responses.map((r) => r.status).sort()).toEqual([201, 409])
        const winner = responses.find((r) => r.status === 201)?.body.data.apiKey
        expect(responses.find((r) => r.status === 409)?.body.code).toBe('KEY_ALREADY_ROTATED')
        const rows = await successorsOf(name)
        expect(rows.length).toBe(2)
        expect(rows.find((row) => row.id === old.apiKey.id)?.replaced_by_id).toBe(winner.id)
      }
    })

    it('refuses to rotate an expired key with 409', async () => {
      const expired = await createKey(t, tenant.organisationId, { expiresAt: '2020-01-01T00:00:00.000Z' })
      const response = await admin.post(`/api-keys/${expired.id}/rotate`, { gracePeriodSeconds: 60 })
      expect(response.status).toBe(409)
      expect(response.body).toEqual({ error: 'API key has expired', code: 'CONFLICT' })
    })

    it.each([
      [{ gracePeriodSeconds: -1 }],
      [{ gracePeriodSeconds: 604_801 }],
      [{ gracePeriodSeconds: '60' }],
      [{ gracePeriodSeconds: 1.5 }],
      [{ grace: 60 }],
    ])('refuses the rotate body %j with 400 and keeps the key', async (body) => {
      const { apiKey, key } = await create({ name: 'Keep', scopes: ['read'] })
      const response = await admin.post(`/api-keys/${apiKey.id}/rotate`, body)
      expect(response.status).toBe(400)
      expect(response.body.code).toBe('VALIDATION_ERROR')
      expect((await admin.get(`/api-keys/${apiKey.id}`)).body.data.apiKey).toEqual(apiKey)
      expect((await publicJobs(key)).status).toBe(200)
    })

    it("answers 404 for an unknown id and for another organisation's key, which stays unchanged", async () => {
      const other = await createTenant(t, { scopes: ['admin'] })
      const theirs = await createKey(t, other.organisationId, { scopes: ['read'] })
      const theirsBefore = await getApiKey(t.database.db, other.organisationId, theirs.id)
      for (const id of [theirs.id, '01900000-0000-7000-8000-000000000000']) {
        for (const response of [
          await admin.get(`/api-keys/${id}`),
          await admin.post(`/api-keys/${id}/revoke`),
          await admin.post(`/api-keys/${id}/rotate`, { gracePeriodSeconds: 0 }),
        ]) {
          expect(response.status).toBe(404)
          expect(response.body).toEqual({ error: 'API key not found', code: 'NOT_FOUND' })
        }
      }
      expect(await getApiKey(t.database.db, other.organisationId, theirs.id)).toEqual(theirsBefore)
      expect((await publicJobs(theirs.key)).status).toBe(200)
      const ours = (await admin.get('/api-keys?limit=100')).body.data.apiKeys as { id: string }[]
      expect(ours.map((k) => k.id)).not.toContain(theirs.id)
    })

    it('refuses read- and write-only keys with 403', async () => {
      for (const scopes of [['read'], ['write'], ['read', 'write']] as const) {
        const key = await createKey(t, tenant.organisationId, { scopes: [...scopes] })
        const keys = adminClient(t, key.headers)
        for (const response of [
          await keys.get('/api-keys'),
          await keys.post('/api-keys', { name: 'Escalate', scopes: ['admin'] }),
          await keys.post(`/api-keys/${key.id}/rotate`, {}),
        ]) {
          expect(response.status).toBe(403)
          expect(response.body.code).toBe('FORBIDDEN')
        }
      }
    })

    it('never lets a key grant scopes beyond its own', async () => {
      const db = t.database.db
      const reader = { organisationId: tenant.organisationId, scopes: new Set(['read'] as const) }
      const escalation = issueApiKey(db, reader, { name: 'Escalate', scopes: ['read', 'write'] }, 100)
      await expect(escalation).rejects.toMatchObject({ code: 'FORBIDDEN', statusCode: 403 })
      await expect(escalation).rejects.toBeInstanceOf(AppError)
      const allowed = await issueApiKey(db, reader, { name: 'Same', scopes: ['read'] }, 100)
      expect(allowed.apiKey.scopes).toEqual(['read'])

      const adminKey = await createKey(t, tenant.organisationId, { scopes: ['admin'] })
      await expect(rotateApiKey(db, reader, adminKey.id, { gracePeriodSeconds: 0 })).rejects.toMatchObject({
        code: 'FORBIDDEN',
      })
      expect((await getApiKey(db, tenant.organisationId, adminKey.id)).revokedAt).toBeNull()
      expect((await adminClient(t, adminKey.headers).get('/api-keys')).status).toBe(200)
    })
  })
}
