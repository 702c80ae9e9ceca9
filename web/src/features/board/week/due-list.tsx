// Beside the week: the waiting jobs due by its end (overdue first), each draggable onto a worker's day.
import { useDraggable } from '@dnd-kit/core'
import { Badge } from '../../../ui/badge'
import { duration } from '../board-model'
import { weekJobDragId } from './week-dnd'
import { type DueJob, dueText } from './week-model'

export function DueList({
  jobs,
  truncated,
  today,
  timeZone,
  onOpen,
}: {
  jobs: DueJob[]
  truncated: boolean
  today: string
  timeZone: string
  onOpen: (jobId: string) => void
}) {
  return (
    <section className="card week-due" aria-labelledby="week-due-heading">
      <header className="tray-header">
        <h2 id="week-due-heading">
          Due this week <span className="muted">({truncated ? `first ${jobs.length}` : jobs.length})</span>
        </h2>
        <span className="muted tray-hint">Unassigned jobs due by the week’s end: drag one onto a day</span>
      </header>
      {jobs.length === 0 ? (
        <p className="week-due-empty muted">Nothing unassigned is due this week.</p>
      ) : (
        <ul className="tray-list">
          {jobs.map((job) => (
            <li key={job.id}>
              <DueCard job={job} today={today} timeZone={timeZone} onOpen={onOpen} />
            </li>
          ))}
        </ul>
      )}
      {truncated && (
        <p className="week-due-empty muted">More jobs are due: the {jobs.length} soonest are shown.</p>
      )}
    </section>
  )
}

function DueCard({
  job,
  today,
  timeZone,
  onOpen,
}: {
  job: DueJob
  today: string
  timeZone: string
  onOpen: (jobId: string) => void
}) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: weekJobDragId(job.id),
    data: { jobId: job.id },
  })
  const due = dueText(job.dueAt, today, timeZone)
  const overdue = due.startsWith('Overdue')
  return (
    <button
      type="button"
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      onClick={() => onOpen(job.id)}
      className={`tray-card status-created${isDragging ? ' tray-item-dragging' : ''}`}
    >
      <span className="tray-title">
        <span aria-hidden="true">◆</span> {job.title}
      </span>
      <span className="tray-meta">
        {job.priority === 'HIGH' && <Badge tone="red">High</Badge>}
        <span className={overdue ? 'week-overdue' : undefined}>{due}</span>
        <span>· {duration(job.serviceDuration)}</span>
      </span>
      {job.customer && <span className="tray-meta">{job.customer.name}</span>}
    </button>
  )
}
