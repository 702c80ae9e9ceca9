// The dispatch board, the dashboard's home page: a day of shifts as rows across the depot's hours,
// jobs as blocks, the Unassigned tray, and the map. Jobs are assigned by dragging them onto a row (or
// with the keyboard: Space and the arrows, or "Assign…"), unassigned by dragging them back. A drag's
// target shows the server's check of the slot: a drop with a HARD problem is not sent, one with a
// SOFT problem needs a second drop on the same slot; the last change can be undone for 30 seconds.
import { DndContext, DragOverlay } from '@dnd-kit/core'
import { Suspense, useMemo, useState } from 'react'
import { errorMessage } from '../../api/errors'
import { lazyPage } from '../../app/lazy-page'
import { useDepots, useTimeZone } from '../../app/time-zone'
import { useListParams } from '../../lib/search-params'
import { todayIn } from '../../lib/time'
import { Banner } from '../../ui/banner'
import { Button, ButtonLink } from '../../ui/button'
import { PageHeader } from '../../ui/page-header'
import { EmptyState, ErrorState, LoadingState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import './board.css'
import { AssignDialog } from './assign-dialog'
import { type BoardChange, undoOf } from './board-changes'
import { type Drop, useBoardDnd } from './board-dnd'
import {
  type Board,
  type BoardFilters,
  type BoardJob,
  blockFlags,
  clock,
  type JobPriority,
  type JobStatus,
  matchesFilters,
  timelineRange,
  waitingJobs,
} from './board-model'
import { DayPicker, DepotSelect, JobFilters, ViewSwitch, ZoomControl, zoomOf } from './board-toolbar'
import { useBoardUndo } from './board-undo'
import { boardMapData, boardTimelineRows, longDate, useNow } from './board-views'
import { useCheckedDrop, useDropVerdict } from './checked-drop'
import { JobSheet } from './job-sheet'
import { LiveBanner } from './live-banner'
import { stopsByJob } from './live-model'
import { useLiveDay } from './live-queries'
import { liveWorkers, withLiveForecast } from './live-views'
import { type Slot, slotAssignment, useAssignJob, useBoard, useUnassignJob } from './queries'
import { STATUS_LOOK, StatusLegend } from './status'
import { Timeline, type TimelineRow } from './timeline'
import { Tray } from './tray'

// The map (Leaflet, the largest script of the board) is its own chunk: the rows draw without waiting
// for it, which a phone connection feels (issue 33 §2).
const MapPanel = lazyPage(() => import('../map/map-panel'), 'MapPanel')

import { mondayOf } from './week/week-model'

export function BoardPage() {
  const params = useListParams()
  const depots = useDepots()
  const organisationZone = useTimeZone()
  const locationId = params.get('location')
  const depot = depots.data?.locations.find((d) => d.id === locationId)
  const date = params.get('date') ?? todayIn(depot?.timezone ?? organisationZone)
  const board = useBoard(date, locationId)
  const data = board.data
  const timeZone = data?.timezone ?? depot?.timezone ?? organisationZone
  const status = params.get('status') as JobStatus | undefined
  const priority = params.get('priority') as JobPriority | undefined
  const tagId = params.get('tag')
  const zoom = zoomOf(params.get('zoom'))
  const filters: BoardFilters = useMemo(() => ({ status, priority, tagId }), [status, priority, tagId])
  const now = useNow()
  const isToday = date === todayIn(timeZone)
  const live = useLiveDay(date, locationId, isToday)
  const liveShifts = useMemo(() => (isToday ? (live.data ?? []) : []), [isToday, live.data])
  const toast = useToast()
  const assign = useAssignJob()
  const unassign = useUnassignJob()
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const [assigning, setAssigning] = useState<BoardJob | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const checked = useCheckedDrop()

  const allJobs = data?.jobs ?? []
  const visible = useMemo(() => allJobs.filter((job) => matchesFilters(job, filters)), [allJobs, filters])
  const rows = data
    ? withBlockFlags(
        withLiveForecast(boardTimelineRows(data, visible, timeZone), liveShifts, timeZone),
        data,
        timeZone,
      )
    : []
  const range = data
    ? timelineRange(data.dayStart, data.dayEnd, [
        ...rows.map((r) => ({ start: r.start, end: r.end })),
        ...rows.flatMap((r) => r.blocks.map((b) => ({ start: b.start, end: b.end }))),
      ])
    : { from: 0, to: 1 }
  const selected = allJobs.find((job) => job.id === selectedId)
  const waiting = waitingJobs(allJobs)

  /** The inverse of the last change, made as any other change (and not undoable itself). */
  const runUndo = (change: BoardChange) => {
    setFailure(null)
    checked.forget()
    const after = {
      onSuccess: () =>
        toast.success(
          change.kind === 'unassign'
            ? `Undone: ${change.title} is back in the tray`
            : `Undone: ${change.title} is back at ${clock(change.assignment.scheduledStart, timeZone)}`,
        ),
      onError: (error: unknown) =>
        setFailure(`Could not undo the change to “${change.title}”: ${errorMessage(error)}`),
    }
    if (change.kind === 'unassign') unassign.mutate(change.jobId, after)
    else assign.mutate({ id: change.jobId, assignment: change.assignment }, after)
  }
  const undo = useBoardUndo(runUndo)

  const unassignJob = (job: BoardJob) => {
    setFailure(null)
    unassign.mutate(job.id, {
      onSuccess: () => {
        undo.changed(`${job.title} unassigned`, undoOf(job))
        setSelectedId(null)
      },
      onError: (error) => setFailure(`Could not unassign “${job.title}”: ${errorMessage(error)}`),
    })
  }
  const onDrop = async (drop: Drop) => {
    if (drop.kind === 'unassign') return unassignJob(drop.job)
    const { job, row, start } = drop
    setFailure(null)
    const slot = slotOf(job, row, start)
    if (!(await checked.decide(slot, `${job.title} was not assigned`))) return
    assign.mutate(
      { id: job.id, assignment: slotAssignment(slot) },
      {
        onSuccess: () =>
          undo.changed(`${job.title} assigned to ${row.user.name} at ${clock(start, timeZone)}`, undoOf(job)),
        onError: (error) => setFailure(`Could not assign “${job.title}”: ${errorMessage(error)}`),
      },
    )
  }
  const dnd = useBoardDnd({ rows: data?.rows ?? [], jobs: allJobs, range, onDrop })
  const targetRow = dnd.preview && data?.rows.find((r) => r.shiftId === dnd.preview?.rowId)
  const target =
    dnd.activeJob && dnd.preview && targetRow ? slotOf(dnd.activeJob, targetRow, dnd.preview.start) : null
  const { verdict, text: verdictText } = useDropVerdict(target, checked.awaiting)
  const preview = dnd.preview ? { ...dnd.preview, tone: verdict.tone, message: verdictText } : null
  const map = useMemo(() => (data ? boardMapData(data, visible) : null), [data, visible])
  const workers = useMemo(() => liveWorkers(liveShifts, now), [liveShifts, now])

  const setParams = (changes: Record<string, string | undefined>) => params.set(changes, { keepPage: true })
  const depotName = depot?.name ?? 'All depots'
  return (
    <div className="page page-board">
      <PageHeader
        title="Dispatch board"
        description={`${depotName} · ${longDate(date)} · times in ${timeZone}`}
        actions={
          <ButtonLink
            to={`/plan?date=${date}${locationId ? `&location=${locationId}` : ''}`}
            variant="primary"
          >
            Plan the day
          </ButtonLink>
        }
      />
      <div className="filters board-filters">
        <ViewSwitch
          view="day"
          dayHref={`/?date=${date}${locationId ? `&location=${locationId}` : ''}`}
          weekHref={`/board/week?start=${mondayOf(date)}${locationId ? `&location=${locationId}` : ''}`}
        />
        <DayPicker date={date} today={todayIn(timeZone)} onChange={(next) => setParams({ date: next })} />
        <DepotSelect
          depots={depots.data?.locations ?? []}
          value={locationId}
          onChange={(next) => setParams({ location: next })}
        />
        <JobFilters
          jobs={allJobs}
          status={filters.status}
          priority={filters.priority}
          tag={filters.tagId}
          onChange={setParams}
        />
      </div>
      {failure && (
        <Banner tone="danger" title="That change was not made">
          <div className="row">
            <span>{failure}</span>
            <Button size="sm" variant="ghost" onClick={() => setFailure(null)}>
              Dismiss
            </Button>
          </div>
        </Banner>
      )}
      {board.isPending ? (
        <LoadingState label="Loading the board…" />
      ) : board.error && !data ? (
        <ErrorState error={board.error} onRetry={() => board.refetch()} />
      ) : data && map ? (
        <>
          <LiveBanner shifts={liveShifts} date={date} locationId={locationId} timeZone={timeZone} />
          <div className="board-legend">
            <StatusLegend />
            <ZoomControl
              zoom={zoom}
              onChange={(next) => setParams({ zoom: next === 1 ? undefined : String(next) })}
            />
            <span className="muted board-updated" aria-live="polite">
              {board.isFetching ? 'Refreshing…' : `Updated ${clock(board.dataUpdatedAt, timeZone)}`}
            </span>
          </div>
          <DndContext
            sensors={dnd.sensors}
            collisionDetection={dnd.collisionDetection}
            accessibility={dnd.accessibility}
            {...dnd.handlers}
          >
            <Timeline
              label="Shifts and their jobs"
              rows={rows}
              range={range}
              timeZone={timeZone}
              now={isToday ? now : undefined}
              interactive
              zoom={zoom}
              preview={preview}
              onSelect={setSelectedId}
              empty={
                <EmptyState
                  title={`Nobody works on ${longDate(date).split(' ')[0]}`}
                  description="Rows come from the weekly shifts of the depot's workers; add shifts to plan this day."
                />
              }
            />
            <div className="board-lower">
              <Tray
                jobs={waiting.filter((job) => matchesFilters(job, filters))}
                total={waiting.length}
                timeZone={timeZone}
                onAssign={setAssigning}
                onSelect={(job) => setSelectedId(job.id)}
                empty={
                  waiting.length > 0 ? (
                    <EmptyState title="No waiting job matches these filters" />
                  ) : (
                    <EmptyState
                      icon="✓"
                      title="Nothing waiting"
                      description="Every job of the day is on a row."
                    />
                  )
                }
              />
              <Suspense fallback={<LoadingState label="Loading the map…" />}>
                <MapPanel label="Map" {...map} workers={workers} fitKey={`${date}|${locationId ?? ''}`} />
              </Suspense>
            </div>
            <DragOverlay dropAnimation={null} modifiers={[dnd.overlayModifier]}>
              {dnd.activeJob && (
                <div className={`block block-overlay ${STATUS_LOOK[dnd.activeJob.status].className}`}>
                  <span className="block-title">{dnd.activeJob.title}</span>
                  <span className="block-meta">
                    {dnd.preview ? `Drop at ${clock(dnd.preview.start, timeZone)}` : 'Drop on a row'}
                  </span>
                </div>
              )}
            </DragOverlay>
            {/* The target's problem, said to screen readers too (keyboard drags). */}
            <span className="visually-hidden" aria-live="polite">
              {dnd.activeJob ? (verdictText ?? '') : ''}
            </span>
          </DndContext>
        </>
      ) : null}
      {selected && !assigning && (
        <JobSheet
          job={selected}
          row={data?.rows.find((r) => r.shiftId === selected.shiftId)}
          stop={selected.status === 'ASSIGNED' ? stopsByJob(liveShifts).get(selected.id) : undefined}
          timeZone={timeZone}
          unassigning={unassign.isPending}
          onAssign={() => setAssigning(selected)}
          onUnassign={() => unassignJob(selected)}
          onClose={() => setSelectedId(null)}
        />
      )}
      {assigning && data && (
        <AssignDialog
          job={assigning}
          rows={data.rows}
          jobs={allJobs}
          date={date}
          timeZone={timeZone}
          onClose={() => setAssigning(null)}
          onAssigned={(message) => {
            undo.changed(message, undoOf(assigning))
            setAssigning(null)
            setSelectedId(null)
          }}
        />
      )}
    </div>
  )
}

const slotOf = (job: BoardJob, row: Board['rows'][number], start: number): Slot => ({
  jobId: job.id,
  userId: row.user.id,
  shiftId: row.shiftId,
  start,
  end: start + job.serviceDuration * 1000,
})

/** Each scheduled block flagged with the soft problems the board sees, in its name and tooltip too. */
function withBlockFlags(rows: TimelineRow[], board: Board, timeZone: string): TimelineRow[] {
  const jobs = new Map(board.jobs.map((job) => [job.id, job]))
  return rows.map((row) => {
    const shift = board.rows.find((r) => r.shiftId === row.id)
    return {
      ...row,
      blocks: row.blocks.map((block) => {
        const job = jobs.get(block.id)
        const flags = job && shift ? blockFlags(job, shift, timeZone).map((flag) => flag.message) : []
        if (flags.length === 0) return block
        return { ...block, flags, description: `${block.description}. ${flags.join('. ')}` }
      }),
    }
  })
}
