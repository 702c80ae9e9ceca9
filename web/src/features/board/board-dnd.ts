// Dragging on the board (dnd-kit): a job's block (or tray card) is dropped on a row at the time under
// its left edge, snapped to 15 minutes — the same with the mouse and with the keyboard (Space picks
// up, arrows move by a quarter hour or a row, Space or Enter drops, Escape cancels).
import {
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragMoveEvent,
  type DragOverEvent,
  type DragStartEvent,
  KeyboardCode,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  type Modifier,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core'
import { useMemo, useRef, useState } from 'react'
import { type BoardJob, type BoardRow, instantAt, SNAP, type TimeRange } from './board-model'
import { TRAY_DROP_ID } from './tray'

export type Drop =
  | { kind: 'assign'; job: BoardJob; row: BoardRow; start: number }
  | { kind: 'unassign'; job: BoardJob }

type Rect = { left: number; top: number; width: number; height: number }
const isRowTarget = (id: unknown) => String(id).startsWith('row:')

/**
 * The drop target is the one under the pointer, or with the keyboard under the dragged item's left
 * edge (its start time), halfway down.
 */
const targetUnderPoint: CollisionDetection = ({
  collisionRect,
  droppableRects,
  droppableContainers,
  pointerCoordinates,
}) => {
  const point = pointerCoordinates ?? {
    x: collisionRect.left + 1,
    y: collisionRect.top + collisionRect.height / 2,
  }
  return droppableContainers
    .filter((container) => {
      const r = droppableRects.get(container.id)
      return r && point.x >= r.left && point.x <= r.right && point.y >= r.top && point.y <= r.bottom
    })
    .map((container) => ({ id: container.id, data: { droppableContainer: container, value: 0 } }))
}

export function useBoardDnd({
  rows,
  jobs,
  range,
  onDrop,
}: {
  rows: BoardRow[]
  jobs: BoardJob[]
  range: TimeRange
  onDrop: (drop: Drop) => void
}) {
  const [activeJob, setActiveJob] = useState<BoardJob | null>(null)
  const [preview, setPreview] = useState<{ rowId: string; start: number; end: number } | null>(null)
  const rangeRef = useRef(range)
  rangeRef.current = range
  /** Pixels the overlay is moved right so the pointer stays on it (a tray card is wider than a visit). */
  const shift = useRef(0)
  const jobsById = useMemo(() => new Map(jobs.map((j) => [j.id, j])), [jobs])
  const rowsById = useMemo(() => new Map(rows.map((r) => [r.shiftId, r])), [rows])

  /**
   * Arrow keys: left and right by a quarter hour (the first right press lands on the day's first
   * hour when the item is still left of the hours), up and down to the next row, or the tray.
   */
  const keyboardCoordinates: KeyboardCoordinateGetter = (event, { currentCoordinates, context }) => {
    const rects = [...context.droppableRects.entries()]
    const tracks = rects.filter(([id]) => isRowTarget(id)).map(([, r]) => r)
    const track = tracks[0]
    const dragged = context.collisionRect
    if (!track || !dragged) return undefined
    const { from, to } = rangeRef.current
    const slot = (track.width * SNAP) / (to - from)
    const { x, y } = currentCoordinates
    const middle = y + dragged.height / 2
    // Vertical stops: the middle of each row and of the tray.
    const stops = rects.map(([, r]) => r.top + r.height / 2).sort((a, b) => a - b)
    let next: { x: number; y: number } | undefined
    if (event.code === KeyboardCode.Right) next = { x: x < track.left ? track.left : x + slot, y }
    else if (event.code === KeyboardCode.Left) next = { x: Math.max(track.left, x - slot), y }
    else if (event.code === KeyboardCode.Up || event.code === KeyboardCode.Down) {
      const up = event.code === KeyboardCode.Up
      const stop = up ? stops.filter((s) => s < middle - 1).at(-1) : stops.find((s) => s > middle + 1)
      if (stop !== undefined) next = { x, y: stop - dragged.height / 2 }
    }
    if (!next) return undefined
    event.preventDefault()
    return next
  }

  const sensors = useSensors(
    // A click (no movement) opens the job; a drag starts after 6 px.
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, {
      keyboardCodes: {
        start: [KeyboardCode.Space],
        cancel: [KeyboardCode.Esc],
        end: [KeyboardCode.Space, KeyboardCode.Enter],
      },
      coordinateGetter: keyboardCoordinates,
    }),
  )

  const jobOf = (event: { active: { data: { current?: Record<string, unknown> | undefined } } }) =>
    jobsById.get(String(event.active.data.current?.jobId ?? ''))

  /** The row and start time a drop at the current position means, or null when not over a row. */
  const placement = (event: DragMoveEvent | DragOverEvent | DragEndEvent) => {
    const job = jobOf(event)
    const over = event.over
    const dragged = event.active.rect.current.translated
    if (!job || !over || !dragged || !isRowTarget(over.id)) return null
    const row = rowsById.get(String(over.data.current?.rowId ?? ''))
    if (!row) return null
    const track: Rect = over.rect
    const start = instantAt(dragged.left + shift.current - track.left, track.width, rangeRef.current)
    return { job, row, start }
  }

  const showPlacement = (event: DragMoveEvent | DragOverEvent) => {
    const place = placement(event)
    setPreview(
      place
        ? {
            rowId: place.row.shiftId,
            start: place.start,
            end: place.start + place.job.serviceDuration * 1000,
          }
        : null,
    )
  }

  const handlers = {
    onDragStart(event: DragStartEvent) {
      const job = jobOf(event)
      setActiveJob(job ?? null)
      shift.current = 0
      const initial = event.active.rect.current.initial
      const pointer = event.activatorEvent as PointerEvent | KeyboardEvent
      if (job && initial && 'clientX' in pointer) {
        const track = document.querySelector(`[data-drop-track]`)?.getBoundingClientRect()
        const { from, to } = rangeRef.current
        const width = track ? (track.width * job.serviceDuration * 1000) / (to - from) : initial.width
        const offset = pointer.clientX - initial.left
        shift.current = Math.max(0, offset - Math.max(8, width - 8))
      }
    },
    onDragMove(event: DragMoveEvent) {
      showPlacement(event)
    },
    // A move event carries the target found before the move; when the pointer has just crossed into
    // another row and stops there, only this event names the new row (without it the red or amber
    // target stayed on the row the pointer had left while the drop went to the one under it).
    onDragOver(event: DragOverEvent) {
      showPlacement(event)
    },
    onDragEnd(event: DragEndEvent) {
      const job = jobOf(event)
      const place = placement(event)
      setActiveJob(null)
      setPreview(null)
      if (!job) return
      if (event.over?.id === TRAY_DROP_ID) {
        if (job.status === 'ASSIGNED') onDrop({ kind: 'unassign', job })
        return
      }
      if (!place) return
      const unchanged =
        job.shiftId === place.row.shiftId &&
        job.scheduledStart !== null &&
        Date.parse(job.scheduledStart) === place.start
      if (!unchanged) onDrop({ kind: 'assign', job, row: place.row, start: place.start })
    },
    onDragCancel() {
      setActiveJob(null)
      setPreview(null)
    },
  }

  const overlayModifier: Modifier = ({ transform }) => ({ ...transform, x: transform.x + shift.current })

  const rowName = (id: unknown) => {
    const row = rowsById.get(String(id).replace(/^row:/, ''))
    return row ? `${row.user.name}'s row` : 'the unassigned tray'
  }
  const titleOf = (id: unknown) => jobsById.get(String(id).replace(/^job:/, ''))?.title ?? 'the job'
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      `Picked up ${titleOf(active.id)}. Arrow keys move it by a quarter hour or a row; Space drops it, Escape cancels.`,
    onDragOver: ({ active, over }) =>
      over ? `${titleOf(active.id)} is over ${rowName(over.id)}.` : `${titleOf(active.id)} is over no row.`,
    onDragEnd: ({ active, over }) =>
      over ? `${titleOf(active.id)} dropped on ${rowName(over.id)}.` : `${titleOf(active.id)} put back.`,
    onDragCancel: ({ active }) => `Moving ${titleOf(active.id)} was cancelled.`,
  }

  return {
    sensors,
    collisionDetection: targetUnderPoint,
    handlers,
    activeJob,
    preview,
    overlayModifier,
    accessibility: {
      announcements,
      screenReaderInstructions: {
        draggable:
          'Press Space to pick up the job, the arrow keys to move it across times and rows, and Space to drop it; ' +
          'Escape cancels. Enter opens the job, with Assign and Unassign.',
      },
    },
  }
}
