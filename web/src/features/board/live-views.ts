// The live day laid over what the board shows: each stop still to visit gets its ETA and late risk
// on its block, each row its forecast end and overtime, and each worker with a position a marker in
// their colour (worker-colour.ts) with the age of the fix.
import type { MapWorker } from '../map/live-layer'
import { clock } from './board-model'
import { isStale, type LiveShift, positionAge, predictedEndText, RISK_LOOK, stopsByJob } from './live-model'
import type { TimelineRow } from './timeline'
import { colourOf } from './worker-colour'

/** "ETA 14:05" and the risk on the ASSIGNED blocks still to visit; forecast end on each row. */
export function withLiveForecast(rows: TimelineRow[], shifts: readonly LiveShift[], timeZone: string) {
  const stops = stopsByJob(shifts)
  const byShift = new Map(shifts.map((shift) => [shift.shiftId, shift]))
  return rows.map((row): TimelineRow => {
    const shift = byShift.get(row.id)
    return {
      ...row,
      ...(shift
        ? {
            note: predictedEndText(shift, (iso) => clock(iso, timeZone)),
            noteWarns: shift.overtimeMinutes > 0,
          }
        : {}),
      blocks: row.blocks.map((block) => {
        const stop = block.status === 'ASSIGNED' ? stops.get(block.id) : undefined
        if (!stop) return block
        const eta = `ETA ${clock(stop.eta, timeZone)}`
        const risk = RISK_LOOK[stop.risk]
        // In the order the block shows them (risk badge, title, ETA), so the accessible name contains
        // the visible text; then the rest of the description (status, times, customer).
        const rest = block.description.slice(block.title.length)
        return {
          ...block,
          eta,
          risk: stop.risk,
          description: `${risk ? `${risk.label}: ` : ''}${block.title}, ${eta}${rest}`,
          ...(block.tooltip ? { tooltip: `${block.tooltip}\n${eta}${risk ? ` · ${risk.label}` : ''}` } : {}),
        }
      }),
    }
  })
}

/** The workers of the day with a position, each in their own colour (as their row and route). */
export function liveWorkers(shifts: readonly LiveShift[], now: number): MapWorker[] {
  const seen = new Set<string>()
  return shifts.flatMap((shift) => {
    const position = shift.lastPosition
    // A worker with two shifts that day is one person in one place.
    if (!position || seen.has(shift.worker.id)) return []
    seen.add(shift.worker.id)
    return [
      {
        id: shift.worker.id,
        name: shift.worker.name,
        colour: colourOf(shift.worker),
        position: [Number(position.latitude), Number(position.longitude)] as [number, number],
        age: positionAge(position.recordedAt, now),
        stale: isStale(position.recordedAt, now),
      },
    ]
  })
}
