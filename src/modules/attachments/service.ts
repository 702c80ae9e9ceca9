// Attachments of jobs: upload (sniffed, capped while streaming, inside the organisation's quota, a
// thumbnail for images, ATTACHMENT_ADDED), list, read and delete. Content lives in the AttachmentStore
// under `<organisationId>/<jobId>/<attachmentId>`; the row commits only once the content is stored,
// and content whose row never commits is removed again, so nothing is left behind by a refused upload.
//
// An upload is not one database transaction: the content is streamed into the store first (a phone
// on a slow network must not hold a transaction, on SQLite the only connection, for its upload), then
// one short transaction checks the quota again with the organisation's row locked, checks the job
// again, inserts the row and records the event.
import { Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import { newId, nowIso } from '../../db/ids.js'
import type { AttachmentRow, Database, Executor } from '../../db/types.js'
import { EARLIEST_INSTANT, LATEST_INSTANT } from '../../db/values.js'
import { AppError, notFound, validationError } from '../../http/errors.js'
import { recordEvent } from '../events/service.js'
import { getJob, lockJob } from '../jobs/service.js'
import * as repository from './repository.js'
import { type Attachment, MAX_FILE_BYTES, MAX_IMAGE_BYTES, MiB, type UploadQuery } from './schemas.js'
import {
  ACCEPTED,
  describeUnknown,
  HAS_THUMBNAIL,
  SNIFF_BYTES,
  type SniffedType,
  sniffContentType,
  TYPE_NAMES,
} from './sniff.js'
import type { AttachmentStore } from './store.js'
import { makeThumbnail, THUMBNAIL_TYPE } from './thumbnails.js'

export interface AttachmentSettings {
  store: AttachmentStore
  /** ATTACHMENT_QUOTA_BYTES: what an organisation without its own quota may keep. */
  quotaBytes: number
  /** The server's "now" (signedAt's default). */
  clock: () => number
}

/** Who is asking: a worker (`onlyAssignedTo`) sees and adds to their own assigned jobs only. */
export interface Requester {
  organisationId: string
  /** The signed-in user; null through an API key. */
  userId: string | null
  onlyAssignedTo?: string
}

/** Where each API serves an attachment's content: `<base>/jobs/<job>/attachments/<id>/content`. */
export type UrlBase = '/v1/admin' | '/v1/admin/my' | '/v1/public'

export function serializeAttachment(row: AttachmentRow, base: UrlBase): Attachment {
  const path = `${base}/jobs/${row.job_id}/attachments/${row.id}`
  return {
    id: row.id,
    jobId: row.job_id,
    kind: row.kind,
    contentType: row.content_type,
    sizeBytes: row.size_bytes,
    filename: row.filename,
    signerName: row.signer_name,
    signedAt: row.signed_at,
    uploadedBy: row.uploaded_by_user_id,
    createdAt: row.created_at,
    sha256: row.sha256,
    contentUrl: `${path}/content`,
    thumbnailUrl: row.thumbnail_key ? `${path}/thumbnail` : null,
  }
}

/** 404 unless the job is live in the organisation and, for a worker, assigned to them. */
async function assertJobVisible(db: Executor, who: Requester, jobId: string): Promise<void> {
  const job = await getJob(db, who.organisationId, jobId)
  if (who.onlyAssignedTo !== undefined && job.assignedUserId !== who.onlyAssignedTo) throw notFound('Job')
}

const EXTENSIONS: Record<SniffedType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'application/pdf': 'pdf',
}

/** A name for people: no folder part, no control characters, never empty. */
function cleanFilename(given: string | undefined, kind: string, type: SniffedType): string {
  const base = (given ?? '').split(/[\\/]/).pop() ?? ''
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim()
  return clean === '' ? `${kind.toLowerCase()}.${EXTENSIONS[type]}` : clean
}

function parseSignedAt(value: string | undefined, now: number): string {
  if (value === undefined) return new Date(now).toISOString()
  const time = Date.parse(value)
  if (Number.isNaN(time)) throw validationError('/query/signedAt', 'is not a valid datetime')
  if (time < EARLIEST_INSTANT || time > LATEST_INSTANT) {
    throw validationError(
      '/query/signedAt',
      'must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z',
    )
  }
  return new Date(time).toISOString()
}

const SIGNED_KINDS: readonly string[] = ['SIGNATURE']

function signatureFields(
  query: UploadQuery,
  now: number,
): { signer_name: string | null; signed_at: string | null } {
  // A signature's own fields (a kind, not a secret: compared with includes, not ===).
  if (SIGNED_KINDS.includes(query.kind)) {
    const signer = query.signerName?.trim()
    if (!signer) throw validationError('/query/signerName', 'is required for a SIGNATURE')
    return { signer_name: signer, signed_at: parseSignedAt(query.signedAt, now) }
  }
  if (query.signerName !== undefined) throw validationError('/query/signerName', 'is only for a SIGNATURE')
  if (query.signedAt !== undefined) throw validationError('/query/signedAt', 'is only for a SIGNATURE')
  return { signer_name: null, signed_at: null }
}

const describeBytes = (bytes: number) =>
  bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${(bytes / MiB).toFixed(1)} MiB (${bytes} bytes)`

function tooLarge(kind: string, cap: number): AppError {
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `A ${kind} may be at most ${describeBytes(cap)}; nothing was stored`,
  )
}

function quotaExceeded(used: number, adding: number, quota: number): AppError {
  return new AppError(
    'ATTACHMENT_QUOTA_EXCEEDED',
    `The organisation's attachments would take ${describeBytes(used + adding)} of its ${describeBytes(quota)} ` +
      `quota (${describeBytes(used)} used); delete some or ask for a larger quota. Nothing was stored`,
  )
}

async function quotaOf(db: Executor, settings: AttachmentSettings, organisationId: string): Promise<number> {
  return (await repository.findQuota(db, organisationId)) ?? settings.quotaBytes
}

/** The first bytes of `body` (at least SNIFF_BYTES unless it ends first) and an iterator over the rest. */
async function readHead(body: AsyncIterable<Uint8Array>) {
  const rest = body[Symbol.asyncIterator]()
  const parts: Uint8Array[] = []
  let length = 0
  while (length < SNIFF_BYTES) {
    const next = await rest.next()
    if (next.done) break
    parts.push(next.value)
    length += next.value.length
  }
  return { head: Buffer.concat(parts, length), rest }
}

/** `head` then the rest, refused with 413 as soon as more than `cap` bytes have passed. */
async function* capped(
  head: Buffer,
  rest: AsyncIterator<Uint8Array>,
  cap: number,
  refusal: () => AppError,
): AsyncGenerator<Uint8Array> {
  let total = head.length
  if (total > cap) throw refusal()
  if (total > 0) yield head
  for (let next = await rest.next(); !next.done; next = await rest.next()) {
    total += next.value.length
    if (total > cap) throw refusal()
    yield next.value
  }
}

export interface Upload {
  query: UploadQuery
  /** The raw request body; undefined when none was sent. */
  body: Readable | undefined
  /** Content-Length, when the client sent one: a body announced too large is refused before it is read. */
  declaredLength: number | undefined
}

export async function addAttachment(
  db: Kysely<Database>,
  settings: AttachmentSettings,
  who: Requester,
  jobId: string,
  upload: Upload,
  base: UrlBase,
): Promise<Attachment> {
  const { organisationId } = who
  const { query, declaredLength } = upload
  await assertJobVisible(db, who, jobId)
  const cap = query.kind === 'FILE' ? MAX_FILE_BYTES : MAX_IMAGE_BYTES
  const refusal = () => tooLarge(query.kind, cap)
  if (declaredLength !== undefined && declaredLength > cap) throw refusal()
  const signature = signatureFields(query, settings.clock())
  const quota = await quotaOf(db, settings, organisationId)
  const usedBefore = await repository.usedBytes(db, organisationId)
  if (usedBefore + (declaredLength ?? 1) > quota) throw quotaExceeded(usedBefore, declaredLength ?? 1, quota)

  const { head, rest } = await readHead(upload.body ?? Readable.from([]))
  const type = sniffContentType(head)
  const accepted = ACCEPTED[query.kind]
  if (type === null || !accepted.includes(type)) {
    const found = type === null ? describeUnknown(head) : `a ${TYPE_NAMES[type]} file`
    const wanted = [...new Set(accepted.map((t) => TYPE_NAMES[t]))].join(', ')
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The content is ${found}; a ${query.kind} must be ${wanted} (the type is read from the bytes, not the name or Content-Type)`,
    )
  }

  const id = newId()
  const contentKey = `${organisationId}/${jobId}/${id}`
  const thumbnailKey = `${contentKey}.thumbnail`
  const { store } = settings
  const stored = await store.put(contentKey, capped(head, rest, cap, refusal))
  let thumbnailSize: number | null = null
  try {
    if (HAS_THUMBNAIL.has(type)) {
      const thumbnail = await makeThumbnail(await store.get(contentKey))
      if (thumbnail) thumbnailSize = (await store.put(thumbnailKey, [thumbnail])).size
    }
    const row: AttachmentRow = {
      id,
      organisation_id: organisationId,
      job_id: jobId,
      kind: query.kind,
      content_type: type,
      size_bytes: stored.size,
      sha256: stored.sha256,
      filename: cleanFilename(query.filename, query.kind, type),
      ...signature,
      uploaded_by_user_id: who.userId,
      content_key: contentKey,
      thumbnail_key: thumbnailSize === null ? null : thumbnailKey,
      thumbnail_size_bytes: thumbnailSize,
      created_at: nowIso(),
    }
    await db.transaction().execute(async (trx) => {
      const ownQuota = await repository.lockQuota(trx, organisationId)
      const limit = ownQuota ?? settings.quotaBytes
      const used = await repository.usedBytes(trx, organisationId)
      const adding = stored.size + (thumbnailSize ?? 0)
      if (used + adding > limit) throw quotaExceeded(used, adding, limit)
      // The job may have been deleted or reassigned while the content arrived.
      const job = await lockJob(trx, organisationId, jobId)
      if (who.onlyAssignedTo !== undefined && job.assigned_user_id !== who.onlyAssignedTo)
        throw notFound('Job')
      await repository.insertAttachment(trx, row)
      await recordEvent(
        trx,
        organisationId,
        'ATTACHMENT_ADDED',
        {
          attachmentId: id,
          jobId,
          title: job.title,
          kind: row.kind,
          contentType: type,
          sizeBytes: row.size_bytes,
          filename: row.filename,
          signerName: row.signer_name,
          signedAt: row.signed_at,
          uploadedBy: row.uploaded_by_user_id,
          sha256: row.sha256,
          contentUrl: `/v1/public/jobs/${jobId}/attachments/${id}/content`,
        },
        row.created_at,
      )
    })
    return serializeAttachment(row, base)
  } catch (error) {
    await Promise.allSettled([store.delete(contentKey), store.delete(thumbnailKey)])
    throw error
  }
}

/** A job's attachments, newest first (404 for a job that is not live in the organisation). */
export async function listAttachments(db: Executor, who: Requester, jobId: string, base: UrlBase) {
  await assertJobVisible(db, who, jobId)
  const rows = await repository.listAttachments(db, who.organisationId, jobId)
  return rows.map((row) => serializeAttachment(row, base))
}

/**
 * For other modules (completion requirements, the proof PDF): the attachments of a job, as the admin
 * API shows them; no job check (the caller has its job).
 */
export async function listJobAttachments(
  db: Executor,
  organisationId: string,
  jobId: string,
): Promise<Attachment[]> {
  const rows = await repository.listAttachments(db, organisationId, jobId)
  return rows.map((row) => serializeAttachment(row, '/v1/admin'))
}

export interface OpenedContent {
  stream: Readable
  contentType: string
  sizeBytes: number
  /** A strong ETag, quoted. */
  etag: string
  filename: string
}

/** The content (or thumbnail) of one attachment of a job, as a stream; 404 when there is none. */
export async function openAttachmentContent(
  db: Executor,
  store: AttachmentStore,
  organisationId: string,
  jobId: string,
  attachmentId: string,
  part: 'content' | 'thumbnail' = 'content',
): Promise<OpenedContent> {
  const row = await repository.findAttachment(db, organisationId, jobId, attachmentId)
  if (!row) throw notFound('Attachment')
  if (part === 'thumbnail') {
    if (!row.thumbnail_key || row.thumbnail_size_bytes === null) throw notFound('Thumbnail')
    return {
      stream: await store.get(row.thumbnail_key),
      contentType: THUMBNAIL_TYPE,
      sizeBytes: row.thumbnail_size_bytes,
      etag: `"${row.sha256}-thumbnail"`,
      filename: `${row.filename.replace(/\.[^.]*$/, '')}-thumbnail.webp`,
    }
  }
  return {
    stream: await store.get(row.content_key),
    contentType: row.content_type,
    sizeBytes: row.size_bytes,
    etag: `"${row.sha256}"`,
    filename: row.filename,
  }
}

/** The same, after checking the job is visible to the requester (a worker: their own). */
export async function readAttachment(
  db: Executor,
  store: AttachmentStore,
  who: Requester,
  jobId: string,
  attachmentId: string,
  part: 'content' | 'thumbnail',
): Promise<OpenedContent> {
  await assertJobVisible(db, who, jobId)
  return openAttachmentContent(db, store, who.organisationId, jobId, attachmentId, part)
}

/**
 * Removes the attachment and its content, freeing its quota. Allowed in every job status (an admin
 * may need to remove a photo taken by mistake, or personal data, even from a completed job's proof).
 */
export async function deleteAttachment(
  db: Kysely<Database>,
  store: AttachmentStore,
  organisationId: string,
  jobId: string,
  attachmentId: string,
): Promise<{ id: string; deletedAt: string }> {
  await getJob(db, organisationId, jobId)
  const row = await repository.findAttachment(db, organisationId, jobId, attachmentId)
  if (!row) throw notFound('Attachment')
  await repository.deleteAttachment(db, organisationId, attachmentId)
  // After the row: a failure here leaves unreferenced content, never a row without content.
  await store.delete(row.content_key)
  if (row.thumbnail_key) await store.delete(row.thumbnail_key)
  return { id: attachmentId, deletedAt: nowIso() }
}
