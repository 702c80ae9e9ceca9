// Route guards: RequireSession wraps every signed-in route (loading → sign-in page → the shell);
// RequireAccess wraps a page that needs a role or plan (no access → a clear page; a plan without
// the feature → what Pro unlocks). The server enforces the same rules; these keep the UI truthful.
import type { ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router'
import { ErrorState, LoadingState } from '../ui/states'
import { decideAccess, isWorker, type Requirement } from './access'
import { useSession, useSessionQuery } from './session'
import { NoAccessPage, UpgradePage, WorkersUseMyDayPage } from './status-pages'

export function RequireSession({ children }: { children: ReactNode }) {
  const { data, error, isPending, refetch } = useSessionQuery()
  const location = useLocation()
  if (isPending) {
    return (
      <div className="state-page state">
        <LoadingState label="Loading your dashboard…" />
      </div>
    )
  }
  // Only when no session is known: a check that failed for want of a connection (a phone going into
  // a dead zone before its service worker took over) keeps the session already loaded — the app goes
  // on offline, and a session really ended shows itself on the next call (a 401).
  if (error && data === undefined) {
    return (
      <div className="state-page state">
        <ErrorState error={error} title="The dashboard could not start" onRetry={() => refetch()} />
      </div>
    )
  }
  if (!data) {
    const next = `${location.pathname}${location.search}`
    const to = next === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`
    return <Navigate to={to} replace />
  }
  return children
}

export function RequireAccess({
  requirement,
  feature,
  children,
}: {
  requirement: Requirement
  /** What the page is, for the no-access and upgrade pages ("API keys"). */
  feature: string
  children: ReactNode
}) {
  const session = useSession()
  const decision = decideAccess(session, requirement)
  if (decision === 'no-access') return <NoAccessPage feature={feature} />
  if (decision === 'upgrade') return <UpgradePage feature={feature} />
  return children
}

/** The dashboard's pages: a worker is sent to My day from home, and told so on any other page. */
export function RequireDashboardRole({ children }: { children: ReactNode }) {
  const session = useSession()
  const location = useLocation()
  if (!isWorker(session)) return children
  if (location.pathname === '/') return <Navigate to="/my" replace />
  return <WorkersUseMyDayPage />
}
