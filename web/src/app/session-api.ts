// The session calls of the dashboard contract (GET/POST/DELETE /v1/admin/session) on the typed client.
import { api, unwrap } from '../api/client'
import { ApiError } from '../api/errors'
import type { RequestBody, Schema } from '../api/types'

export type Session = Schema<'SessionInfo'>
export type SignInInput = RequestBody<'/session', 'post'>

/** The live session, or null when there is none (401). */
export async function fetchSession(): Promise<Session | null> {
  try {
    return (await unwrap(api.GET('/session'))).session
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null
    throw error
  }
}

export async function signIn(body: SignInInput): Promise<Session> {
  return (await unwrap(api.POST('/session', { body }))).session
}

export async function signOut(): Promise<void> {
  await unwrap(api.DELETE('/session'))
}
