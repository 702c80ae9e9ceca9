// The dispatch board, the dashboard's home page: a day of shifts as rows across the depot's hours,
// jobs as blocks, the Unassigned tray, and the map. Jobs are assigned by dragging them onto a row (or
// with the keyboard: Space and the arrows, or "Assign…"), unassigned by dragging them back.
import { DndContext, DragOverlay } from '@dnd-kit/core'
import { useMemo, useState } from 'react'
import { errorMessage } from '../../api/errors'
import { useDepots, useTimeZone } from '../../app/time-zone'
import { useListParams } from '../../lib/search-params'
import { todayIn } from '../../lib/time'
import { Banner } from '../../ui/banner'
import { Button, ButtonLink } from '../../ui/button'
import { PageHeader } from '../../ui/page-header'
import { EmptyState, ErrorState, LoadingState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { MapPanel } from '../map/map-panel'
import './board.css'
import { AssignDialog } from './assign-dialog'
import { type Drop, useBoardDnd } from './board-dnd'
import {
  type BoardFilters,
  type BoardJob,
  clock,
  type JobPriority,
  type JobStatus,
  matchesFilters,
  timelineRange,
  waitingJobs,
} from './board-model'
import { DayPicker, DepotSelect, JobFilters, ZoomControl, zoomOf } from './board-toolbar'
import { boardMapData, boardTimelineRows, longDate, useNow } from './board-views'
import { JobSheet } from './job-sheet'
import { LiveBanner } from './live-banner'
import { stopsByJob } from './live-model'
import { useLiveDay } from './live-queries'
import { liveWorkers, withLiveForecast } from './live-views'
import { useAssignJob, useBoard, useUnassignJob } from './queries'
import { STATUS_LOOK, StatusLegend } from './status'
import { Timeline } from './timeline'
import { Tray } from './tray'

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

  const allJobs = data?.jobs ?? []
  const visible = useMemo(() => allJobs.filter((job) => matchesFilters(job, filters)), [allJobs, filters])
  const rows = data ? withLiveForecast(boardTimelineRows(data, visible, timeZone), liveShifts, timeZone) : []
  const range = data
    ? timelineRange(data.dayStart, data.dayEnd, [
        ...rows.map((r) => ({ start: r.start, end: r.end })),
        ...rows.flatMap((r) => r.blocks.map((b) => ({ start: b.start, end: b.end }))),
      ])
    : { from: 0, to: 1 }
  const selected = allJobs.find((job) => job.id === selectedId)
  const waiting = waitingJobs(allJobs)

  const unassignJob = (job: BoardJob) => {
    setFailure(null)
    unassign.mutate(job.id, {
      onSuccess: () => {
        toast.success(`${job.title} unassigned`)
        setSelectedId(null)
      },
      onError: (error) => setFailure(`Could not unassign “${job.title}”: ${errorMessage(error)}`),
    })
  }
  const onDrop = (drop: Drop) => {
    if (drop.kind === 'unassign') return unassignJob(drop.job)
    const { job, row, start } = drop
    setFailure(null)
    assign.mutate(
      {
        id: job.id,
        assignment: {
          userId: row.user.id,
          shiftId: row.shiftId,
          scheduledStart: new Date(start).toISOString(),
          scheduledEnd: new Date(start + job.serviceDuration * 1000).toISOString(),
        },
      },
      {
        onSuccess: () =>
          toast.success(`${job.title} assigned to ${row.user.name} at ${clock(start, timeZone)}`),
        onError: (error) => setFailure(`Could not assign “${job.title}”: ${errorMessage(error)}`),
      },
    )
  }
  const dnd = useBoardDnd({ rows: data?.rows ?? [], jobs: allJobs, range, onDrop })
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
              preview={dnd.preview}
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
              <MapPanel label="Map" {...map} workers={workers} fitKey={`${date}|${locationId ?? ''}`} />
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
            toast.success(message)
            setAssigning(null)
            setSelectedId(null)
          }}
        />
      )}
    </div>
  )
}
