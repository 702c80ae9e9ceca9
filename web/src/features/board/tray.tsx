// The Unassigned tray: the CREATED jobs of the day, most urgent first. Each can be dragged onto a row
// (or picked up with Space and moved with the arrow keys), or assigned through "Assign…"; an
// assigned block dragged back here is unassigned.
import { useDraggable, useDroppable } from '@dnd-kit/core'
import type { ReactNode } from 'react'
import { Badge } from '../../ui/badge'
import { Button } from '../../ui/button'
import { type BoardJob, clock, duration } from './board-model'
import { jobDragId } from './timeline'

export const TRAY_DROP_ID = 'tray'

export function windowText(job: BoardJob, timeZone: string): string {
  const { earliestStart: from, latestEnd: to } = job
  if (!from && !to) return 'Any time'
  if (from && to) return `${clock(from, timeZone)}–${clock(to, timeZone)}`
  return from ? `From ${clock(from, timeZone)}` : `By ${clock(to ?? '', timeZone)}`
}

export function Tray({
  jobs,
  total,
  timeZone,
  onAssign,
  onSelect,
  empty,
}: {
  jobs: BoardJob[]
  /** Waiting jobs before the filters. */
  total: number
  timeZone: string
  onAssign: (job: BoardJob) => void
  onSelect: (job: BoardJob) => void
  empty: ReactNode
}) {
  const { setNodeRef, isOver } = useDroppable({ id: TRAY_DROP_ID })
  return (
    <section
      ref={setNodeRef}
      className={isOver ? 'card tray tray-over' : 'card tray'}
      aria-labelledby="tray-heading"
    >
      <header className="tray-header">
        <h2 id="tray-heading">
          Unassigned{' '}
          <span className="muted">({jobs.length === total ? total : `${jobs.length} of ${total}`})</span>
        </h2>
        <span className="muted tray-hint">Drag a job onto a row, or drag a job here to unassign it</span>
      </header>
      {jobs.length === 0 ? (
        empty
      ) : (
        <ul className="tray-list">
          {jobs.map((job) => (
            <TrayItem
              key={job.id}
              job={job}
              timeZone={timeZone}
              onAssign={() => onAssign(job)}
              onSelect={() => onSelect(job)}
            />
          ))}
        </ul>
      )}
    </section>
  )
}

function TrayItem({
  job,
  timeZone,
  onAssign,
  onSelect,
}: {
  job: BoardJob
  timeZone: string
  onAssign: () => void
  onSelect: () => void
}) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: jobDragId(job.id),
    data: { jobId: job.id },
  })
  const hours = windowText(job, timeZone)
  return (
    <li className={isDragging ? 'tray-item tray-item-dragging' : 'tray-item'}>
      <button
        type="button"
        ref={setNodeRef}
        {...attributes}
        {...listeners}
        onClick={onSelect}
        className="tray-card status-created"
      >
        <span className="tray-title">
          <span aria-hidden="true">◆</span> {job.title}
        </span>
        <span className="tray-meta">
          {job.priority === 'HIGH' && <Badge tone="red">High</Badge>}
          {job.priority === 'LOW' && <Badge>Low</Badge>}
          <span>{hours}</span>
          <span>· {duration(job.serviceDuration)}</span>
        </span>
        {job.customer && <span className="tray-meta">{job.customer.name}</span>}
        {job.tags.length > 0 && (
          <span className="tray-tags">
            {job.tags.map((tag) => (
              <Badge key={tag.id} tone="blue">
                {tag.name}
              </Badge>
            ))}
          </span>
        )}
      </button>
      <Button size="sm" onClick={onAssign} aria-label={`Assign ${job.title}`}>
        Assign…
      </Button>
    </li>
  )
}
