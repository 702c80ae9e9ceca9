// Form submissions: what a worker filled in on a job (a checklist, a signature, readings). Any job of
// the organisation that is not deleted takes them, in any status: forms are often filled in after the
// job is completed. Each submission records FORM_SUBMITTED in the same transaction.
import type { Kysely } from 'kysely'
import { newId, nowIso } from '../../db/ids.js'
import { referenceExists } from '../../db/references.js'
import type { Database, Executor, FormSubmissionRow } from '../../db/types.js'
import { validationError } from '../../http/errors.js'
import { offsetOf, paginationOf } from '../../http/pagination.js'
import type { Pagination } from '../../http/schemas.js'
import { recordEvent } from '../events/service.js'
import { assertJobExists, lockJob } from '../jobs/service.js'
import * as repository from './repository.js'
import {
  type FormSubmission,
  type FormSubmissionListQuery,
  MAX_ANSWERS_DEPTH,
  type SubmitFormBody,
} from './schemas.js'
import { serializeFormSubmission } from './serialize.js'

/**
 * How deeply `value` nests, counted without recursion. Storing and serving answers goes through
 * recursive JSON code, so a pathologically deep document must be refused before it gets there.
 */
function exceedsDepth(value: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }]
  while (stack.length > 0) {
    const current = stack.pop() as { value: unknown; depth: number }
    if (current.value === null || typeof current.value !== 'object') continue
    if (current.depth > limit) return true
    for (const item of Object.values(current.value)) stack.push({ value: item, depth: current.depth + 1 })
  }
  return false
}

export async function submitForm(
  db: Kysely<Database>,
  organisationId: string,
  jobId: string,
  input: SubmitFormBody,
): Promise<FormSubmission> {
  if (exceedsDepth(input.answers, MAX_ANSWERS_DEPTH)) {
    throw validationError('/body/answers', `must not nest deeper than ${MAX_ANSWERS_DEPTH} levels`)
  }
  const submittedBy = input.submittedByUserId ?? null
  return db.transaction().execute(async (trx) => {
    // Locked like every job writer, so a concurrent soft delete waits for the submission (or wins
    // and the submission is a 404).
    const job = await lockJob(trx, organisationId, jobId)
    if (submittedBy !== null && !(await referenceExists(trx, 'users', organisationId, submittedBy))) {
      throw validationError(
        '/body/submittedByUserId',
        `user ${submittedBy} does not exist in your organisation`,
      )
    }
    const row: FormSubmissionRow = {
      id: newId(),
      organisation_id: organisationId,
      job_id: jobId,
      form: input.form,
      answers: JSON.stringify(input.answers),
      submitted_by_user_id: submittedBy,
      created_at: nowIso(),
    }
    await repository.insertFormSubmission(trx, row)
    const submission = serializeFormSubmission(row)
    await recordEvent(
      trx,
      organisationId,
      'FORM_SUBMITTED',
      {
        submissionId: submission.id,
        jobId,
        title: job.title,
        form: submission.form,
        answers: submission.answers,
        submittedByUserId: submission.submittedByUserId,
        submittedAt: submission.createdAt,
      },
      submission.createdAt,
    )
    return submission
  })
}

export async function listFormSubmissions(
  db: Executor,
  organisationId: string,
  jobId: string,
  query: FormSubmissionListQuery,
): Promise<{ formSubmissions: FormSubmission[]; pagination: Pagination }> {
  await assertJobExists(db, organisationId, jobId)
  const [rows, total] = await Promise.all([
    repository.listFormSubmissions(db, organisationId, jobId, {
      limit: query.limit,
      offset: offsetOf(query),
    }),
    repository.countFormSubmissions(db, organisationId, jobId),
  ])
  return { formSubmissions: rows.map(serializeFormSubmission), pagination: paginationOf(query, total) }
}
