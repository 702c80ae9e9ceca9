// The dashboard's way into the admin API: the `fs_session` cookie names a server-side session, and
// every request that changes something also carries the session's CSRF token in `X-CSRF-Token`.
//
// CSRF: a synchronizer token stored on the session row (OWASP's first recommendation), not
// @fastify/csrf-protection. The sessions live in our own table already, so the token is one more
// column, checked with one constant-time comparison; the plugin would need a secret kept in a second
// cookie or a session plugin, and gives nothing more here. The token reaches the SPA in the sign-in
// answer and GET /session (the cookie itself is httpOnly). SameSite=Lax on the cookie and the JSON
// content type of every write (an HTML form cannot send one, and a cross-site fetch with it needs a
// CORS preflight this service never grants) are the further layers.
import type {} from '@fastify/cookie'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../../http/errors.js'
import { ADMIN_PREFIX } from '../../http/openapi.js'
import type { DeviceCookie } from '../sessions/device-cookies.js'
import { CSRF_HEADER, SESSION_COOKIE } from '../sessions/schemas.js'
import { csrfTokenMatches, type LiveSession, type Sessions } from '../sessions/service.js'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
/** Where the sign-in route is: the only request a device cookie goes with. */
const SIGN_IN_PATH = `${ADMIN_PREFIX}/session`

export class SessionCookies {
  constructor(readonly sessions: Sessions) {}

  valueOf(request: FastifyRequest): string | undefined {
    const value = request.cookies?.[SESSION_COOKIE]
    return value === undefined || value === '' ? undefined : value
  }

  /** httpOnly, SameSite=Lax, path /; Secure when the request came over TLS (see TRUST_PROXY). */
  set(request: FastifyRequest, reply: FastifyReply, value: string): void {
    reply.setCookie(SESSION_COOKIE, value, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
    })
  }

  /**
   * The device cookie of a browser that has just signed in (sessions/device-cookies.ts): sent back
   * to the sign-in route only, and kept across sign-outs, which is its point.
   */
  setDevice(request: FastifyRequest, reply: FastifyReply, cookie: DeviceCookie): void {
    reply.setCookie(cookie.name, cookie.value, {
      path: SIGN_IN_PATH,
      maxAge: cookie.maxAgeSeconds,
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
    })
  }

  clear(request: FastifyRequest, reply: FastifyReply): void {
    reply.clearCookie(SESSION_COOKIE, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
    })
  }

  /**
   * The live session of a request that sent the cookie, or 401 (and the dead cookie cleared). A
   * state-changing request must also carry the session's CSRF token, or 403 CSRF_INVALID; it is then
   * refused before the session is touched or anything else happens.
   */
  async authenticate(request: FastifyRequest, reply: FastifyReply, value: string): Promise<LiveSession> {
    const session = await this.sessions.find(value)
    if (!session) {
      this.clear(request, reply)
      throw new AppError('UNAUTHORIZED', 'Your session has ended or is not valid; sign in again')
    }
    if (!SAFE_METHODS.has(request.method) && !csrfTokenMatches(session, request.headers[CSRF_HEADER])) {
      throw new AppError(
        'CSRF_INVALID',
        request.headers[CSRF_HEADER] === undefined
          ? 'Missing X-CSRF-Token header: send the csrfToken of your session with every change'
          : 'The X-CSRF-Token header does not match your session',
      )
    }
    await this.sessions.touch(session)
    return session
  }
}
