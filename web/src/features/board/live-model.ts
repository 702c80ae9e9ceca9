// The live day's arithmetic for the board, apart from the components so it can be tested alone:
// how old a worker's position reads, when it counts as stale, each stop's forecast by job, and the
// words of the at-risk banner.
import type { Schema } from '../../api/types'

export type LiveShift = Schema<'LiveShift'>
export type LiveStop = LiveShift['stops'][number]
export type Risk = LiveStop['risk']

const MINUTE = 60_000
/** A position older than this is drawn faded: the live day's freshness rule (route-start.ts, 15 min). */
export const STALE_AFTER_MS = 15 * MINUTE

/** "just now", "2 min ago", "1 h ago", "1 h 20 min ago": how long ago a position was taken. */
export function positionAge(recordedAt: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(recordedAt)) / MINUTE))
  if (minutes < 1) return 'just now'
  if (minutes < 60) return `${minutes} min ago`
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  // Past a few hours the minutes are noise.
  return rest === 0 || hours >= 3 ? `${hours} h ago` : `${hours} h ${rest} min ago`
}

export function isStale(recordedAt: string, now: number): boolean {
  return now - Date.parse(recordedAt) > STALE_AFTER_MS
}

/** Each stop still to visit, by job id, with the shift it is on. */
export function stopsByJob(shifts: readonly LiveShift[]): Map<string, LiveStop> {
  const stops = new Map<string, LiveStop>()
  for (const shift of shifts) for (const stop of shift.stops) stops.set(stop.jobId, stop)
  return stops
}

export interface RiskCounts {
  atRisk: number
  late: number
}

export function riskCounts(shifts: readonly LiveShift[]): RiskCounts {
  const counts = { atRisk: 0, late: 0 }
  for (const shift of shifts) {
    for (const stop of shift.stops) {
      if (stop.risk === 'AT_RISK') counts.atRisk++
      else if (stop.risk === 'LATE') counts.late++
    }
  }
  return counts
}

const stops = (n: number) => (n === 1 ? '1 stop' : `${n} stops`)

/** "2 stops at risk, 1 late", "1 stop late", "3 stops at risk"; "" when none. */
export function riskSummary({ atRisk, late }: RiskCounts): string {
  if (atRisk > 0 && late > 0) return `${stops(atRisk)} at risk, ${late} late`
  if (atRisk > 0) return `${stops(atRisk)} at risk`
  if (late > 0) return `${stops(late)} late`
  return ''
}

/** The words of a risk, wherever it is shown (block badge, job sheet, screen readers). */
export const RISK_LOOK: Record<Risk, { label: string; tone: 'green' | 'amber' | 'red' } | null> = {
  ON_TIME: null,
  AT_RISK: { label: 'At risk', tone: 'amber' },
  LATE: { label: 'Late', tone: 'red' },
}

/** "ends 17:20 · 20 min overtime" for a row header: the forecast end, and overtime only past 0. */
export function predictedEndText(
  shift: Pick<LiveShift, 'predictedEnd' | 'overtimeMinutes'>,
  clock: (iso: string) => string,
): string {
  const end = `Ends ~${clock(shift.predictedEnd)}`
  if (shift.overtimeMinutes <= 0) return end
  const h = Math.floor(shift.overtimeMinutes / 60)
  const m = shift.overtimeMinutes % 60
  const over = h === 0 ? `${m} min` : m === 0 ? `${h} h` : `${h} h ${m} min`
  return `${end} · ${over} overtime`
}
