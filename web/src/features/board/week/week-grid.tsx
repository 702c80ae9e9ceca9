// Workers × seven days: each day a drop target listing the worker's jobs (time and title) and a bar of
// the capacity they use; a day the worker is away (or has no shift) is greyed with why. Column heads
// open the day board of their date.
import { useDraggable, useDroppable } from '@dnd-kit/core'
import { Link } from 'react-router'
import { clock } from '../board-model'
import { STATUS_LOOK } from '../status'
import { cellDropId, weekJobDragId } from './week-dnd'
import {
  capacityOf,
  closedReason,
  dayNames,
  type WeekBoard,
  type WeekCell,
  type WeekJob,
  type WeekWorker,
} from './week-model'

/** A job shown in a cell: the server's, or one being moved there (saving). */
export interface CellJob extends WeekJob {
  saving?: boolean
}

export function WeekGrid({
  week,
  today,
  locationId,
  jobsOf,
  onOpen,
}: {
  week: WeekBoard
  today: string
  locationId: string | undefined
  /** The jobs to show in a worker's day (moves being saved included). */
  jobsOf: (worker: WeekWorker, cell: WeekCell) => CellJob[]
  onOpen: (jobId: string) => void
}) {
  const location = locationId ? `&location=${locationId}` : ''
  return (
    <div className="week-scroll">
      <table className="week-board">
        <caption className="visually-hidden">
          Workers by day, {dayNames(week.start).long} to {dayNames(week.end).long}: jobs and capacity
        </caption>
        <thead>
          <tr>
            <th scope="col" className="week-corner">
              {week.timezone}
            </th>
            {week.days.map((day, index) => {
              const names = dayNames(day.date)
              const cells = week.workers.map((w) => w.days[index]).filter((c) => c !== undefined)
              const jobs = cells.reduce((sum, c) => sum + c.jobs.length, 0)
              // Nobody works and nothing is booked (a Sunday, say): a narrow column.
              const quiet = jobs === 0 && cells.every((c) => closedReason(c) !== null)
              const className = [
                'week-day',
                day.date === today ? 'week-today' : '',
                quiet ? 'week-quiet' : '',
              ]
              return (
                <th key={day.date} scope="col" className={className.filter(Boolean).join(' ')}>
                  <Link to={`/?date=${day.date}${location}`} title={`Open the day board of ${names.long}`}>
                    {names.short}
                    <span className="visually-hidden"> — open the day board</span>
                  </Link>
                  <span className="week-day-sub">
                    {day.date === today && <span className="week-today-label">Today</span>}
                    {quiet ? '' : `${jobs} ${jobs === 1 ? 'job' : 'jobs'}`}
                  </span>
                </th>
              )
            })}
          </tr>
        </thead>
        <tbody>
          {week.workers.map((worker) => (
            <tr key={worker.user.id}>
              <th scope="row" className="week-worker">
                <strong>{worker.user.name}</strong>
                <span className="week-worker-sub">{vehiclesOf(worker)}</span>
              </th>
              {worker.days.map((cell) => (
                <td
                  key={cell.date}
                  className={cell.date === today ? 'week-cell-td week-today' : 'week-cell-td'}
                >
                  <DayCell
                    worker={worker}
                    cell={cell}
                    jobs={jobsOf(worker, cell)}
                    timeZone={week.timezone}
                    onOpen={onOpen}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** The vans a worker drives this week ("Van 7", "Van 7 · Van 2"). */
function vehiclesOf(worker: WeekWorker): string {
  const names = new Set(worker.days.flatMap((d) => d.shifts.map((s) => s.vehicle.name)))
  return [...names].join(' · ')
}

function DayCell({
  worker,
  cell,
  jobs,
  timeZone,
  onOpen,
}: {
  worker: WeekWorker
  cell: WeekCell
  jobs: CellJob[]
  timeZone: string
  onOpen: (jobId: string) => void
}) {
  const closed = closedReason(cell)
  const { setNodeRef, isOver } = useDroppable({
    id: cellDropId(worker.user.id, cell.date),
    data: { userId: worker.user.id, date: cell.date },
    disabled: closed !== null,
  })
  const names = dayNames(cell.date)
  const worked = cell.shifts.filter((s) => s.off === null)
  const hours = worked.map((s) => `${clock(s.start, timeZone)}–${clock(s.end, timeZone)}`).join(', ')
  const capacity = capacityOf(cell)
  const away = cell.absence
  const label = closed
    ? `${worker.user.name}, ${names.long}: ${closed}${away?.note ? ` (${away.note})` : ''}`
    : `${worker.user.name}, ${names.long}: ${hours}, ${jobs.length} ${jobs.length === 1 ? 'job' : 'jobs'}, ${capacity.text} booked`
  const className = [
    'week-cell',
    closed ? 'week-cell-closed' : '',
    away ? 'week-cell-away' : '',
    isOver ? 'week-cell-over' : '',
  ]
    .filter(Boolean)
    .join(' ')
  return (
    // biome-ignore lint/a11y/useSemanticElements: a day of a worker's week, not a form fieldset
    <div ref={setNodeRef} className={className} role="group" aria-label={label}>
      {closed ? (
        <div className="week-closed" title={away?.note ?? undefined}>
          <span className="week-closed-reason">{closed}</span>
          {away?.note && <span className="week-closed-note">{away.note}</span>}
        </div>
      ) : (
        <span className="week-hours">{hours}</span>
      )}
      {jobs.length > 0 && (
        <ul className="week-jobs">
          {jobs.map((job) => (
            <li key={job.id}>
              <JobCard job={job} timeZone={timeZone} onOpen={onOpen} />
            </li>
          ))}
        </ul>
      )}
      {!closed && (
        <div className="week-capacity" aria-hidden="true">
          <div className={capacity.over ? 'week-capacity-bar week-capacity-over' : 'week-capacity-bar'}>
            <span style={{ width: `${Math.min(100, capacity.share * 100)}%` }} />
          </div>
          <span className="week-capacity-text">{capacity.text}</span>
        </div>
      )}
    </div>
  )
}

function JobCard({
  job,
  timeZone,
  onOpen,
}: {
  job: CellJob
  timeZone: string
  onOpen: (jobId: string) => void
}) {
  const draggable = job.status === 'ASSIGNED' && !job.saving
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: weekJobDragId(job.id),
    data: { jobId: job.id },
    disabled: !draggable,
  })
  const look = STATUS_LOOK[job.status]
  const start = job.scheduledStart ?? ''
  const end = job.scheduledEnd ?? ''
  const customer = job.customer ? `, ${job.customer.name}` : ''
  // The accessible name starts with the visible text ("09:00 Boiler service"), then says the rest.
  const details = `, ${look.label} until ${clock(end, timeZone)}${customer}${job.saving ? ', saving' : ''}`
  return (
    // A click or Enter opens the job; Space picks it up (dnd-kit's keyboard sensor).
    <button
      type="button"
      ref={setNodeRef}
      {...(draggable ? { ...attributes, ...listeners } : {})}
      onClick={() => onOpen(job.id)}
      className={`week-job ${look.className}${isDragging ? ' week-job-dragging' : ''}${job.saving ? ' week-job-saving' : ''}`}
      aria-label={`${clock(start, timeZone)} ${job.title}${details}`}
      aria-busy={job.saving || undefined}
      title={`${job.number} · ${job.title} · ${clock(start, timeZone)}–${clock(end, timeZone)}${customer}`}
    >
      <span className="week-job-text">
        <span className="week-job-time">{clock(start, timeZone)}</span> {job.title}
      </span>
    </button>
  )
}
