// Settings › Organisation: the name (editable), the plan, the maps' background, where the API and its
// playgrounds are, and the download of all the organisation's data.
import { type FormEvent, useEffect, useId, useState } from 'react'
import { API_PLANS } from '../../app/access'
import { Badge } from '../../ui/badge'
import { Button } from '../../ui/button'
import { CopyButton } from '../../ui/copy-button'
import { DateTime } from '../../ui/date-time'
import { Field, FormError, serverErrors } from '../../ui/form'
import { PageHeader } from '../../ui/page-header'
import { ErrorState, LoadingState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { DataSection } from './data-section'
import { MapSection } from './map-section'
import { useOrganisation, useUpdateOrganisation } from './queries'

export function OrganisationPage() {
  const query = useOrganisation()
  const update = useUpdateOrganisation()
  const toast = useToast()
  const [name, setName] = useState('')
  const organisation = query.data?.organisation
  useEffect(() => {
    if (organisation) setName(organisation.name)
  }, [organisation])
  const errors = serverErrors(update.error, ['name'])
  const origin = window.location.origin
  const apiBase = `${origin}/v1/public`
  const baseId = useId()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    update.mutate({ name: name.trim() }, { onSuccess: () => toast.success('Organisation name saved') })
  }

  return (
    <div className="page">
      <PageHeader
        title="Organisation"
        description="Your organisation’s name, plan, map background, API endpoints and data."
      />
      {query.isPending && <LoadingState />}
      {query.error && <ErrorState error={query.error} onRetry={() => query.refetch()} />}
      {organisation && (
        <>
          <section className="card" aria-labelledby="org-profile">
            <form className="card-body" onSubmit={submit} noValidate>
              <h2 id="org-profile">Profile</h2>
              <FormError message={errors.form} />
              <div style={{ maxWidth: 420 }}>
                <Field label="Organisation name" error={errors.fields.name}>
                  {(control) => (
                    <input
                      {...control}
                      className="input"
                      value={name}
                      maxLength={255}
                      onChange={(e) => setName(e.target.value)}
                    />
                  )}
                </Field>
              </div>
              <div className="row">
                <Button
                  type="submit"
                  variant="primary"
                  pending={update.isPending}
                  disabled={name.trim() === organisation.name}
                >
                  Save
                </Button>
              </div>
              <dl className="details">
                <dt>Organisation id</dt>
                <dd className="mono">{organisation.id}</dd>
                <dt>Created</dt>
                <dd>
                  <DateTime value={organisation.createdAt} />
                </dd>
              </dl>
            </form>
          </section>
          <section className="card" aria-labelledby="org-plan">
            <div className="card-body">
              <h2 id="org-plan">Plan</h2>
              <div className="row">
                <Badge tone={API_PLANS.includes(organisation.plan) ? 'purple' : 'neutral'}>
                  {organisation.plan}
                </Badge>
                <span className="muted">
                  {API_PLANS.includes(organisation.plan)
                    ? 'Includes the public API, API keys and webhook automations.'
                    : 'No API access: API keys and automations need the Pro or Enterprise plan.'}
                </span>
              </div>
            </div>
          </section>
          <MapSection organisation={organisation} />
          <section className="card" aria-labelledby="org-api">
            <div className="card-body">
              <h2 id="org-api">API</h2>
              <div className="field">
                <label className="field-label" htmlFor={baseId}>
                  API base URL
                </label>
                <div className="secret">
                  <input id={baseId} className="secret-value" readOnly value={apiBase} />
                  <CopyButton value={apiBase} />
                </div>
              </div>
              <ul
                className="stack"
                style={{ margin: 0, paddingLeft: 'var(--space-5)', gap: 'var(--space-1)' }}
              >
                <li>
                  <a href="/v1/public/docs" target="_blank" rel="noreferrer">
                    Public API playground
                  </a>{' '}
                  <span className="muted">
                    — jobs, customers, vehicles, depots and shifts for integrations
                  </span>
                </li>
                <li>
                  <a href="/v1/admin/docs" target="_blank" rel="noreferrer">
                    Admin API playground
                  </a>{' '}
                  <span className="muted">— team, fleet, dispatch, API keys and automations</span>
                </li>
              </ul>
            </div>
          </section>
          <DataSection />
        </>
      )}
    </div>
  )
}
