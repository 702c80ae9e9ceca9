// SQL the admin job routes need beyond the public repository: a job's tag and demand sets, and many
// jobs' assignments written at once (a route plan applied). The user and the shift an assignment names
// are read by their own modules (organisations/users-service.ts findUsersForAssignment,
// shifts/service.ts findShiftsForAssignment).
import type { Transaction } from 'kysely'
import { isPostgres } from '../../db/database.js'
import { type HotQuery, runHotQuery } from '../../db/hot-query.js'
import type { Database, Executor, JobRow } from '../../db/types.js'

export async function findJobTagIds(db: Executor, organisationId: string, jobId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('job_tags')
    .select('tag_id')
    .where('organisation_id', '=', organisationId)
    .where('job_id', '=', jobId)
    .execute()
  return rows.map((row) => row.tag_id)
}

export async function findJobDemandValues(
  db: Executor,
  organisationId: string,
  jobId: string,
): Promise<{ capacity_dimension_id: string; required_value: number }[]> {
  return db
    .selectFrom('job_demands')
    .select(['capacity_dimension_id', 'required_value'])
    .where('organisation_id', '=', organisationId)
    .where('job_id', '=', jobId)
    .execute()
}

export async function deleteJobTags(db: Executor, organisationId: string, jobId: string): Promise<void> {
  await db
    .deleteFrom('job_tags')
    .where('organisation_id', '=', organisationId)
    .where('job_id', '=', jobId)
    .execute()
}

export async function deleteJobDemands(db: Executor, organisationId: string, jobId: string): Promise<void> {
  await db
    .deleteFrom('job_demands')
    .where('organisation_id', '=', organisationId)
    .where('job_id', '=', jobId)
    .execute()
}

const ASSIGNMENT_COLUMNS = [
  'id',
  'status',
  'assigned_user_id',
  'shift_id',
  'scheduled_start',
  'scheduled_end',
] as const

/** A job's assignment as a bulk dispatch writes it. */
export type JobAssignmentRow = Pick<JobRow, (typeof ASSIGNMENT_COLUMNS)[number]>

// Every row in one statement, the rows as one parameter: a JSON array of arrays on SQLite, one array
// per column on PostgreSQL. One statement, not one per job: in a request's SAVEPOINT (the group commit,
// db/sqlite-driver.ts) each SQLite statement costs more the more the transaction has written — 1,900
// single-job updates took 0.4–0.7 s, this one 80–140 ms (measured, triggers included). The CTE is
// materialised so that SQLite looks each row's job up by (organisation_id, id) rather than scanning
// the organisation's jobs for each row. The columns set are those updateJob sets for an assign or an
// unassign, so the same triggers fire for each row (job counts, job days).
const UPDATE_ASSIGNMENTS: HotQuery = {
  name: 'jobs_update_assignments',
  sqlite: `WITH v (id, status, assigned_user_id, shift_id, scheduled_start, scheduled_end) AS MATERIALIZED (
      SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5 FROM json_each(?))
    UPDATE jobs SET status = v.status, assigned_user_id = v.assigned_user_id, shift_id = v.shift_id,
      scheduled_start = v.scheduled_start, scheduled_end = v.scheduled_end, updated_at = ?
    FROM v WHERE jobs.organisation_id = ? AND jobs.id = v.id AND jobs.deleted_at IS NULL`,
  postgres: `UPDATE jobs SET status = v.status, assigned_user_id = v.assigned_user_id, shift_id = v.shift_id,
      scheduled_start = v.scheduled_start, scheduled_end = v.scheduled_end, updated_at = $2
    FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::timestamptz[])
      AS v (id, status, assigned_user_id, shift_id, scheduled_start, scheduled_end)
    WHERE jobs.organisation_id = $1 AND jobs.id = v.id AND jobs.deleted_at IS NULL`,
}

/** Writes many jobs' assignments (each job once), all updated at `updatedAt`. */
export async function updateAssignments(
  trx: Transaction<Database>,
  organisationId: string,
  jobs: readonly JobAssignmentRow[],
  updatedAt: string,
): Promise<void> {
  if (jobs.length === 0) return
  const params = isPostgres(trx)
    ? [organisationId, updatedAt, ...ASSIGNMENT_COLUMNS.map((column) => jobs.map((job) => job[column]))]
    : [
        JSON.stringify(jobs.map((job) => ASSIGNMENT_COLUMNS.map((column) => job[column]))),
        updatedAt,
        organisationId,
      ]
  await runHotQuery(trx, UPDATE_ASSIGNMENTS, params)
}
