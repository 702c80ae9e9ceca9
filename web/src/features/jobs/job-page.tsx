// One job (`/jobs/:jobId`): what, where, when (in its depot's time zone), who; its tags, demands and
// form submissions; and the actions its status allows — assign, unassign, start, complete, cancel —
// each confirmed first, plus edit and delete. Another organisation's job is "not found".
import { useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { formatDuration } from '../../lib/form-values'
import { formatDateTime } from '../../lib/time'
import { Badge } from '../../ui/badge'
import { Button, ButtonLink } from '../../ui/button'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { Field } from '../../ui/form'
import { PageHeader } from '../../ui/page-header'
import { ErrorState, LoadingState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { JobAttachments } from '../completion/job-attachments'
import { JobCompletion } from '../completion/job-completion'
import { useSeries } from '../series/queries'
import { shortDate, storedSeriesWords } from '../series/rule'
import { SeriesDialog } from '../series/series-dialog'
import { AssignDialog } from './assign-dialog'
import { CustomerContact } from './customer-contact'
import { FormSubmissions } from './form-submissions'
import { JobDialog } from './job-dialog'
import { priorityOf, statusOf, windowTypeLabel } from './job-labels'
import { useJobTimeZone } from './job-time'
import { type JobDetail, type LifecycleAction, useDeleteJob, useJob, useJobTransition } from './queries'

type Action = LifecycleAction | 'assign' | 'edit' | 'delete' | 'repeat'

/** What each action asks and says, for its confirmation. */
const CONFIRM: Record<LifecycleAction, { title: string; label: string; body: string; done: string }> = {
  unassign: {
    title: 'Unassign this job?',
    label: 'Unassign',
    body: 'It goes back to the unassigned jobs, without a worker or a scheduled time. The worker is notified through the JOB_UNASSIGNED event.',
    done: 'Job unassigned',
  },
  start: {
    title: 'Start this job?',
    label: 'Start job',
    body: 'Marks the job in progress from now, as the technician’s app does when they arrive.',
    done: 'Job started',
  },
  complete: {
    title: 'Complete this job?',
    label: 'Complete job',
    body: 'Marks the job completed now; its actual duration is counted from when it started. This cannot be undone.',
    done: 'Job completed',
  },
  cancel: {
    title: 'Cancel this job?',
    label: 'Cancel job',
    body: 'The job is cancelled and leaves every schedule. This cannot be undone.',
    done: 'Job cancelled',
  },
}

export function JobPage() {
  const { jobId = '' } = useParams()
  const query = useJob(jobId)
  const crumbs = [{ label: 'Jobs', to: '/jobs' }]
  if (query.isPending) return <LoadingState />
  if (query.error) {
    return (
      <div className="page">
        <PageHeader breadcrumbs={crumbs} title="Job" />
        <div className="card">
          <ErrorState
            error={query.error}
            title="This job could not be loaded"
            onRetry={() => query.refetch()}
          />
        </div>
        <div>
          <ButtonLink to="/jobs">Back to jobs</ButtonLink>
        </div>
      </div>
    )
  }
  return <JobView job={query.data.job} />
}

function JobView({ job }: { job: JobDetail }) {
  const zone = useJobTimeZone(job.locationId)
  const transition = useJobTransition()
  const remove = useDeleteJob()
  const toast = useToast()
  const navigate = useNavigate()
  const [action, setAction] = useState<Action | null>(null)
  const [reason, setReason] = useState('')
  const status = statusOf(job.status)
  const priority = priorityOf(job.priority)
  const when = (iso: string | null) => (iso ? formatDateTime(iso, zone) : <span className="muted">—</span>)
  const close = () => {
    transition.reset()
    remove.reset()
    setReason('')
    setAction(null)
  }
  const run = (lifecycle: LifecycleAction) =>
    transition.mutate(
      {
        id: job.id,
        action: lifecycle,
        ...(lifecycle === 'cancel' && reason.trim() ? { reason: reason.trim() } : {}),
      },
      {
        onSuccess: () => {
          toast.success(CONFIRM[lifecycle].done)
          close()
        },
      },
    )

  const open = job.status !== 'COMPLETED' && job.status !== 'CANCELLED'
  const actions = (
    <>
      {open && <Button onClick={() => setAction('edit')}>Edit</Button>}
      {job.status === 'CREATED' && (
        <Button variant="primary" onClick={() => setAction('assign')}>
          Assign
        </Button>
      )}
      {job.status === 'ASSIGNED' && (
        <>
          <Button onClick={() => setAction('assign')}>Re-assign</Button>
          <Button onClick={() => setAction('unassign')}>Unassign</Button>
          <Button variant="primary" onClick={() => setAction('start')}>
            Start
          </Button>
        </>
      )}
      {job.status === 'IN_PROGRESS' && (
        <Button variant="primary" onClick={() => setAction('complete')}>
          Complete
        </Button>
      )}
      {open && (
        <Button variant="danger" onClick={() => setAction('cancel')}>
          Cancel job
        </Button>
      )}
      {/* A job of a series is one of its visits already: its series page repeats it. */}
      {!job.seriesId && <Button onClick={() => setAction('repeat')}>Repeat…</Button>}
      <Button variant="ghost" onClick={() => setAction('delete')}>
        Delete
      </Button>
    </>
  )

  return (
    <div className="page">
      <PageHeader
        breadcrumbs={[{ label: 'Jobs', to: '/jobs' }]}
        title={
          <span className="row">
            {job.title} <Badge tone={status.tone}>{status.label}</Badge>
          </span>
        }
        description={job.description ?? undefined}
        actions={actions}
      />
      <div className="card">
        <div className="card-body">
          <dl className="details">
            <dt>Number</dt>
            <dd className="mono">{job.number}</dd>
            {job.seriesId && (
              <>
                <dt>Series</dt>
                <dd>
                  <SeriesLink seriesId={job.seriesId} occurrenceDate={job.occurrenceDate} />
                </dd>
              </>
            )}
            <dt>Customer</dt>
            <dd>
              {job.customer ? (
                <CustomerContact customer={job.customer} />
              ) : (
                <span className="muted">None</span>
              )}
            </dd>
            <dt>Depot</dt>
            <dd>{job.location?.name ?? <span className="muted">None</span>}</dd>
            <dt>Where</dt>
            <dd>
              <JobPlace job={job} />
            </dd>
            <dt>Priority</dt>
            <dd>
              <Badge tone={priority.tone}>{priority.label}</Badge>
            </dd>
            <dt>Time window</dt>
            <dd>
              {job.earliestStart || job.latestEnd ? (
                <>
                  {when(job.earliestStart)} – {when(job.latestEnd)}{' '}
                  <Badge tone={job.timeWindowType === 'HARD' ? 'amber' : 'neutral'}>
                    {windowTypeLabel(job.timeWindowType)}
                  </Badge>
                </>
              ) : (
                <span className="muted">Any time</span>
              )}
            </dd>
            {job.dueBy && (
              <>
                <dt>Due by</dt>
                <dd>{shortDate(job.dueBy)}</dd>
              </>
            )}
            <dt>Service time</dt>
            <dd>{formatDuration(job.serviceDuration)}</dd>
            <dt>Assigned to</dt>
            <dd>{job.assignedUser?.name ?? <span className="muted">Nobody</span>}</dd>
            <dt>Scheduled</dt>
            <dd>
              {job.scheduledStart ? (
                <>
                  {when(job.scheduledStart)} – {when(job.scheduledEnd)}
                </>
              ) : (
                <span className="muted">Not scheduled</span>
              )}
            </dd>
            {job.startedAt && (
              <>
                <dt>Started</dt>
                <dd>{when(job.startedAt)}</dd>
              </>
            )}
            {job.completedAt && (
              <>
                <dt>Completed</dt>
                <dd>
                  {when(job.completedAt)}
                  {job.actualDuration !== null && ` (took ${formatDuration(job.actualDuration)})`}
                </dd>
              </>
            )}
            <dt>Tags</dt>
            <dd>
              {job.tags.length === 0 ? (
                <span className="muted">None</span>
              ) : (
                <span className="row" style={{ gap: 4 }}>
                  {job.tags.map((t) => (
                    <Badge key={t.tag.id}>{t.tag.name}</Badge>
                  ))}
                </span>
              )}
            </dd>
            <dt>Demands</dt>
            <dd>
              {job.demands.length === 0 ? (
                <span className="muted">None</span>
              ) : (
                job.demands.map((d) => `${d.requiredValue} ${d.capacityDimension.label}`).join(', ')
              )}
            </dd>
            <dt>Times shown in</dt>
            <dd>{zone}</dd>
          </dl>
        </div>
      </div>
      <JobCompletion
        jobId={job.id}
        open={job.status !== 'COMPLETED' && job.status !== 'CANCELLED'}
        timeZone={zone}
      />
      <JobAttachments jobId={job.id} timeZone={zone} />
      <FormSubmissions jobId={job.id} timeZone={zone} />

      {action === 'edit' && (
        <JobDialog
          job={job}
          onClose={() => setAction(null)}
          onSaved={() => {
            setAction(null)
            toast.success('Job saved')
          }}
        />
      )}
      {action === 'repeat' && (
        <SeriesDialog
          source={{ job }}
          onClose={() => setAction(null)}
          onSaved={(series) => {
            setAction(null)
            toast.success(`Series ${series.job.title} created`)
            navigate(`/series/${series.id}`)
          }}
        />
      )}
      {action === 'assign' && (
        <AssignDialog
          job={job}
          timeZone={zone}
          onClose={() => setAction(null)}
          onDone={() => {
            setAction(null)
            toast.success('Job assigned')
          }}
        />
      )}
      {action && action in CONFIRM && (
        <ConfirmDialog
          title={CONFIRM[action as LifecycleAction].title}
          confirmLabel={CONFIRM[action as LifecycleAction].label}
          tone={action === 'cancel' ? 'danger' : 'primary'}
          pending={transition.isPending}
          error={transition.error}
          onClose={close}
          onConfirm={() => run(action as LifecycleAction)}
        >
          <p>{CONFIRM[action as LifecycleAction].body}</p>
          {action === 'cancel' && (
            <Field label="Reason" optional hint="Sent with the JOB_CANCELLED event; not kept on the job">
              {(control) => (
                <textarea
                  {...control}
                  className="textarea"
                  rows={2}
                  value={reason}
                  onChange={(e) => setReason(e.target.value)}
                />
              )}
            </Field>
          )}
        </ConfirmDialog>
      )}
      {action === 'delete' && (
        <ConfirmDialog
          title={`Delete ${job.title}?`}
          confirmLabel="Delete job"
          pending={remove.isPending}
          error={remove.error}
          onClose={close}
          onConfirm={() =>
            remove.mutate(job.id, {
              onSuccess: () => {
                toast.success('Job deleted')
                navigate('/jobs')
              },
            })
          }
        >
          <p>The job disappears from every list, the board and plans. Its events already sent stay sent.</p>
        </ConfirmDialog>
      )}
    </div>
  )
}

/** "Part of series: Every 3 months on the 2nd Tuesday, 09:00–12:00 (must be kept)", a link to it. */
function SeriesLink({ seriesId, occurrenceDate }: { seriesId: string; occurrenceDate: string | null }) {
  const series = useSeries(seriesId)
  return (
    <span className="stack" style={{ gap: 0 }}>
      <span>
        Part of series:{' '}
        <Link to={`/series/${seriesId}`}>
          {series.data ? storedSeriesWords(series.data.series) : 'its series'}
        </Link>
      </span>
      {occurrenceDate && <span className="muted">The visit of {shortDate(occurrenceDate)} in its rule</span>}
    </span>
  )
}

/**
 * Where the job is done, in words: its own address when it has one (migration 0028), else its
 * customer's; a place of its own without an address names the customer's for reference. The
 * coordinates only in a details line.
 */
function JobPlace({ job }: { job: JobDetail }) {
  const customer = job.customer
  // Coordinates of its own that are its customer's (as a copy) still mean "at the customer".
  const own =
    job.jobLatitude &&
    job.jobLongitude &&
    !(
      customer &&
      Number(job.jobLatitude) === Number(customer.latitude) &&
      Number(job.jobLongitude) === Number(customer.longitude)
    )
      ? `${job.jobLatitude}, ${job.jobLongitude}`
      : null
  const coordinates = own ?? (customer ? `${customer.latitude}, ${customer.longitude}` : null)
  return (
    <span className="stack job-place">
      {job.address ? (
        <span>
          {job.address}
          {customer?.address && customer.address !== job.address && (
            <span className="job-place-note">Customer’s address: {customer.address}</span>
          )}
        </span>
      ) : own ? (
        <span>
          A place of its own (no address recorded)
          {customer?.address && (
            <span className="job-place-note">Customer’s address: {customer.address}</span>
          )}
        </span>
      ) : customer ? (
        <span>
          {customer.address || <span className="muted">The customer has no address</span>}
          <span className="job-place-note">At the customer</span>
        </span>
      ) : (
        <span className="muted">No place: not on a route</span>
      )}
      {coordinates && (
        <span className="job-place-details">
          Details: {coordinates}
          {own ? ' (the job’s own)' : ''}
        </span>
      )}
    </span>
  )
}
