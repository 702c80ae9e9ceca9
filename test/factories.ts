// Rows the public API cannot create (it only reads them): depots, team members, vehicles, shifts,
// tags and capacity dimensions, and DONE route plans, inserted through their modules' repositories.
import type { Kysely } from 'kysely'
import { newId, nowIso } from '../src/db/ids.js'
import type { Database, DayOfWeek, JobStatus } from '../src/db/types.js'
import { insertJobDemand, insertJobTag, updateJob } from '../src/modules/jobs/repository.js'
import { insertLocation } from '../src/modules/locations/repository.js'
import { insertUser } from '../src/modules/organisations/users-repository.js'
import { insertCapacityDimension, insertTag } from '../src/modules/reference-data/repository.js'
import { loadDayInputs } from '../src/modules/route-plans/day-inputs.js'
import { insertRoutePlan } from '../src/modules/route-plans/repository.js'
import { insertShift, insertShiftBreak } from '../src/modules/shifts/repository.js'
import { insertVehicle, insertVehicleCapacity, insertVehicleTag } from '../src/modules/vehicles/repository.js'

type Db = Kysely<Database>

/** Distinct, increasing creation times, so list order is deterministic in tests. */
let clock = Date.parse('2026-01-01T00:00:00.000Z')
export function nextTimestamp(): string {
  clock += 1000
  return new Date(clock).toISOString()
}

export async function makeLocation(
  db: Db,
  organisationId: string,
  overrides: Partial<{
    name: string
    code: string
    isActive: boolean
    isPrimary: boolean
    timezone: string
  }> = {},
) {
  const at = nextTimestamp()
  const id = newId()
  const row = {
    id,
    organisation_id: organisationId,
    name: overrides.name ?? 'North Depot',
    // Codes are unique within an organisation.
    code: overrides.code ?? `NTH-${id.slice(-8)}`,
    description: 'Main depot',
    address: '1 Depot Road, Manchester M1 1AA',
    latitude: '53.4808',
    longitude: '-2.2426',
    timezone: overrides.timezone ?? 'Europe/London',
    is_primary: overrides.isPrimary ?? false,
    is_active: overrides.isActive ?? true,
    created_at: at,
    updated_at: at,
  }
  await insertLocation(db, row)
  return row
}

export async function makeUser(
  db: Db,
  organisationId: string,
  overrides: Partial<{ name: string; email: string }> = {},
) {
  const at = nextTimestamp()
  const id = newId()
  const row = {
    id,
    organisation_id: organisationId,
    name: overrides.name ?? 'Sam Worker',
    email: overrides.email ?? `worker-${id}@example.com`,
    role: 'WORKER' as const,
    is_active: true,
    created_at: at,
    updated_at: at,
  }
  await insertUser(db, row)
  return row
}

export async function makeTag(db: Db, organisationId: string, name: string) {
  const at = nextTimestamp()
  const row = { id: newId(), organisation_id: organisationId, name, created_at: at, updated_at: at }
  await insertTag(db, row)
  return row
}

export async function makeCapacityDimension(db: Db, organisationId: string, key: string, label = key) {
  const at = nextTimestamp()
  const row = { id: newId(), organisation_id: organisationId, key, label, created_at: at, updated_at: at }
  await insertCapacityDimension(db, row)
  return row
}

export async function makeVehicle(
  db: Db,
  organisationId: string,
  locationId: string,
  overrides: Partial<{
    name: string
    isActive: boolean
    startLatitude: string | null
    startLongitude: string | null
    tagIds: string[]
    capacities: { dimensionId: string; maxValue: number }[]
  }> = {},
) {
  const at = nextTimestamp()
  const row = {
    id: newId(),
    organisation_id: organisationId,
    location_id: locationId,
    name: overrides.name ?? 'Van 1',
    fixed_cost: 50,
    cost_per_km: 0.45,
    cost_per_hour: 22.5,
    speed_factor: 1,
    start_latitude: overrides.startLatitude === undefined ? '53.4808' : overrides.startLatitude,
    start_longitude: overrides.startLongitude === undefined ? '-2.2426' : overrides.startLongitude,
    end_policy: 'RETURN_TO_ORIGIN' as const,
    is_active: overrides.isActive ?? true,
    created_at: at,
    updated_at: at,
  }
  await insertVehicle(db, row)
  for (const tagId of overrides.tagIds ?? []) await insertVehicleTag(db, organisationId, row.id, tagId)
  for (const c of overrides.capacities ?? []) {
    await insertVehicleCapacity(db, organisationId, row.id, c.dimensionId, c.maxValue)
  }
  return row
}

export async function makeShift(
  db: Db,
  organisationId: string,
  refs: { userId: string; locationId: string; vehicleId: string },
  overrides: Partial<{
    day: DayOfWeek
    startTime: string
    endTime: string
    breaks: { startTime: string; endTime: string; isPaid: boolean }[]
  }> = {},
) {
  const at = nextTimestamp()
  const row = {
    id: newId(),
    organisation_id: organisationId,
    user_id: refs.userId,
    location_id: refs.locationId,
    vehicle_id: refs.vehicleId,
    day: overrides.day ?? ('MONDAY' as DayOfWeek),
    start_time: overrides.startTime ?? '08:00',
    end_time: overrides.endTime ?? '16:00',
    is_generated: false,
    created_at: at,
    updated_at: at,
  }
  await insertShift(db, row)
  const breaks = []
  for (const b of overrides.breaks ?? []) {
    const breakRow = {
      id: newId(),
      organisation_id: organisationId,
      shift_id: row.id,
      start_time: b.startTime,
      end_time: b.endTime,
      is_paid: b.isPaid,
      created_at: nowIso(),
    }
    await insertShiftBreak(db, breakRow)
    breaks.push(breakRow)
  }
  return { ...row, breaks }
}

/** Moves a job into a lifecycle state the public API cannot set (the admin API will). */
export async function setJobState(
  db: Db,
  organisationId: string,
  jobId: string,
  state: Partial<{
    status: JobStatus
    assignedUserId: string | null
    shiftId: string | null
    scheduledStart: string | null
    scheduledEnd: string | null
    startedAt: string | null
    completedAt: string | null
    actualDuration: number | null
  }>,
) {
  await updateJob(db, organisationId, jobId, {
    ...(state.status !== undefined && { status: state.status }),
    ...(state.assignedUserId !== undefined && { assigned_user_id: state.assignedUserId }),
    ...(state.shiftId !== undefined && { shift_id: state.shiftId }),
    ...(state.scheduledStart !== undefined && { scheduled_start: state.scheduledStart }),
    ...(state.scheduledEnd !== undefined && { scheduled_end: state.scheduledEnd }),
    ...(state.startedAt !== undefined && { started_at: state.startedAt }),
    ...(state.completedAt !== undefined && { completed_at: state.completedAt }),
    ...(state.actualDuration !== undefined && { actual_duration: state.actualDuration }),
  })
}

export async function tagJob(db: Db, organisationId: string, jobId: string, tagId: string) {
  await insertJobTag(db, organisationId, jobId, tagId)
}

export async function addJobDemand(
  db: Db,
  organisationId: string,
  jobId: string,
  dimensionId: string,
  value: number,
) {
  await insertJobDemand(db, organisationId, jobId, dimensionId, value)
}

/** A depot, a worker and a vehicle: the references every shift needs. */
export async function makeShiftReferences(
  db: Db,
  organisationId: string,
  names: Partial<{ location: string; user: string; email: string; vehicle: string }> = {},
) {
  const location = await makeLocation(db, organisationId, { name: names.location ?? 'North Depot' })
  const user = await makeUser(db, organisationId, {
    name: names.user ?? 'Sam Worker',
    ...(names.email !== undefined && { email: names.email }),
  })
  const vehicle = await makeVehicle(db, organisationId, location.id, { name: names.vehicle ?? 'Van 1' })
  return {
    location,
    user,
    vehicle,
    refs: { userId: user.id, locationId: location.id, vehicleId: vehicle.id },
  }
}

/** Gives rows one creation time, so tests can check the id tie-break of list order. */
export async function setCreatedAt(
  db: Db,
  table: 'locations' | 'vehicles' | 'shifts',
  ids: string[],
  createdAt: string,
) {
  await db
    .updateTable(table as 'vehicles')
    .set({ created_at: createdAt })
    .where('id', 'in', ids)
    .execute()
}

/** Marks a shift as produced by the schedule generator (the factory makes hand-made shifts). */
export async function markShiftGenerated(db: Db, organisationId: string, shiftId: string) {
  await db
    .updateTable('shifts')
    .set({ is_generated: 1 })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', shiftId)
    .execute()
}

/** Deactivates (or reactivates) a team member directly, as the team routes would. */
export async function setUserActive(db: Db, organisationId: string, userId: string, isActive: boolean) {
  await db
    .updateTable('users')
    .set({ is_active: isActive ? 1 : 0 })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', userId)
    .execute()
}

/** Deactivates (or reactivates) a vehicle directly, as the fleet routes would. */
export async function setVehicleActive(db: Db, organisationId: string, vehicleId: string, isActive: boolean) {
  await db
    .updateTable('vehicles')
    .set({ is_active: isActive ? 1 : 0 })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', vehicleId)
    .execute()
}

/** The organisation's outbox rows, oldest first, with `data` parsed. */
export async function outboxEvents(db: Db, organisationId: string) {
  const rows = await db
    .selectFrom('outbox_events')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute()
  return rows.map((row) => ({
    event: row.event,
    occurredAt: row.occurred_at,
    data: JSON.parse(row.data) as Record<string, unknown>,
  }))
}

export interface PlannedRoute {
  shift: { id: string; user_id: string; vehicle_id: string; location_id: string }
  stops: { jobId: string; serviceStart: string; serviceEnd: string }[]
}

/**
 * A DONE route plan for `date` that puts these stops on these routes, with the versions of what the
 * day reads now (as the plan runner records them): for applying a plan without running the optimiser.
 * Distances, costs and names are placeholders; only what applying reads is meaningful.
 */
export async function makeDonePlan(
  db: Db,
  organisationId: string,
  plan: { date: string; mode: 'KEEP_ASSIGNED' | 'REPLAN_ALL'; routes: PlannedRoute[] },
): Promise<string> {
  const day = await loadDayInputs(db, organisationId, {
    date: plan.date,
    mode: plan.mode,
    at: Number.NEGATIVE_INFINITY,
  })
  const dayStart = `${plan.date}T00:00:00.000Z`
  const dayEnd = `${plan.date}T23:59:59.000Z`
  const assigned = plan.routes.reduce((sum, route) => sum + route.stops.length, 0)
  const result = {
    routes: plan.routes.map(({ shift, stops }) => ({
      shiftId: shift.id,
      user: { id: shift.user_id, name: 'Worker' },
      vehicle: { id: shift.vehicle_id, name: 'Van' },
      locationId: shift.location_id,
      start: dayStart,
      end: dayEnd,
      breaks: [],
      stops: stops.map((stop) => ({
        ...stop,
        title: 'Job',
        arrival: stop.serviceStart,
        travelKm: 0,
        travelMinutes: 0,
        lateMinutes: 0,
        load: [],
      })),
      returnTravelKm: 0,
      returnTravelMinutes: 0,
      totals: { jobs: stops.length, km: 0, hours: 0, cost: 0 },
    })),
    unassigned: [],
    totals: { assignedJobs: assigned, unassignedJobs: 0, routesUsed: plan.routes.length, km: 0, hours: 0 },
    cost: { fixed: 0, distance: 0, time: 0, lateness: 0, total: 0 },
  }
  const at = nowIso()
  const id = newId()
  await insertRoutePlan(db, {
    id,
    organisation_id: organisationId,
    status: 'DONE',
    plan_date: plan.date,
    date_to: null,
    location_id: null,
    mode: plan.mode,
    time_limit_seconds: 1,
    job_ids: null,
    shift_ids: null,
    queue_round: 0,
    plan_at: null,
    stability: 0.5,
    balance: 'NONE',
    seed: 1,
    progress: null,
    result: JSON.stringify(result),
    inputs: JSON.stringify({
      versions: day.versions,
      assignedJobIds: day.jobs.filter((job) => job.status === 'ASSIGNED').map((job) => job.id),
    }),
    error: null,
    cancel_requested: 0,
    claimed_by: null,
    heartbeat_at: null,
    created_at: at,
    updated_at: at,
    started_at: at,
    finished_at: at,
    applied_at: null,
  })
  return id
}
