// Signing in and out of the dashboard (the sign-in contract), through app.inject() on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTenant,
  createTestApp,
  DIALECTS,
  TEST_PASSWORD_PARAMS,
  type TestContext,
} from '../../../test/helpers.js'
import {
  makeDashboardUser,
  PASSWORD,
  sessionClient,
  sessionCookieOf,
  signIn,
} from '../../../test/sessions.js'
import { setUserActive } from '../organisations/users-service.js'
import { hashPassword } from './passwords.js'

const GENERIC = { error: 'Email or password is incorrect', code: 'UNAUTHORIZED' }
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

for (const dialect of DIALECTS) {
  describe(`${dialect}: signing in to the dashboard`, () => {
    let t: TestContext
    const post = (payload: unknown, headers: Record<string, string> = {}, remoteAddress?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/admin/session',
        payload: payload as object,
        headers,
        ...(remoteAddress ? { remoteAddress } : {}),
      })
    const sessionRows = () => t.database.db.selectFrom('user_sessions').selectAll().execute()

    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    it('signs in with any case of the email, sets the session cookie and answers the session', async () => {
      const tenant = await createTenant(t, { name: 'Acme Heating' })
      const user = await makeDashboardUser(t, tenant.organisationId, {
        role: 'DISPATCHER',
        name: 'Dee Spatch',
      })
      const response = await post({ email: `  ${user.email.toUpperCase()}`, password: PASSWORD })
      expect(response.statusCode).toBe(200)
      // The session cookie, and a device cookie (sign-in-limits.test.ts).
      const [cookie, device] = [response.headers['set-cookie']].flat() as string[]
      expect(cookie).toMatch(/^fs_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/)
      expect(device).toMatch(/^fs_device_/)
      const session = response.json().data.session
      expect(response.json()).toEqual({
        data: {
          session: {
            user: { id: user.id, name: 'Dee Spatch', email: user.email, role: 'DISPATCHER', colour: 1 },
            organisation: { id: tenant.organisationId, name: 'Acme Heating', plan: 'PRO' },
            csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
            expiresAt: expect.stringMatching(ISO),
            idleExpiresAt: expect.stringMatching(ISO),
          },
        },
        message: 'Success',
      })
      // Defaults: 12 h absolute, 60 min idle.
      const signedInAt = Date.parse(session.idleExpiresAt) - 60 * 60_000
      expect(Date.parse(session.expiresAt) - signedInAt).toBe(12 * 3_600_000)
      // Only the hash of the cookie value is stored.
      const value = sessionCookieOf(response) as string
      const rows = await sessionRows()
      expect(rows.some((row) => row.id === value)).toBe(false)
      expect(rows.find((row) => row.user_id === user.id)?.csrf_token).toBe(session.csrfToken)

      const api = sessionClient(t, { cookie: value, csrfToken: session.csrfToken, session })
      const current = await api.get('/session')
      expect(current.status).toBe(200)
      expect(current.body.data.session).toEqual(session)
    })

    it('signs out: the row is gone, the cookie cleared, and the old cookie no longer works', async () => {
      const tenant = await createTenant(t)
      const user = await makeDashboardUser(t, tenant.organisationId)
      const signedIn = await signIn(t, user)
      const api = sessionClient(t, signedIn)
      const before = (await sessionRows()).length
      const out = await api.delete('/session')
      expect(out.status).toBe(200)
      expect(out.body).toEqual({ data: { session: null }, message: 'Success' })
      expect(String(out.headers['set-cookie'])).toMatch(
        /^fs_session=; Max-Age=0; Path=\/;.*HttpOnly; SameSite=Lax/,
      )
      expect((await sessionRows()).length).toBe(before - 1)
      const after = await api.get('/session')
      expect(after.status).toBe(401)
      expect(after.body.code).toBe('UNAUTHORIZED')
      expect(String(after.headers['set-cookie'])).toMatch(/^fs_session=; Max-Age=0/)
      expect((await api.get('/tags')).status).toBe(401)
    })

    it('answers the same 401 for a wrong password, an unknown email, no password and a deactivated user', async () => {
      const tenant = await createTenant(t)
      const user = await makeDashboardUser(t, tenant.organisationId)
      const passwordless = await makeDashboardUser(t, tenant.organisationId)
      await t.database.db
        .updateTable('users')
        .set({ password_hash: null })
        .where('id', '=', passwordless.id)
        .execute()
      const deactivated = await makeDashboardUser(t, tenant.organisationId)
      await setUserActive(t.database.db, tenant.organisationId, deactivated.id, false)
      const attempts = [
        { email: user.email, password: `${PASSWORD}!` },
        { email: 'nobody@example.com', password: PASSWORD },
        { email: passwordless.email, password: PASSWORD },
        { email: deactivated.email, password: PASSWORD },
        { email: user.email, password: PASSWORD, organisationId: 'some-other-organisation' },
      ]
      for (const attempt of attempts) {
        const response = await post(attempt)
        expect({ status: response.statusCode, body: response.json() }, attempt.email).toEqual({
          status: 401,
          body: GENERIC,
        })
        expect(response.headers['set-cookie']).toBeUndefined()
      }
    })

    it('signs a WORKER in to a session that reaches only My day (403 elsewhere)', async () => {
      const tenant = await createTenant(t)
      const worker = await makeDashboardUser(t, tenant.organisationId, { role: 'WORKER' })
      const right = await post({ email: worker.email, password: PASSWORD })
      expect(right.statusCode).toBe(200)
      expect(right.json().data.session.user.role).toBe('WORKER')
      const cookie = sessionCookieOf(right)
      const dashboard = await t.app.inject({
        method: 'GET',
        url: '/v1/admin/jobs',
        headers: { cookie: `fs_session=${cookie}` },
      })
      expect(dashboard.statusCode).toBe(403)
      expect(dashboard.json()).toEqual({
        error: 'Workers use the My day app (/my): the dashboard and its API are for admins and dispatchers',
        code: 'FORBIDDEN',
      })
      expect((await post({ email: worker.email, password: 'not the password' })).json()).toEqual(GENERIC)
    })

    it('asks which organisation when the email and password match users of several, then signs in to it', async () => {
      const email = `shared-${Date.now()}@example.com`
      const first = await createTenant(t, { name: 'First Plumbing' })
      const second = await createTenant(t, { name: 'Second Plumbing', plan: 'FREE' })
      const third = await createTenant(t, { name: 'Third Plumbing' })
      await makeDashboardUser(t, first.organisationId, { email })
      const inSecond = await makeDashboardUser(t, second.organisationId, { email, role: 'DISPATCHER' })
      await makeDashboardUser(t, third.organisationId, { email, password: 'another password entirely' })
      const ambiguous = await post({ email, password: PASSWORD })
      expect(ambiguous.statusCode).toBe(409)
      expect(ambiguous.json()).toEqual({
        error: expect.stringContaining('several organisations'),
        code: 'ORGANISATION_REQUIRED',
        organisations: [
          { id: first.organisationId, name: 'First Plumbing' },
          { id: second.organisationId, name: 'Second Plumbing' },
        ],
      })
      expect(ambiguous.headers['set-cookie']).toBeUndefined()
      const chosen = await signIn(t, { email, password: PASSWORD }, { organisationId: second.organisationId })
      expect(chosen.session.user.id).toBe(inSecond.id)
      expect(chosen.session.organisation).toEqual({
        id: second.organisationId,
        name: 'Second Plumbing',
        plan: 'FREE',
      })
      // The third organisation's user has another password: choosing it is a wrong password.
      const wrong = await post({ email, password: PASSWORD, organisationId: third.organisationId })
      expect(wrong.json()).toEqual(GENERIC)
    })

    it('refuses malformed bodies with 400 naming the field', async () => {
      const missing = await post({ email: 'a@example.com' })
      expect(missing.statusCode).toBe(400)
      expect(missing.json().error).toMatch(/password/)
      const extra = await post({ email: 'a@example.com', password: 'x', remember: true })
      expect(extra.statusCode).toBe(400)
      expect(extra.json().error).toMatch(/remember/)
      const form = await t.app.inject({
        method: 'POST',
        url: '/v1/admin/session',
        payload: 'email=a%40example.com&password=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
      // An HTML form on another site cannot sign a browser in: only JSON is taken.
      expect(form.statusCode).toBe(415)
    })

    it('ends the session whose cookie comes with a new sign-in', async () => {
      const tenant = await createTenant(t)
      const user = await makeDashboardUser(t, tenant.organisationId)
      const old = await signIn(t, user)
      const again = await post(
        { email: user.email, password: PASSWORD },
        { cookie: `fs_session=${old.cookie}` },
      )
      expect(again.statusCode).toBe(200)
      expect(sessionCookieOf(again)).not.toBe(old.cookie)
      expect((await sessionClient(t, old).get('/session')).status).toBe(401)
    })

    it('stores a stronger hash when an old one was made with weaker parameters', async () => {
      const tenant = await createTenant(t)
      const user = await makeDashboardUser(t, tenant.organisationId)
      const weak = await hashPassword(PASSWORD, { ln: 8, r: 8, p: 1 })
      await t.database.db
        .updateTable('users')
        .set({ password_hash: weak })
        .where('id', '=', user.id)
        .execute()
      await signIn(t, user)
      const row = await t.database.db
        .selectFrom('users')
        .select(['password_hash', 'password_changed_at'])
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow()
      expect(row.password_hash).toMatch(new RegExp(`^\\$scrypt\\$ln=${TEST_PASSWORD_PARAMS.ln},`))
      await signIn(t, user) // the upgraded hash verifies the same password
    })

    it('sends Secure only when the request came over TLS, as told by a trusted proxy', async () => {
      const tenant = await createTenant(t)
      const user = await makeDashboardUser(t, tenant.organisationId)
      const forwarded = { 'x-forwarded-proto': 'https' }
      // Without TRUST_PROXY, a client's own X-Forwarded-Proto is not believed.
      const untrusted = await post({ email: user.email, password: PASSWORD }, forwarded)
      expect(String(untrusted.headers['set-cookie'])).not.toMatch(/Secure/)
      const behindProxy = await createTestApp(dialect, { trustProxy: true })
      try {
        const orgUser = await makeDashboardUser(behindProxy, (await createTenant(behindProxy)).organisationId)
        const response = await behindProxy.app.inject({
          method: 'POST',
          url: '/v1/admin/session',
          payload: { email: orgUser.email, password: PASSWORD },
          headers: forwarded,
        })
        expect(String(response.headers['set-cookie'])).toMatch(/; HttpOnly; Secure; SameSite=Lax$/)
        const cookie = sessionCookieOf(response) as string
        const out = await behindProxy.app.inject({
          method: 'DELETE',
          url: '/v1/admin/session',
          headers: {
            ...forwarded,
            cookie: `fs_session=${cookie}`,
            'x-csrf-token': response.json().data.session.csrfToken,
          },
        })
        expect(String(out.headers['set-cookie'])).toMatch(/Secure/)
      } finally {
        await behindProxy.close()
      }
    })
  })

  describe(`${dialect}: sign-in limits`, () => {
    let t: TestContext
    const attempt = (email: string, password: string, remoteAddress = '203.0.113.7') =>
      t.app.inject({ method: 'POST', url: '/v1/admin/session', payload: { email, password }, remoteAddress })

    beforeAll(async () => {
      t = await createTestApp(dialect, { signInMaxFailuresPerAccount: 3, signInMaxFailuresPerIp: 5 })
    })
    afterAll(() => t.close())

    it('never counts successful sign-ins', async () => {
      const user = await makeDashboardUser(t, (await createTenant(t)).organisationId)
      for (let i = 0; i < 8; i++)
        expect((await attempt(user.email, PASSWORD, '198.51.100.1')).statusCode).toBe(200)
    })

    it('locks an account out of unknown browsers after its failures, from any address, even for the right password', async () => {
      const user = await makeDashboardUser(t, (await createTenant(t)).organisationId)
      const statuses = []
      for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.3'])
        statuses.push((await attempt(user.email, 'wrong password', address)).statusCode)
      expect(statuses).toEqual([401, 401, 401])
      const locked = await attempt(user.email.toUpperCase(), PASSWORD, '192.0.2.4')
      expect(locked.statusCode).toBe(429)
      expect(locked.json()).toEqual({
        error: expect.stringMatching(/^Too many sign-in attempts; retry in \d+ seconds?$/),
        code: 'RATE_LIMITED',
      })
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0)
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60)
      // Unknown emails are counted the same way: a 429 says nothing about the account existing.
      for (let i = 0; i < 3; i++) await attempt('ghost@example.com', 'x', `192.0.2.${10 + i}`)
      expect((await attempt('ghost@example.com', 'x', '192.0.2.20')).statusCode).toBe(429)
    })

    it('locks an address after its failures, whichever accounts they tried', async () => {
      const user = await makeDashboardUser(t, (await createTenant(t)).organisationId)
      const address = '203.0.113.50'
      for (let i = 0; i < 5; i++)
        expect((await attempt(`guess-${i}@example.com`, 'x', address)).statusCode).toBe(401)
      const locked = await attempt(user.email, PASSWORD, address)
      expect(locked.statusCode).toBe(429)
      expect(locked.headers['retry-after']).toMatch(/^\d+$/)
      // The same user from elsewhere is fine.
      expect((await attempt(user.email, PASSWORD, '203.0.113.51')).statusCode).toBe(200)
    })

    it('also counts against the per-address limit of routes that need no key', async () => {
      const limited = await createTestApp(dialect, { ipRateLimitPerMinute: 3 })
      try {
        const user = await makeDashboardUser(limited, (await createTenant(limited)).organisationId)
        const send = () =>
          limited.app.inject({
            method: 'POST',
            url: '/v1/admin/session',
            payload: { email: user.email, password: PASSWORD },
            remoteAddress: '192.0.2.99',
          })
        const statuses = []
        for (let i = 0; i < 4; i++) statuses.push((await send()).statusCode)
        expect(statuses).toEqual([200, 200, 200, 429])
        const refused = await send()
        expect(refused.json().error).toMatch(/^Too many requests from this address/)
        expect(refused.headers['retry-after']).toMatch(/^\d+$/)
      } finally {
        await limited.close()
      }
    })

    it('cannot be outrun by parallel guesses: exactly the limit is tried', async () => {
      const user = await makeDashboardUser(t, (await createTenant(t)).organisationId)
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => attempt(user.email, `guess ${i}`, `198.18.0.${i + 1}`)),
      )
      const statuses = answers.map((a) => a.statusCode).sort()
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429])
    })
  })
}
