// Signing in to the dashboard with an email and a password. Whatever is wrong — unknown email, wrong
// password, no password set, deactivated user — the answer is the same 401 after the same work (a
// scrypt verification against a dummy hash when there is no real one), so neither the message nor
// the time tells whether an account exists. Only a right password learns more: that several
// organisations have such a user (409, choose one). A WORKER signs in too; their session reaches only
// the My day routes (access.ts).
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
  normaliseEmail,
  type SignInCandidate,
  upgradePasswordHash,
} from '../organisations/users-service.js'
import { dummyHash, hashPassword, needsRehash, type ScryptParams, verifyPassword } from './passwords.js'
import type { SignInBody } from './schemas.js'
import { isSessionRole, type LiveSession, type Sessions } from './service.js'
import type { SignInLimiter } from './sign-in-limits.js'

export const WRONG_CREDENTIALS = 'Email or password is incorrect'
export const WORKER_REFUSED = 'Workers use the My day app (/my); the dashboard is for admins and dispatchers'

export class SignIn {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sessions: Sessions,
    private readonly limiter: SignInLimiter,
    private readonly passwordParams: ScryptParams,
  ) {}

  async signIn(input: SignInBody, ip: string): Promise<{ cookieValue: string; session: LiveSession }> {
    const email = normaliseEmail(input.email)
    const activeMatches = await this.limiter.guard(ip, email, async () => {
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
    return started
  }

  /** The users (of the one organisation asked for, if any) whose password this is. */
  private async verify(email: string, password: string, organisationId?: string): Promise<SignInCandidate[]> {
    const candidates = (await findSignInCandidates(this.db, email)).filter(
      (candidate) => organisationId === undefined || candidate.organisation_id === organisationId,
    )
    const matching: SignInCandidate[] = []
    let verified = 0
    for (const candidate of candidates) {
      if (candidate.password_hash === null) continue
      verified++
      if (await verifyPassword(password, candidate.password_hash)) matching.push(candidate)
    }
    if (verified === 0) await verifyPassword(password, await dummyHash(this.passwordParams))
    return matching
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
