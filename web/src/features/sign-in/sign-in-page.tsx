// Sign in with email and password (dashboard contract). One generic message for a wrong email or
// password; workers are told the dashboard is not for them; too many attempts say how long to wait;
// an email and password that match users in several organisations ask which one.
import { type FormEvent, useState } from 'react'
import { Navigate, useNavigate, useSearchParams } from 'react-router'
import { isWorker } from '../../app/access'
import { type Session, useSessionEnded, useSessionQuery, useSignIn } from '../../app/session'
import favicon from '../../favicon.svg'
import { Banner } from '../../ui/banner'
import { Button } from '../../ui/button'
import { Field } from '../../ui/form'
import { safeNext } from './safe-next'
import { organisationChoices, signInMessage } from './sign-in-errors'

export function SignInPage() {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const { data: session } = useSessionQuery()
  const { ended } = useSessionEnded()
  const signIn = useSignIn()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [organisationId, setOrganisationId] = useState('')
  const next = safeNext(params.get('next'), window.location.origin)

  if (session && !signIn.isPending) return <Navigate to={destination(session, next)} replace />

  const choices = organisationChoices(signIn.error)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    signIn.mutate(
      { email: email.trim(), password, ...(organisationId ? { organisationId } : {}) },
      { onSuccess: (signedIn) => navigate(destination(signedIn, next), { replace: true }) },
    )
  }
  const message = signIn.error && !(choices && !organisationId) ? signInMessage(signIn.error) : null

  return (
    <main className="auth-page">
      <div className="card auth-card">
        <div className="stack" style={{ gap: 'var(--space-2)' }}>
          <img src={favicon} alt="" width={32} height={32} />
          <h1>Sign in to fieldservice</h1>
          <p className="muted">Admins and dispatchers open the dashboard; technicians open My day.</p>
        </div>
        {ended && !signIn.error && (
          <Banner tone="info" title="Your session has ended">
            You were signed out after a period of inactivity, or from another place. Sign in again to
            continue.
          </Banner>
        )}
        {message && <Banner tone="danger">{message}</Banner>}
        <form className="stack" onSubmit={submit} noValidate>
          <Field label="Email">
            {(control) => (
              <input
                {...control}
                className="input"
                type="email"
                autoComplete="username"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            )}
          </Field>
          <Field label="Password">
            {(control) => (
              <input
                {...control}
                className="input"
                type="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            )}
          </Field>
          {choices && (
            <Field
              label="Organisation"
              hint="Your email and password match accounts in several organisations."
            >
              {(control) => (
                <select
                  {...control}
                  className="select"
                  value={organisationId}
                  onChange={(e) => setOrganisationId(e.target.value)}
                >
                  <option value="">Choose an organisation…</option>
                  {choices.map((org) => (
                    <option key={org.id} value={org.id}>
                      {org.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          <Button
            type="submit"
            variant="primary"
            pending={signIn.isPending}
            disabled={!email || !password || Boolean(choices && !organisationId)}
          >
            Sign in
          </Button>
        </form>
      </div>
    </main>
  )
}

/** Workers go to My day (the dashboard is not theirs) unless the link was already into it. */
function destination(session: Session, next: string): string {
  return isWorker(session) && !/^\/my(\/|\?|$)/.test(next) ? '/my' : next
}
