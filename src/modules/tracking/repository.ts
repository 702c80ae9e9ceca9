// The tracking links' SQL, and the reads the tracking page and "On my way" need from the tables of
// jobs, customers, users and organisations (read only: those modules write them). Every query but the
// token look-up takes the organisation id; the token look-up finds it.
import { sql } from 'kysely'
import type { Executor } from '../../db/types.js'
import { storedBound } from '../../db/values.js'

export interface NewTrackingLink {
  organisationId: string
  jobId: string
  tokenHash: string
  eta: string | null
  createdAt: string
}

/** The job's link; a job already holding one keeps it (the token in the sent link stays valid). */
export async function insertTrackingLink(db: Executor, link: NewTrackingLink): Promise<boolean> {
  const result = await db
    .insertInto('tracking_links')
    .values({
      organisation_id: link.organisationId,
      job_id: link.jobId,
      token_hash: link.tokenHash,
      eta: link.eta,
      created_at: link.createdAt,
    })
    .onConflict((c) => c.columns(['organisation_id', 'job_id']).doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
}

/** What the tracking page may show of the link's job, found by the token's hash; undefined if none. */
export async function findTrackedJob(db: Executor, tokenHash: string) {
  return db
    .selectFrom('tracking_links as link')
    .innerJoin('jobs', (join) =>
      join.onRef('jobs.organisation_id', '=', 'link.organisation_id').onRef('jobs.id', '=', 'link.job_id'),
    )
    .innerJoin('organisations', 'organisations.id', 'link.organisation_id')
    .leftJoin('users', (join) =>
      join
        .onRef('users.organisation_id', '=', 'jobs.organisation_id')
        .onRef('users.id', '=', 'jobs.assigned_user_id'),
    )
    .leftJoin('customers', (join) =>
      join
        .onRef('customers.organisation_id', '=', 'jobs.organisation_id')
        .onRef('customers.id', '=', 'jobs.customer_id'),
    )
    .select([
      'link.organisation_id',
      'link.eta',
      'jobs.id as job_id',
      'jobs.title',
      'jobs.status',
      'jobs.assigned_user_id',
      'jobs.location_id',
      'jobs.en_route_at',
      'jobs.completed_at',
      'jobs.updated_at',
      'jobs.deleted_at',
      'jobs.job_latitude',
      'jobs.job_longitude',
      'customers.latitude as customer_latitude',
      'customers.longitude as customer_longitude',
      'organisations.name as organisation_name',
      // The map background (two columns of the row already joined: the page polls every 30 s).
      'organisations.map_tile_url',
      'organisations.map_attribution',
      'users.name as worker_name',
    ])
    .where('link.token_hash', '=', tokenHash)
    .executeTakeFirst()
}

export type TrackedJobRow = NonNullable<Awaited<ReturnType<typeof findTrackedJob>>>

/** Where a job is: its own coordinates, else its customer's; null when it has neither. */
export async function placeOfJob(db: Executor, organisationId: string, jobId: string) {
  const row = await db
    .selectFrom('jobs')
    .leftJoin('customers', (join) =>
      join
        .onRef('customers.organisation_id', '=', 'jobs.organisation_id')
        .onRef('customers.id', '=', 'jobs.customer_id'),
    )
    .select(['jobs.job_latitude', 'jobs.job_longitude', 'customers.latitude', 'customers.longitude'])
    .where('jobs.organisation_id', '=', organisationId)
    .where('jobs.id', '=', jobId)
    .executeTakeFirst()
  return row ? coordinatesOf(row.job_latitude, row.job_longitude, row.latitude, row.longitude) : null
}

/**
 * The worker's current job (IN_PROGRESS), else the one they completed last within `since`: where
 * they most likely set off from. Another job than `exceptJobId`.
 */
export async function lastJobOfWorker(
  db: Executor,
  organisationId: string,
  userId: string,
  exceptJobId: string,
  since: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('jobs')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('assigned_user_id', '=', userId)
    .where('id', '!=', exceptJobId)
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'IN_PROGRESS'),
        eb.and([eb('status', '=', 'COMPLETED'), eb('completed_at', '>=', storedBound(since))]),
      ]),
    )
    // IN_PROGRESS first, then the latest completion.
    .orderBy(sql`case when status = 'IN_PROGRESS' then 0 else 1 end`)
    .orderBy('completed_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row?.id
}

export interface Coordinates {
  lat: number
  lng: number
}

export function coordinatesOf(
  jobLatitude: string | null,
  jobLongitude: string | null,
  customerLatitude: string | null,
  customerLongitude: string | null,
): Coordinates | null {
  if (jobLatitude !== null && jobLongitude !== null)
    return { lat: Number(jobLatitude), lng: Number(jobLongitude) }
  if (customerLatitude !== null && customerLongitude !== null)
    return { lat: Number(customerLatitude), lng: Number(customerLongitude) }
  return null
}
