// What the board shows, derived from the day's data: timeline rows with their blocks, the map's
// depots, jobs and routes, the current time and the date in words. Shared with the plan preview.
import { useEffect, useState } from 'react'
import {
  type Board,
  type BoardJob,
  clock,
  jobsOfRow,
  positionOf,
  routeColour,
  routePath,
} from './board-model'
import { STATUS_LOOK } from './status'
import type { TimelineRow } from './timeline'
import { ABSENCE_LABEL } from './week/week-model'

const ms = (iso: string) => Date.parse(iso)

/** The current time, moved on every 30 seconds (the now line). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(Date.now)
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
  return now
}

/** "Monday 7 December 2026" */
export function longDate(date: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', dateStyle: 'full' }).format(
    new Date(`${date}T00:00:00Z`),
  )
}

export function boardTimelineRows(board: Board, jobs: BoardJob[], timeZone: string): TimelineRow[] {
  return board.rows.map((row, index) => ({
    id: row.shiftId,
    label: row.user.name,
    sublabel: `${row.vehicle.name} · ${clock(row.start, timeZone)}–${clock(row.end, timeZone)}`,
    start: ms(row.start),
    end: ms(row.end),
    breaks: row.breaks.map((b) => ({ start: ms(b.start), end: ms(b.end), isPaid: b.isPaid })),
    colour: routeColour(index),
    absent: row.absence ? `${ABSENCE_LABEL[row.absence.reason]} — ${row.user.name}` : undefined,
    blocks: jobsOfRow(row, jobs).map((job) => {
      const start = ms(job.scheduledStart ?? '')
      const end = ms(job.scheduledEnd ?? '')
      const customer = job.customer ? `, ${job.customer.name}` : ''
      return {
        id: job.id,
        title: job.title,
        start,
        end,
        status: job.status,
        draggable: job.status === 'ASSIGNED',
        description: `${job.title}, ${STATUS_LOOK[job.status].label}, ${clock(start, timeZone)}–${clock(end, timeZone)}${customer}`,
      }
    }),
  }))
}

/** Depots, located jobs and the routes (row order = colour order) for the map. */
export function boardMapData(board: Board, jobs: BoardJob[]) {
  return {
    depots: board.depots.map((d) => ({
      id: d.id,
      name: d.name,
      position: [Number(d.latitude), Number(d.longitude)] as [number, number],
    })),
    jobs: jobs.flatMap((job) => {
      const position = positionOf(job)
      return position ? [{ id: job.id, title: job.title, status: job.status, position }] : []
    }),
    routes: board.rows.map((row, index) => ({
      id: row.shiftId,
      label: `${row.user.name} · ${row.vehicle.name}`,
      colour: routeColour(index),
      path: routePath(
        row.origin,
        jobsOfRow(row, board.jobs).filter((job) => job.status !== 'CANCELLED'),
        row.endPolicy === 'RETURN_TO_ORIGIN',
      ),
    })),
  }
}
