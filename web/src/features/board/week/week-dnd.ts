// Dragging on the week view (dnd-kit, as the day board): a job card is dropped on a worker's day —
// with the mouse, or with the keyboard (Space picks up, the arrows move to the next day or worker,
// Space or Enter drops, Escape cancels). Days that take no work are not drop targets.
import {
  type Announcements,
  type CollisionDetection,
  closestCenter,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
  KeyboardCode,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  useSensor,
  useSensors,
} from '@dnd-kit/core'
import { useState } from 'react'

export const cellDropId = (userId: string, date: string) => `cell:${userId}:${date}`
export const weekJobDragId = (jobId: string) => `week-job:${jobId}`

export interface CellTarget {
  userId: string
  date: string
}

/** The cell under the pointer; with the keyboard, the one nearest the dragged card. */
const collisionDetection: CollisionDetection = (args) =>
  args.pointerCoordinates ? pointerWithin(args) : closestCenter(args)

const DIRECTIONS: Record<string, [number, number]> = {
  [KeyboardCode.Right]: [1, 0],
  [KeyboardCode.Left]: [-1, 0],
  [KeyboardCode.Down]: [0, 1],
  [KeyboardCode.Up]: [0, -1],
}

/** Arrow keys: to the centre of the nearest drop target that way (the next day, or the next worker). */
const keyboardCoordinates: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
  const direction = DIRECTIONS[event.code]
  const dragged = context.collisionRect
  if (!direction || !dragged) return undefined
  const [dx, dy] = direction
  const here = { x: dragged.left + dragged.width / 2, y: dragged.top + dragged.height / 2 }
  let best: { x: number; y: number } | undefined
  let bestScore = Number.POSITIVE_INFINITY
  for (const [, rect] of context.droppableRects) {
    const centre = { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 }
    const along = (centre.x - here.x) * dx + (centre.y - here.y) * dy
    const across = Math.abs((centre.x - here.x) * dy) + Math.abs((centre.y - here.y) * dx)
    if (along <= 4) continue
    const score = along + across * 3
    if (score < bestScore) {
      bestScore = score
      best = centre
    }
  }
  if (!best) return undefined
  event.preventDefault()
  return { x: currentCoordinates.x + best.x - here.x, y: currentCoordinates.y + best.y - here.y }
}

const targetOf = (data: Record<string, unknown> | undefined): CellTarget | null =>
  typeof data?.userId === 'string' && typeof data.date === 'string'
    ? { userId: data.userId, date: data.date }
    : null

export function useWeekDnd({
  describeJob,
  describeCell,
  onDrop,
}: {
  describeJob: (jobId: string) => string
  describeCell: (target: CellTarget) => string
  onDrop: (jobId: string, target: CellTarget) => void
}) {
  const [activeJobId, setActiveJobId] = useState<string | null>(null)
  const [over, setOver] = useState<CellTarget | null>(null)
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
  const jobIdOf = (event: { active: { data: { current?: Record<string, unknown> | undefined } } }) =>
    String(event.active.data.current?.jobId ?? '')

  const handlers = {
    onDragStart(event: DragStartEvent) {
      setActiveJobId(jobIdOf(event))
      setOver(null)
    },
    onDragOver(event: DragOverEvent) {
      setOver(targetOf(event.over?.data.current))
    },
    onDragEnd(event: DragEndEvent) {
      const target = targetOf(event.over?.data.current)
      setActiveJobId(null)
      setOver(null)
      if (target) onDrop(jobIdOf(event), target)
    },
    onDragCancel() {
      setActiveJobId(null)
      setOver(null)
    },
  }

  const titleOf = (id: unknown) => describeJob(String(id).replace(/^week-job:/, ''))
  const cellName = (data: Record<string, unknown> | undefined) => {
    const target = targetOf(data)
    return target ? describeCell(target) : 'no day'
  }
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      `Picked up ${titleOf(active.id)}. Arrow keys move it to another day or worker; Space drops it, Escape cancels.`,
    onDragOver: ({ active, over: target }) =>
      `${titleOf(active.id)} is over ${cellName(target?.data.current)}.`,
    onDragEnd: ({ active, over: target }) =>
      target
        ? `${titleOf(active.id)} dropped on ${cellName(target.data.current)}.`
        : `${titleOf(active.id)} put back.`,
    onDragCancel: ({ active }) => `Moving ${titleOf(active.id)} was cancelled.`,
  }

  return {
    sensors,
    collisionDetection,
    handlers,
    activeJobId,
    over,
    accessibility: {
      announcements,
      screenReaderInstructions: {
        draggable:
          'Press Space to pick up the job, the arrow keys to move it to another day or worker, and Space to drop it; ' +
          'Escape cancels. Enter opens the job.',
      },
    },
  }
}
