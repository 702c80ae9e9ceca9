// How a job's status looks everywhere on the board and the map: a colour (status-* classes in
// board.css), a glyph and a word, so colour is never the only signal.
import type { JobStatus } from './board-model'

/** The board's statuses, and "planned" for a stop of a route plan being previewed. */
export type BlockStatus = JobStatus | 'PLANNED'

export const STATUS_LOOK: Record<BlockStatus, { label: string; glyph: string; className: string }> = {
  CREATED: { label: 'Unassigned', glyph: '◆', className: 'status-created' },
  ASSIGNED: { label: 'Assigned', glyph: '●', className: 'status-assigned' },
  IN_PROGRESS: { label: 'In progress', glyph: '▶', className: 'status-in-progress' },
  COMPLETED: { label: 'Completed', glyph: '✓', className: 'status-completed' },
  CANCELLED: { label: 'Cancelled', glyph: '✕', className: 'status-cancelled' },
  PLANNED: { label: 'Planned', glyph: '○', className: 'status-planned' },
}

export const JOB_STATUSES: JobStatus[] = ['CREATED', 'ASSIGNED', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED']

export function StatusLegend({ statuses = JOB_STATUSES }: { statuses?: BlockStatus[] }) {
  return (
    <ul className="status-legend" aria-label="Status colours">
      {statuses.map((status) => {
        const look = STATUS_LOOK[status]
        return (
          <li key={status} className={`status-chip ${look.className}`}>
            <span aria-hidden="true">{look.glyph}</span> {look.label}
          </li>
        )
      })}
    </ul>
  )
}
