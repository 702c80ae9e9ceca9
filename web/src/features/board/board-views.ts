// What the board shows, derived from the day's data: timeline rows with their blocks, the map's
// depots, jobs and routes, the current time and the date in words. Shared with the plan preview.
import { useEffect, useState } from 'react'
import { zonedToUtc } from '../../lib/time'
import {
  awayWords,
  type Board,
  type BoardJob,
  type BoardRow,
  clock,
  duration,
  jobsOfRow,
  positionOf,
  routePath,
} from './board-model'
import { STATUS_LOOK } from './status'
import type { TimelineBlock, TimelineRow, TimelineTravel } from './timeline'
import { ABSENCE_LABEL } from './week/week-model'
import { colourOf } from './worker-colour'

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
  return board.rows.map((row) => ({
    id: row.shiftId,
    label: row.user.name,
    sublabel: `${row.vehicle.name} · ${clock(row.start, timeZone)}–${clock(row.end, timeZone)}`,
    start: ms(row.start),
    end: ms(row.end),
    breaks: row.breaks.map((b) => ({ start: ms(b.start), end: ms(b.end), isPaid: b.isPaid })),
    colour: colourOf(row.user),
    absent: row.absence ? `${ABSENCE_LABEL[row.absence.reason]} — ${row.user.name}` : undefined,
    away: partAbsenceBands(board, row, timeZone),
    ...routeTotals(row),
    travel: travelBars(row, board.jobs),
    blocks: jobsOfRow(row, jobs).map((job) => jobBlock(job, timeZone)),
  }))
}

/**
 * A row's part-day absences as bands on its track. Their times are the wall clock of the row's depot
 * on the board's date (the row's hours already leave them out: a break, or a later start).
 */
function partAbsenceBands(board: Board, row: BoardRow, timeZone: string): TimelineRow['away'] {
  const zone = board.depots.find((depot) => depot.id === row.locationId)?.timezone ?? timeZone
  return row.partAbsences.flatMap((absence) =>
    absence.startTime === null || absence.endTime === null
      ? []
      : [
          {
            start: zonedToUtc(board.date, absence.startTime, zone).getTime(),
            end: zonedToUtc(board.date, absence.endTime, zone).getTime(),
            label: awayWords(absence),
          },
        ],
  )
}

/** A job on a row: its title then its customer on the block; number, address and times on hover. */
export function jobBlock(job: BoardJob, timeZone: string): TimelineBlock {
  const start = ms(job.scheduledStart ?? '')
  const end = ms(job.scheduledEnd ?? '')
  const look = STATUS_LOOK[job.status]
  const times = `${clock(start, timeZone)}–${clock(end, timeZone)}`
  const customer = job.customer?.name
  // The job's own address when it has one (a delivery elsewhere), else its customer's.
  const address = job.address || job.customer?.address || undefined
  return {
    id: job.id,
    title: job.title,
    customer,
    start,
    end,
    status: job.status,
    draggable: job.status === 'ASSIGNED',
    // What the block shows first (title, customer: live-views.ts puts the ETA after the title), then the rest.
    description: [job.title, customer, look.label, times, address, job.number].filter(Boolean).join(', '),
    tooltip: [
      [job.number, job.title].filter(Boolean).join(' · '),
      customer,
      address &&
        (job.ownPosition && !job.address
          ? `${address} (the customer’s; the job has its own position)`
          : address),
      `${look.label} · ${times}`,
    ]
      .filter(Boolean)
      .join('\n'),
  }
}

/** "38 km · 1 h 10 min drive", and "25 min overtime" as a warning, from the row's totals. */
export function routeTotals(row: BoardRow): { totals?: string; overtime?: string } {
  const { distanceMeters, driveSeconds, overtimeSeconds } = row.totals
  if (row.legs.length === 0) return {}
  return {
    totals: `${kilometres(distanceMeters)} · ${duration(driveSeconds)} drive`,
    ...(overtimeSeconds >= 60 ? { overtime: `${duration(overtimeSeconds)} overtime` } : {}),
  }
}

/** "8.4 km", "38 km". */
export function kilometres(metres: number): string {
  const km = metres / 1000
  return `${km < 10 ? Math.round(km * 10) / 10 : Math.round(km)} km`
}

/**
 * Each leg of the row as a bar ending where its stop starts (the drive just before the visit), or,
 * back to the origin, starting where the last visit ends. A bar longer than the gap before its stop
 * is drawn from the previous visit's end and marked short.
 */
export function travelBars(row: BoardRow, jobs: readonly BoardJob[]): TimelineTravel[] {
  const byId = new Map(jobsOfRow(row, jobs).map((job) => [job.id, job]))
  const shiftStart = ms(row.start)
  return row.legs.flatMap((leg): TimelineTravel[] => {
    const drive = leg.durationSeconds * 1000
    const from = leg.fromJobId === null ? undefined : byId.get(leg.fromJobId)
    const to = leg.toJobId === null ? undefined : byId.get(leg.toJobId)
    const label = `${duration(leg.durationSeconds)} drive, ${kilometres(leg.distanceMeters)}`
    const what = to
      ? `${from ? from.title : 'the start'} to ${to.title}`
      : `${from?.title ?? 'the last stop'} back to the start`
    if (to?.scheduledStart) {
      const arrive = ms(to.scheduledStart)
      const earliest = from?.scheduledEnd ? ms(from.scheduledEnd) : Math.min(shiftStart, arrive)
      const start = Math.max(earliest, arrive - drive)
      return [
        {
          id: `${leg.fromJobId ?? 'start'}>${leg.toJobId}`,
          start,
          end: arrive,
          minutes: duration(leg.durationSeconds),
          description: `${label}, ${what}`,
          short: arrive - earliest < drive,
        },
      ]
    }
    if (leg.toJobId === null && from?.scheduledEnd) {
      const leave = ms(from.scheduledEnd)
      return [
        {
          id: `${leg.fromJobId}>end`,
          start: leave,
          end: leave + drive,
          minutes: duration(leg.durationSeconds),
          description: `${label}, ${what}`,
          short: false,
        },
      ]
    }
    return []
  })
}

/** Depots, located jobs and the routes (each in its worker's colour) for the map. */
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
    routes: board.rows.map((row) => ({
      id: row.shiftId,
      label: `${row.user.name} · ${row.vehicle.name}`,
      colour: colourOf(row.user),
      path: routePath(
        row.origin,
        jobsOfRow(row, board.jobs).filter((job) => job.status !== 'CANCELLED'),
        row.endPolicy === 'RETURN_TO_ORIGIN',
      ),
    })),
  }
}
