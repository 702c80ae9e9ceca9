// The SQL of attachments: their rows (every query filtered by organisation) and the database store's
// chunks (keyed by content key, which starts with the organisation id).
import { sql } from 'kysely'
import { lockForUpdate } from '../../db/locking.js'
import type { AttachmentRow, Executor } from '../../db/types.js'

export async function insertAttachment(db: Executor, row: AttachmentRow): Promise<void> {
  await db.insertInto('attachments').values(row).execute()
}

export async function listAttachments(db: Executor, organisationId: string, jobId: string) {
  return db
    .selectFrom('attachments')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('job_id', '=', jobId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
}

export async function findAttachment(db: Executor, organisationId: string, jobId: string, id: string) {
  return db
    .selectFrom('attachments')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('job_id', '=', jobId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function deleteAttachment(db: Executor, organisationId: string, id: string): Promise<void> {
  await db
    .deleteFrom('attachments')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .execute()
}

/** Bytes the organisation's attachments take: content and thumbnails. */
export async function usedBytes(db: Executor, organisationId: string): Promise<number> {
  const row = await db
    .selectFrom('attachments')
    .select(sql<string | number | null>`sum(size_bytes + coalesce(thumbnail_size_bytes, 0))`.as('used'))
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst()
  return Number(row?.used ?? 0)
}

/**
 * The organisation's own quota (null: the service's), its row locked until the transaction ends, so
 * two uploads of one organisation on PostgreSQL check the quota one after the other.
 */
export async function lockQuota(db: Executor, organisationId: string): Promise<number | null> {
  const row = await lockForUpdate(
    db,
    db.selectFrom('organisations').select('attachment_quota_bytes').where('id', '=', organisationId),
  ).executeTakeFirst()
  const quota = row?.attachment_quota_bytes
  return quota === null || quota === undefined ? null : Number(quota)
}

export async function findQuota(db: Executor, organisationId: string): Promise<number | null> {
  const row = await db
    .selectFrom('organisations')
    .select('attachment_quota_bytes')
    .where('id', '=', organisationId)
    .executeTakeFirst()
  const quota = row?.attachment_quota_bytes
  return quota === null || quota === undefined ? null : Number(quota)
}

export async function insertChunk(db: Executor, key: string, seq: number, data: Uint8Array): Promise<void> {
  await db.insertInto('attachment_chunks').values({ content_key: key, seq, data }).execute()
}

export async function findChunk(db: Executor, key: string, seq: number): Promise<Uint8Array | undefined> {
  const row = await db
    .selectFrom('attachment_chunks')
    .select('data')
    .where('content_key', '=', key)
    .where('seq', '=', seq)
    .executeTakeFirst()
  return row?.data
}

export async function deleteChunks(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('attachment_chunks').where('content_key', '=', key).execute()
}
