// One stop of the day: its number in the route, what and where, when, how long, and what is still to
// do (status, forms), with a link to the job and one to the phone's navigation app.
import { Link } from 'react-router'
import { Badge } from '../../ui/badge'
import { windowTypeLabel } from '../jobs/job-labels'
import { clock, clockRange, duration } from './format'
import { CardPictures } from './job-attachments'
import { EnRouteBadge, LateBadge, PendingBadge, RiskBadge, ShownStatusBadge } from './job-status'
import { geoUrl } from './navigate'
import type { QueuedAction } from './offline-queue'
import { isCompletionPending, missingForms } from './pending'
import { useMyCompletion } from './queries'
import type { MyJob } from './types'

export function JobCard({ job, pending, now }: { job: MyJob; pending: QueuedAction[]; now: number }) {
  const zone = job.timeZone
  const titleId = `job-${job.id}-title`
  const window = clockRange(job.earliestStart, job.latestEnd, zone)
  const missing = missingForms(job).length
  const place = placeOf(job)
  const address = addressOf(job)
  const completing = isCompletionPending(pending)
  // Read while online (the service worker keeps it), so the checklist is on the phone in a dead zone
  // for a job that was never opened with a connection.
  useMyCompletion(job.id, job.status === 'ASSIGNED' || job.status === 'IN_PROGRESS')
  const look = completing ? 'completing' : job.status.toLowerCase()
  return (
    <article className={`card my-card my-card-${look}`} aria-labelledby={titleId} data-job-id={job.id}>
      <div className="my-card-head">
        <span className="my-stop-number" aria-hidden="true">
          {job.sequence}
        </span>
        <div className="my-card-title">
          <h2 id={titleId}>
            <Link to={`/my/jobs/${job.id}`}>
              <span className="visually-hidden">Stop {job.sequence}: </span>
              {job.title}
            </Link>
          </h2>
          <div className="my-card-badges">
            <ShownStatusBadge job={job} pending={pending} />
            {pending.length > 0 && !completing && <PendingBadge />}
            <EnRouteBadge job={job} />
            <LateBadge job={job} now={now} />
            <RiskBadge job={job} now={now} />
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
        {job.eta && (job.status === 'ASSIGNED' || job.status === 'CREATED') && (
          <div>
            <dt>Expected</dt>
            <dd>{clock(job.eta, zone)}</dd>
          </div>
        )}
        <div>
          <dt>On site</dt>
          <dd>{duration(job.serviceDuration)}</dd>
        </div>
        {job.customer ? (
          <div className="my-facts-wide">
            <dt>Customer</dt>
            <dd>
              <span>{job.customer.name}</span>
              {address && <div className="muted">{address}</div>}
            </dd>
          </div>
        ) : (
          address && (
            <div className="my-facts-wide">
              <dt>Address</dt>
              <dd>{address}</dd>
            </div>
          )
        )}
        {job.forms.length > 0 && (
          <div>
            <dt>Forms</dt>
            <dd>
              {job.forms.length - missing} of {job.forms.length} done
            </dd>
          </div>
        )}
        {job.startedAt && job.status === 'IN_PROGRESS' && (
          <div>
            <dt>Started</dt>
            <dd>{clock(job.startedAt, zone)}</dd>
          </div>
        )}
        <CardPictures job={job} pending={pending} />
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
      {job.description && <p className="my-notes">{job.description}</p>}
      <div className="my-card-actions">
        <Link
          className="btn btn-sm btn-primary"
          to={`/my/jobs/${job.id}`}
          aria-label={`Open job: ${job.title}`}
        >
          Open job
        </Link>
        {place && (
          <a className="btn btn-sm" href={geoUrl(place)} aria-label={`Navigate to ${job.title}`}>
            Navigate
          </a>
        )}
      </div>
    </article>
  )
}

/** Where the job happens, in words: its own address (migration 0028) when it has one, else its customer's. */
export function addressOf(job: MyJob): string {
  return job.address || job.customer?.address || ''
}

/** Where the job happens, for navigation links: its coordinates and a label. */
export function placeOf(job: MyJob) {
  if (job.latitude === null || job.longitude === null) return null
  return {
    latitude: job.latitude,
    longitude: job.longitude,
    label: addressOf(job) || job.customer?.name || job.title,
  }
}
