// The routes of every day from `from` to `to`, as a KEEP_ASSIGNED plan of each day would read them
// (route-plans/day-inputs.ts loadDayInputs) — hours, breaks and absences (shifts/shift-days.ts),
// vehicle tags and capacities, and for a day that is today the route starting from now
// (route-plans/from-now.ts) — with the visits already on those shifts. Read once for the whole range:
// the shift templates of each weekday met, then one query each for breaks, date changes, absences,
// vehicle tags, capacities, dimensions, settings and visits, however many days are asked about
// (loadDayInputs per day costs a dozen round trips a day, which PostgreSQL felt; issue 32 §4).
//
// What bookings does not read is left out: the day's unplanned jobs (a booking never moves them) and
// the rows' versions (nothing is applied).
import type { Executor } from '../../db/types.js'
import { findShiftVisits, type ShiftVisit } from '../jobs/shift-visits.js'
import { lastKnownPositions } from '../live/forecast-day.js'
import {
  type DayInputs,
  DEFAULT_STABILITY,
  planDates,
  type RouteInput,
  routeOfShift,
  routeReferences,
  utcDayBounds,
  workInHand,
} from '../route-plans/day-inputs.js'
import { isOnDate, planFromNow } from '../route-plans/from-now.js'
import { FRESH_POSITION_MS } from '../route-plans/route-start.js'
import { findShiftsOfWeekday } from '../shifts/service.js'
import { resolveShiftDay, shiftDayFactsBetween } from '../shifts/shift-days.js'
import { DAY, weekdayOf } from '../shifts/zoned-time.js'

/** One date's routes that happen (start before end), and the visits on them, held where they are. */
export interface BookableDay {
  /** A DayInputs with this date's routes and no jobs: what toRoutingModel reads. */
  day: DayInputs
  visitsOf: Map<string, ShiftVisit[]>
}

/**
 * Every date of [from, to] with the routes that can still take work (`onlyShiftId`: that shift alone),
 * as of `now` (ms). Dates without such a route are left out.
 */
export async function loadBookableDays(
  db: Executor,
  organisationId: string,
  range: { from: string; to: string },
  now: number,
  onlyShiftId?: string,
): Promise<BookableDay[]> {
  const dates = planDates(range.from, range.to)
  const weekdays = [...new Set(dates.map(weekdayOf))]
  const filters = { workable: true, ...(onlyShiftId ? { shiftIds: [onlyShiftId] } : {}) }
  const ofWeekday = new Map(
    await Promise.all(
      weekdays.map(
        async (weekday) =>
          [weekday, await findShiftsOfWeekday(db, organisationId, weekday, filters)] as const,
      ),
    ),
  )
  const shifts = [...new Map([...ofWeekday.values()].flat().map((s) => [s.id, s])).values()]
  if (shifts.length === 0) return []
  const vehicleIds = [...new Set(shifts.map((s) => s.vehicle_id))]
  const [{ breaks, changes, away }, { capacities, vehicleTags, dimensions, routing }] = await Promise.all([
    shiftDayFactsBetween(db, organisationId, shifts, range),
    routeReferences(db, organisationId, vehicleIds),
  ])

  const routesOf = new Map<string, RouteInput[]>()
  for (const date of dates) {
    const dayStart = utcDayBounds(date).startMs
    const routes: RouteInput[] = []
    for (const shift of ofWeekday.get(weekdayOf(date)) ?? []) {
      const shiftDay = resolveShiftDay(
        shift,
        date,
        shift.location_timezone,
        breaks.filter((b) => b.shift_id === shift.id),
        changes.find((c) => c.shift_id === shift.id && c.date === date),
        away.filter((a) => a.user_id === shift.user_id),
      )
      if (shiftDay.off) continue
      routes.push(
        routeOfShift(
          shift,
          shiftDay,
          dayStart,
          capacities.filter((c) => c.vehicle_id === shift.vehicle_id),
          vehicleTags.filter((t) => t.vehicle_id === shift.vehicle_id),
        ),
      )
    }
    routesOf.set(date, routes)
  }

  // Today (in some depot's zone): the route starts from now, after the work in hand (from-now.ts).
  const today = dates.filter((date) => (routesOf.get(date) ?? []).some((r) => isOnDate(date, now, r.zone)))
  const underWay = await workUnderWay(db, organisationId, today, routesOf, now)

  const days = dates.map((date) => {
    const planned = planFromNow({
      date,
      at: now,
      routes: routesOf.get(date) ?? [],
      jobs: [],
      inHand: underWay.inHand,
      positions: underWay.positions,
      defaultZone: 'UTC',
    })
    const routes = planned.routes.filter((route) => route.start < route.end)
    return { date, cutoff: planned.cutoff, routes }
  })
  const open = days.filter((d) => d.routes.length > 0)
  if (open.length === 0) return []
  const starts = open.flatMap((d) => d.routes.map((r) => r.start))
  const ends = open.flatMap((d) => d.routes.map((r) => r.end))
  const visits = await findShiftVisits(
    db,
    organisationId,
    [...new Set(open.flatMap((d) => d.routes.map((r) => r.shiftId)))],
    new Date(Math.min(...starts)).toISOString(),
    new Date(Math.max(...ends)).toISOString(),
  )
  return open.map(({ date, cutoff, routes }) => {
    // The visits a read of this date alone finds: on its shifts, overlapping its routes' span.
    const from = Math.min(...routes.map((r) => r.start))
    const to = Math.max(...routes.map((r) => r.end))
    const visitsOf = new Map<string, ShiftVisit[]>(routes.map((r) => [r.shiftId, []]))
    for (const visit of visits) {
      if (visit.start < to && visit.end > from) visitsOf.get(visit.shiftId)?.push(visit)
    }
    const day: DayInputs = {
      date,
      mode: 'KEEP_ASSIGNED',
      at: now,
      cutoff,
      stability: DEFAULT_STABILITY,
      balance: 'NONE',
      routing,
      routes,
      offRoutes: [],
      jobs: [],
      closedJobs: [],
      dimensions,
      versions: { jobs: {}, shifts: {}, vehicles: {}, users: {}, customers: {}, locations: {} },
    }
    return { day, visitsOf }
  })
}

/** For the dates that are today: the jobs in progress or done on their shifts, and the workers' positions. */
async function workUnderWay(
  db: Executor,
  organisationId: string,
  today: readonly string[],
  routesOf: ReadonlyMap<string, readonly RouteInput[]>,
  now: number,
) {
  if (today.length === 0) return { inHand: [], positions: new Map() }
  const routes = today.flatMap((date) => routesOf.get(date) ?? [])
  const since = Math.min(...today.map((date) => utcDayBounds(date).startMs)) - DAY
  const [inHand, known] = await Promise.all([
    workInHand(db, organisationId, [...new Set(routes.map((r) => r.shiftId))], new Date(since).toISOString()),
    lastKnownPositions(
      db,
      organisationId,
      [...new Set(routes.map((r) => r.userId))],
      now - FRESH_POSITION_MS,
    ),
  ])
  const positions = new Map(
    [...known].map(([userId, p]) => [
      userId,
      { latitude: p.latitude, longitude: p.longitude, recordedAt: Date.parse(p.recordedAt) },
    ]),
  )
  return { inHand, positions }
}
