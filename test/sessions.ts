// Dashboard users and sessions for tests: a user with a password, signing in through the real route,
// and a client that sends the session cookie (and the CSRF token on changes) like the SPA does.
import { randomBytes } from 'node:crypto'
import type { UserRole } from '../src/db/types.js'
import { createUser, setUserPassword } from '../src/modules/organisations/users-service.js'
import { type ApiResponse, TEST_PASSWORD_PARAMS, type TestContext } from './helpers.js'

export const PASSWORD = 'correct horse battery staple'

export interface DashboardUser {
  id: string
  email: string
  password: string
  organisationId: string
}

/** A user of the organisation with a password (ADMIN unless told otherwise). */
export async function makeDashboardUser(
  t: TestContext,
  organisationId: string,
  options: { role?: UserRole; email?: string; password?: string; name?: string } = {},
): Promise<DashboardUser> {
  const email = options.email ?? `user-${randomBytes(4).toString('hex')}@example.com`
  const password = options.password ?? PASSWORD
  const user = await createUser(t.database.db, organisationId, {
    name: options.name ?? 'Dana Dashboard',
    email,
    role: options.role ?? 'ADMIN',
  })
  await setUserPassword(t.database.db, organisationId, user.id, password, TEST_PASSWORD_PARAMS)
  return { id: user.id, email: user.email, password, organisationId }
}

/** The value of the fs_session cookie an answer sets, or undefined. */
export function sessionCookieOf(response: { headers: Record<string, unknown> }): string | undefined {
  const cookies = [response.headers['set-cookie']].flat().filter((c): c is string => typeof c === 'string')
  const cookie = cookies.find((c) => c.startsWith('fs_session='))
  return cookie?.slice('fs_session='.length).split(';')[0]
}

export interface SignedIn {
  cookie: string
  csrfToken: string
  // biome-ignore lint/suspicious/noExplicitAny: the session body is asserted field by field
  session: any
}

export async function signIn(
  t: TestContext,
  user: { email: string; password: string },
  extra: Record<string, unknown> = {},
  remoteAddress?: string,
): Promise<SignedIn> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/admin/session',
    payload: { email: user.email, password: user.password, ...extra },
    ...(remoteAddress ? { remoteAddress } : {}),
  })
  if (response.statusCode !== 200)
    throw new Error(`sign-in answered ${response.statusCode}: ${response.body}`)
  const cookie = sessionCookieOf(response)
  if (!cookie) throw new Error('sign-in set no cookie')
  const session = response.json().data.session
  return { cookie, csrfToken: session.csrfToken, session }
}

/**
 * Requests to the admin API as the SPA sends them: the session cookie always, the CSRF token on
 * changes (unless `csrf` says otherwise: a token to send instead, or null for none).
 */
export function sessionClient(t: TestContext, signedIn: SignedIn, options: { csrf?: string | null } = {}) {
  const send = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) => {
    const headers: Record<string, string> = { cookie: `fs_session=${signedIn.cookie}` }
    const csrf = options.csrf === undefined ? signedIn.csrfToken : options.csrf
    if (method !== 'GET' && csrf !== null) headers['x-csrf-token'] = csrf
    const response = await t.app.inject({
      method,
      url: `/v1/admin${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    let body: unknown = response.body
    try {
      body = response.json()
    } catch {
      // not JSON: keep the text
    }
    return { status: response.statusCode, body, headers: response.headers } as ApiResponse
  }
  return {
    get: (url: string) => send('GET', url),
    post: (url: string, payload?: unknown) => send('POST', url, payload),
    put: (url: string, payload: unknown) => send('PUT', url, payload),
    patch: (url: string, payload: unknown) => send('PATCH', url, payload),
    delete: (url: string) => send('DELETE', url),
  }
}
