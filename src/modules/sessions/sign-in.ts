// Signing in to the dashboard with an email and a password. Whatever is wrong — unknown email, wrong
// password, no password set, deactivated user — the answer is the same 401 after the same work, so
// neither the message nor the time tells whether an account exists. Only a right password learns
// more: that several organisations have such a user (409, choose one). A WORKER signs in too; their
// session reaches only the My day routes (access.ts).
//
// The same work: every sign-in runs the same number K of scrypt verifications, whatever the email and
// organisationId, where K is the most users any one email has across all organisations (usually 1).
// An email's candidates are verified in turn and the remaining rounds use a dummy hash (as do
// candidates without a password). Salts differ per user, so telling which of several organisations'
// users has this password takes one verification each: a K fixed in advance would either cost every
// sign-in the work of the largest case or leave larger cases timed apart, while K taken from the data
// costs one verification where no email is shared and tells a stranger only that some email is shared
// somewhere. K is read again every minute and raised at once by a sign-in that finds more candidates.
//
// The verification runs outside any transaction (it is slow by design), so the session is opened only
// if the user still holds the hash, the role and the active state it checked, read in the session's
// own transaction (Sessions.start): a password change, deactivation or role change that lands during
// the verification answers this sign-in with the same 401 as a wrong password.
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.js'
import { AppError } from '../../http/errors.js'
import {
  findSignInCandidates,
  largestSignInCandidateCount,
  normaliseEmail,
  type SignInCandidate,
  upgradePasswordHash,
} from '../organisations/users-service.js'
import type { DeviceCookie, DeviceCookies } from './device-cookies.js'
import { dummyHash, hashPassword, needsRehash, type ScryptParams, verifyPassword } from './passwords.js'
import type { SignInBody } from './schemas.js'
import { isSessionRole, type LiveSession, type Sessions } from './service.js'
import type { SignInLimiter } from './sign-in-limits.js'

export const WRONG_CREDENTIALS = 'Email or password is incorrect'

/** Where a sign-in comes from. */
export interface SignInClient {
  ip: string
  cookies: Record<string, string | undefined>
}

export interface SignedIn {
  cookieValue: string
  session: LiveSession
  /** To set in the browser: it is now known to this account. */
  deviceCookie: DeviceCookie
}

/** How long the number of verifications per sign-in is used before it is read again. */
const VERIFICATIONS_TTL_MS = 60_000

export class SignIn {
  private verifications = { count: 1, readAt: Number.NEGATIVE_INFINITY }

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sessions: Sessions,
    private readonly limiter: SignInLimiter,
    private readonly devices: DeviceCookies,
    private readonly passwordParams: ScryptParams,
  ) {}

  /**
   * Signs in from a client address with the cookies its browser sent (a device cookie for this
   * account puts the attempt under that device's limit alone: sign-in-limits.ts). Answers the new
   * session and a fresh device cookie for the browser.
   */
  async signIn(input: SignInBody, client: SignInClient): Promise<SignedIn> {
    const email = normaliseEmail(input.email)
    const device = await this.devices.trustedDevice(email, client.cookies)
    const attempt = { ip: client.ip, account: email, ...(device === undefined ? {} : { device }) }
    const activeMatches = await this.limiter.guard(attempt, async () => {
      const matching = await this.verify(email, input.password, input.organisationId)
      const active = matching.filter((candidate) => Boolean(candidate.is_active))
      return { failed: active.length === 0, value: active }
    })
    if (activeMatches.length === 0) throw new AppError('UNAUTHORIZED', WRONG_CREDENTIALS)
    const dashboardUsers = activeMatches.filter((candidate) => isSessionRole(candidate.role))
    if (dashboardUsers.length > 1) {
      throw new AppError(
        'ORGANISATION_REQUIRED',
        'This email and password belong to users of several organisations: choose one and send its id as organisationId',
        undefined,
        {
          extra: {
            organisations: dashboardUsers.map((c) => ({ id: c.organisation_id, name: c.organisation_name })),
          },
        },
      )
    }
    const chosen = dashboardUsers[0] as SignInCandidate
    const passwordHash = await this.upgradeHash(chosen, input.password)
    // Only if the user still holds what was verified: a password change, deactivation or role change
    // that committed since then has signed them out everywhere, and this session would outlive it.
    const started = await this.sessions.start({
      organisationId: chosen.organisation_id,
      userId: chosen.id,
      credential: { passwordHash, role: chosen.role },
    })
    if (!started) throw new AppError('UNAUTHORIZED', WRONG_CREDENTIALS)
    return { ...started, deviceCookie: await this.devices.issue(email) }
  }

  /**
   * The users (of the one organisation asked for, if any) whose password this is, after exactly
   * verificationsPerSignIn() verifications (see the top of this file).
   */
  private async verify(email: string, password: string, organisationId?: string): Promise<SignInCandidate[]> {
    const found = await findSignInCandidates(this.db, email)
    const rounds = await this.verificationsPerSignIn(found.length)
    const candidates = found.filter(
      (candidate) => organisationId === undefined || candidate.organisation_id === organisationId,
    )
    const dummy = await dummyHash(this.passwordParams)
    const matching: SignInCandidate[] = []
    for (let round = 0; round < rounds; round++) {
      const candidate = candidates[round]
      const matches = await verifyPassword(password, candidate?.password_hash ?? dummy)
      if (matches && candidate) matching.push(candidate)
    }
    return matching
  }

  /** K: the most users one email has across organisations, at least `found` and at least 1. */
  private async verificationsPerSignIn(found: number): Promise<number> {
    const now = performance.now()
    if (now - this.verifications.readAt >= VERIFICATIONS_TTL_MS) {
      const largest = await largestSignInCandidateCount(this.db)
      this.verifications = { count: largest, readAt: now }
    }
    this.verifications.count = Math.max(this.verifications.count, found, 1)
    return this.verifications.count
  }

  /**
   * A hash made with weaker parameters than today's is replaced while the password is at hand.
   * Returns the hash of this password the user holds now (the verified one, or its replacement).
   */
  private async upgradeHash(user: SignInCandidate, password: string): Promise<string> {
    const stored = user.password_hash as string
    if (!needsRehash(stored, this.passwordParams)) return stored
    const upgraded = await hashPassword(password, this.passwordParams)
    const replaced = await upgradePasswordHash(this.db, user.organisation_id, user.id, stored, upgraded)
    return replaced ? upgraded : stored
  }
}
