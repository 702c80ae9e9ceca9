// Sign-in limits with device cookies (OWASP): guessing from one address or from many cannot lock an
// account's owner out of a browser they have signed in from, and a device cookie is limited on its
// own. Through app.inject() on both databases with the default limits, then two instances sharing
// one database and one Redis.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTenant,
  createTestApp,
  createTestDatabase,
  DIALECTS,
  type TestContext,
  type TestDatabase,
} from '../../../test/helpers.js'
import { makeDashboardUser, PASSWORD } from '../../../test/sessions.js'
import { type App, buildApp } from '../../app.js'
import { DEVICE_COOKIE_MAX_AGE_MS } from './device-cookies.js'

/** The `name=value` of the device cookie an answer sets, or undefined. */
function deviceCookieOf(response: { headers: Record<string, unknown> }): string | undefined {
  const cookies = [response.headers['set-cookie']].flat().filter((c): c is string => typeof c === 'string')
  return cookies.find((c) => c.startsWith('fs_device_'))?.split(';')[0]
}

type Send = (
  email: string,
  password: string,
  remoteAddress: string,
  cookie?: string,
) => Promise<{ statusCode: number; headers: Record<string, unknown> }>

const sender =
  (app: () => App): Send =>
  (email, password, remoteAddress, cookie) =>
    app().inject({
      method: 'POST',
      url: '/v1/admin/session',
      payload: { email, password },
      remoteAddress,
      ...(cookie ? { headers: { cookie } } : {}),
    })

/** `count` failed sign-ins for `email`, each from the address `from(i)`: all must be 401. */
async function fail(send: Send, email: (i: number) => string, from: (i: number) => string, count: number) {
  const statuses = new Set<number>()
  for (let i = 0; i < count; i++) statuses.add((await send(email(i), `wrong guess ${i}`, from(i))).statusCode)
  expect([...statuses]).toEqual([401])
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: sign-in limits and device cookies (default limits)`, () => {
    let t: TestContext
    let now = Date.parse('2026-11-27T08:00:00.000Z')
    const send = sender(() => t.app)
    let network = 0
    /** A /24 of its own for each test: addresses never meet another test's counters. */
    const addresses = () => {
      network++
      return (host: number) => `10.${network}.${Math.floor(host / 250)}.${(host % 250) + 1}`
    }
    const owner = async () => makeDashboardUser(t, (await createTenant(t)).organisationId)
    /** Signs in from `address` and answers the device cookie the browser got. */
    const browserOf = async (user: { email: string }, address: string) => {
      const response = await send(user.email, PASSWORD, address)
      expect(response.statusCode).toBe(200)
      return deviceCookieOf(response) as string
    }

    beforeAll(async () => {
      t = await createTestApp(dialect, {}, { clock: () => now })
    })
    afterAll(() => t.close())

    it('sets a device cookie for the sign-in route only, kept 180 days, Secure behind TLS', async () => {
      const user = await owner()
      const response = await send(user.email, PASSWORD, '192.0.2.1')
      const cookies = [response.headers['set-cookie']].flat() as string[]
      const device = cookies.find((c) => c.startsWith('fs_device_'))
      expect(device).toMatch(
        /^fs_device_[0-9a-f]{16}=[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{43}; Max-Age=15552000; Path=\/v1\/admin\/session; HttpOnly; SameSite=Lax$/,
      )
      // Another account gets a cookie of another name: a shared browser keeps one per account.
      const other = await owner()
      const otherCookie = deviceCookieOf(await send(other.email, PASSWORD, '192.0.2.1')) as string
      expect(otherCookie.split('=')[0]).not.toBe(device?.split('=')[0])
      const behindProxy = await createTestApp(dialect, { trustProxy: true })
      try {
        const user = await makeDashboardUser(behindProxy, (await createTenant(behindProxy)).organisationId)
        const secure = await behindProxy.app.inject({
          method: 'POST',
          url: '/v1/admin/session',
          payload: { email: user.email, password: PASSWORD },
          headers: { 'x-forwarded-proto': 'https' },
        })
        const set = [secure.headers['set-cookie']].flat() as string[]
        expect(set.find((c) => c.startsWith('fs_device_'))).toMatch(/; HttpOnly; Secure; SameSite=Lax$/)
      } finally {
        await behindProxy.close()
      }
    })

    it('locks out the address that guessed, however it writes the email, not the owner signing in from another', async () => {
      const user = await owner()
      const from = addresses()
      const spellings = [user.email.toUpperCase(), `  ${user.email}`, `${user.email.toUpperCase()} `]
      await fail(
        send,
        (i) => spellings[i % 3] as string,
        () => from(0),
        10,
      )
      const locked = await send(user.email, PASSWORD, from(0))
      expect(locked.statusCode).toBe(429)
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0)
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60)
      // Without any device cookie, from another address: signed in.
      expect((await send(user.email, PASSWORD, from(1))).statusCode).toBe(200)
    })

    it("lets the owner's browser in while guesses from many addresses have locked out unknown browsers", async () => {
      const user = await owner()
      const from = addresses()
      const laptop = await browserOf(user, from(0))
      // Fifty addresses, one guess each (never reaching a per-address limit), spellings mixed.
      await fail(
        send,
        (i) => (i % 2 ? user.email.toUpperCase() : user.email),
        (i) => from(i + 1),
        50,
      )
      expect((await send(user.email, PASSWORD, from(60))).statusCode).toBe(429)
      // The laptop, even from an address that guessed: signed in.
      const signedIn = await send(user.email, PASSWORD, from(1), laptop)
      expect(signedIn.statusCode).toBe(200)
      // It gets a fresh cookie, which works too.
      expect((await send(user.email, PASSWORD, from(61), deviceCookieOf(signedIn))).statusCode).toBe(200)
      // Another account's device cookie, a tampered one and an expired one count as no cookie.
      const otherAccount = (await browserOf(await owner(), from(62))).split('=')[1]
      const [name, value] = laptop.split('=') as [string, string]
      const tampered = `${value.slice(0, -2)}${value.endsWith('AA') ? 'BB' : 'AA'}`
      for (const cookie of [`${name}=${otherAccount}`, `${name}=${tampered}`, `${name}=`])
        expect((await send(user.email, PASSWORD, from(63), cookie)).statusCode, cookie).toBe(429)
      // The counters' window runs on real time, the cookie's age on the sessions' clock: unknown
      // browsers stay locked out while the laptop's cookie ages.
      const issuedAt = now
      now = issuedAt + DEVICE_COOKIE_MAX_AGE_MS - 1000
      expect((await send(user.email, PASSWORD, from(64), laptop)).statusCode).toBe(200)
      now = issuedAt + DEVICE_COOKIE_MAX_AGE_MS
      expect((await send(user.email, PASSWORD, from(65), laptop)).statusCode).toBe(429)
      now = issuedAt
    })

    it('counts failures with a device cookie against that device only, up to its own limit', async () => {
      const user = await owner()
      const from = addresses()
      const stolen = await browserOf(user, from(0))
      for (let i = 0; i < 10; i++)
        expect((await send(user.email, `guess ${i}`, from(i + 1), stolen)).statusCode).toBe(401)
      const refused = await send(user.email, PASSWORD, from(20), stolen)
      expect(refused.statusCode).toBe(429)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      // Nothing was counted for the account or the addresses: the owner's other ways in are open.
      expect((await send(user.email, PASSWORD, from(1))).statusCode).toBe(200)
      const phone = await browserOf(user, from(21))
      expect((await send(user.email, PASSWORD, from(22), phone)).statusCode).toBe(200)
    })

    it('locks out an address after 100 failures on any accounts, and no one else', async () => {
      const bystander = await owner()
      const colleague = await owner()
      const from = addresses()
      const colleaguesBrowser = await browserOf(colleague, from(0))
      const guessed = `x-${randomBytes(3).toString('hex')}`
      await fail(
        send,
        (i) => `${guessed}-${i}@example.com`,
        () => from(0),
        100,
      )
      expect((await send(`${guessed}-new@example.com`, 'x', from(0))).statusCode).toBe(429)
      expect((await send(bystander.email, PASSWORD, from(0))).statusCode).toBe(429)
      // Elsewhere, the bystander is not affected; at the same address (one office), a browser that
      // has signed in before is not either.
      expect((await send(bystander.email, PASSWORD, from(1))).statusCode).toBe(200)
      expect((await send(colleague.email, PASSWORD, from(0), colleaguesBrowser)).statusCode).toBe(200)
    })
  })
}

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

for (const dialect of DIALECTS) {
  describe(`${dialect}: device cookies and sign-in counts across instances (Redis)`, () => {
    let database: TestDatabase
    const prefix = `fieldservice-test:${process.pid}:${randomBytes(4).toString('hex')}:`
    const apps: App[] = []
    const start = async () => {
      const app = await buildApp({
        db: database.db,
        dialect,
        passwordParams: { ln: 10, r: 8, p: 1 },
        config: {
          authCacheTtlMs: 0,
          defaultRateLimitPerMinute: 100,
          bodyLimitBytes: 1024 * 1024,
          webhookDispatcher: false,
          planWorkers: 0,
          redisUrl: REDIS_URL,
          redisKeyPrefix: prefix,
          signInMaxFailuresPerAccountAndIp: 3,
        },
      })
      await app.ready()
      apps.push(app)
      return app
    }
    beforeAll(async () => {
      database = await createTestDatabase(dialect)
    })
    afterAll(async () => {
      await Promise.all(apps.map((app) => app.close()))
      await database.cleanup()
    })

    it('share the device cookie key and the failure counts', async () => {
      const [first, second] = [await start(), await start()]
      const t = { app: first, database, dialect, close: async () => {} }
      const user = await makeDashboardUser(t, (await createTenant(t)).organisationId)
      const [onFirst, onSecond] = [sender(() => first), sender(() => second)]
      // Both instances make their key at once, on their first sign-in: they end up with the same one.
      const [a, b] = await Promise.all([
        onFirst(user.email, PASSWORD, '192.0.2.1'),
        onSecond(user.email, PASSWORD, '192.0.2.2'),
      ])
      expect([a.statusCode, b.statusCode]).toEqual([200, 200])
      // Failures on both instances from one address count together.
      expect((await onFirst(user.email, 'wrong 1', '198.51.100.7')).statusCode).toBe(401)
      expect((await onSecond(user.email, 'wrong 2', '198.51.100.7')).statusCode).toBe(401)
      expect((await onFirst(user.email, 'wrong 3', '198.51.100.7')).statusCode).toBe(401)
      expect((await onSecond(user.email, PASSWORD, '198.51.100.7')).statusCode).toBe(429)
      // Each instance takes the other's device cookie, even at the address that guessed.
      expect((await onSecond(user.email, PASSWORD, '198.51.100.7', deviceCookieOf(a))).statusCode).toBe(200)
      expect((await onFirst(user.email, PASSWORD, '198.51.100.7', deviceCookieOf(b))).statusCode).toBe(200)
    })
  })
}
