// SQL of completion requirements: a job's own requirements and the notes written on completing it.
// Every query is scoped by organisation.
import type { Insertable, Selectable } from 'kysely'
import type { Executor, JobCompletionNotesTable, JobRequirementsTable } from '../../db/types.js'

export async function findJobRequirements(
  db: Executor,
  organisationId: string,
  jobId: string,
): Promise<Selectable<JobRequirementsTable> | undefined> {
  return db
    .selectFrom('job_requirements')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('job_id', '=', jobId)
    .executeTakeFirst()
}

/** Sets the job's own requirements (replacing what was set before). */
export async function upsertJobRequirements(
  db: Executor,
  row: Insertable<JobRequirementsTable>,
): Promise<void> {
  const { organisation_id, job_id, ...rest } = row
  await db
    .insertInto('job_requirements')
    .values(row)
    .onConflict((oc) => oc.columns(['organisation_id', 'job_id']).doUpdateSet(rest))
    .execute()
}

export async function findCompletionNotes(
  db: Executor,
  organisationId: string,
  jobId: string,
): Promise<JobCompletionNotesTable | undefined> {
  return db
    .selectFrom('job_completion_notes')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('job_id', '=', jobId)
    .executeTakeFirst()
}

/** Written once, in the completing transaction (a job is completed once). */
export async function insertCompletionNotes(db: Executor, row: JobCompletionNotesTable): Promise<void> {
  await db.insertInto('job_completion_notes').values(row).execute()
}
