// What a job's proof PDF shows, gathered from the modules that own it: the job, its depot's time zone,
// the organisation's name, the completion notes, every form submission (answers under their fields'
// labels), and the attachments — photos downscaled for print with sharp (JPEG, EXIF-rotated), the
// signature as drawn, the rest (HEIC photos, PDFs) listed by name.
import type { Readable } from 'node:stream'
import sharp from 'sharp'
import type { Executor } from '../../db/types.js'
import { listJobAttachments, openAttachmentContent } from '../attachments/service.js'
import type { AttachmentStore } from '../attachments/store.js'
import { completionNotesOf } from '../completion/service.js'
import { findFormTemplate } from '../form-templates/service.js'
import { listFormSubmissions } from '../forms/service.js'
import { getJob } from '../jobs/service.js'
import { timeZoneOfDepot } from '../locations/service.js'
import { getOrganisation } from '../organisations/service.js'
import type { Proof, ProofForm, ProofImage } from './pdf.js'

/** Photos are drawn at most this many pixels on their long side: sharp enough on A4, small to mail. */
const PRINT_PIXELS = 1400
const DRAWABLE = new Set(['image/jpeg', 'image/png', 'image/webp'])
const STATUS_WORDS: Record<string, string> = {
  CREATED: 'Not assigned yet',
  ASSIGNED: 'Assigned, not started',
  IN_PROGRESS: 'In progress',
  COMPLETED: 'Completed',
  CANCELLED: 'Cancelled',
}

function localWords(iso: string | null, timeZone: string): string | null {
  if (!iso) return null
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso))
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array))
  return Buffer.concat(chunks)
}

function answerText(value: unknown): string {
  if (value === true) return 'Yes'
  if (value === false) return 'No'
  if (value === null || value === undefined) return ''
  return String(value)
}

async function formsOf(db: Executor, organisationId: string, jobId: string, timeZone: string) {
  const forms: ProofForm[] = []
  for (let page = 1; ; page++) {
    const { formSubmissions, pagination } = await listFormSubmissions(db, organisationId, jobId, {
      page,
      limit: 100,
    })
    for (const submission of formSubmissions) {
      const template = submission.templateId
        ? await findFormTemplate(db, organisationId, submission.templateId)
        : undefined
      const labels = new Map(template?.fields.map((field) => [field.key, field.label]) ?? [])
      forms.push({
        name: submission.form,
        submittedAt: localWords(submission.createdAt, timeZone) ?? '',
        answers: Object.entries(submission.answers).map(([key, value]) => ({
          label: labels.get(key) ?? key,
          value: answerText(value),
        })),
      })
    }
    if (page >= pagination.totalPages) break
  }
  return forms.reverse()
}

/** Everything the PDF shows for the job (404 when it is not the organisation's). */
export async function loadProof(
  db: Executor,
  store: AttachmentStore,
  organisationId: string,
  jobId: string,
  now: number,
): Promise<Proof> {
  const job = await getJob(db, organisationId, jobId)
  const timeZone = await timeZoneOfDepot(db, organisationId, job.location?.id ?? null)
  const [organisation, notes, forms, attachments] = await Promise.all([
    getOrganisation(db, organisationId, false),
    completionNotesOf(db, organisationId, jobId),
    formsOf(db, organisationId, jobId, timeZone),
    listJobAttachments(db, organisationId, jobId),
  ])
  const photos: ProofImage[] = []
  let signature: Proof['signature'] = null
  const other: string[] = []
  // Oldest first: the order they were taken in. The first signature drawn is the customer's.
  for (const attachment of [...attachments].reverse()) {
    const listed = `${attachment.filename} (${attachment.contentType})`
    switch (DRAWABLE.has(attachment.contentType) ? attachment.kind : 'FILE') {
      case 'SIGNATURE': {
        if (signature) {
          other.push(listed)
          break
        }
        const opened = await openAttachmentContent(db, store, organisationId, jobId, attachment.id)
        signature = {
          data: await sharp(await bytesOf(opened.stream))
            .png()
            .toBuffer(),
          caption: '',
          signerName: attachment.signerName ?? 'the customer',
          signedAt: localWords(attachment.signedAt, timeZone) ?? '',
        }
        break
      }
      case 'PHOTO': {
        const opened = await openAttachmentContent(db, store, organisationId, jobId, attachment.id)
        const data = await sharp(await bytesOf(opened.stream))
          .rotate()
          .resize(PRINT_PIXELS, PRINT_PIXELS, { fit: 'inside', withoutEnlargement: true })
          .jpeg({ quality: 80 })
          .toBuffer()
        photos.push({
          data,
          caption: `Photo ${photos.length + 1} · ${localWords(attachment.createdAt, timeZone)}`,
        })
        break
      }
      default:
        other.push(listed)
    }
  }
  const address = job.address ?? job.customer?.address ?? null
  return {
    organisationName: organisation.name,
    number: job.number,
    title: job.title,
    status: STATUS_WORDS[job.status] ?? job.status,
    customerName: job.customer?.name ?? null,
    address: address || null,
    workerName: job.assignedUser?.name ?? null,
    startedAt: localWords(job.startedAt, timeZone),
    completedAt: localWords(job.completedAt, timeZone),
    timeZone,
    notes: notes?.notes ?? null,
    forms,
    photos,
    signature,
    other,
    generatedAt: localWords(new Date(now).toISOString(), timeZone) ?? '',
  }
}
