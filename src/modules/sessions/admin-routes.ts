// The dashboard's sign-in contract: POST /session signs in (and sets the httpOnly `fs_session`
// cookie), GET /session says who is signed in, DELETE /session signs out. See src/modules/auth/access.ts
// for what a session may do, and src/modules/auth/session-cookies.ts for the cookie and the CSRF token.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { AppError } from '../../http/errors.js'
import { BODY_ERRORS, COMMON_ERRORS, errorResponses, SUCCESS } from '../../http/schemas.js'
import type { SessionAuth } from '../auth/index.js'
import type { RouteOptions } from '../route-options.js'
import { ORGANISATION_REQUIRED_ERROR, SessionResponse, SignedOutResponse, SignInBody } from './schemas.js'

const TAGS = ['Session']

/** The session of a request on a `session` route (the access check has already made sure). */
function sessionOf(request: FastifyRequest): SessionAuth['session'] {
  if (request.auth.kind !== 'session') throw new AppError('UNAUTHORIZED', 'Not signed in')
  return request.auth.session
}

export const sessionAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { dashboard }) => {
  if (!dashboard) throw new Error('the session routes need the dashboard sign-in (RouteOptions.dashboard)')
  const { cookies, sessions, signIn, ipLimit } = dashboard

  app.post(
    '/session',
    {
      schema: {
        operationId: 'signIn',
        tags: TAGS,
        summary: 'Sign in to the dashboard',
        description:
          'With the email and password of an ADMIN or DISPATCHER. Sets the session cookie `fs_session` ' +
          '(HttpOnly, SameSite=Lax, Path=/, Secure over TLS) and answers the session, whose `csrfToken` ' +
          'every later POST, PUT, PATCH and DELETE must send as `X-CSRF-Token`. Any wrong email or ' +
          'password, a user without a password and a deactivated user all get the same 401. A ' +
          'successful sign-in also sets a device cookie (`fs_device_…`, HttpOnly, SameSite=Lax, ' +
          'Path=/v1/admin/session, 180 days) naming the account: failed attempts from a browser that ' +
          'sends it are limited on their own (SIGN_IN_MAX_FAILURES_PER_DEVICE), so guessing from ' +
          'elsewhere never locks that browser out. Other attempts are limited per email and client ' +
          'address, per client address and per email (SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_IP, _PER_IP ' +
          'and _PER_ACCOUNT within SIGN_IN_WINDOW_MINUTES); past a limit, 429 with Retry-After. A ' +
          'cookie of an earlier session sent along is signed out.',
        security: [],
        body: SignInBody,
        response: {
          200: SessionResponse,
          ...errorResponses(
            ['VALIDATION_ERROR', 'The body is not an email and a password; `details` names the field'],
            ['UNAUTHORIZED', 'The email or the password is wrong, or the user cannot sign in'],
            ['FORBIDDEN', 'The user is a WORKER: workers do not use the dashboard'],
            [
              'RATE_LIMITED',
              'Too many failed sign-ins for this email, from this address or with this device cookie; ' +
                'retry after `Retry-After` seconds',
            ],
          ),
          ...ORGANISATION_REQUIRED_ERROR,
          ...BODY_ERRORS,
        },
      },
      config: { access: 'sign-in', rateLimit: false, revealsSecret: true },
      // Needs no key, so it counts against the client address's limit of such routes, besides the
      // sign-in limits of its own (failures per email and per address).
      ...(ipLimit ? { onRequest: ipLimit } : {}),
    },
    async (request, reply) => {
      const signedIn = await signIn.signIn(request.body, { ip: request.ip, cookies: request.cookies })
      const previous = cookies.valueOf(request)
      if (previous !== undefined) await sessions.endByCookie(previous)
      cookies.set(request, reply, signedIn.cookieValue)
      cookies.setDevice(request, reply, signedIn.deviceCookie)
      return { data: { session: signedIn.session.info }, message: SUCCESS }
    },
  )

  app.get(
    '/session',
    {
      schema: {
        operationId: 'getSession',
        tags: TAGS,
        summary: 'The signed-in session',
        description:
          'Who is signed in, to which organisation, the CSRF token and when the session ends. 401 when ' +
          'the cookie is missing or its session has ended (the cookie is then cleared). Counts as ' +
          'activity: it moves idleExpiresAt.',
        security: [{ cookieAuth: [] }],
        response: { 200: SessionResponse, ...COMMON_ERRORS },
      },
      config: { access: 'session' },
    },
    async (request) => ({ data: { session: sessionOf(request).info }, message: SUCCESS }),
  )

  app.delete(
    '/session',
    {
      schema: {
        operationId: 'signOut',
        tags: TAGS,
        summary: 'Sign out',
        description:
          'Ends this session (its row is deleted, so the cookie is useless even if kept) and clears the ' +
          'cookie. Needs the X-CSRF-Token header like every change.',
        security: [{ cookieAuth: [] }],
        response: { 200: SignedOutResponse, ...COMMON_ERRORS, ...BODY_ERRORS },
      },
      config: { access: 'session' },
    },
    async (request, reply) => {
      await sessions.end(sessionOf(request))
      cookies.clear(request, reply)
      return { data: { session: null }, message: SUCCESS }
    },
  )
}
