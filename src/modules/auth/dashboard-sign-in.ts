// The dashboard's way in, built once per app: sessions timed by the app's clock, failed sign-ins
// counted in the rate-limit store (shared by every instance when it is Redis), the session cookie
// with its CSRF check, and one request budget per signed-in user.
import type { FastifyRateLimitStore } from '@fastify/rate-limit'
import type { Kysely } from 'kysely'
import { type Config, SESSION_DEFAULTS } from '../../config.js'
import type { Database } from '../../db/types.js'
import type { IpLimit } from '../../http/ip-rate-limit.js'
import { DeviceCookies } from '../sessions/device-cookies.js'
import { DEFAULT_SCRYPT, type ScryptParams } from '../sessions/passwords.js'
import { Sessions } from '../sessions/service.js'
import { SignIn } from '../sessions/sign-in.js'
import { SignInLimiter } from '../sessions/sign-in-limits.js'
import { SessionCookies } from './session-cookies.js'

/** Dashboard sign-in: what the session routes and the password route use. */
export interface Dashboard {
  sessions: Sessions
  signIn: SignIn
  cookies: SessionCookies
  /** The scrypt parameters new password hashes get. */
  passwordParams: ScryptParams
  /** The per-IP limit of routes that need no key (IP_RATE_LIMIT_PER_MINUTE): signing in needs none. */
  ipLimit?: IpLimit
}

/** What authentication needs to take a session cookie in place of a key (the admin API). */
export interface SessionLogin {
  cookies: SessionCookies
  /** SESSION_RATE_LIMIT_PER_MINUTE: one budget per signed-in user. */
  rateLimitPerMinute: number
}

export interface DashboardSignInOptions {
  db: Kysely<Database>
  /** Settings left out take SESSION_DEFAULTS. */
  config: Partial<Pick<Config, keyof typeof SESSION_DEFAULTS>>
  /** Where failed sign-ins are counted (RateLimits.signInStore()). */
  failures: FastifyRateLimitStore
  ipLimit?: IpLimit
  /** The clock sessions are timed by (tests move it); Date.now by default. */
  clock?: () => number
  /** scrypt parameters of new password hashes (tests use cheap ones); DEFAULT_SCRYPT by default. */
  passwordParams?: ScryptParams
}

export function buildDashboardSignIn(options: DashboardSignInOptions): {
  dashboard: Dashboard
  login: SessionLogin
} {
  const settings = { ...SESSION_DEFAULTS, ...definedOnly(options.config) }
  const sessions = new Sessions(options.db, {
    idleMs: settings.sessionIdleMs,
    workerIdleMs: settings.workerSessionIdleMs,
    maxAgeMs: settings.sessionMaxAgeMs,
    now: options.clock ?? Date.now,
  })
  const passwordParams = options.passwordParams ?? DEFAULT_SCRYPT
  const limiter = new SignInLimiter(options.failures, {
    maxFailuresPerAccountAndIp: settings.signInMaxFailuresPerAccountAndIp,
    maxFailuresPerIp: settings.signInMaxFailuresPerIp,
    maxFailuresPerAccount: settings.signInMaxFailuresPerAccount,
    maxFailuresPerDevice: settings.signInMaxFailuresPerDevice,
    windowMs: settings.signInWindowMs,
  })
  const devices = new DeviceCookies(options.db, sessions.settings.now)
  const cookies = new SessionCookies(sessions)
  const dashboard: Dashboard = {
    sessions,
    cookies,
    signIn: new SignIn(options.db, sessions, limiter, devices, passwordParams),
    passwordParams,
    ...(options.ipLimit ? { ipLimit: options.ipLimit } : {}),
  }
  return { dashboard, login: { cookies, rateLimitPerMinute: settings.sessionRateLimitPerMinute } }
}

/** The settings given, without the ones left undefined (which take their defaults). */
function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>
}
