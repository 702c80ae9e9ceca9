// SQL for form submissions. Every query is scoped by organisation and job.
import type { Executor, FormSubmissionRow } from '../../db/types.js'

export async function insertFormSubmission(db: Executor, row: FormSubmissionRow): Promise<void> {
  await db.insertInto('form_submissions').values(row).execute()
}

export async function listFormSubmissions(
  db: Executor,
  organisationId: string,
  jobId: string,
  page: { limit: number; offset: number },
): Promise<FormSubmissionRow[]> {
  return db
    .selectFrom('form_submissions')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('job_id', '=', jobId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function countFormSubmissions(
  db: Executor,
  organisationId: string,
  jobId: string,
): Promise<number> {
  const row = await db
    .selectFrom('form_submissions')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('organisation_id', '=', organisationId)
    .where('job_id', '=', jobId)
    .executeTakeFirstOrThrow()
  return Number(row.total)
}
