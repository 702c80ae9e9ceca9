// The queue indicator in the app bar ("2 pending") and the panel it opens: what waits on this phone,
// in the order it will be sent, why it has not gone yet, and "Send now". Refusals (actions the server
// turned down when they were finally sent) are shown here and on their job until dismissed.
import { useState } from 'react'
import { Link } from 'react-router'
import { Banner } from '../../ui/banner'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { clock } from './format'
import { lostActionHeadline, type QueuedAction, type Refusal } from './offline-queue'
import { useQueue } from './queue-context'
import { useOnline } from './use-online'

const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone

export function describeAction(action: QueuedAction): string {
  if (action.kind === 'start') return 'Start job'
  if (action.kind === 'complete') return 'Complete job'
  if (action.kind === 'attachment') return action.attachmentKind === 'SIGNATURE' ? 'Signature' : 'Photo'
  return `Form “${action.formName}”`
}

export function QueueIndicator() {
  const { actions, refusals } = useQueue()
  const [open, setOpen] = useState(false)
  const label = actions.length > 0 ? `${actions.length} pending` : `${refusals.length} not recorded`
  return (
    <>
      {(actions.length > 0 || refusals.length > 0) && (
        <Button
          size="sm"
          className={actions.length > 0 ? 'my-queue-button' : 'my-queue-button my-queue-refused'}
          aria-haspopup="dialog"
          onClick={() => setOpen(true)}
        >
          <span className="my-queue-dot" aria-hidden="true" />
          {label}
        </Button>
      )}
      {/* Stays open once everything is sent, to say so. */}
      {open && <QueuePanel onClose={() => setOpen(false)} />}
    </>
  )
}

function QueuePanel({ onClose }: { onClose: () => void }) {
  const { actions, refusals, sending, lastProblem, flush } = useQueue()
  const online = useOnline()
  return (
    <Dialog
      title="Waiting to be sent"
      description="Kept on this phone and sent in this order when there is a connection."
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Close</Button>
          <Button
            variant="primary"
            pending={sending}
            disabled={actions.length === 0}
            onClick={() => void flush()}
          >
            Send now
          </Button>
        </>
      }
    >
      <div className="stack">
        {!online && actions.length > 0 && (
          <Banner tone="warning">You are offline. These will be sent when the connection returns.</Banner>
        )}
        {online && lastProblem && actions.length > 0 && (
          <Banner tone="warning" title="Not sent yet">
            {lastProblem}
          </Banner>
        )}
        {actions.length === 0 ? (
          <p className="muted">Nothing is waiting: everything you did has reached the office.</p>
        ) : (
          <ol className="my-queue-list" aria-label="Pending actions">
            {actions.map((action) => (
              <li key={action.key}>
                <div>
                  <strong>{describeAction(action)}</strong>
                  <div className="muted">
                    <Link to={`/my/jobs/${action.jobId}`} onClick={onClose}>
                      {action.jobTitle}
                    </Link>{' '}
                    · done at {clock(action.queuedAt, BROWSER_ZONE)}
                  </div>
                </div>
                <span className="badge badge-amber">Pending</span>
              </li>
            ))}
          </ol>
        )}
        {refusals.map((refusal) => (
          <RefusalNotice key={refusal.key} refusal={refusal} showJob />
        ))}
      </div>
    </Dialog>
  )
}

/** "This job is no longer assigned to you … — your completion was not recorded", with Dismiss. */
export function RefusalNotice({ refusal, showJob = false }: { refusal: Refusal; showJob?: boolean }) {
  const { queue } = useQueue()
  return (
    <div className="banner banner-danger my-refusal" role="alert">
      <div className="stack" style={{ gap: 'var(--space-1)' }}>
        <div className="banner-title">
          {lostActionHeadline(refusal)}
          {showJob && <> — {refusal.jobTitle}</>}
        </div>
        <div>{refusal.message}</div>
        <div>
          <Button size="sm" onClick={() => queue.dismissRefusal(refusal.key)}>
            Dismiss
          </Button>
        </div>
      </div>
    </div>
  )
}
