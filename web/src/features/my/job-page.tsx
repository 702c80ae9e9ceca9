// One of my jobs: what, where and when, navigation, Start / Complete (each only in the state the
// lifecycle allows, each confirmed), and the forms it needs. Actions made offline show as pending;
// an action the server later refused is said here plainly.
import { useState } from 'react'
import { Link, useParams } from 'react-router'
import { ApiError } from '../../api/errors'
import { displayPhone } from '../../lib/phone'
import { Badge } from '../../ui/badge'
import { Banner } from '../../ui/banner'
import { Button, ButtonLink } from '../../ui/button'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { Field } from '../../ui/form'
import { ErrorState, LoadingState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { windowTypeLabel } from '../jobs/job-labels'
import { CompletionChecklist, checklistItems } from './completion-checklist'
import { clock, clockRange, duration } from './format'
import { AddPhotoButton, JobAttachments, queuedCounts, SignatureCapture } from './job-attachments'
import { addressOf, placeOf } from './job-card'
import { JobForms } from './job-forms'
import { LateBadge, ShownStatusBadge } from './job-status'
import { geoUrl, mapsUrl } from './navigate'
import type { QueuedAction } from './offline-queue'
import { applyPending, isCompletionPending, isFormPending, missingForms } from './pending'
import { useMyCompletion, useMyJob } from './queries'
import { useJobAction, useQueue } from './queue-context'
import { describeAction, RefusalNotice } from './queue-panel'
import type { MyJob } from './types'
import { useNow } from './use-now'

export function MyJobPage() {
  const { jobId = '' } = useParams()
  const job = useMyJob(jobId)
  const { actions, refusals } = useQueue()
  const mine = refusals.filter((refusal) => refusal.jobId === jobId)
  // Here, not in the Complete dialog: a dialog's form may not hold another's.
  const [signing, setSigning] = useState(false)

  if (job.isPending) return <LoadingState label="Loading the job…" />
  if (job.error && !job.data) {
    const gone = job.error instanceof ApiError && job.error.status === 404
    return (
      <div className="my-page">
        <BackLink />
        {mine.map((refusal) => (
          <RefusalNotice key={refusal.key} refusal={refusal} />
        ))}
        {gone ? (
          <div className="state state-page">
            <div className="state-icon" aria-hidden="true">
              ?
            </div>
            <h1 className="state-title">Job not found</h1>
            <p>This job is not assigned to you. It may have been reassigned, cancelled or removed.</p>
            <ButtonLink to="/my">Back to my day</ButtonLink>
          </div>
        ) : (
          <ErrorState error={job.error} title="This job could not be loaded" onRetry={() => job.refetch()} />
        )}
      </div>
    )
  }
  const { job: shown, pending } = applyPending(job.data, actions)
  return (
    <div className="my-page">
      <BackLink />
      {mine.map((refusal) => (
        <RefusalNotice key={refusal.key} refusal={refusal} />
      ))}
      <JobDetails job={shown} pending={pending} />
      {pending.length > 0 && (
        <Banner tone="warning" title="Saved on this phone, not sent yet">
          {pending.map(describeAction).join(', ')}: sent as soon as there is a connection.
        </Banner>
      )}
      <JobActions job={shown} pending={pending} onSign={() => setSigning(true)} />
      <JobAttachments job={shown} pending={pending} onSign={() => setSigning(true)} />
      <JobForms job={shown} pendingForm={(id) => isFormPending(pending, id)} />
      {signing && <SignatureCapture job={shown} onClose={() => setSigning(false)} />}
    </div>
  )
}

function BackLink() {
  return (
    <Link to="/my" className="my-back">
      ‹ My day
    </Link>
  )
}

function JobDetails({ job, pending }: { job: MyJob; pending: QueuedAction[] }) {
  const now = useNow()
  const zone = job.timeZone
  const place = placeOf(job)
  const address = addressOf(job)
  const window = clockRange(job.earliestStart, job.latestEnd, zone)
  return (
    <section className="card my-card" aria-labelledby="job-title">
      <div className="my-card-head">
        <span className="my-stop-number" title={`Stop ${job.sequence} of the day`}>
          {job.sequence}
        </span>
        <div className="my-card-title">
          <h1 id="job-title">{job.title}</h1>
          <div className="muted mono">{job.number}</div>
          <div className="my-card-badges">
            <ShownStatusBadge job={job} pending={pending} />
            <LateBadge job={job} now={now} />
            {job.priority === 'HIGH' && <Badge tone="red">High priority</Badge>}
            {job.priority === 'LOW' && <Badge>Low priority</Badge>}
          </div>
        </div>
      </div>
      <dl className="my-facts">
        <div>
          <dt>Scheduled</dt>
          <dd>{clockRange(job.scheduledStart, job.scheduledEnd, zone) ?? 'Not scheduled'}</dd>
        </div>
        {window && (
          <div>
            <dt>Window</dt>
            <dd>
              {window}
              {` (${windowTypeLabel(job.timeWindowType).toLowerCase()})`}
            </dd>
          </div>
        )}
        <div>
          <dt>On site</dt>
          <dd>{duration(job.serviceDuration)}</dd>
        </div>
        {job.startedAt && (
          <div>
            <dt>Started</dt>
            <dd>{clock(job.startedAt, zone)}</dd>
          </div>
        )}
        {job.completedAt && (
          <div>
            <dt>{isCompletionPending(pending) ? 'Completed on this phone' : 'Completed'}</dt>
            <dd>{clock(job.completedAt, zone)}</dd>
          </div>
        )}
        {!job.customer && address && (
          <div className="my-facts-wide">
            <dt>Address</dt>
            <dd>{address}</dd>
          </div>
        )}
        <div className="my-facts-wide">
          <dt>Customer</dt>
          <dd>
            <span>{job.customer ? job.customer.name : 'No customer'}</span>
            {job.customer && address && <div className="muted">{address}</div>}
            {job.customer?.phone && (
              <div>
                {/* Dialled in E.164, read in the national form as the dashboard shows it. */}
                <a href={`tel:${job.customer.phone}`}>Call {displayPhone(job.customer.phone)}</a>
              </div>
            )}
            {job.customer?.email && (
              <div>
                <a href={`mailto:${job.customer.email}`}>Email {job.customer.email}</a>
              </div>
            )}
            {job.customer?.notes && <div className="my-customer-notes">{job.customer.notes}</div>}
          </dd>
        </div>
      </dl>
      {job.tags.length > 0 && (
        <ul className="my-tags" aria-label="Tags">
          {job.tags.map((tag) => (
            <li key={tag.id} className="badge badge-purple">
              {tag.name}
            </li>
          ))}
        </ul>
      )}
      {job.description && (
        <div className="my-notes-block">
          <h2>Notes</h2>
          <p className="my-notes">{job.description}</p>
        </div>
      )}
      {place && (
        <div className="my-card-actions">
          <a className="btn btn-sm" href={geoUrl(place)}>
            Navigate
          </a>
          <a className="btn btn-sm" href={mapsUrl(place)} target="_blank" rel="noreferrer">
            Open in Google Maps
          </a>
        </div>
      )}
    </section>
  )
}

type Confirming = 'start' | 'complete' | null

function JobActions({
  job,
  pending: queued,
  onSign,
}: {
  job: MyJob
  pending: QueuedAction[]
  onSign: () => void
}) {
  const run = useJobAction()
  const toast = useToast()
  const [confirming, setConfirming] = useState<Confirming>(null)
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const [notes, setNotes] = useState('')
  const missing = missingForms(job)
  // Read before the start too: a job started in a dead zone still shows what completing it needs.
  const completion = useMyCompletion(job.id, job.status === 'ASSIGNED' || job.status === 'IN_PROGRESS')

  if (job.status !== 'ASSIGNED' && job.status !== 'IN_PROGRESS') return null
  const kind = job.status === 'ASSIGNED' ? 'start' : 'complete'
  const waiting = queuedCounts(queued)
  const checklist = completion.data ? checklistItems(completion.data, notes, waiting) : []
  const needsPhotos =
    completion.data && completion.data.has.photos + waiting.photos < completion.data.requires.photos
  const needsSignature =
    completion.data?.requires.signature && completion.data.has.signatures + waiting.signatures === 0
  const stillNeeded = checklist.filter((item) => !item.done && !item.label.startsWith('Form: '))
  const notesRequired = completion.data?.requires.notes === true && completion.data.has.notes === null
  const close = () => {
    setConfirming(null)
    setError(null)
  }
  const confirm = async () => {
    const trimmed = notes.trim()
    if (kind === 'complete' && notesRequired && !trimmed) {
      setError(new Error('Write what was done in Notes: this job cannot be completed without them.'))
      return
    }
    setPending(true)
    setError(null)
    try {
      const result = await run(
        kind === 'start'
          ? { kind, jobId: job.id, jobTitle: job.title }
          : { kind, jobId: job.id, jobTitle: job.title, ...(trimmed && { notes: trimmed }) },
      )
      close()
      if (result === 'queued') toast.success('Saved on this phone: it will be sent when you are back online')
      else toast.success(kind === 'start' ? 'Job started' : 'Job completed')
    } catch (failure) {
      setError(failure)
    } finally {
      setPending(false)
    }
  }
  return (
    <div className="my-actions">
      {kind === 'start' ? (
        <Button variant="primary" className="my-big-button" onClick={() => setConfirming('start')}>
          Start job
        </Button>
      ) : (
        <Button variant="primary" className="my-big-button" onClick={() => setConfirming('complete')}>
          Complete job
        </Button>
      )}
      {confirming === 'start' && (
        <ConfirmDialog
          title="Start this job?"
          confirmLabel="Start job"
          tone="primary"
          pending={pending}
          error={error}
          onConfirm={() => void confirm()}
          onClose={close}
        >
          <p>
            <strong>{job.title}</strong> is marked in progress from now, and the office sees that you have
            started.
          </p>
        </ConfirmDialog>
      )}
      {confirming === 'complete' && (
        <ConfirmDialog
          title="Complete this job?"
          confirmLabel="Complete job"
          tone="primary"
          pending={pending}
          error={error}
          onConfirm={() => void confirm()}
          onClose={close}
        >
          <p>
            <strong>{job.title}</strong> is marked completed now. This cannot be undone from the app.
          </p>
          <CompletionChecklist items={checklist} />
          {missing.length > 0 && (
            <Banner tone="warning" title="Forms still to fill in">
              {missing.map((form) => form.template.name).join(', ')}: the job cannot be completed without{' '}
              {missing.length === 1 ? 'it' : 'them'}.
            </Banner>
          )}
          {stillNeeded.length > 0 && (
            <Banner tone="warning" title="Still needed">
              {stillNeeded.map((item) => item.label).join(', ')}: the job cannot be completed without{' '}
              {stillNeeded.length === 1 ? 'it' : 'them'}.
            </Banner>
          )}
          {(needsPhotos || needsSignature) && (
            <div className="my-card-actions">
              {needsPhotos && <AddPhotoButton job={job} />}
              {needsSignature && (
                <Button size="sm" onClick={onSign}>
                  Signature
                </Button>
              )}
            </div>
          )}
          <Field
            label="Notes"
            optional={!notesRequired}
            hint={notesRequired ? 'Required for this job: what was done, parts fitted, readings' : undefined}
          >
            {(control) => (
              <textarea
                {...control}
                className="textarea"
                rows={3}
                maxLength={5000}
                value={notes}
                onChange={(event) => setNotes(event.target.value)}
              />
            )}
          </Field>
        </ConfirmDialog>
      )}
    </div>
  )
}
