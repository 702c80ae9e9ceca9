// Form submissions: what a worker filled in on a job (a checklist, a signature, readings). Any job of
// the organisation that is not deleted takes them, in any status: forms are often filled in after the
// job is completed. Each submission records FORM_SUBMITTED in the same transaction.
import type { Kysely, Transaction } from 'kysely'
import { newId, nowIso } from '../../db/ids.js'
import { referenceExists } from '../../db/references.js'
import type { Database, Executor, FormSubmissionRow, JobRow } from '../../db/types.js'
import { AppError, describeDetail, validationError } from '../../http/errors.js'
import { offsetOf, paginationOf } from '../../http/pagination.js'
import type { Pagination } from '../../http/schemas.js'
import { recordEvent } from '../events/service.js'
import { assertAnswersFit, findFormTemplate } from '../form-templates/service.js'
import { assertJobExists, lockJob } from '../jobs/service.js'
import * as repository from './repository.js'
import {
  type FormSubmission,
  type FormSubmissionListQuery,
  MAX_ANSWERS_BYTES,
  MAX_ANSWERS_DEPTH,
  type SubmitFormBody,
} from './schemas.js'
import { serializeFormSubmission } from './serialize.js'

interface Visit {
  value: unknown
  depth: number
  parent?: Visit
  key?: string
}

/** `/body/answers/readings/0/value`: where a visited value sits (built only for an error). */
function pointerOf(visit: Visit): string {
  const keys: string[] = []
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) {
    keys.push(at.key.replaceAll('~', '~0').replaceAll('/', '~1'))
  }
  return ['/body/answers', ...keys.reverse()].join('/')
}

/**
 * Walks the answers without recursion (storing and serving them goes through recursive JSON code,
 * so a pathologically deep document must be refused before it gets there) and refuses what could
 * not be kept exactly as sent: nesting beyond the limit, and numbers JSON cannot carry (`1e400`
 * parses to Infinity, which would come back as null).
 */
function assertAnswersStorable(answers: unknown): void {
  const stack: Visit[] = [{ value: answers, depth: 1 }]
  while (stack.length > 0) {
    const visit = stack.pop() as Visit
    const { value } = visit
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw validationError(pointerOf(visit), 'must be a finite number')
    }
    if (value === null || typeof value !== 'object') continue
    if (visit.depth > MAX_ANSWERS_DEPTH) {
      throw validationError('/body/answers', `must not nest deeper than ${MAX_ANSWERS_DEPTH} levels`)
    }
    for (const [key, item] of Object.entries(value)) {
      stack.push({ value: item, depth: visit.depth + 1, parent: visit, key })
    }
  }
}

/** The answers as stored: their JSON, refused with 413 beyond MAX_ANSWERS_BYTES, storing nothing. */
function answersJson(answers: SubmitFormBody['answers']): string {
  assertAnswersStorable(answers)
  const json = JSON.stringify(answers)
  const bytes = Buffer.byteLength(json)
  if (bytes > MAX_ANSWERS_BYTES) {
    const message = `must be at most ${MAX_ANSWERS_BYTES / 1024} KiB as JSON (these are ${bytes} bytes)`
    throw new AppError('PAYLOAD_TOO_LARGE', describeDetail({ path: '/body/answers', message }), [
      { path: '/body/answers', message },
    ])
  }
  return json
}

export async function submitForm(
  db: Kysely<Database>,
  organisationId: string,
  jobId: string,
  input: SubmitFormBody,
): Promise<FormSubmission> {
  const answers = answersJson(input.answers)
  const submittedBy = input.submittedByUserId ?? null
  const templateId = input.templateId ?? null
  if (input.form === undefined && templateId === null) {
    throw validationError('/body/form', 'is required unless templateId is given')
  }
  return db.transaction().execute(async (trx) => {
    // Locked like every job writer, so a concurrent soft delete waits for the submission (or wins
    // and the submission is a 404).
    const job = await lockJob(trx, organisationId, jobId)
    let form = input.form as string
    if (templateId !== null) {
      const template = await findFormTemplate(trx, organisationId, templateId)
      if (!template)
        throw validationError(
          '/body/templateId',
          `form template ${templateId} does not exist in your organisation`,
        )
      assertAnswersFit(template, input.answers)
      form = input.form ?? template.name
    }
    if (submittedBy !== null && !(await referenceExists(trx, 'users', organisationId, submittedBy))) {
      throw validationError(
        '/body/submittedByUserId',
        `user ${submittedBy} does not exist in your organisation`,
      )
    }
    return recordFormSubmission(trx, organisationId, job, {
      form,
      answers,
      submittedByUserId: submittedBy,
      templateId,
    })
  })
}

/**
 * Stores a submission already checked against its job and template (`answers` as its stored JSON) and
 * records FORM_SUBMITTED, inside the caller's transaction that holds the job's lock: the one writer of
 * form_submissions, for the admin API and for a worker's own form (my-day).
 */
export async function recordFormSubmission(
  trx: Transaction<Database>,
  organisationId: string,
  job: Pick<JobRow, 'id' | 'title'>,
  input: { form: string; answers: string; submittedByUserId: string | null; templateId: string | null },
): Promise<FormSubmission> {
  const row: FormSubmissionRow = {
    id: newId(),
    organisation_id: organisationId,
    job_id: job.id,
    form: input.form,
    answers: input.answers,
    submitted_by_user_id: input.submittedByUserId,
    template_id: input.templateId,
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
      jobId: job.id,
      title: job.title,
      form: submission.form,
      answers: submission.answers,
      submittedByUserId: submission.submittedByUserId,
      submittedAt: submission.createdAt,
    },
    submission.createdAt,
  )
  return submission
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
