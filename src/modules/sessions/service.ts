// Dashboard sessions: server-side rows found by the SHA-256 of a random cookie value. A session ends
// at the first of: its absolute end (fixed at sign-in), SESSION_IDLE_MINUTES without a request, sign
// out, and its user being signed out everywhere (password change, deactivation, becoming a WORKER).
// A WORKER's idle timeout is WORKER_SESSION_IDLE_MINUTES (a working day), everyone else's the above.
// The user's role and the organisation's plan are read with the session on every request, so a
// change to either applies to the next one.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database, Executor, PlanTier } from '../../db/types.js'
import * as repository from './repository.js'
import type { SessionInfo } from './schemas.js'

/** Every role signs in: ADMIN and DISPATCHER to the dashboard, WORKER to the My day app (/my). */
export type SessionRole = 'ADMIN' | 'DISPATCHER' | 'WORKER'

export interface SessionSettings {
  idleMs: number
  /** A WORKER's idle timeout: a working day on a phone (WORKER_SESSION_IDLE_MINUTES). */
  workerIdleMs: number
  maxAgeMs: number
  /** The clock sessions are timed by (tests move it). */
  now: () => number
}

/** A live session as the authentication of a request sees it. */
export interface LiveSession {
  /** The stored id: the hash of the cookie value. */
  id: string
  csrfToken: string
  userId: string
  role: SessionRole
  organisationId: string
  plan: PlanTier
  info: SessionInfo
}

/**
 * last_seen_at is written at most this often per session (a write per request would cost every
 * dashboard request a statement), and at most every quarter of the idle timeout: a session idles out
 * only after `idle − interval` without a request, so with SESSION_IDLE_MINUTES=1 a once-a-minute
 * write would end sessions that send a request every 40 seconds.
 */
export const TOUCH_INTERVAL_MS = 60_000

/** How often a session with this idle timeout records activity: idle time is counted to that. */
export function touchIntervalOf(idleMs: number): number {
  return Math.min(TOUCH_INTERVAL_MS, Math.floor(idleMs / 4))
}
/** What a cookie value looks like: 32 random bytes, base64url. */
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/

const sessionIdOf = (cookieValue: string) => hash('sha256', cookieValue, 'hex')
const iso = (ms: number) => new Date(ms).toISOString()

export function isSessionRole(role: string): role is SessionRole {
  return role === 'ADMIN' || role === 'DISPATCHER' || role === 'WORKER'
}

/** Constant-time comparison of a request's CSRF header with the session's token. */
export function csrfTokenMatches(session: LiveSession, header: unknown): boolean {
  if (typeof header !== 'string') return false
  const expected = Buffer.from(session.csrfToken)
  const given = Buffer.from(header)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

export class Sessions {
  constructor(
    private readonly db: Kysely<Database>,
    readonly settings: SessionSettings,
  ) {}

  /**
   * Starts a session for a user who has just proved their password, and returns its cookie value;
   * or undefined, starting nothing, when the user no longer holds what the sign-in checked (their
   * password, role or active state changed meanwhile: the verification takes a while, and signing
   * the user out everywhere may have run since).
   */
  async start(user: {
    organisationId: string
    userId: string
    credential: repository.SignInCredential
  }): Promise<{ cookieValue: string; session: LiveSession } | undefined> {
    const now = this.settings.now()
    const cookieValue = randomBytes(32).toString('base64url')
    const row = {
      id: sessionIdOf(cookieValue),
      organisation_id: user.organisationId,
      user_id: user.userId,
      csrf_token: randomBytes(32).toString('base64url'),
      created_at: iso(now),
      last_seen_at: iso(now),
      expires_at: iso(now + this.settings.maxAgeMs),
    }
    const started = await this.db.transaction().execute(async (trx) => {
      // First, so the user row is locked before any session row (the order the sign-out takes).
      if (!(await repository.holdsCredential(trx, user.organisationId, user.userId, user.credential)))
        return false
      await repository.deleteEndedSessions(trx, iso(now), {
        organisationId: user.organisationId,
        userId: user.userId,
        idleSince: iso(now - Math.max(this.settings.idleMs, this.settings.workerIdleMs)),
      })
      await repository.insertSession(trx, row)
      return true
    })
    // Not found: the user was signed out everywhere as soon as it committed, which is losing the race too.
    const session = started ? await this.find(cookieValue) : undefined
    return session && { cookieValue, session }
  }

  /**
   * The live session a cookie value names, or undefined. A session found ended is deleted on the
   * way. Does not touch it: `touch` does, once the request is known to be allowed.
   */
  async find(cookieValue: string): Promise<LiveSession | undefined> {
    if (!COOKIE_VALUE.test(cookieValue)) return undefined
    const id = sessionIdOf(cookieValue)
    const row = await repository.findSession(this.db, id)
    if (!row) return undefined
    const now = this.settings.now()
    const lastSeen = Date.parse(row.last_seen_at)
    const expiresAt = Date.parse(row.expires_at)
    const idleMs = this.idleMsOf(row.user_role)
    const ended = now >= expiresAt || now >= lastSeen + idleMs
    if (ended || !row.user_is_active || !isSessionRole(row.user_role)) {
      // An inactive user lost their sessions when that happened; this is a backstop.
      await repository.deleteSession(this.db, id)
      return undefined
    }
    return {
      id,
      csrfToken: row.csrf_token,
      userId: row.user_id,
      role: row.user_role,
      organisationId: row.organisation_id,
      plan: row.organisation_plan,
      info: {
        user: {
          id: row.user_id,
          name: row.user_name,
          email: row.user_email,
          role: row.user_role,
          colour: row.user_colour,
        },
        organisation: { id: row.organisation_id, name: row.organisation_name, plan: row.organisation_plan },
        csrfToken: row.csrf_token,
        expiresAt: iso(expiresAt),
        idleExpiresAt: iso(lastSeen + idleMs),
      },
    }
  }

  private idleMsOf(role: string): number {
    return role === 'WORKER' ? this.settings.workerIdleMs : this.settings.idleMs
  }

  /** Records activity, at most once a minute or a quarter of the idle timeout (touchIntervalOf). */
  async touch(session: LiveSession): Promise<void> {
    const now = this.settings.now()
    const idleMs = this.idleMsOf(session.role)
    const lastSeen = Date.parse(session.info.idleExpiresAt) - idleMs
    if (now - lastSeen < touchIntervalOf(idleMs)) return
    await repository.touchSession(this.db, session.id, iso(now))
    session.info.idleExpiresAt = iso(now + idleMs)
  }

  async end(session: LiveSession): Promise<void> {
    await repository.deleteSession(this.db, session.id)
  }

  /** Ends a session by its cookie value, if there is one (signing in again from the same browser). */
  async endByCookie(cookieValue: string): Promise<void> {
    if (COOKIE_VALUE.test(cookieValue)) await repository.deleteSession(this.db, sessionIdOf(cookieValue))
  }
}

/** Signs a user out everywhere, inside the caller's transaction. */
export function endUserSessions(db: Executor, organisationId: string, userId: string): Promise<number> {
  return repository.deleteUserSessions(db, organisationId, userId)
}
