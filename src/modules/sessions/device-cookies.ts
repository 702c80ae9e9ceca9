// Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that has
// signed in to an account gets a long-lived cookie saying so, signed by the server, and sign-in
// attempts that present it are limited on their own (sign-in-limits.ts). Guessing from elsewhere can
// then lock out only browsers the account has never signed in from, never its owner's own.
//
// The cookie holds a random device id, when it was issued and an HMAC-SHA256 over those and the
// account (the normalised email), so it is valid for that account only and cannot be forged or moved
// to another. Each account gets its own cookie name (an HMAC of the email, so the name says nothing):
// on a browser that several people use, each keeps theirs. Path /v1/admin/session: no other request
// carries it. Nothing is stored per device; a device's failures are counted under its id.
//
// The key lives in the database (server_secrets, migration 0018), made by the first instance that
// needs it: every instance behind a load balancer signs and checks with the same key, a restart keeps
// it, and there is no setting to get wrong or leave different between instances. An environment
// variable would be one more secret to distribute; a key derived from the database URL or another
// setting would change with it. To replace the key, delete the row and restart every instance (each
// reads the key once): every device cookie then counts as unknown until its browser signs in again.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.js'
import * as repository from './repository.js'

/** What the route sets: the cookie's name, value and lifetime. */
export interface DeviceCookie {
  name: string
  value: string
  maxAgeSeconds: number
}

export const DEVICE_COOKIE_PREFIX = 'fs_device_'
/** How long a browser stays known without signing in again: each sign-in issues a fresh cookie. */
export const DEVICE_COOKIE_MAX_AGE_MS = 180 * 24 * 3_600_000
const SECRET_NAME = 'device-cookie-key'
const DEVICE_ID = /^[A-Za-z0-9_-]{22}$/
const ISSUED_AT = /^\d{1,12}$/

export class DeviceCookies {
  private key: Promise<Buffer> | undefined

  constructor(
    private readonly db: Kysely<Database>,
    /** The clock cookies are issued and aged by (the sessions' one). */
    private readonly now: () => number,
  ) {}

  /**
   * The device id of the browser's device cookie for `account`, if it sent a valid one: signed by
   * this service for this account, and younger than DEVICE_COOKIE_MAX_AGE_MS.
   */
  async trustedDevice(
    account: string,
    cookies: Record<string, string | undefined>,
  ): Promise<string | undefined> {
    const key = await this.secret()
    const parts = cookies[cookieName(key, account)]?.split('.')
    if (parts?.length !== 3) return undefined
    const [deviceId, issued, mac] = parts as [string, string, string]
    if (!DEVICE_ID.test(deviceId) || !ISSUED_AT.test(issued)) return undefined
    if (this.now() - Number(issued) * 1000 >= DEVICE_COOKIE_MAX_AGE_MS) return undefined
    const expected = signature(key, account, deviceId, issued)
    const given = Buffer.from(mac, 'base64url')
    return given.length === expected.length && timingSafeEqual(given, expected) ? deviceId : undefined
  }

  /** A new device cookie for `account`, for a browser that has just signed in to it. */
  async issue(account: string): Promise<DeviceCookie> {
    const key = await this.secret()
    const deviceId = randomBytes(16).toString('base64url')
    const issued = String(Math.floor(this.now() / 1000))
    const mac = signature(key, account, deviceId, issued).toString('base64url')
    return {
      name: cookieName(key, account),
      value: `${deviceId}.${issued}.${mac}`,
      maxAgeSeconds: DEVICE_COOKIE_MAX_AGE_MS / 1000,
    }
  }

  /** The key, read once per process; made and stored by the first instance that finds none. */
  private secret(): Promise<Buffer> {
    this.key ??= this.loadSecret().catch((error: unknown) => {
      this.key = undefined
      throw error
    })
    return this.key
  }

  private async loadSecret(): Promise<Buffer> {
    let value = await repository.findServerSecret(this.db, SECRET_NAME)
    if (value === undefined) {
      await repository.insertServerSecret(this.db, {
        name: SECRET_NAME,
        value: randomBytes(32).toString('base64url'),
        created_at: new Date().toISOString(),
      })
      // Ours, or the one another instance stored first.
      value = await repository.findServerSecret(this.db, SECRET_NAME)
    }
    if (value === undefined) throw new Error('the device cookie key could not be stored')
    return Buffer.from(value, 'base64url')
  }
}

function cookieName(key: Buffer, account: string): string {
  const digest = createHmac('sha256', key)
    .update(JSON.stringify(['name', account]))
    .digest('hex')
  return `${DEVICE_COOKIE_PREFIX}${digest.slice(0, 16)}`
}

function signature(key: Buffer, account: string, deviceId: string, issued: string): Buffer {
  return createHmac('sha256', key)
    .update(JSON.stringify(['device', account, deviceId, issued]))
    .digest()
}
