// The technician's app (/my): a phone-first frame without the dashboard's sidebar — an app bar with
// the queue indicator and Sign out, an offline notice, the page. The offline queue lives here, one
// per signed-in user, so it keeps sending whichever page is open.
import { useState } from 'react'
import { Link, Outlet, useNavigate } from 'react-router'
import { useSession, useSignOut } from '../../app/session'
import favicon from '../../favicon.svg'
import { Button } from '../../ui/button'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { LocationBanner } from './location-banner'
import { useInstallableApp } from './pwa'
import { OfflineQueueProvider, useQueue } from './queue-context'
import { QueueIndicator } from './queue-panel'
import { useOnline } from './use-online'
import './my.css'
import { PageSuspense } from '../../app/lazy-page'

export function MyLayout() {
  const session = useSession()
  useInstallableApp()
  return (
    <OfflineQueueProvider key={session.user.id} userId={session.user.id}>
      <div className="my-app">
        <a className="skip-link" href="#my-main">
          Skip to content
        </a>
        <header className="my-bar">
          <Link to="/my" className="my-brand">
            <img src={favicon} alt="" width={24} height={24} />
            <span>My day</span>
          </Link>
          <div className="my-bar-actions">
            <QueueIndicator />
            <SignOutButton />
          </div>
        </header>
        <OfflineNotice />
        <LocationBanner userId={session.user.id} />
        <main id="my-main" className="my-main" tabIndex={-1}>
          <PageSuspense>
            <Outlet />
          </PageSuspense>
        </main>
      </div>
    </OfflineQueueProvider>
  )
}

/** Signs out; with actions still waiting, first says they stay on the phone until the next sign-in. */
function SignOutButton() {
  const signOut = useSignOut()
  const navigate = useNavigate()
  const { actions } = useQueue()
  const [confirming, setConfirming] = useState(false)
  const leave = () => signOut.mutate(undefined, { onSettled: () => navigate('/sign-in?next=%2Fmy') })
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        pending={signOut.isPending}
        onClick={() => (actions.length > 0 ? setConfirming(true) : leave())}
      >
        Sign out
      </Button>
      {confirming && (
        <ConfirmDialog
          title="Sign out with actions not sent?"
          confirmLabel="Sign out"
          pending={signOut.isPending}
          onConfirm={leave}
          onClose={() => setConfirming(false)}
        >
          <p>
            {actions.length === 1 ? '1 action has' : `${actions.length} actions have`} not reached the office
            yet. {actions.length === 1 ? 'It stays' : 'They stay'} on this phone and{' '}
            {actions.length === 1 ? 'is' : 'are'} sent when you sign in here again.
          </p>
        </ConfirmDialog>
      )}
    </>
  )
}

function OfflineNotice() {
  const online = useOnline()
  if (online) return null
  return (
    <div className="my-offline" role="status">
      <strong>Offline.</strong> Showing your jobs as last loaded. What you do is kept on this phone and sent
      when you are back online.
    </div>
  )
}
