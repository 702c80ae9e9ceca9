// One automation: what it does, its state and secret, the actions (edit, activate/deactivate, send
// a test event, rotate the secret, delete) and its own delivery log.
import { useState } from 'react'
import { useNavigate, useParams } from 'react-router'
import { errorMessage } from '../../api/errors'
import { Button, ButtonLink } from '../../ui/button'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { DateTime } from '../../ui/date-time'
import { PageHeader } from '../../ui/page-header'
import { ErrorState, LoadingState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { ExecutionLog } from '../executions/execution-log'
import { EditAutomationDialog } from './automation-form-dialog'
import { AutomationStatus } from './automation-status'
import { eventLabel } from './events'
import { useAutomation, useDeleteAutomation, useSendTestEvent, useSetAutomationActive } from './queries'
import { RotateSecretDialog } from './rotate-secret-dialog'

export function AutomationPage() {
  const { automationId = '' } = useParams()
  const query = useAutomation(automationId)
  const setActive = useSetAutomationActive()
  const sendTest = useSendTestEvent(automationId)
  const remove = useDeleteAutomation()
  const toast = useToast()
  const navigate = useNavigate()
  const [dialog, setDialog] = useState<'edit' | 'rotate' | 'delete' | 'deactivate' | null>(null)
  const crumbs = [{ label: 'Automations', to: '/settings/automations' }]

  if (query.isPending) return <LoadingState />
  if (query.error) {
    return (
      <div className="page">
        <PageHeader breadcrumbs={crumbs} title="Automation" />
        <div className="card">
          <ErrorState
            error={query.error}
            title="This automation could not be loaded"
            onRetry={() => query.refetch()}
          />
        </div>
        <div>
          <ButtonLink to="/settings/automations">Back to automations</ButtonLink>
        </div>
      </div>
    )
  }
  const { automation } = query.data

  const activate = (active: boolean) =>
    setActive.mutate(
      { id: automation.id, active },
      {
        onSuccess: () => {
          toast.success(active ? 'Automation activated' : 'Automation deactivated')
          setDialog(null)
        },
        onError: (error) => toast.error(errorMessage(error)),
      },
    )
  const test = () =>
    sendTest.mutate(undefined, {
      onSuccess: ({ execution }) => {
        const outcome =
          execution.status === 'SUCCESS'
            ? `answered ${execution.httpStatus}`
            : `failed: ${execution.error ?? 'no answer'}`
        toast[execution.status === 'FAILED' ? 'error' : 'success'](`Test event sent: ${outcome}`)
      },
      onError: (error) => toast.error(errorMessage(error)),
    })

  return (
    <div className="page">
      <PageHeader
        breadcrumbs={crumbs}
        title={
          <span className="row">
            {automation.name} <AutomationStatus automation={automation} />
          </span>
        }
        description={`When “${eventLabel(automation.event)}” happens, send a webhook.`}
        actions={
          <>
            <Button onClick={test} pending={sendTest.isPending}>
              Send test event
            </Button>
            <Button onClick={() => setDialog('edit')}>Edit</Button>
            {automation.isActive ? (
              <Button onClick={() => setDialog('deactivate')}>Deactivate</Button>
            ) : (
              <Button variant="primary" onClick={() => activate(true)} pending={setActive.isPending}>
                Activate
              </Button>
            )}
          </>
        }
      />
      <section className="card" aria-labelledby="automation-settings">
        <div className="card-body">
          <h2 id="automation-settings">Settings</h2>
          <dl className="details">
            <dt>Trigger event</dt>
            <dd>
              {eventLabel(automation.event)} <span className="mono muted">{automation.event}</span>
            </dd>
            <dt>Action</dt>
            <dd>Send webhook (POST, JSON, signed)</dd>
            <dt>Endpoint URL</dt>
            <dd className="mono">{automation.url}</dd>
            <dt>Signing secret</dt>
            <dd>
              <span className="mono">{automation.secretHint}</span>{' '}
              {automation.previousSecretExpiresAt && (
                <span className="muted">
                  (the previous secret also signs until{' '}
                  <DateTime value={automation.previousSecretExpiresAt} />)
                </span>
              )}{' '}
              <button type="button" className="btn-link" onClick={() => setDialog('rotate')}>
                Rotate secret
              </button>
            </dd>
            <dt>Created</dt>
            <dd>
              <DateTime value={automation.createdAt} />
            </dd>
            <dt>Updated</dt>
            <dd>
              <DateTime value={automation.updatedAt} />
            </dd>
          </dl>
          <div>
            <Button variant="ghost" size="sm" onClick={() => setDialog('delete')}>
              Delete automation
            </Button>
          </div>
        </div>
      </section>
      <section className="section" aria-labelledby="automation-deliveries">
        <h2 id="automation-deliveries">Deliveries</h2>
        <ExecutionLog
          automationId={automation.id}
          automationNames={new Map([[automation.id, automation.name]])}
          emptyHint={
            automation.isActive
              ? 'Deliveries appear here when the event happens. Send a test event to try your endpoint now.'
              : 'This automation is inactive. Send a test event to try your endpoint, then activate it.'
          }
        />
      </section>

      {dialog === 'edit' && <EditAutomationDialog automation={automation} onClose={() => setDialog(null)} />}
      {dialog === 'rotate' && <RotateSecretDialog automation={automation} onClose={() => setDialog(null)} />}
      {dialog === 'deactivate' && (
        <ConfirmDialog
          title="Deactivate this automation?"
          confirmLabel="Deactivate"
          pending={setActive.isPending}
          error={setActive.error}
          onClose={() => setDialog(null)}
          onConfirm={() => activate(false)}
        >
          <p>
            Events that happen while it is inactive are not sent — not even after you activate it again.
            Deliveries already in flight finish.
          </p>
        </ConfirmDialog>
      )}
      {dialog === 'delete' && (
        <ConfirmDialog
          title={`Delete “${automation.name}”?`}
          confirmLabel="Delete automation"
          pending={remove.isPending}
          error={remove.error}
          onClose={() => setDialog(null)}
          onConfirm={() =>
            remove.mutate(automation.id, {
              onSuccess: () => {
                toast.success('Automation deleted')
                navigate('/settings/automations')
              },
            })
          }
        >
          <p>
            Nothing more is sent to {automation.url}, and its delivery log is deleted with it. This cannot be
            undone.
          </p>
        </ConfirmDialog>
      )}
    </div>
  )
}
