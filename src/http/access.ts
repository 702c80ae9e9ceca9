// Who may call what, decided in one place for both ways in. An API key: its organisation's plan must
// have API access and the key the route's scope (spec §5). A dashboard session (admin API only): the
// user's role must be one the route allows, and the Pro features (API keys, automations, their
// executions) also need a Pro or Enterprise plan; everything else works on every plan.
//
// Each admin route says which sessions it admits with `config: { access }`, set per route module in
// app.ts (withSessionAccess) and overridden on single routes; a route that says nothing is ADMIN-only.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import type { PlanTier } from '../db/types.js'
import type { Scope } from '../modules/api-keys/service.js'
import { API_PLANS } from '../modules/organisations/service.js'
import type { SessionRole } from '../modules/sessions/service.js'
import type { AuthContext } from './auth.js'
import { AppError } from './errors.js'
import { appendRouteHook } from './route-hooks.js'
import type { RouteOptions as ModuleOptions } from './route-options.js'

/**
 * - `dispatch`: ADMIN and DISPATCHER (jobs, customers, fleet, shifts, plans, reading the team)
 * - `admin`: ADMIN only (the organisation's settings, team changes)
 * - `pro-admin`: ADMIN only, on PRO or ENTERPRISE (API keys, automations, execution logs)
 * - `session`: any live session, and only a session (GET/DELETE /session)
 * - `worker`: any live session (a WORKER's, mostly), and only a session: the signed-in user's own day (/my)
 * - `sign-in`: no authentication at all (POST /session)
 */
export type SessionAccess = 'dispatch' | 'admin' | 'pro-admin' | 'session' | 'worker' | 'sign-in'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which dashboard sessions an admin route admits (see src/http/access.ts); default `admin`. */
    access?: SessionAccess
  }
}

const DEFAULT_ACCESS: SessionAccess = 'admin'

/** Registers a route module whose routes admit `access` unless a route says otherwise. */
export function withSessionAccess(
  access: SessionAccess,
  routes: FastifyPluginAsyncTypebox<ModuleOptions>,
): FastifyPluginAsyncTypebox<ModuleOptions> {
  return async (scope, options) => {
    scope.addHook('onRoute', (route) => {
      route.config = { access, ...route.config }
    })
    await scope.register(routes, options)
  }
}

export function accessOf(request: FastifyRequest): SessionAccess {
  return request.routeOptions.config?.access ?? DEFAULT_ACCESS
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

/** The plan, scope and role checks: run after the rate limiter, so refused requests still count. */
export function assertAccess(
  request: FastifyRequest,
  requiredScope: (method: string) => Scope,
  access: SessionAccess = accessOf(request),
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

export function appendAccessCheck(scope: FastifyInstance, requiredScope: (method: string) => Scope): void {
  scope.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.access === 'sign-in') return
    // A callback hook, as the other per-request hooks: an async one costs a promise every time. The
    // route's access is read from its options (withSessionAccess's onRoute, which sets the module's,
    // runs after this one) rather than from request.routeOptions, which builds an object per call.
    const check = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      try {
        assertAccess(request, requiredScope, route.config?.access ?? DEFAULT_ACCESS)
      } catch (error) {
        return done(error as Error)
      }
      done()
    }
    appendRouteHook(route, 'onRequest', check)
  })
}
