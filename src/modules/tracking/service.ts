// "On my way" and the tracking link it makes. The link's token is 192 random bits, shown once (in
// JOB_EN_ROUTE's trackingUrl, and so in the customer's email) and stored only as its SHA-256, like an
// API key: the database alone cannot rebuild a link. A job gets one link, when it is first en route;
// pressing "On my way" again changes nothing, sends nothing, and the link already sent keeps working.
import { createHash, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database, Executor } from '../../db/types.js'
import { AppError, notFound } from '../../http/errors.js'
import { recordEvent } from '../events/service.js'
import { markEnRoute } from '../jobs/en-route.js'
import { type JobEta, lastKnownPositions, predictJobEta } from '../live/forecast-day.js'
import { timeZoneOfDepot } from '../locations/service.js'
import { serializeMapSettings } from '../organisations/serialize.js'
import { getUser } from '../organisations/users-service.js'
import { zonedArrivalWindow } from './arrival-window.js'
import { estimateArrival } from './eta.js'
import { RecentForecasts } from './recent-forecasts.js'
import * as repository from './repository.js'
import type { Tracking } from './schemas.js'

/** A tracking page stays readable this long after its job completed or was cancelled; then 410. */
export const TRACKING_AFTER_END_MS = 12 * 3_600_000

/** Where a worker was last seen (the positions My day sends while on shift). */
export interface WorkerPosition {
  latitude: number
  longitude: number
  recordedAt: string
}
export type PositionSource = (
  db: Executor,
  organisationId: string,
  userId: string,
) => Promise<WorkerPosition | null>

/** A position older than this is not shown: the page would show the technician where they no longer are. */
export const TRACKED_POSITION_FRESH_MS = 15 * 60_000

/** The worker's latest position from the positions table, when recorded in the last 15 minutes. */
export function keptPositions(clock: () => number): PositionSource {
  return async (db, organisationId, userId) => {
    const known = await lastKnownPositions(db, organisationId, [userId], clock() - TRACKED_POSITION_FRESH_MS)
    const position = known.get(userId)
    return position
      ? { latitude: position.latitude, longitude: position.longitude, recordedAt: position.recordedAt }
      : null
  }
}

export function hashTrackingToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

export function trackingUrlOf(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/t/${token}`
}

/** The first name the customer sees: the first word of the worker's name. */
export function firstNameOf(name: string | null | undefined): string | null {
  const first = name?.trim().split(/\s+/)[0]
  return first ? first : null
}

/**
 * The worker sets off to their ASSIGNED job: the job records enRouteAt, gets its tracking link, and
 * JOB_EN_ROUTE goes to the outbox — all in one transaction, the first time only.
 */
export async function setOff(
  db: Kysely<Database>,
  organisationId: string,
  workerId: string,
  jobId: string,
  publicBaseUrl: string,
  at: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { first } = await markEnRoute(trx, organisationId, jobId, workerId, at)
    if (!first) return
    const token = randomBytes(24).toString('base64url')
    const eta = await estimateArrival(trx, organisationId, workerId, jobId, at)
    const made = await repository.insertTrackingLink(trx, {
      organisationId,
      jobId,
      tokenHash: hashTrackingToken(token),
      eta,
      createdAt: at,
    })
    if (!made) return
    const worker = await getUser(trx, organisationId, workerId)
    await recordEvent(
      trx,
      organisationId,
      'JOB_EN_ROUTE',
      {
        jobId,
        eta,
        trackingUrl: trackingUrlOf(publicBaseUrl, token),
        worker: { firstName: firstNameOf(worker.name) ?? '' },
      },
      at,
    )
  })
}

function statusOf(row: repository.TrackedJobRow): Tracking['status'] {
  switch (row.status) {
    case 'ASSIGNED':
      return row.en_route_at !== null ? 'EN_ROUTE' : 'SCHEDULED'
    case 'IN_PROGRESS':
    case 'COMPLETED':
    case 'CANCELLED':
      return row.status
    default:
      return 'SCHEDULED'
  }
}

/** When the visit ended (completed or cancelled), or null while it has not. */
function endedAt(row: repository.TrackedJobRow): number | null {
  if (row.status === 'COMPLETED') return Date.parse(row.completed_at ?? row.updated_at)
  if (row.status === 'CANCELLED' || row.deleted_at !== null)
    return Date.parse(row.deleted_at ?? row.updated_at)
  return null
}

const METRES_PER_DEGREE = 111_320

/** The technician's position as metres east and north of the destination (equirectangular: a few km). */
function relativePosition(
  position: WorkerPosition,
  destination: repository.Coordinates,
): NonNullable<Tracking['position']> {
  const cosLat = Math.cos((destination.lat * Math.PI) / 180)
  return {
    metresEast: Math.round((position.longitude - destination.lng) * METRES_PER_DEGREE * cosLat),
    metresNorth: Math.round((position.latitude - destination.lat) * METRES_PER_DEGREE),
    recordedAt: position.recordedAt,
  }
}

/** Forecasts the tracking page served lately, by job (recent-forecasts.ts says why). */
export type TrackedForecasts = RecentForecasts<JobEta | null>

export function trackedForecasts(): TrackedForecasts {
  return new RecentForecasts<JobEta | null>()
}

/** The tracking page's data; 404 for an unknown token, 410 12 h after the visit ended. */
export async function trackingOf(
  db: Executor,
  token: string,
  now: number,
  positionOf: PositionSource,
  forecasts: TrackedForecasts = trackedForecasts(),
): Promise<Tracking> {
  const row = await repository.findTrackedJob(db, hashTrackingToken(token))
  if (!row) throw notFound('Tracking link')
  const ended = endedAt(row)
  if (ended !== null && now - ended > TRACKING_AFTER_END_MS) {
    throw new AppError('TRACKING_EXPIRED', 'This tracking link has ended: the visit is over')
  }
  const status = statusOf(row)
  const timeZone = await timeZoneOfDepot(db, row.organisation_id, row.location_id)
  const position = status === 'EN_ROUTE' ? await positionFor(db, row, positionOf) : null
  return {
    organisationName: row.organisation_name,
    technicianFirstName: firstNameOf(row.worker_name),
    jobTitle: row.title,
    status,
    timeZone,
    arrivalWindow:
      status === 'SCHEDULED' || status === 'EN_ROUTE'
        ? zonedArrivalWindow(await etaOf(db, row, now, forecasts), timeZone, now)
        : null,
    position,
    map: mapOf(row, position !== null),
  }
}

/**
 * The organisation's tile server, and the destination the tiles are placed around — only while the
 * page draws a position: the coordinates leave the server no more often than the map needs them.
 */
function mapOf(row: repository.TrackedJobRow, drawn: boolean): Tracking['map'] {
  const { tileUrl, attribution } = serializeMapSettings(row)
  if (tileUrl === null) return null
  const destination = drawn
    ? repository.coordinatesOf(
        row.job_latitude,
        row.job_longitude,
        row.customer_latitude,
        row.customer_longitude,
      )
    : null
  return { tileUrl, attribution, destination }
}

/**
 * The live forecast's arrival (computed at most once a minute per job) when it can place the job,
 * else the one announced at set-off.
 */
async function etaOf(
  db: Executor,
  row: repository.TrackedJobRow,
  now: number,
  forecasts: TrackedForecasts,
): Promise<string | null> {
  const forecast = await forecasts.get(`${row.organisation_id}/${row.job_id}`, now, () =>
    predictJobEta(db, row.organisation_id, row.job_id, now),
  )
  return forecast?.eta ?? row.eta
}

async function positionFor(
  db: Executor,
  row: repository.TrackedJobRow,
  positionOf: PositionSource,
): Promise<Tracking['position']> {
  const destination = repository.coordinatesOf(
    row.job_latitude,
    row.job_longitude,
    row.customer_latitude,
    row.customer_longitude,
  )
  if (!destination || row.assigned_user_id === null) return null
  const position = await positionOf(db, row.organisation_id, row.assigned_user_id)
  return position ? relativePosition(position, destination) : null
}
