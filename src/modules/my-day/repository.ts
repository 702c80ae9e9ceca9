// What My day reads: the signed-in worker's own jobs with their customer and depot, and their tags.
// Scoped by organisation and assignee; read-only (the jobs module writes jobs).
import type { Executor } from '../../db/types.js'

/** The worker's live jobs, as a query the caller narrows (one job) or runs whole. */
export function selectMyJobs(db: Executor, organisationId: string, userId: string) {
  return db
    .selectFrom('jobs')
    .leftJoin('customers', (join) =>
      join
        .onRef('customers.id', '=', 'jobs.customer_id')
        .onRef('customers.organisation_id', '=', 'jobs.organisation_id'),
    )
    .leftJoin('shifts', (join) =>
      join
        .onRef('shifts.id', '=', 'jobs.shift_id')
        .onRef('shifts.organisation_id', '=', 'jobs.organisation_id'),
    )
    .leftJoin('locations as depot', (join) =>
      join
        .on((eb) => eb('depot.id', '=', eb.fn.coalesce('shifts.location_id', 'jobs.location_id')))
        .onRef('depot.organisation_id', '=', 'jobs.organisation_id'),
    )
    .selectAll('jobs')
    .select([
      'customers.name as customer_name',
      'customers.address as customer_address',
      'customers.phone as customer_phone',
      'customers.email as customer_email',
      'customers.notes as customer_notes',
      'customers.latitude as customer_latitude',
      'customers.longitude as customer_longitude',
      'depot.id as depot_id',
      'depot.name as depot_name',
      'depot.latitude as depot_latitude',
      'depot.longitude as depot_longitude',
      'depot.timezone as depot_timezone',
    ])
    .where('jobs.organisation_id', '=', organisationId)
    .where('jobs.assigned_user_id', '=', userId)
    .where('jobs.deleted_at', 'is', null)
}

/** One row of selectMyJobs. */
export type MyJobRow = Awaited<ReturnType<ReturnType<typeof selectMyJobs>['executeTakeFirstOrThrow']>>

/** The tags of each job, by name. */
export async function tagsOf(db: Executor, organisationId: string, jobIds: string[]) {
  if (jobIds.length === 0) return new Map<string, { id: string; name: string }[]>()
  const rows = await db
    .selectFrom('job_tags')
    .innerJoin('tags', (join) =>
      join
        .onRef('tags.id', '=', 'job_tags.tag_id')
        .onRef('tags.organisation_id', '=', 'job_tags.organisation_id'),
    )
    .select(['job_tags.job_id', 'tags.id', 'tags.name'])
    .where('job_tags.organisation_id', '=', organisationId)
    .where('job_tags.job_id', 'in', jobIds)
    .orderBy('tags.name')
    .execute()
  const byJob = new Map<string, { id: string; name: string }[]>()
  for (const row of rows)
    byJob.set(row.job_id, [...(byJob.get(row.job_id) ?? []), { id: row.id, name: row.name }])
  return byJob
}
