// Work in hand for `demo --simulate`: the demo is seeded once, in the week it is first run, with each
// shift's jobs from its start. Run later in the afternoon, or in another week, today's shifts may
// have nothing left to do and the simulated day would stand still. Before the simulation starts, every
// shift of today that still has an hour and a half to run and no job left to visit gets two more,
// at the customers nearest its depot, created and assigned through the jobs services (JOB_CREATED and
// JOB_ASSIGNED as for a dispatcher's), one after the other from when the worker is free.
import type { Kysely } from 'kysely'
import type { Database } from '../db/types.js'
import type { CustomerListQuery } from '../modules/customers/schemas.js'
import { listCustomers } from '../modules/customers/service.js'
import { assignJob, checkJobAssignment } from '../modules/jobs/dispatch-service.js'
import { createJob } from '../modules/jobs/service.js'
import type { LiveShift } from '../modules/live/schemas.js'
import { liveDay } from '../modules/live/service.js'
import { getLocation } from '../modules/locations/service.js'
import { HOUR, MINUTE } from './demo-time.js'

/** Jobs with no tag or load: any van may take them, and no form holds up their completion. */
const TOP_UP_JOBS = [
  { title: 'Leaking tap repair', minutes: 30 },
  { title: 'Toilet cistern repair', minutes: 45 },
  { title: 'Blocked drain clearance', minutes: 60 },
  { title: 'Quote visit - bathroom refit', minutes: 45 },
] as const
const JOBS_PER_SHIFT = 2
const LEFT_ON_SHIFT_MS = 90 * MINUTE
/** Time to drive to the first one, and between them. */
const TRAVEL_MS = 20 * MINUTE
const FIVE_MINUTES = 5 * MINUTE

const iso = (at: number) => new Date(at).toISOString()
const utcDate = (at: number) => iso(at).slice(0, 10)
const localDate = (at: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' }).format(at)
const ceilTo = (at: number, step: number) => Math.ceil(at / step) * step
const floorTo = (at: number, step: number) => Math.floor(at / step) * step

/** Adds work to today's shifts that have none left; how many jobs it added. */
export async function topUpToday(db: Kysely<Database>, organisationId: string, now: number): Promise<number> {
  const idle: LiveShift[] = []
  for (const date of new Set([utcDate(now - 14 * HOUR), utcDate(now), utcDate(now + 14 * HOUR)])) {
    for (const shift of await liveDay(db, organisationId, { date }, now)) {
      if (shift.stops.length > 0 || Date.parse(shift.end) - LEFT_ON_SHIFT_MS < now) continue
      const { timezone } = await getLocation(db, organisationId, shift.locationId)
      if (localDate(now, timezone) === shift.date) idle.push(shift)
    }
  }
  if (idle.length === 0) return 0
  const query = { page: 1, limit: 100 } as CustomerListQuery
  // Customers open round the clock: a job at any hour of the shift is within their hours.
  const customers = (await listCustomers(db, organisationId, query)).customers.filter(
    (c) => c.operationalStart === '00:00' && c.operationalEnd === '23:59',
  )
  if (customers.length === 0) return 0
  let added = 0
  for (const [index, shift] of idle.entries()) {
    const depot = await getLocation(db, organisationId, shift.locationId)
    const distance = (c: (typeof customers)[number]) =>
      Math.hypot(+c.latitude - +depot.latitude, (+c.longitude - +depot.longitude) * 0.6)
    const nearest = [...customers].sort((a, b) => distance(a) - distance(b))
    const free = Math.max(
      now,
      Date.parse(shift.start),
      Date.parse(shift.currentJob?.expectedEnd ?? shift.start),
    )
    let cursor = ceilTo(free + TRAVEL_MS, FIVE_MINUTES)
    for (let n = 0; n < JOBS_PER_SHIFT; n++) {
      const kind = TOP_UP_JOBS[(index + n) % TOP_UP_JOBS.length]!
      const customer = nearest[(index * JOBS_PER_SHIFT + n) % Math.min(nearest.length, 8)]!
      const end = cursor + kind.minutes * MINUTE
      if (end > Date.parse(shift.end) - 15 * MINUTE) break
      const job = await createJob(db, organisationId, {
        title: kind.title,
        customerId: customer.id,
        serviceDuration: kind.minutes * 60,
        priority: 'NORMAL',
        // The whole hours around the visit, as the demo promises its customers.
        earliestStart: iso(floorTo(cursor, HOUR)),
        latestEnd: iso(ceilTo(end, HOUR) + HOUR),
        timeWindowType: 'SOFT',
      })
      // Assign's checks (jobs/assignment-check.ts) refuse a visit in a break, or one the worker cannot
      // reach in time: try a quarter of an hour later, until the shift has no room left for it.
      let start = cursor
      let placed = false
      while (start + kind.minutes * MINUTE <= Date.parse(shift.end) - 15 * MINUTE) {
        const assignment = {
          userId: shift.worker.id,
          shiftId: shift.shiftId,
          scheduledStart: iso(start),
          scheduledEnd: iso(start + kind.minutes * MINUTE),
        }
        const { problems } = await checkJobAssignment(db, organisationId, job.id, assignment)
        if (!problems.some((problem) => problem.severity === 'HARD')) {
          await assignJob(db, organisationId, job.id, assignment)
          placed = true
          break
        }
        start += 15 * MINUTE
      }
      if (!placed) break
      added++
      cursor = ceilTo(start + kind.minutes * MINUTE + TRAVEL_MS, FIVE_MINUTES)
    }
  }
  return added
}
