// A job picked on the board (click or Enter): what it is, when, for whom and where (the address; the
// coordinates only in a small details line), what can be done with it here — assign a waiting job,
// move or unassign an assigned one — and a link to its page for the rest.
import { Badge } from '../../ui/badge'
import { Button, ButtonLink } from '../../ui/button'
import { Sheet } from '../../ui/dialog'
import { CustomerContact } from '../jobs/customer-contact'
import { windowTypeLabel } from '../jobs/job-labels'
import { type BoardJob, type BoardRow, clock, duration } from './board-model'
import { type LiveStop, RISK_LOOK } from './live-model'
import { STATUS_LOOK } from './status'
import { windowText } from './tray'

export function JobSheet({
  job,
  row,
  stop,
  timeZone,
  unassigning,
  onAssign,
  onUnassign,
  onClose,
}: {
  job: BoardJob
  /** The row the job is on, if any. */
  row: BoardRow | undefined
  /** Today, for a stop still to visit: the live forecast. */
  stop?: LiveStop | undefined
  timeZone: string
  unassigning: boolean
  onAssign: () => void
  onUnassign: () => void
  onClose: () => void
}) {
  const look = STATUS_LOOK[job.status]
  return (
    <Sheet title={job.title} description={job.customer?.name ?? 'No customer'} onClose={onClose}>
      <div className="stack">
        {job.number && <p className="muted mono">{job.number}</p>}
        <div className="row">
          <ButtonLink to={`/jobs/${job.id}`}>Open the job page</ButtonLink>
          {job.status === 'CREATED' && (
            <Button variant="primary" onClick={onAssign}>
              Assign…
            </Button>
          )}
          {job.status === 'ASSIGNED' && (
            <>
              <Button variant="primary" onClick={onAssign}>
                Move…
              </Button>
              <Button onClick={onUnassign} pending={unassigning}>
                Unassign
              </Button>
            </>
          )}
        </div>
        {(job.status === 'IN_PROGRESS' || job.status === 'COMPLETED' || job.status === 'CANCELLED') && (
          <p className="muted">
            {look.label} jobs stay where they are: only waiting and assigned jobs can be moved on the board.
          </p>
        )}
        <dl className="details">
          <dt>Status</dt>
          <dd>
            <span className={`status-chip ${look.className}`}>
              <span aria-hidden="true">{look.glyph}</span> {look.label}
            </span>
          </dd>
          <dt>Priority</dt>
          <dd>
            {job.priority === 'HIGH' ? (
              <Badge tone="red">High</Badge>
            ) : job.priority === 'LOW' ? (
              'Low'
            ) : (
              'Normal'
            )}
          </dd>
          <dt>Window</dt>
          <dd>
            {windowText(job, timeZone)} · {windowTypeLabel(job.timeWindowType).toLowerCase()}
          </dd>
          <dt>On site</dt>
          <dd>{duration(job.serviceDuration)}</dd>
          <dt>Scheduled</dt>
          <dd>
            {job.scheduledStart && job.scheduledEnd
              ? `${clock(job.scheduledStart, timeZone)}–${clock(job.scheduledEnd, timeZone)}`
              : 'Not yet'}
          </dd>
          {stop && <Forecast stop={stop} timeZone={timeZone} />}
          <dt>Worker</dt>
          <dd>{row ? `${row.user.name} · ${row.vehicle.name}` : 'Nobody yet'}</dd>
          {job.customer && (
            <>
              <dt>Customer</dt>
              <dd>
                <CustomerContact customer={job.customer} withAddress={false} />
              </dd>
            </>
          )}
          <dt>Address</dt>
          <dd>
            <Place job={job} />
          </dd>
          <dt>Tags</dt>
          <dd>
            {job.tags.length === 0 ? (
              <span className="muted">None</span>
            ) : (
              <span className="row">
                {job.tags.map((tag) => (
                  <Badge key={tag.id} tone="blue">
                    {tag.name}
                  </Badge>
                ))}
              </span>
            )}
          </dd>
        </dl>
      </div>
    </Sheet>
  )
}

/** The live forecast of a stop still to visit: arrival, start of the work, and the risk in words. */
function Forecast({ stop, timeZone }: { stop: LiveStop; timeZone: string }) {
  const risk = RISK_LOOK[stop.risk]
  return (
    <>
      <dt>ETA</dt>
      <dd>{clock(stop.eta, timeZone)}</dd>
      <dt>Expected start</dt>
      <dd>
        {clock(stop.expectedStart, timeZone)} (done by {clock(stop.expectedEnd, timeZone)})
      </dd>
      <dt>Forecast</dt>
      <dd>{risk ? <Badge tone={risk.tone}>{risk.label}</Badge> : 'On time'}</dd>
    </>
  )
}

/**
 * Where the job is, in words: its own address when it has one (migration 0028), else its customer's —
 * said to be the customer's when the job has a position of its own — then its coordinates in a
 * details line.
 */
function Place({ job }: { job: BoardJob }) {
  const address = job.customer?.address
  const coordinates = job.latitude && job.longitude ? `${job.latitude}, ${job.longitude}` : null
  return (
    <span className="stack job-place">
      {job.address ? (
        <span>{job.address}</span>
      ) : job.ownPosition ? (
        <span>
          A place of its own (no address recorded)
          {address && <span className="job-place-note">Customer’s address: {address}</span>}
        </span>
      ) : address ? (
        <span>{address}</span>
      ) : (
        <span className="muted">No address</span>
      )}
      <span className="job-place-details">
        {coordinates
          ? `Details: ${coordinates}${job.ownPosition ? ' (the job’s own)' : ''}`
          : 'No coordinates: not on the map'}
      </span>
    </span>
  )
}
