// How a dashboard session ends (idle, absolute, sign-out everywhere), CSRF on its changes and its
// rate limit, through app.inject() on both databases, with the sessions' clock moved by the tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  adminClient,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.js'
import { makeDashboardUser, sessionClient, signIn } from '../../../test/sessions.js'
import { setUserPassword } from '../organisations/users-service.js'

const MINUTE = 60_000
const IDLE = 60 * MINUTE
const MAX_AGE = 12 * 60 * MINUTE

for (const dialect of DIALECTS) {
  describe(`${dialect}: dashboard sessions end`, () => {
    let t: TestContext
    let now = Date.parse('2026-11-25T08:00:00.000Z')
    let tenant: TestTenant
    const lastSeen = async (userId: string) =>
      (
        await t.database.db
          .selectFrom('user_sessions')
          .select('last_seen_at')
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).last_seen_at
    const sessionCount = async (userId: string) =>
      (await t.database.db.selectFrom('user_sessions').select('id').where('user_id', '=', userId).execute())
        .length

    beforeAll(async () => {
      t = await createTestApp(dialect, {}, { clock: () => now })
      tenant = await createTenant(t, { scopes: ['admin'] })
    })
    afterAll(() => t.close())

    it('after an hour without a request; each request, counted to the minute, moves that hour', async () => {
      const user = await makeDashboardUser(t, tenant.organisationId)
      const api = sessionClient(t, await signIn(t, user))
      const signedInAt = now
      now += 30_000
      expect((await api.get('/tags')).status).toBe(200)
      // Written at most once a minute: this request left last_seen_at at the sign-in.
      expect(await lastSeen(user.id)).toBe(new Date(signedInAt).toISOString())
      now = signedInAt + IDLE - 1000
      const active = await api.get('/session')
      expect(active.status).toBe(200)
      expect(await lastSeen(user.id)).toBe(new Date(now).toISOString())
      expect(active.body.data.session.idleExpiresAt).toBe(new Date(now + IDLE).toISOString())
      now += IDLE - 1000 // past the first hour, within an hour of the last request
      expect((await api.get('/tags')).status).toBe(200)
      now += IDLE
      const idle = await api.get('/tags')
      expect(idle.status).toBe(401)
      expect(idle.body.error).toMatch(/session has ended/)
      expect(await sessionCount(user.id)).toBe(0)
    })

    it('twelve hours after sign-in, however active', async () => {
      const user = await makeDashboardUser(t, tenant.organisationId)
      const signedIn = await signIn(t, user)
      expect(signedIn.session.expiresAt).toBe(new Date(now + MAX_AGE).toISOString())
      const api = sessionClient(t, signedIn)
      const end = now + MAX_AGE
      while (now + 50 * MINUTE < end) {
        now += 50 * MINUTE
        expect((await api.get('/tags')).status).toBe(200)
      }
      now = end - 1
      expect((await api.get('/tags')).status).toBe(200)
      now = end
      expect((await api.get('/tags')).status).toBe(401)
    })

    it('everywhere when the password changes (admin API), but not for other users', async () => {
      const user = await makeDashboardUser(t, tenant.organisationId, { role: 'DISPATCHER' })
      const other = await makeDashboardUser(t, tenant.organisationId)
      const laptop = sessionClient(t, await signIn(t, user))
      const phone = sessionClient(t, await signIn(t, user))
      const bystander = sessionClient(t, await signIn(t, other))
      const admin = adminClient(t, { authorization: `Bearer ${tenant.key}` })
      const changed = await admin.put(`/team/users/${user.id}/password`, {
        password: 'a brand new passphrase',
      })
      expect(changed.status).toBe(200)
      expect(changed.body.data.user).toMatchObject({ id: user.id, hasPassword: true })
      expect((await laptop.get('/session')).status).toBe(401)
      expect((await phone.get('/session')).status).toBe(401)
      expect((await bystander.get('/session')).status).toBe(200)
      await signIn(t, { email: user.email, password: 'a brand new passphrase' })
      const oldPassword = { email: user.email, password: user.password }
      expect(
        (await t.app.inject({ method: 'POST', url: '/v1/admin/session', payload: oldPassword })).statusCode,
      ).toBe(401)
    })

    it('everywhere when the password is set outside the API (the CLI), and for the changer too', async () => {
      const user = await makeDashboardUser(t, tenant.organisationId)
      const own = sessionClient(t, await signIn(t, user))
      await setUserPassword(t.database.db, tenant.organisationId, user.id, 'set by an operator!')
      expect((await own.get('/session')).status).toBe(401)
      // An ADMIN changing their own password through the dashboard signs out too: the cookie is cleared.
      const again = await signIn(t, { email: user.email, password: 'set by an operator!' })
      const changed = await sessionClient(t, again).put(`/team/users/${user.id}/password`, {
        password: 'and changed once more',
      })
      expect(changed.status).toBe(200)
      expect(String(changed.headers['set-cookie'])).toMatch(/^fs_session=; Max-Age=0/)
      expect((await sessionClient(t, again).get('/session')).status).toBe(401)
    })

    it('when the user is deactivated, and stays ended after reactivation', async () => {
      const user = await makeDashboardUser(t, tenant.organisationId)
      const api = sessionClient(t, await signIn(t, user))
      const admin = adminClient(t, { authorization: `Bearer ${tenant.key}` })
      expect((await admin.post(`/team/users/${user.id}/deactivate`)).status).toBe(200)
      expect(await sessionCount(user.id)).toBe(0)
      expect((await api.get('/tags')).status).toBe(401)
      expect((await admin.post(`/team/users/${user.id}/activate`)).status).toBe(200)
      expect((await api.get('/tags')).status).toBe(401)
    })

    it('when the user becomes a WORKER; another role change applies on the next request', async () => {
      const user = await makeDashboardUser(t, tenant.organisationId)
      const api = sessionClient(t, await signIn(t, user))
      const admin = adminClient(t, { authorization: `Bearer ${tenant.key}` })
      expect((await api.get('/api-keys')).status).toBe(200)
      await admin.patch(`/team/users/${user.id}`, { role: 'DISPATCHER' })
      const demoted = await api.get('/api-keys')
      expect(demoted.status).toBe(403)
      expect(demoted.body.code).toBe('FORBIDDEN')
      expect((await api.get('/session')).body.data.session.user.role).toBe('DISPATCHER')
      await admin.patch(`/team/users/${user.id}`, { role: 'WORKER' })
      expect(await sessionCount(user.id)).toBe(0)
      expect((await api.get('/session')).status).toBe(401)
    })
  })

  describe(`${dialect}: a one-minute idle timeout`, () => {
    let t: TestContext
    let now = Date.parse('2026-11-25T08:00:00.000Z')

    beforeAll(async () => {
      t = await createTestApp(dialect, { sessionIdleMs: MINUTE }, { clock: () => now })
    })
    afterAll(() => t.close())

    it('keeps a session with a request every 40 seconds alive, and ends it a minute after the last', async () => {
      const user = await makeDashboardUser(t, (await createTenant(t)).organisationId)
      const api = sessionClient(t, await signIn(t, user))
      const end = now + 5 * MINUTE
      while (now + 40_000 <= end) {
        now += 40_000
        expect((await api.get('/tags')).status, `at ${new Date(now).toISOString()}`).toBe(200)
      }
      now += MINUTE
      expect((await api.get('/tags')).status).toBe(401)
    })
  })

  describe(`${dialect}: CSRF and the rate limit of sessions`, () => {
    let t: TestContext
    let tenant: TestTenant

    beforeAll(async () => {
      t = await createTestApp(dialect, { sessionRateLimitPerMinute: 6 })
      tenant = await createTenant(t)
    })
    afterAll(() => t.close())

    const tagCount = async () =>
      (
        await t.database.db
          .selectFrom('tags')
          .select('id')
          .where('organisation_id', '=', tenant.organisationId)
          .execute()
      ).length

    it('refuses a change without the CSRF token, or with a wrong one, and changes nothing', async () => {
      const user = await makeDashboardUser(t, tenant.organisationId)
      const signedIn = await signIn(t, user)
      const before = await tagCount()
      for (const csrf of [null, '', 'x'.repeat(43), signedIn.csrfToken.slice(0, -1)]) {
        const api = sessionClient(t, signedIn, { csrf })
        for (const refused of [
          await api.post('/tags', { name: `tag ${csrf}` }),
          await api.patch('/organisation', { name: 'Hijacked' }),
          await api.delete('/session'),
        ]) {
          expect(refused.status).toBe(403)
          expect(refused.body.code).toBe('CSRF_INVALID')
          expect(refused.headers['set-cookie']).toBeUndefined()
        }
      }
      expect(await tagCount()).toBe(before)
      const api = sessionClient(t, signedIn)
      expect((await api.get('/organisation')).body.data.organisation.name).not.toBe('Hijacked')
      expect((await api.get('/session')).status).toBe(200) // still signed in
      // Another session's token is a wrong token too.
      const other = await signIn(t, user)
      expect(
        (await sessionClient(t, signedIn, { csrf: other.csrfToken }).post('/tags', { name: 'x' })).status,
      ).toBe(403)
      expect((await api.post('/tags', { name: 'with the token' })).status).toBe(201)
    })

    it('takes an Authorization header over the cookie: a key needs no CSRF token and gets no more than its scopes', async () => {
      const user = await makeDashboardUser(t, tenant.organisationId)
      const signedIn = await signIn(t, user)
      const cookie = `fs_session=${signedIn.cookie}`
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/admin/tags',
        headers: { authorization: `Bearer ${tenant.key}`, cookie },
        payload: { name: 'by key' },
      })
      // The tenant's key is read+write, not admin: the ADMIN session beside it lends it nothing.
      expect(created.statusCode).toBe(403)
      expect(created.json().code).toBe('FORBIDDEN')
    })

    it('counts all the sessions of one user against one budget, and other users apart', async () => {
      const user = await makeDashboardUser(t, tenant.organisationId)
      const other = await makeDashboardUser(t, tenant.organisationId)
      const first = sessionClient(t, await signIn(t, user))
      const second = sessionClient(t, await signIn(t, user))
      const statuses = []
      for (let i = 0; i < 4; i++)
        statuses.push((await first.get('/tags')).status, (await second.get('/tags')).status)
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429])
      const limited = await first.get('/tags')
      expect(limited.headers['x-ratelimit-limit']).toBe('6')
      expect(limited.headers['retry-after']).toMatch(/^\d+$/)
      expect((await sessionClient(t, await signIn(t, other)).get('/tags')).status).toBe(200)
    })
  })
}
