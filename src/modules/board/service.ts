// The dispatch board of one day: a row per shift on the date (the same instantiation a route plan
// uses: day-inputs.ts places each weekly template on the date in its depot's time zone, with its
// breaks), the jobs scheduled on those rows that day whatever their status, and the CREATED jobs
// waiting for dispatch (those a plan of the day would consider: window overlapping the date, or none).

import type { Executor } from '../../db/types.js'
import { toDecimalString } from '../../db/values.js'
import { notFound } from '../../http/errors.js'
import { loadDayInputs, utcDayBounds } from '../route-plans/day-inputs.js'
import { localTime } from '../shifts/zoned-time.js'
import { legTravel, type TravelTimes } from '../travel/travel-times.js'
import * as repository from './repository.js'
import type { Board, BoardJob, BoardQuery } from './schemas.js'
import { routeTravel } from './travel.js'

const MINUTES_PER_DAY = 24 * 60
const iso = (ms: number) => new Date(ms).toISOString()

export async function getBoard(
  db: Executor,
  organisationId: string,
  query: BoardQuery,
  travelTimes: TravelTimes,
): Promise<Board> {
  const locationId = query.locationId ?? null
  const depots = await repository.findDepots(db, organisationId)
  const depot = locationId === null ? undefined : depots.find((d) => d.id === locationId)
  if (locationId !== null && !depot) throw notFound('Location')
  const timezone = depot?.timezone ?? depots[0]?.timezone ?? 'UTC'
  const dayUtc = utcDayBounds(query.date).startMs
  const localDay = (zone: string) => ({
    from: localTime(dayUtc, 0, zone),
    to: localTime(dayUtc, MINUTES_PER_DAY, zone),
  })

  const day = await loadDayInputs(db, organisationId, {
    date: query.date,
    mode: 'KEEP_ASSIGNED',
    locationId,
    // The board shows the whole day, hours gone included: read it as of no particular moment.
    at: Number.NEGATIVE_INFINITY,
  })
  // A worker away the whole shift keeps a row, marked absent, that takes no work; a shift cancelled
  // on the date (a one-off change) has none.
  const absent = day.offRoutes.flatMap((route) =>
    route.off.why === 'ABSENT' ? [{ ...route, absence: route.off.absence }] : [],
  )
  const rows = [...day.routes.map((route) => ({ ...route, absence: null })), ...absent].sort(
    (a, b) => a.start - b.start || a.userName.localeCompare(b.userName),
  )
  // A row's jobs are those scheduled on its shift during the date in its depot's zone (a weekly
  // template is the same shift every week).
  const zoneOf = new Map(depots.map((d) => [d.id, d.timezone]))
  const rangeOf = new Map(rows.map((r) => [r.shiftId, localDay(zoneOf.get(r.locationId) ?? timezone)]))
  const ranges = [...rangeOf.values()]
  const scheduled =
    ranges.length === 0
      ? []
      : (
          await repository.findJobsOnShifts(
            db,
            organisationId,
            rows.map((r) => r.shiftId),
            {
              from: iso(Math.min(...ranges.map((r) => r.from))),
              to: iso(Math.max(...ranges.map((r) => r.to))),
            },
          )
        ).filter((job) => {
          const range = job.shift_id === null ? undefined : rangeOf.get(job.shift_id)
          return (
            range !== undefined &&
            Date.parse(job.scheduled_start ?? '') < range.to &&
            Date.parse(job.scheduled_end ?? '') > range.from
          )
        })
  const waitingIds = day.jobs.filter((job) => job.status === 'CREATED').map((job) => job.id)
  const waiting = await repository.findJobsByIds(db, organisationId, waitingIds)
  const jobRows = [...scheduled, ...waiting]
  const tags = await repository.findJobTags(
    db,
    organisationId,
    jobRows.map((job) => job.id),
  )
  const tagsOf = new Map<string, { id: string; name: string }[]>()
  for (const tag of tags) {
    const list = tagsOf.get(tag.job_id) ?? []
    list.push({ id: tag.id, name: tag.name })
    tagsOf.set(tag.job_id, list)
  }

  // Each row's legs and totals, over its jobs in visiting order (`scheduled` is by start).
  const stopsOf = new Map<string, repository.BoardJobRow[]>()
  for (const job of scheduled) {
    if (job.status === 'CANCELLED' || job.shift_id === null) continue
    const list = stopsOf.get(job.shift_id) ?? []
    list.push(job)
    stopsOf.set(job.shift_id, list)
  }
  // Each row's stops with their places, once: the board's matrix and each row's travel read them.
  const rowStops = new Map(
    rows.map((row) => [
      row.shiftId,
      (stopsOf.get(row.shiftId) ?? []).map((job) => {
        const [latitude, longitude] = positionOf(job)
        return {
          id: job.id,
          position:
            latitude === null || longitude === null
              ? null
              : { lat: Number(latitude), lng: Number(longitude) },
          end: Date.parse(job.scheduled_end ?? ''),
        }
      }),
    ]),
  )
  const stopsOfRow = (row: (typeof rows)[number]) => rowStops.get(row.shiftId) ?? []
  // One matrix over every row's places: one road table for the board (cached with the day's plans').
  const places = rows.flatMap((row) => [
    { lat: row.origin.latitude, lng: row.origin.longitude },
    ...stopsOfRow(row).flatMap((stop) => (stop.position ? [stop.position] : [])),
  ])
  const { matrix } = await travelTimes.travelMatrixFor(organisationId, query.date, places, day.routing)
  const travel = legTravel(places, matrix)
  const travelOf = (row: (typeof rows)[number]) =>
    routeTravel(
      {
        origin: { lat: row.origin.latitude, lng: row.origin.longitude },
        returnsToOrigin: row.endPolicy === 'RETURN_TO_ORIGIN',
        speedFactor: row.speedFactor,
        end: row.end,
      },
      stopsOfRow(row),
      travel,
    )

  const { from, to } = localDay(timezone)
  return {
    date: query.date,
    locationId,
    timezone,
    dayStart: iso(from),
    dayEnd: iso(to),
    depots: depots
      .filter((d) => (depot ? d.id === depot.id : Boolean(d.is_active)))
      .map((d) => ({
        id: d.id,
        name: d.name,
        timezone: d.timezone,
        latitude: d.latitude,
        longitude: d.longitude,
      })),
    rows: rows.map((row) => ({
      shiftId: row.shiftId,
      user: { id: row.userId, name: row.userName, colour: row.userColour },
      vehicle: { id: row.vehicleId, name: row.vehicleName },
      locationId: row.locationId,
      start: iso(row.start),
      end: iso(row.end),
      breaks: row.breaks.map((b) => ({ start: iso(b.start), end: iso(b.end), isPaid: b.isPaid })),
      origin: {
        latitude: toDecimalString(row.origin.latitude),
        longitude: toDecimalString(row.origin.longitude),
      },
      endPolicy: row.endPolicy,
      ...travelOf(row),
      ...(row.absence ? { absence: row.absence } : {}),
      partAbsences: row.partAbsences,
    })),
    jobs: jobRows.map((job) => serializeBoardJob(job, tagsOf.get(job.id) ?? [])),
  }
}

/** The job's own position when it has one, else its customer's (as a plan places it). */
function positionOf(row: repository.BoardJobRow): [string | null, string | null] {
  const own = row.job_latitude !== null && row.job_longitude !== null
  return own ? [row.job_latitude, row.job_longitude] : [row.customer_latitude, row.customer_longitude]
}

/** Whether the job is somewhere else than its customer: coordinates of its own that are not theirs. */
function elsewhere(row: repository.BoardJobRow): boolean {
  if (row.job_latitude === null || row.job_longitude === null) return false
  return (
    row.customer_latitude === null ||
    row.customer_longitude === null ||
    Number(row.job_latitude) !== Number(row.customer_latitude) ||
    Number(row.job_longitude) !== Number(row.customer_longitude)
  )
}

function serializeBoardJob(row: repository.BoardJobRow, tags: { id: string; name: string }[]): BoardJob {
  const [latitude, longitude] = positionOf(row)
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    priority: row.priority,
    customer: row.customer_id
      ? { id: row.customer_id, name: row.customer_name ?? '', address: row.customer_address ?? '' }
      : null,
    locationId: row.location_id,
    latitude,
    longitude,
    ownPosition: elsewhere(row),
    serviceDuration: row.service_duration,
    timeWindowType: row.time_window_type,
    earliestStart: row.earliest_start,
    latestEnd: row.latest_end,
    scheduledStart: row.scheduled_start,
    scheduledEnd: row.scheduled_end,
    assignedUserId: row.assigned_user_id,
    shiftId: row.shift_id,
    tags,
    number: `J-${row.number}`,
    address: row.address,
  }
}
