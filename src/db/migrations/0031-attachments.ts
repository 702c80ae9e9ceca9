// Attachments on jobs (issue 31 §2): photos, signatures and files, their content behind one
// AttachmentStore (modules/attachments/store.ts).
// - attachments: one row per attachment, organisation-scoped like every table; `content_key` and
//   `thumbnail_key` name the content in the store (the database's chunks by default, an S3 bucket when
//   ATTACHMENT_STORE is set), so the row never holds the bytes. Sizes are integers: no attachment is
//   larger than 25 MB.
// - attachment_chunks: the database store's content, 256 KiB a row in order (`seq`), so content is
//   streamed in and out a chunk at a time and never read whole; SQLite keeps it in its one file, and N
//   instances on PostgreSQL share it. BLOB on SQLite, BYTEA on PostgreSQL.
// - organisations.attachment_quota_bytes: an organisation's own quota; null takes ATTACHMENT_QUOTA_BYTES.
// Frozen in time: never import application code here.
import { type Kysely, sql } from 'kysely'
import type { MigrationDialect } from './0001-initial.js'

export async function up(db: Kysely<any>, dialect: MigrationDialect): Promise<void> {
  const timestamp = dialect === 'postgres' ? sql`timestamptz(3)` : sql`text`
  const bytes = dialect === 'postgres' ? sql`bytea` : sql`blob`

  await db.schema
    .createTable('attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id'))
    .addColumn('job_id', 'text', (c) => c.notNull())
    /** PHOTO | SIGNATURE | FILE */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** The sniffed type, never the client's. */
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('signer_name', 'text')
    .addColumn('signed_at', timestamp)
    /** The signed-in user who uploaded it; null through an API key. */
    .addColumn('uploaded_by_user_id', 'text')
    .addColumn('content_key', 'text', (c) => c.notNull())
    .addColumn('thumbnail_key', 'text')
    .addColumn('thumbnail_size_bytes', 'integer')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('attachments_job_idx')
    .on('attachments')
    .columns(['organisation_id', 'job_id', 'created_at', 'id'])
    .execute()

  await db.schema
    .createTable('attachment_chunks')
    .addColumn('content_key', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', bytes, (c) => c.notNull())
    .addPrimaryKeyConstraint('attachment_chunks_pk', ['content_key', 'seq'])
    .execute()

  await db.schema.alterTable('organisations').addColumn('attachment_quota_bytes', 'bigint').execute()
}
