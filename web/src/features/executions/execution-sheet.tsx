// One delivery in detail (like Documenso's and Resend's webhook logs): outcome, the request sent
// (headers we set and the exact body), the answer (status, headers, start of the body), the error,
// and Redeliver.
import { Link } from 'react-router'
import { errorMessage } from '../../api/errors'
import { Badge } from '../../ui/badge'
import { Banner } from '../../ui/banner'
import { Button } from '../../ui/button'
import { DateTime } from '../../ui/date-time'
import { Sheet } from '../../ui/dialog'
import { ErrorState, LoadingState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { eventLabel } from '../automations/events'
import { ExecutionStatus, formatDuration } from './execution-status'
import { type Execution, useExecution, useRedeliver } from './queries'

export function ExecutionSheet({
  automationId,
  executionId,
  automationName,
  onClose,
  onOpen,
}: {
  automationId: string
  executionId: string
  automationName?: string
  onClose: () => void
  /** Opens another execution (the redelivery just made, or the original of a redelivery). */
  onOpen: (execution: Pick<Execution, 'id' | 'automationId'>) => void
}) {
  const query = useExecution(automationId, executionId)
  const redeliver = useRedeliver()
  const toast = useToast()
  const execution = query.data?.execution

  const redeliverNow = () =>
    redeliver.mutate(
      { automationId, executionId },
      {
        onSuccess: ({ execution: next }) => {
          toast[next.status === 'FAILED' ? 'error' : 'success'](
            next.status === 'FAILED'
              ? `Redelivered: failed again (${next.error ?? 'no answer'})`
              : `Redelivered: ${next.httpStatus ?? ''} ${next.status === 'SUCCESS' ? 'succeeded' : 'pending'}`,
          )
          onOpen(next)
        },
        onError: (error) => toast.error(errorMessage(error)),
      },
    )

  return (
    <Sheet
      title={execution ? eventLabel(execution.event) : 'Webhook delivery'}
      description={execution ? <span className="mono">{execution.id}</span> : undefined}
      onClose={onClose}
    >
      {query.isPending && <LoadingState />}
      {query.error && <ErrorState error={query.error} onRetry={() => query.refetch()} />}
      {execution && (
        <>
          <div className="row" style={{ justifyContent: 'space-between' }}>
            <span className="row">
              <ExecutionStatus execution={execution} />
              {execution.isTest && <Badge tone="purple">Test event</Badge>}
              {execution.redeliveryOf && <Badge>Redelivery</Badge>}
            </span>
            <Button
              variant="primary"
              size="sm"
              pending={redeliver.isPending}
              disabled={execution.status === 'PENDING'}
              onClick={redeliverNow}
            >
              Redeliver
            </Button>
          </div>
          {execution.error && (
            <Banner tone="danger" title="Error">
              {execution.error}
            </Banner>
          )}
          <section className="section" aria-labelledby="delivery-overview">
            <h3 id="delivery-overview">Overview</h3>
            <dl className="details">
              <dt>Automation</dt>
              <dd>
                <Link to={`/settings/automations/${execution.automationId}`}>
                  {automationName ?? execution.automationId}
                </Link>
              </dd>
              <dt>Event</dt>
              <dd>
                {eventLabel(execution.event)} <span className="mono muted">{execution.event}</span>
              </dd>
              <dt>Sent</dt>
              <dd>
                <DateTime value={execution.createdAt} seconds />
              </dd>
              <dt>Duration</dt>
              <dd>{formatDuration(execution.durationMs)}</dd>
              <dt>Endpoint</dt>
              <dd className="mono">{execution.url}</dd>
              <dt>Event id</dt>
              <dd className="mono">{execution.eventId}</dd>
              {execution.redeliveryOf && (
                <>
                  <dt>Redelivery of</dt>
                  <dd>
                    <button
                      type="button"
                      className="btn-link mono"
                      onClick={() =>
                        onOpen({ id: execution.redeliveryOf ?? '', automationId: execution.automationId })
                      }
                    >
                      {execution.redeliveryOf}
                    </button>
                  </dd>
                </>
              )}
            </dl>
          </section>
          <section className="section" aria-labelledby="delivery-response">
            <h3 id="delivery-response">Response</h3>
            {execution.httpStatus === null ? (
              <p className="muted">
                {execution.status === 'PENDING' ? 'Waiting for the answer…' : 'No answer was received.'}
              </p>
            ) : (
              <>
                <p>
                  HTTP status <strong>{execution.httpStatus}</strong>
                </p>
                {execution.responseHeaders && (
                  <HeaderList label="Response headers" headers={execution.responseHeaders} />
                )}
                <CodeBlock label="Response body">
                  {execution.responseBody ? prettyBody(execution.responseBody) : '(empty body)'}
                </CodeBlock>
                <p className="field-hint">The first 2 KB of the answer are kept.</p>
              </>
            )}
          </section>
          <section className="section" aria-labelledby="delivery-request">
            <h3 id="delivery-request">Request</h3>
            <HeaderList
              label="Request headers"
              headers={{
                'content-type': 'application/json',
                'user-agent': 'fieldservice-webhooks/1.0',
                'webhook-id': execution.webhookId,
                'webhook-timestamp': '(time of sending, Unix seconds)',
                'webhook-signature': 'v1,… (HMAC-SHA256 with the signing secret)',
              }}
            />
            <CodeBlock label="Request body">{JSON.stringify(execution.requestBody, null, 2)}</CodeBlock>
          </section>
        </>
      )}
    </Sheet>
  )
}

function HeaderList({ label, headers }: { label: string; headers: Record<string, string> }) {
  return (
    <div className="stack" style={{ gap: 'var(--space-1)' }}>
      <h4 className="field-label">{label}</h4>
      <dl className="details mono">
        {Object.entries(headers).map(([name, value]) => (
          <div key={name} style={{ display: 'contents' }}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  )
}

/** Wrapped, never scrolled inside: the sheet scrolls, so the block needs no focus stop of its own. */
function CodeBlock({ label, children }: { label: string; children: string }) {
  return (
    <div className="stack" style={{ gap: 'var(--space-1)' }}>
      <h4 className="field-label">{label}</h4>
      <pre className="code-block">{children}</pre>
    </div>
  )
}

function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body
  }
}
