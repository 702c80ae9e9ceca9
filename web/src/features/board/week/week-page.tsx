// The board's week: workers × seven days with each day's jobs and capacity, absent days greyed, and
// the unassigned jobs due this week beside it. A job is moved to another day or worker by dragging it
// (or Space and the arrows); it keeps its time of day when a shift covers it there. The move is an
// ordinary assignment with the day board's checks (checked-drop.ts): while dragging, the server's check
// of the slot colours the card red or amber with its reason; a HARD problem is not sent, a SOFT one
// waits for a second drop on the same day; the last move can be undone for 30 s.
import { DndContext, DragOverlay } from '@dnd-kit/core'
import { useMemo, useState } from 'react'
import { useNavigate } from 'react-router'
import { errorMessage } from '../../../api/errors'
import { useDepots, useTimeZone } from '../../../app/time-zone'
import { useListParams } from '../../../lib/search-params'
import { todayIn } from '../../../lib/time'
import { Button, ButtonLink } from '../../../ui/button'
import { Field } from '../../../ui/form'
import { PageHeader } from '../../../ui/page-header'
import { EmptyState, ErrorState, LoadingState } from '../../../ui/states'
import { useToast } from '../../../ui/toast'
import '../board.css'
import './week.css'
import { type BoardChange, undoOf } from '../board-changes'
import { clock } from '../board-model'
import { DepotSelect, ViewSwitch } from '../board-toolbar'
import { useBoardUndo } from '../board-undo'
import { useCheckedDrop, useDropVerdict } from '../checked-drop'
import { type Slot, slotAssignment, useAssignJob, useUnassignJob } from '../queries'
import { StatusLegend } from '../status'
import { DueList } from './due-list'
import { type CellTarget, useWeekDnd } from './week-dnd'
import { type CellJob, WeekGrid } from './week-grid'
import {
  dateAfter,
  dayNames,
  mondayOf,
  placeOnDay,
  type WeekCell,
  type WeekJob,
  type WeekWorker,
} from './week-model'
import { useWeekBoard } from './week-queries'

interface PendingMove {
  userId: string
  date: string
  job: CellJob
}

export function WeekPage() {
  const params = useListParams()
  const depots = useDepots()
  const organisationZone = useTimeZone()
  const locationId = params.get('location')
  const depot = depots.data?.locations.find((d) => d.id === locationId)
  const today = todayIn(depot?.timezone ?? organisationZone)
  const start = params.get('start') ?? mondayOf(today)
  const week = useWeekBoard(start, locationId)
  const data = week.data
  const timeZone = data?.timezone ?? depot?.timezone ?? organisationZone
  const navigate = useNavigate()
  const toast = useToast()
  const assign = useAssignJob()
  const unassign = useUnassignJob()
  const checked = useCheckedDrop()
  const [pending, setPending] = useState<ReadonlyMap<string, PendingMove>>(new Map())

  /** The inverse of the last move, made as any other assignment (and not undoable itself). */
  const runUndo = (change: BoardChange) => {
    checked.forget()
    const after = {
      onSuccess: () =>
        toast.success(
          change.kind === 'unassign'
            ? `Undone: ${change.title} is back in the jobs due this week`
            : `Undone: ${change.title} is back on ${dayNames(change.assignment.scheduledStart.slice(0, 10)).long} at ${clock(change.assignment.scheduledStart, timeZone)}`,
        ),
      onError: (error: unknown) =>
        toast.error(`Could not undo the change to “${change.title}”: ${errorMessage(error)}`),
    }
    if (change.kind === 'unassign') unassign.mutate(change.jobId, after)
    else assign.mutate({ id: change.jobId, assignment: change.assignment }, after)
  }
  const undo = useBoardUndo(runUndo)

  const jobsById = useMemo(() => {
    const all = new Map<string, WeekJob>()
    for (const worker of data?.workers ?? [])
      for (const cell of worker.days) for (const j of cell.jobs) all.set(j.id, j)
    for (const j of data?.due ?? []) all.set(j.id, j)
    return all
  }, [data])
  const cellOf = (target: CellTarget) => {
    const worker = data?.workers.find((w) => w.user.id === target.userId)
    const cell = worker?.days.find((d) => d.date === target.date)
    return worker && cell ? { worker, cell } : null
  }

  const jobsOf = (worker: WeekWorker, cell: WeekCell): CellJob[] => {
    const moved = [...pending.values()]
      .filter((p) => p.userId === worker.user.id && p.date === cell.date)
      .map((p) => p.job)
    return [...cell.jobs.filter((j) => !pending.has(j.id)), ...moved].sort(
      (a, b) => Date.parse(a.scheduledStart ?? '') - Date.parse(b.scheduledStart ?? ''),
    )
  }

  const onDrop = async (jobId: string, target: CellTarget) => {
    const job = jobsById.get(jobId)
    const found = cellOf(target)
    if (!job || !found) return
    const { worker, cell } = found
    const place = placeOnDay(job, worker, cell, timeZone)
    if (!place) return
    const unchanged =
      job.assignedUserId === place.userId &&
      job.shiftId === place.shiftId &&
      job.scheduledStart !== null &&
      Date.parse(job.scheduledStart) === place.start
    if (unchanged) return
    const slot: Slot = { jobId, ...place }
    if (!(await checked.decide(slot, `${job.title} was not moved`))) return
    const verb = job.assignedUserId ? 'moved' : 'assigned'
    const moved: CellJob = {
      ...job,
      status: 'ASSIGNED',
      assignedUserId: place.userId,
      shiftId: place.shiftId,
      scheduledStart: new Date(place.start).toISOString(),
      scheduledEnd: new Date(place.end).toISOString(),
      saving: true,
    }
    setPending((all) => new Map(all).set(jobId, { userId: place.userId, date: cell.date, job: moved }))
    assign.mutate(
      { id: jobId, assignment: slotAssignment(slot) },
      {
        onSuccess: () =>
          undo.changed(
            `${job.title} ${verb} to ${worker.user.name}, ${dayNames(cell.date).long} at ${clock(place.start, timeZone)}`,
            undoOf(job),
          ),
        onError: (error) => toast.error(`Could not move “${job.title}”: ${errorMessage(error)}`),
        onSettled: () =>
          setPending((all) => {
            const next = new Map(all)
            next.delete(jobId)
            return next
          }),
      },
    )
  }

  const dnd = useWeekDnd({
    describeJob: (jobId) => jobsById.get(jobId)?.title ?? 'the job',
    describeCell: (target) => {
      const found = cellOf(target)
      return found ? `${found.worker.user.name}, ${dayNames(target.date).long}` : 'no day'
    },
    onDrop,
  })
  const activeJob = dnd.activeJobId ? jobsById.get(dnd.activeJobId) : undefined
  const overCell = dnd.over ? cellOf(dnd.over) : null
  const preview =
    activeJob && overCell ? placeOnDay(activeJob, overCell.worker, overCell.cell, timeZone) : null
  const target: Slot | null = activeJob && preview ? { jobId: activeJob.id, ...preview } : null
  const { verdict, text: verdictText } = useDropVerdict(target, checked.awaiting)

  const setParams = (changes: Record<string, string | undefined>) => params.set(changes, { keepPage: true })
  const location = locationId ? `&location=${locationId}` : ''
  const end = dateAfter(start, 6)
  return (
    <div className="page page-board">
      <PageHeader
        title="Dispatch board"
        description={`${depot?.name ?? 'All depots'} · ${dayNames(start).long} – ${dayNames(end).long} · times in ${timeZone}`}
        actions={
          <ButtonLink to={`/plan?date=${start}${location}`} variant="primary">
            Plan a day
          </ButtonLink>
        }
      />
      <div className="filters board-filters">
        <ViewSwitch
          view="week"
          dayHref={`/?date=${start}${location}`}
          weekHref={`/board/week?start=${start}${location}`}
        />
        <WeekPicker
          start={start}
          thisWeek={mondayOf(today)}
          onChange={(next) => setParams({ start: next })}
        />
        <DepotSelect
          depots={depots.data?.locations ?? []}
          value={locationId}
          onChange={(next) => setParams({ location: next })}
        />
      </div>
      {week.isPending ? (
        <LoadingState label="Loading the week…" />
      ) : week.error && !data ? (
        <ErrorState error={week.error} onRetry={() => week.refetch()} />
      ) : data ? (
        <>
          <div className="board-legend">
            <StatusLegend statuses={['ASSIGNED', 'IN_PROGRESS', 'COMPLETED']} />
            <span className="muted board-updated" aria-live="polite">
              {week.isFetching ? 'Refreshing…' : `Updated ${clock(week.dataUpdatedAt, timeZone)}`}
            </span>
          </div>
          <DndContext
            sensors={dnd.sensors}
            collisionDetection={dnd.collisionDetection}
            accessibility={dnd.accessibility}
            {...dnd.handlers}
          >
            <div className="week-layout">
              {data.workers.length === 0 ? (
                <div className="card">
                  <EmptyState
                    title="Nobody has a weekly shift"
                    description="Rows come from the weekly shifts of the depot's workers; add shifts to plan the week."
                    action={<ButtonLink to="/shifts">Shifts</ButtonLink>}
                  />
                </div>
              ) : (
                <WeekGrid
                  week={data}
                  today={today}
                  locationId={locationId}
                  jobsOf={jobsOf}
                  onOpen={(jobId) => navigate(`/jobs/${jobId}`)}
                />
              )}
              <DueList
                jobs={data.due.filter((j) => !pending.has(j.id))}
                truncated={data.dueTruncated}
                today={today}
                timeZone={timeZone}
                onOpen={(jobId) => navigate(`/jobs/${jobId}`)}
              />
            </div>
            <DragOverlay dropAnimation={null}>
              {activeJob && (
                <div
                  className="week-job week-job-overlay status-assigned"
                  data-verdict={target ? verdict.tone : undefined}
                >
                  <span className="week-job-title">{activeJob.title}</span>
                  <span className="week-job-drop">
                    {preview && overCell
                      ? `${overCell.worker.user.name} · ${dayNames(overCell.cell.date).short} · ${clock(preview.start, timeZone)}`
                      : 'Drop on a day'}
                  </span>
                  {verdictText && <span className="week-job-verdict">{verdictText}</span>}
                </div>
              )}
            </DragOverlay>
          </DndContext>
          {/* What a drop here would meet, for screen readers (the card says it on screen). */}
          <div className="visually-hidden" aria-live="polite">
            {activeJob ? (verdictText ?? '') : ''}
          </div>
        </>
      ) : null}
    </div>
  )
}

function WeekPicker({
  start,
  thisWeek,
  onChange,
}: {
  start: string
  thisWeek: string
  onChange: (start: string) => void
}) {
  return (
    <div className="day-picker">
      <Button aria-label="Previous week" onClick={() => onChange(dateAfter(start, -7))}>
        ‹
      </Button>
      <Field label="Week from">
        {(control) => (
          <input
            {...control}
            className="input"
            type="date"
            value={start}
            required
            onChange={(e) => e.target.value && onChange(e.target.value)}
          />
        )}
      </Field>
      <Button aria-label="Next week" onClick={() => onChange(dateAfter(start, 7))}>
        ›
      </Button>
      <Button onClick={() => onChange(thisWeek)} disabled={start === thisWeek}>
        This week
      </Button>
    </div>
  )
}
