// The hooks that put authentication and access on the routes of an API (the rules themselves are the
// auth module's: src/modules/auth). Per request, in order: `onRequest` authenticates (an API key, or
// on the admin API a session cookie) and leaves `request.auth`; the rate limiter counts it; then the
// route's access check. Each admin route says which sessions it admits with `config: { access }`, set
// per route module in app.ts (withSessionAccess) and overridden on single routes; a route that says
// nothing is ADMIN-only.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type {
  FastifyInstance,
  FastifyPluginOptions,
  FastifyReply,
  FastifyRequest,
  RouteOptions,
} from 'fastify'
import {
  type ApiKeyResolver,
  type AuthContext,
  assertAccess,
  assertNoKeyInQuery,
  DEFAULT_ACCESS,
  type Scope,
  type SessionAccess,
  type SessionLogin,
  sessionAuth,
} from '../modules/auth/index.js'
import { appendRouteHook } from './route-hooks.js'
import { ERROR_CODE_DESCRIPTIONS, ERROR_CODES_KEYWORD, errorResponses } from './schemas.js'

type HookDone = (error?: Error) => void

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which dashboard sessions an admin route admits (see src/modules/auth/access.ts); default `admin`. */
    access?: SessionAccess
  }
}

/** Registers a route module whose routes admit `access` unless a route says otherwise. */
export function withSessionAccess<Options extends FastifyPluginOptions>(
  access: SessionAccess,
  routes: FastifyPluginAsyncTypebox<Options>,
): FastifyPluginAsyncTypebox<Options> {
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

/**
 * Installs authentication on `onRequest` for every route of the calling plugin (before the rate
 * limiter, which counts per key or user). With `login` (the admin API), a request without an
 * Authorization header may authenticate with the session cookie instead; an Authorization header
 * always wins and is checked exactly as without sessions. The sign-in route authenticates nobody.
 * Register this before @fastify/rate-limit and call `appendAccessCheck` after it.
 */
export function installAuthentication(
  scope: FastifyInstance,
  resolver: ApiKeyResolver,
  login?: SessionLogin,
): void {
  scope.decorateRequest<AuthContext>('auth', null as unknown as AuthContext)
  // Callback-style: a cached key (nearly every request) is resolved without a promise.
  scope.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookDone) => {
    if (login && accessOf(request) === 'sign-in') return done()
    try {
      assertNoKeyInQuery(request.query)
    } catch (error) {
      return done(error as Error)
    }
    const header = request.headers.authorization
    const cookie = login && header === undefined ? login.cookies.valueOf(request) : undefined
    if (login && cookie !== undefined) {
      login.cookies.authenticate(request, reply, cookie).then((session) => {
        request.auth = sessionAuth(session, login.rateLimitPerMinute)
        done()
      }, done)
      return
    }
    const cached = resolver.cached(header)
    if (cached) {
      request.auth = cached
      return done()
    }
    resolver.authenticate(header, login !== undefined).then((auth) => {
      request.auth = auth
      done()
    }, done)
  })
}

/** The plan, scope and role checks: run after the rate limiter, so refused requests still count. */
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

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Every state-changing admin route can answer 403 CSRF_INVALID to a session request: list the code
 * in its 403 response (a copy: public routes share these schema objects).
 */
export function documentCsrfErrors(api: FastifyInstance): void {
  api.addHook('onRoute', (route: RouteOptions) => {
    const methods = ([] as string[]).concat(route.method)
    const response = route.schema?.response as Record<string, Record<string, unknown>> | undefined
    if (route.config?.access === 'sign-in' || !response || !methods.some((m) => WRITE_METHODS.has(m))) return
    const forbidden = response[403]
    const codes = (forbidden?.[ERROR_CODES_KEYWORD] as string[] | undefined) ?? []
    if (codes.includes('CSRF_INVALID')) return
    const documented = forbidden
      ? {
          ...forbidden,
          [ERROR_CODES_KEYWORD]: [...codes, 'CSRF_INVALID'],
          description: `${forbidden.description}; or ${ERROR_CODE_DESCRIPTIONS.CSRF_INVALID} (CSRF_INVALID)`,
        }
      : errorResponses('CSRF_INVALID')[403]
    route.schema = { ...route.schema, response: { ...response, 403: documented } }
  })
}
