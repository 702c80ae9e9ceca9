// Pages that say why there is nothing to show: no access for this role, a feature of a higher plan,
// a path that does not exist.
import { ButtonLink } from '../ui/button'
import { useSession } from './session'

export function NoAccessPage({ feature }: { feature: string }) {
  const session = useSession()
  return (
    <div className="page">
      <div className="card">
        <div className="state state-page">
          <div className="state-icon" aria-hidden="true">
            🔒
          </div>
          <h1 className="state-title">You don’t have access to {feature}</h1>
          <p>
            {feature} {feature.endsWith('s') ? 'are' : 'is'} managed by your organisation’s admins; you are
            signed in as a{' '}
            {session.user.role === 'DISPATCHER' ? 'dispatcher' : session.user.role.toLowerCase()}. Ask an
            admin if you need something changed.
          </p>
          <ButtonLink to="/">Back to home</ButtonLink>
        </div>
      </div>
    </div>
  )
}

const PRO_FEATURES = [
  'The public REST API: jobs, customers, vehicles, depots and shifts for your ERP, CRM or own tools',
  'API keys with scopes, expiry dates, per-key rate limits and rotation',
  'Automations: signed webhooks on job events (created, assigned, completed …) to any HTTPS endpoint',
  'Webhook execution logs with the request, the response and one-click redelivery',
]

export function UpgradePage({ feature }: { feature: string }) {
  const session = useSession()
  return (
    <div className="page">
      <section className="card upsell" aria-labelledby="upsell-title">
        <span className="badge badge-purple" style={{ alignSelf: 'flex-start' }}>
          Available on Pro
        </span>
        <h1 id="upsell-title">{feature} are available on the Pro plan</h1>
        <p className="page-description">
          {session.organisation.name} is on the {session.organisation.plan.toLowerCase()} plan. Pro and
          Enterprise add:
        </p>
        <ul>
          {PRO_FEATURES.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        <p className="muted">Everything else in the dashboard stays available on your current plan.</p>
        <div className="row">
          <ButtonLink to="/settings/organisation" variant="primary">
            See your plan
          </ButtonLink>
        </div>
      </section>
    </div>
  )
}

export function NotFoundPage() {
  return (
    <div className="page">
      <div className="card">
        <div className="state state-page">
          <div className="state-icon" aria-hidden="true">
            ?
          </div>
          <h1 className="state-title">Page not found</h1>
          <p>There is nothing at this address. It may have been moved, or the link is mistyped.</p>
          <ButtonLink to="/">Back to home</ButtonLink>
        </div>
      </div>
    </div>
  )
}

/** A worker on a dashboard page: the dashboard is not theirs, My day is. */
export function WorkersUseMyDayPage() {
  return (
    <main className="auth-page">
      <div className="card auth-card">
        <div className="state">
          <h1 className="state-title">Workers use the My day app</h1>
          <p>
            The dashboard is for admins and dispatchers. Your jobs, their forms and your route are in My day.
          </p>
          <ButtonLink to="/my" variant="primary">
            Open My day
          </ButtonLink>
        </div>
      </div>
    </main>
  )
}
