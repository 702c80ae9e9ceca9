// The one typed client for the admin API (types generated from openapi/admin-v1.json into
// schema.d.ts by `npm run web:types`). The session cookie rides along (same origin); state-changing
// requests carry the session's CSRF token; a 401 on any call but the session's own means the session
// ended (idle, expired, signed out elsewhere), and the app goes back to the sign-in page.
import createClient, { type Middleware } from 'openapi-fetch'
import { ApiError } from './errors'
import type { paths } from './schema'

export const API_BASE = '/v1/admin'
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

let csrfToken: string | null = null
const sessionEndListeners = new Set<() => void>()

/** Set on sign-in and on reading the session; cleared on sign-out. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token
}

/** Called whenever an API call answers 401 while a session was thought alive. */
export function onSessionEnd(listener: () => void): () => void {
  sessionEndListeners.add(listener)
  return () => sessionEndListeners.delete(listener)
}

/** A session thought alive turned out to have ended (a 401, or the session check found none). */
export function notifySessionEnded(): void {
  if (csrfToken === null) return
  for (const listener of sessionEndListeners) listener()
}

const csrf: Middleware = {
  onRequest({ request }) {
    if (csrfToken && !SAFE_METHODS.has(request.method)) request.headers.set('X-CSRF-Token', csrfToken)
    return request
  },
}

const sessionEnd: Middleware = {
  onResponse({ response, schemaPath }) {
    if (response.status === 401 && schemaPath !== '/session') notifySessionEnded()
    return response
  },
}

export const api = createClient<paths>({ baseUrl: API_BASE, credentials: 'same-origin' })
api.use(csrf, sessionEnd)

interface Answer<T> {
  data?: T
  error?: unknown
  response: Response
}

/**
 * Awaits an openapi-fetch call and returns the envelope's `data`, or throws an ApiError with the
 * server's message, code and field details. Every data hook goes through this.
 */
export async function unwrap<T extends { data: unknown }>(call: Promise<Answer<T>>): Promise<T['data']> {
  const { data, error, response } = await call
  if (!response.ok || data === undefined) {
    throw new ApiError(
      response.status,
      (error ?? undefined) as ConstructorParameters<typeof ApiError>[1],
      response.headers.get('retry-after'),
    )
  }
  return data.data
}
