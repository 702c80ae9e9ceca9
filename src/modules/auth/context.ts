// Who is calling: authentication ends in one AuthContext whatever the way in (an API key, or a
// dashboard session), and its organisation id scopes every query, so tenant isolation does not depend
// on how the caller signed in. Its role or scopes are what access.ts checks.
import type { PlanTier } from '../../db/types.js'
import type { Scope } from '../api-keys/service.js'
import type { LiveSession } from '../sessions/service.js'

interface BaseAuth {
  organisationId: string
  plan: PlanTier
  scopes: ReadonlySet<Scope>
  /** Whose budget the request counts against: the key's, or the signed-in user's (all sessions). */
  rateLimitKey: string
  rateLimitPerMinute: number
}

export interface KeyAuth extends BaseAuth {
  kind: 'key'
  keyId: string
}

export interface SessionAuth extends BaseAuth {
  kind: 'session'
  session: LiveSession
}

export type AuthContext = KeyAuth | SessionAuth

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext
  }
}

/** A dashboard session as an AuthContext: an ADMIN holds every scope, a DISPATCHER reads and writes. */
export function sessionAuth(session: LiveSession, rateLimitPerMinute: number): SessionAuth {
  return {
    kind: 'session',
    session,
    organisationId: session.organisationId,
    plan: session.plan,
    scopes: new Set<Scope>(session.role === 'ADMIN' ? ['admin'] : ['read', 'write']),
    rateLimitKey: `user:${session.userId}`,
    rateLimitPerMinute,
  }
}
