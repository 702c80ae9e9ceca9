// The arrival announced when a worker sets off. The live day's forecast (src/modules/live) answers
// first: it knows the worker's position, the job in progress, breaks and windows. A job it cannot place
// (not a stop on one of the worker's shifts) falls back to a straight leg from where the worker most
// likely is — their current job, else the one they completed last today — over the optimiser's own
// travel model and the organisation's routing settings. Unknown (null) when neither knows: a guess from
// nowhere would mislead the customer more than no window at all.

import type { Executor } from '../../db/types.js'
import { greatCircleMatrix } from '../../optimiser/travel.js'
import { predictJobEta } from '../live/forecast-day.js'
import { findOrganisation } from '../organisations/service.js'
import { lastJobOfWorker, placeOfJob } from './repository.js'

/** A worker's last job counts as where they are for this long after its completion. */
const LAST_JOB_FRESH_MS = 12 * 3_600_000

export async function estimateArrival(
  db: Executor,
  organisationId: string,
  workerId: string,
  jobId: string,
  setOffAt: string,
): Promise<string | null> {
  const departure = Date.parse(setOffAt)
  const forecast = await predictJobEta(db, organisationId, jobId, departure)
  if (forecast) return forecast.eta
  const fromJob = await lastJobOfWorker(db, organisationId, workerId, jobId, departure - LAST_JOB_FRESH_MS)
  if (fromJob === undefined) return null
  const [from, to, organisation] = await Promise.all([
    placeOfJob(db, organisationId, fromJob),
    placeOfJob(db, organisationId, jobId),
    findOrganisation(db, organisationId),
  ])
  if (!from || !to || !organisation) return null
  const travel = greatCircleMatrix([from, to], {
    detourFactor: organisation.routing_detour_factor,
    speedKmh: organisation.routing_speed_kmh,
  })
  const seconds = travel.duration[1] ?? 0
  return new Date(departure + seconds * 1000).toISOString()
}
