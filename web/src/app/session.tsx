// The signed-in session (dashboard contract: GET/POST/DELETE /v1/admin/session). It is server
// state like any other — one query, ['session'] — whose csrfToken the API client sends with every
// write. A 401 from any other call ends it (idle or absolute expiry, sign-out elsewhere, a password
// change): the cache is cleared and the app shows the sign-in page, saying why.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react'
import { notifySessionEnded, onSessionEnd, setCsrfToken } from '../api/client'
import { fetchSession, type Session, signIn, signOut } from './session-api'

export type { Session } from './session-api'

export const SESSION_QUERY_KEY = ['session'] as const

const SessionEndedContext = createContext<{ ended: boolean; acknowledge(): void }>({
  ended: false,
  acknowledge() {},
})

async function loadSession(): Promise<Session | null> {
  const session = await fetchSession()
  // Checked again (window focus) and gone: it expired or was ended elsewhere.
  if (!session) notifySessionEnded()
  setCsrfToken(session?.csrfToken ?? null)
  return session
}

/** The session query: undefined while loading, null when signed out. */
export function useSessionQuery() {
  return useQuery({
    queryKey: SESSION_QUERY_KEY,
    queryFn: loadSession,
    staleTime: 60_000,
    retry: false,
    // Checked again when the tab regains focus, so an expired session is noticed before the next click.
    refetchOnWindowFocus: true,
    // Asked even when the browser says it is offline: in the technician app (/my) the service worker
    // answers with the last session it saw, so the app opens in a dead zone.
    networkMode: 'offlineFirst',
  })
}

/** The current session, inside the signed-in part of the app (RequireSession guarantees one). */
export function useSession(): Session {
  const { data } = useSessionQuery()
  if (!data) throw new Error('useSession outside a signed-in route')
  return data
}

/** Whether the last session ended on its own (shown on the sign-in page). */
export function useSessionEnded() {
  return useContext(SessionEndedContext)
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient()
  const [ended, setEnded] = useState(false)
  useEffect(
    () =>
      onSessionEnd(() => {
        setCsrfToken(null)
        setEnded(true)
        queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY_KEY[0] })
        queryClient.setQueryData(SESSION_QUERY_KEY, null)
      }),
    [queryClient],
  )
  return (
    <SessionEndedContext.Provider value={{ ended, acknowledge: () => setEnded(false) }}>
      {children}
    </SessionEndedContext.Provider>
  )
}

export function useSignIn() {
  const queryClient = useQueryClient()
  const { acknowledge } = useSessionEnded()
  return useMutation({
    mutationFn: signIn,
    onSuccess: (session) => {
      setCsrfToken(session.csrfToken)
      acknowledge()
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY_KEY[0] })
      queryClient.setQueryData(SESSION_QUERY_KEY, session)
    },
  })
}

export function useSignOut() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: signOut,
    // Signed out locally even when the server could not be told (it expires the row anyway).
    onSettled: () => {
      setCsrfToken(null)
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY_KEY[0] })
      queryClient.setQueryData(SESSION_QUERY_KEY, null)
    },
  })
}
