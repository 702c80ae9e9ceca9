// The visits already on shifts over a span of time, as the assignment check reads them: what a
// booking (modules/bookings) must fit between without moving anyone.
import type { Executor } from '../../db/types.js'
import { findScheduledJobsOfShifts } from './assignment-check-repository.js'

export interface ShiftVisit {
  jobId: string
  shiftId: string
  /** Instants in ms. */
  start: number
  end: number
  /** The job's own coordinates, else its customer's; null when neither has any. */
  position: { latitude: number; longitude: number } | null
}

/** ASSIGNED and IN_PROGRESS visits on `shiftIds` overlapping [from, to) (ISO), in scheduled order. */
export async function findShiftVisits(
  db: Executor,
  organisationId: string,
  shiftIds: readonly string[],
  from: string,
  to: string,
): Promise<ShiftVisit[]> {
  const rows = await findScheduledJobsOfShifts(db, organisationId, shiftIds, from, to)
  return rows.map((row) => {
    const latitude = row.job_latitude ?? row.customer_latitude
    const longitude = row.job_longitude ?? row.customer_longitude
    return {
      jobId: row.id,
      shiftId: row.shift_id as string,
      start: Date.parse(row.scheduled_start as string),
      end: Date.parse(row.scheduled_end as string),
      position:
        latitude !== null && longitude !== null
          ? { latitude: Number(latitude), longitude: Number(longitude) }
          : null,
    }
  })
}
