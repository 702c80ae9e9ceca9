// Completion requirements (issue 31 §3). A job needs, before it can be completed, the largest of what
// its own requirements and every active form template that applies to it require: a signature, so many
// photos, notes. Completing without them is 422 COMPLETION_REQUIREMENTS naming each missing thing; the
// phone reads the same checklist (completionOf) before it shows the Complete button. Forms themselves
// stay FORM_REQUIRED (form-templates/service.ts), checked first.
import type { Kysely, Transaction } from 'kysely'
import { nowIso } from '../../db/ids.js'
import type { Database, Executor } from '../../db/types.js'
import { AppError, type ErrorDetail, notFound } from '../../http/errors.js'
import { listJobAttachments } from '../attachments/service.js'
import { submissionsByTemplate, templatesNeededBy } from '../form-templates/service.js'
import { assertJobExists, getJob, lockJob } from '../jobs/service.js'
import * as repository from './repository.js'
import { type Completion, NOTHING_REQUIRED, type Requires, type RequiresInput } from './schemas.js'

/** How many signatures and photos the job has. */
async function countJobProof(db: Executor, organisationId: string, jobId: string) {
  const kinds = (await listJobAttachments(db, organisationId, jobId)).map((a) => a.kind)
  const count = (kind: (typeof kinds)[number]) => kinds.filter((k) => k === kind).length
  // (Counts by kind: a customer's drawn signature here, not a webhook's, so no secret is compared.)
  return { signatures: count('SIGNATURE'), photos: count('PHOTO') }
}

/** JOB_COMPLETED's `attachments`: every attachment of the job, oldest first, by id and kind. */
export async function completedAttachments(
  db: Executor,
  organisationId: string,
  jobId: string,
): Promise<{ id: string; kind: 'PHOTO' | 'SIGNATURE' | 'FILE' }[]> {
  const attachments = await listJobAttachments(db, organisationId, jobId)
  return attachments.reverse().map((a) => ({ id: a.id, kind: a.kind }))
}

const TERMINAL = new Set(['COMPLETED', 'CANCELLED'])

/** The largest of each requirement. */
function largest(all: readonly Requires[]): Requires {
  return all.reduce<Requires>(
    (sum, r) => ({
      signature: sum.signature || r.signature,
      photos: Math.max(sum.photos, r.photos),
      notes: sum.notes || r.notes,
    }),
    NOTHING_REQUIRED,
  )
}

const required = (r: Requires) => r.signature || r.photos > 0 || r.notes

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

/** The job's checklist; 404 when the job is not the organisation's (or is deleted). */
export async function completionOf(db: Executor, organisationId: string, jobId: string): Promise<Completion> {
  await assertJobExists(db, organisationId, jobId)
  const [own, templates, submitted, proof, notes] = await Promise.all([
    repository.findJobRequirements(db, organisationId, jobId),
    templatesNeededBy(db, organisationId, jobId),
    submissionsByTemplate(db, organisationId, jobId),
    countJobProof(db, organisationId, jobId),
    repository.findCompletionNotes(db, organisationId, jobId),
  ])
  const sources: Completion['sources'] = []
  if (own) {
    sources.push({
      kind: 'JOB',
      formTemplate: null,
      requires: { signature: Boolean(own.signature), photos: own.photos, notes: Boolean(own.notes) },
    })
  }
  for (const template of templates) {
    if (!required(template.requires)) continue
    sources.push({
      kind: 'FORM_TEMPLATE',
      formTemplate: { id: template.id, name: template.name },
      requires: template.requires,
    })
  }
  const requires = largest(sources.map((s) => s.requires))
  const forms = templates.map((t) => ({ id: t.id, name: t.name, submitted: submitted.has(t.id) }))
  const missing: Completion['missing'] = []
  for (const form of forms) {
    if (!form.submitted) missing.push({ item: 'FORM', message: `Fill in "${form.name}"` })
  }
  if (requires.signature && proof.signatures < 1) {
    missing.push({ item: 'SIGNATURE', message: "The customer's signature" })
  }
  if (proof.photos < requires.photos) {
    const more = requires.photos - proof.photos
    missing.push({
      item: 'PHOTOS',
      message: `${plural(requires.photos, 'photo')} (${proof.photos === 0 ? 'none yet' : `${more} more`})`,
    })
  }
  if (requires.notes && !notes) missing.push({ item: 'NOTES', message: 'Notes on what was done' })
  return {
    requires,
    sources,
    has: { signatures: proof.signatures, photos: proof.photos, notes: notes?.notes ?? null, forms },
    missing,
    notesWrittenAt: notes?.created_at ?? null,
  }
}

/**
 * In the completing transaction, after the forms' check: 422 COMPLETION_REQUIREMENTS naming every
 * missing signature, photo and note (`notes` is what the complete request brings), else the notes
 * are kept with the job.
 */
export async function assertCompletionRequirements(
  trx: Transaction<Database>,
  organisationId: string,
  jobId: string,
  given: { notes?: string; userId?: string },
): Promise<void> {
  const completion = await completionOf(trx, organisationId, jobId)
  const notes = given.notes?.trim() ? given.notes : undefined
  const missing = completion.missing.filter(
    (m) => m.item !== 'FORM' && !(m.item === 'NOTES' && notes !== undefined),
  )
  if (missing.length > 0) {
    const details: ErrorDetail[] = missing.map((m) => ({
      path: `/requires/${m.item.toLowerCase()}`,
      message: m.message,
    }))
    throw new AppError(
      'COMPLETION_REQUIREMENTS',
      `The job cannot be completed without: ${missing.map((m) => m.message).join('; ')}`,
      details,
    )
  }
  if (notes !== undefined && completion.has.notes === null) {
    await repository.insertCompletionNotes(trx, {
      organisation_id: organisationId,
      job_id: jobId,
      notes,
      written_by_user_id: given.userId ?? null,
      created_at: nowIso(),
    })
  }
}

/** What the worker wrote on completing the job, and when; undefined when nothing was written. */
export function completionNotesOf(db: Executor, organisationId: string, jobId: string) {
  return repository.findCompletionNotes(db, organisationId, jobId)
}

/** Sets the job's own requirements (what is left out: not required); 422 once the job is finished. */
export async function setJobRequirements(
  db: Kysely<Database>,
  organisationId: string,
  jobId: string,
  input: RequiresInput,
): Promise<Completion> {
  return db.transaction().execute(async (trx) => {
    const job = await lockJob(trx, organisationId, jobId)
    if (TERMINAL.has(job.status)) {
      throw new AppError(
        'TERMINAL_STATE',
        `Job is ${job.status}: what completing it needs can no longer change`,
      )
    }
    await repository.upsertJobRequirements(trx, {
      organisation_id: organisationId,
      job_id: jobId,
      signature: input.signature ? 1 : 0,
      photos: input.photos ?? 0,
      notes: input.notes ? 1 : 0,
      updated_at: nowIso(),
    })
    return completionOf(trx, organisationId, jobId)
  })
}

/** The checklist of one of the worker's own jobs; anyone else's job is 404, as if it did not exist. */
export async function myCompletionOf(
  db: Executor,
  organisationId: string,
  userId: string,
  jobId: string,
): Promise<Completion> {
  const job = await getJob(db, organisationId, jobId)
  if (job.assignedUser?.id !== userId) throw notFound('Job')
  return completionOf(db, organisationId, jobId)
}
