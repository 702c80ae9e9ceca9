// The live day's rules: positions accepted only while their worker is on shift, the dispatcher's
// view of every shift of a day, and JOB_ETA_CHANGED announced once per real change.
import type { Kysely } from 'kysely'
import type { Database, Executor } from '../../db/types.js'
import { toDecimalString } from '../../db/values.js'
import { AppError, type ErrorDetail, notFound } from '../../http/errors.js'
import { recordEvent } from '../events/service.js'
import { DAY, MINUTE } from '../shifts/zoned-time.js'
import {
  covers,
  predictShifts,
  type ShiftInstance,
  type ShiftPrediction,
  shiftsAround,
  shiftsBetween,
  shiftsOn,
} from './forecast-day.js'
import * as live from './repository.js'
import type { LiveShift, PositionBody } from './schemas.js'

/** A phone's clock may run a little ahead of the server's. */
const CLOCK_SKEW_MS = MINUTE
const OLDEST_POSITION_MS = DAY

/** 400 naming each position recorded in the future or more than 24 h ago. */
function assertRecent(positions: PositionBody['positions'], now: number): void {
  const details: ErrorDetail[] = []
  positions.forEach((p, i) => {
    const at = Date.parse(p.recordedAt)
    const path = `/body/positions/${i}/recordedAt`
    if (at > now + CLOCK_SKEW_MS) details.push({ path, message: 'must not be in the future' })
    else if (at < now - OLDEST_POSITION_MS) details.push({ path, message: 'must not be older than 24 hours' })
  })
  if (details.length > 0) {
    const first = details[0] as ErrorDetail
    throw new AppError('VALIDATION_ERROR', `${first.path.slice(6)} ${first.message}`, details)
  }
}

/** 409 OFF_SHIFT unless every position was recorded within one of the worker's shifts (± 30 min). */
async function assertOnShift(
  db: Executor,
  organisationId: string,
  userId: string,
  positions: PositionBody['positions'],
): Promise<void> {
  const times = positions.map((p) => Date.parse(p.recordedAt))
  const shifts = await shiftsBetween(db, organisationId, Math.min(...times), Math.max(...times), { userId })
  for (const [i, p] of positions.entries()) {
    if (!shifts.some((shift) => covers(shift, times[i] as number))) {
      throw new AppError(
        'OFF_SHIFT',
        `positions/${i}/recordedAt ${p.recordedAt} is outside your shifts (from 30 min before to 30 min ` +
          'after): positions are taken only while on shift; stop sending them',
      )
    }
  }
}

/** Stores the signed-in worker's positions, in the order they were recorded. */
export async function recordPositions(
  db: Executor,
  organisationId: string,
  userId: string,
  positions: PositionBody['positions'],
  now: number,
): Promise<number> {
  assertRecent(positions, now)
  await assertOnShift(db, organisationId, userId, positions)
  const ordered = [...positions].sort((a, b) => Date.parse(a.recordedAt) - Date.parse(b.recordedAt))
  await live.insertPositions(
    db,
    organisationId,
    userId,
    ordered.map((p) => ({
      latitude: toDecimalString(p.latitude),
      longitude: toDecimalString(p.longitude),
      accuracy: p.accuracy ?? null,
      recordedAt: new Date(p.recordedAt).toISOString(),
    })),
    new Date(now).toISOString(),
  )
  return ordered.length
}

const iso = (at: number) => new Date(at).toISOString()

function toLiveShift(prediction: ShiftPrediction): LiveShift {
  const { instance, lastPosition, currentJob } = prediction
  const shift = instance.shift
  return {
    shiftId: shift.id,
    date: instance.date,
    start: iso(instance.start),
    end: iso(instance.end),
    locationId: shift.location_id,
    worker: { id: shift.user_id, name: shift.user_name, colour: shift.user_colour },
    vehicle: { id: shift.vehicle_id, name: shift.vehicle_name },
    lastPosition: lastPosition && {
      latitude: lastPosition.latitude,
      longitude: lastPosition.longitude,
      accuracy: lastPosition.accuracy,
      recordedAt: lastPosition.recorded_at,
    },
    currentJob: currentJob && {
      id: currentJob.job.id,
      title: currentJob.job.title,
      startedAt: currentJob.job.started_at,
      expectedEnd: iso(currentJob.expectedEnd),
    },
    stops: prediction.stops.map((stop) => ({
      jobId: stop.job.id,
      title: stop.job.title,
      scheduledStart: stop.job.scheduled_start,
      earliestStart: stop.job.earliest_start,
      latestEnd: stop.job.latest_end,
      timeWindowType: stop.job.time_window_type,
      eta: iso(stop.eta),
      expectedStart: iso(stop.expectedStart),
      expectedEnd: iso(stop.expectedEnd),
      risk: stop.risk,
    })),
    predictedEnd: iso(prediction.end),
    overtimeMinutes: Math.round(prediction.overtime / MINUTE),
  }
}

/** Every shift of `date` (optionally of one depot): where each worker is and when they will get where. */
export async function liveDay(
  db: Executor,
  organisationId: string,
  request: { date: string; locationId?: string },
  now: number,
): Promise<LiveShift[]> {
  if (request.locationId && !(await live.locationExists(db, organisationId, request.locationId))) {
    throw notFound('Location')
  }
  const instances = await shiftsOn(db, organisationId, request.date, {
    ...(request.locationId ? { locationId: request.locationId } : {}),
  })
  return (await predictShifts(db, organisationId, instances, now)).map(toLiveShift)
}

/** The user's shifts on `date` (each on its depot's clock), earliest first. */
export async function myShifts(db: Executor, organisationId: string, userId: string, date: string) {
  const instances = await shiftsOn(db, organisationId, date, { userId })
  return instances
    .map((i) => ({ id: i.shift.id, start: iso(i.start), end: iso(i.end) }))
    .sort((a, b) => a.start.localeCompare(b.start))
}

/** Each of the user's jobs of `date` still to visit: its eta, expected start and risk. */
export async function myDayEtas(
  db: Executor,
  organisationId: string,
  userId: string,
  date: string,
  now: number,
) {
  const predictions = await predictShifts(
    db,
    organisationId,
    await shiftsOn(db, organisationId, date, { userId }),
    now,
  )
  return new Map(
    predictions.flatMap((p) =>
      p.stops.map(
        (s) => [s.job.id, { eta: iso(s.eta), expectedStart: iso(s.expectedStart), risk: s.risk }] as const,
      ),
    ),
  )
}

/**
 * Announces JOB_ETA_CHANGED for each stop whose eta moved by more than `threshold` ms from the one
 * last announced (before any: from its scheduled start; a new schedule starts again from it). The
 * decision is taken again under the job's lock, in the transaction that records the event, so two
 * instances looking at once announce a change once. How many were announced.
 */
export async function announceEtaChanges(
  db: Kysely<Database>,
  organisationId: string,
  predictions: readonly ShiftPrediction[],
  threshold: number,
  now: number,
): Promise<number> {
  const stops = predictions.flatMap((p) => p.stops)
  const sent = new Map(
    (
      await live.findSentEtas(
        db,
        organisationId,
        stops.map((s) => s.job.id),
      )
    ).map((row) => [row.job_id, row]),
  )
  const baselineOf = (
    stop: (typeof stops)[number],
    row: { scheduled_start: string | null; sent_eta: string } | undefined,
  ) => (row && row.scheduled_start === stop.job.scheduled_start ? row.sent_eta : stop.job.scheduled_start)
  let announced = 0
  for (const stop of stops) {
    const baseline = baselineOf(stop, sent.get(stop.job.id))
    if (baseline !== null && Math.abs(stop.eta - Date.parse(baseline)) <= threshold) continue
    const done = await db.transaction().execute(async (trx) => {
      const at = iso(now)
      const eta = iso(stop.eta)
      const row = await live.lockSentEta(trx, organisationId, stop.job.id, {
        scheduledStart: stop.job.scheduled_start,
        sentEta: stop.job.scheduled_start ?? eta,
        at,
      })
      const previous = baselineOf(stop, row) ?? eta
      if (Math.abs(stop.eta - Date.parse(previous)) <= threshold) return false
      await live.updateSentEta(trx, organisationId, stop.job.id, {
        scheduledStart: stop.job.scheduled_start,
        sentEta: eta,
        at,
      })
      await recordEvent(trx, organisationId, 'JOB_ETA_CHANGED', {
        jobId: stop.job.id,
        eta,
        previousEta: previous,
        risk: stop.risk,
      })
      return true
    })
    if (done) announced++
  }
  return announced
}

/** Recomputes the shifts under way now (of one worker, or all of the organisation's) and announces changes. */
export async function refreshEtas(
  db: Kysely<Database>,
  organisationId: string,
  options: { userId?: string; thresholdMinutes: number },
  now: number,
): Promise<number> {
  const instances = await shiftsAround(
    db,
    organisationId,
    now,
    options.userId ? { userId: options.userId } : {},
  )
  const predictions = await predictShifts(db, organisationId, instances, now)
  return announceEtaChanges(db, organisationId, predictions, options.thresholdMinutes * MINUTE, now)
}

/** The organisations with a shift under way now (the minute's refresh goes through each). */
export async function organisationsOnShift(db: Executor, now: number): Promise<string[]> {
  const instances: ShiftInstance[] = await shiftsAround(db, null, now)
  return [...new Set(instances.map((i) => i.shift.organisation_id))]
}

export async function prunePositions(db: Executor, retentionDays: number, now: number): Promise<number> {
  return live.deletePositionsBefore(db, iso(now - retentionDays * DAY))
}
