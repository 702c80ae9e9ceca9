// What planning a day reads besides the shift templates of the weekday (the shifts module reads those):
// the vehicles' capacities and tags; the candidate jobs with their customer, demands and tags; and the
// version (updated_at) of every row read, so that applying a plan can tell whether any input changed.
// Read-only (applying a plan share-locks what it compares), scoped by organisation; one query per kind
// of row, never one per shift or job.
import type { Transaction } from 'kysely'
import { isPostgres } from '../../db/database.js'
import type { Database, Executor } from '../../db/types.js'

export type { ShiftOfDayRow as ShiftInputRow } from '../shifts/service.js'

export async function findVehicleCapacities(
  db: Executor,
  organisationId: string,
  vehicleIds: readonly string[],
) {
  if (vehicleIds.length === 0) return []
  return db
    .selectFrom('vehicle_capacities')
    .select(['vehicle_id', 'capacity_dimension_id', 'max_value'])
    .where('organisation_id', '=', organisationId)
    .where('vehicle_id', 'in', vehicleIds)
    .execute()
}

export async function findVehicleTags(db: Executor, organisationId: string, vehicleIds: readonly string[]) {
  if (vehicleIds.length === 0) return []
  return db
    .selectFrom('vehicle_tags')
    .select(['vehicle_id', 'tag_id'])
    .where('organisation_id', '=', organisationId)
    .where('vehicle_id', 'in', vehicleIds)
    .execute()
}

export interface JobInputRow {
  id: string
  title: string
  status: string
  priority: string
  location_id: string | null
  job_latitude: string | null
  job_longitude: string | null
  service_duration: number
  time_window_type: string
  earliest_start: string | null
  latest_end: string | null
  scheduled_start: string | null
  scheduled_end: string | null
  assigned_user_id: string | null
  shift_id: string | null
  updated_at: string
  customer_id: string | null
  due_by: string | null
  customer_latitude: string | null
  customer_longitude: string | null
  customer_operational_start: string | null
  customer_operational_end: string | null
  customer_updated_at: string | null
}

/**
 * Live CREATED and ASSIGNED jobs whose window overlaps [dayStart, dayEnd) or that have no window
 * (the same rule as `targetDate`), optionally only those of one depot (or of none), or only `ids`.
 */
export async function findCandidateJobs(
  db: Executor,
  organisationId: string,
  day: { start: string; end: string },
  filters: { locationId?: string; ids?: readonly string[] },
): Promise<JobInputRow[]> {
  let query = db
    .selectFrom('jobs')
    .leftJoin('customers', (j) =>
      j
        .onRef('customers.id', '=', 'jobs.customer_id')
        .onRef('customers.organisation_id', '=', 'jobs.organisation_id'),
    )
    .select([
      'jobs.id',
      'jobs.title',
      'jobs.status',
      'jobs.priority',
      'jobs.location_id',
      'jobs.job_latitude',
      'jobs.job_longitude',
      'jobs.service_duration',
      'jobs.time_window_type',
      'jobs.earliest_start',
      'jobs.latest_end',
      'jobs.scheduled_start',
      'jobs.scheduled_end',
      'jobs.assigned_user_id',
      'jobs.shift_id',
      'jobs.updated_at',
      'jobs.customer_id',
      'jobs.due_by',
      'customers.latitude as customer_latitude',
      'customers.longitude as customer_longitude',
      'customers.operational_start as customer_operational_start',
      'customers.operational_end as customer_operational_end',
      'customers.updated_at as customer_updated_at',
    ])
    .where('jobs.organisation_id', '=', organisationId)
    .where('jobs.deleted_at', 'is', null)
    .where('jobs.status', 'in', ['CREATED', 'ASSIGNED'])
    .where((eb) =>
      eb.or([
        eb.and([eb('jobs.earliest_start', 'is', null), eb('jobs.latest_end', 'is', null)]),
        eb.and([
          eb.or([eb('jobs.earliest_start', 'is', null), eb('jobs.earliest_start', '<', day.end)]),
          eb.or([eb('jobs.latest_end', 'is', null), eb('jobs.latest_end', '>=', day.start)]),
        ]),
      ]),
    )
  if (filters.locationId !== undefined) {
    const locationId = filters.locationId
    query = query.where((eb) =>
      eb.or([eb('jobs.location_id', '=', locationId), eb('jobs.location_id', 'is', null)]),
    )
  }
  if (filters.ids !== undefined) query = query.where('jobs.id', 'in', filters.ids)
  return query.orderBy('jobs.created_at').orderBy('jobs.id').execute()
}

/** Live jobs of these ids whatever their state: to explain why a requested job cannot be planned. */
export async function findJobStates(db: Executor, organisationId: string, ids: readonly string[]) {
  if (ids.length === 0) return []
  return db
    .selectFrom('jobs')
    .select(['id', 'status', 'earliest_start', 'latest_end', 'location_id'])
    .where('organisation_id', '=', organisationId)
    .where('deleted_at', 'is', null)
    .where('id', 'in', ids)
    .execute()
}

export async function findJobDemands(db: Executor, organisationId: string, jobIds: readonly string[]) {
  if (jobIds.length === 0) return []
  return db
    .selectFrom('job_demands')
    .select(['job_id', 'capacity_dimension_id', 'required_value'])
    .where('organisation_id', '=', organisationId)
    .where('job_id', 'in', jobIds)
    .execute()
}

export async function findJobTags(db: Executor, organisationId: string, jobIds: readonly string[]) {
  if (jobIds.length === 0) return []
  return db
    .selectFrom('job_tags')
    .select(['job_id', 'tag_id'])
    .where('organisation_id', '=', organisationId)
    .where('job_id', 'in', jobIds)
    .execute()
}

export async function findCapacityDimensions(db: Executor, organisationId: string) {
  return db
    .selectFrom('capacity_dimensions')
    .select(['id', 'key', 'label'])
    .where('organisation_id', '=', organisationId)
    .orderBy('key')
    .execute()
}

/** The time zone jobs without a depot are read in: the primary depot's, else the first one's. */
export async function findOrganisationTimezone(db: Executor, organisationId: string): Promise<string> {
  const row = await db
    .selectFrom('locations')
    .select('timezone')
    .where('organisation_id', '=', organisationId)
    .orderBy('is_primary', 'desc')
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst()
  return row?.timezone ?? 'UTC'
}

export async function findLocationTimezone(db: Executor, organisationId: string, id: string) {
  return db
    .selectFrom('locations')
    .select(['id', 'timezone'])
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/**
 * Versions (updated_at) of rows a plan read, to compare with what it recorded. On PostgreSQL the rows
 * stay share-locked, taken in id order, until the transaction ends: none can change between the
 * comparison and the apply's writes, while manual assigns, which share-lock them too, go on.
 */
export async function lockVersions(
  trx: Transaction<Database>,
  organisationId: string,
  table: 'shifts' | 'vehicles' | 'users' | 'customers' | 'locations',
  ids: readonly string[],
): Promise<{ id: string; updated_at: string }[]> {
  if (ids.length === 0) return []
  const query = trx
    .selectFrom(table)
    .select(['id', 'updated_at'])
    .where('organisation_id', '=', organisationId)
    .where('id', 'in', ids)
    .orderBy('id')
  return (isPostgres(trx) ? query.forShare() : query).execute()
}

export async function findRoutingSettings(db: Executor, organisationId: string) {
  return db
    .selectFrom('organisations')
    .select(['routing_detour_factor', 'routing_speed_kmh', 'routing_lateness_penalty_per_minute'])
    .where('id', '=', organisationId)
    .executeTakeFirst()
}

/**
 * Work already in hand on these shifts: IN_PROGRESS jobs and the jobs COMPLETED since `since`, with
 * where they are. Planning today starts after them: an in-progress job stays first on its route,
 * and the last job done is where its worker is, when nothing fresher is known.
 */
export async function findWorkInHand(
  db: Executor,
  organisationId: string,
  shiftIds: readonly string[],
  since: string,
) {
  if (shiftIds.length === 0) return []
  return db
    .selectFrom('jobs')
    .leftJoin('customers', (j) =>
      j
        .onRef('customers.id', '=', 'jobs.customer_id')
        .onRef('customers.organisation_id', '=', 'jobs.organisation_id'),
    )
    .select([
      'jobs.id',
      'jobs.title',
      'jobs.status',
      'jobs.shift_id',
      'jobs.assigned_user_id',
      'jobs.service_duration',
      'jobs.started_at',
      'jobs.completed_at',
      'jobs.updated_at',
      'jobs.job_latitude',
      'jobs.job_longitude',
      'customers.latitude as customer_latitude',
      'customers.longitude as customer_longitude',
    ])
    .where('jobs.organisation_id', '=', organisationId)
    .where('jobs.deleted_at', 'is', null)
    .where('jobs.shift_id', 'in', shiftIds)
    .where((eb) =>
      eb.or([
        eb('jobs.status', '=', 'IN_PROGRESS'),
        eb.and([eb('jobs.status', '=', 'COMPLETED'), eb('jobs.completed_at', '>=', since)]),
      ]),
    )
    .orderBy('jobs.id')
    .execute()
}
