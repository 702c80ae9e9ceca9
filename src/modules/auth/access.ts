// Who may call what, decided in one place for both ways in. An API key: its organisation's plan must
// have API access and the key the route's scope (spec §5). A dashboard session (admin API only): the
// user's role must be one the route allows, and the Pro features (API keys, automations, their
// executions) also need a Pro or Enterprise plan; everything else works on every plan.
//
// Each admin route says which sessions it admits with `config: { access }`, set per route module in
// app.ts (withSessionAccess, src/http/authentication.ts) and overridden on single routes; a route
// that says nothing is ADMIN-only.
import type { PlanTier } from '../../db/types.js'
import { AppError } from '../../http/errors.js'
import type { Scope } from '../api-keys/service.js'
import { API_PLANS } from '../organisations/service.js'
import type { SessionRole } from '../sessions/service.js'
import type { AuthContext } from './context.js'

/**
 * - `dispatch`: ADMIN and DISPATCHER (jobs, customers, fleet, shifts, plans, reading the team)
 * - `admin`: ADMIN only (the organisation's settings, team changes)
 * - `pro-admin`: ADMIN only, on PRO or ENTERPRISE (API keys, automations, execution logs)
 * - `session`: any live session, and only a session (GET/DELETE /session)
 * - `worker`: any live session (a WORKER's, mostly), and only a session: the signed-in user's own day (/my)
 * - `sign-in`: no authentication at all (POST /session)
 */
export type SessionAccess = 'dispatch' | 'admin' | 'pro-admin' | 'session' | 'worker' | 'sign-in'

/** What an admin route admits when it says nothing. */
export const DEFAULT_ACCESS: SessionAccess = 'admin'

/** Public API: GET needs `read`, writes need `write`; `admin` permits everything. */
export function publicScope(method: string): Scope {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write'
}

/** Admin API: every request needs `admin` (spec §5: "full access including team and settings"). */
export function adminScope(): Scope {
  return 'admin'
}

function assertKeyAccess(auth: AuthContext, method: string, requiredScope: (method: string) => Scope): void {
  if (!API_PLANS.has(auth.plan)) {
    throw new AppError(
      'PLAN_UPGRADE_REQUIRED',
      `API access requires the Pro or Enterprise plan; this organisation is on ${auth.plan}`,
    )
  }
  const needed = requiredScope(method)
  if (!auth.scopes.has(needed) && !auth.scopes.has('admin')) {
    throw new AppError(
      'FORBIDDEN',
      `This API key lacks the "${needed}" scope required for ${method} requests`,
    )
  }
}

function assertSessionAccess(role: SessionRole, plan: PlanTier, access: SessionAccess): void {
  if (access === 'session' || access === 'worker') return
  if (role === 'WORKER') {
    throw new AppError(
      'FORBIDDEN',
      'Workers use the My day app (/my): the dashboard and its API are for admins and dispatchers',
    )
  }
  if (role !== 'ADMIN' && access !== 'dispatch') {
    throw new AppError(
      'FORBIDDEN',
      'Only an ADMIN of the organisation can do this; you are signed in as a DISPATCHER',
    )
  }
  if (access === 'pro-admin' && !API_PLANS.has(plan)) {
    throw new AppError(
      'PLAN_UPGRADE_REQUIRED',
      `API keys and automations come with the Pro and Enterprise plans; this organisation is on ${plan}`,
    )
  }
}

/** What the checks read of a request (a FastifyRequest is one). */
export interface AuthenticatedRequest {
  readonly auth: AuthContext
  readonly method: string
}

/** The plan, scope and role checks of one request on a route that admits `access`. */
export function assertAccess(
  request: AuthenticatedRequest,
  requiredScope: (method: string) => Scope,
  access: SessionAccess,
): void {
  const auth = request.auth
  if (auth.kind === 'session') {
    assertSessionAccess(auth.session.role, auth.plan, access)
    return
  }
  if (access === 'session' || access === 'worker') {
    throw new AppError(
      'UNAUTHORIZED',
      'Not signed in: this route is for dashboard sessions (sign in with POST /v1/admin/session)',
    )
  }
  assertKeyAccess(auth, request.method, requiredScope)
}
