// Restoring an archive into an empty organisation. Every row gets a new id (the same database may
// still hold the organisation it came from) and every reference, in columns and inside JSON texts,
// follows it. Rows are written in batches as the archive is read and attachment bytes go straight to
// the store, so memory holds the id map and one batch, never the archive. The store writes outside
// any transaction (on SQLite, the only connection), so the import is not one transaction: when any
// line fails, everything written so far — rows and stored content — is removed again, and the
// organisation is left empty as it was found.
import type { Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import { newId } from '../../db/ids.js'
import type { Database } from '../../db/types.js'
import type { AttachmentStore } from '../attachments/store.js'
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, ArchiveError } from './format.js'
import { type ArchiveRecord, RecordReader } from './reader.js'
import * as repository from './repository.js'

export { ArchiveError }

import { ARCHIVED_TABLES, type ArchivedTable, ORGANISATION_SETTINGS } from './tables.js'

const BATCH_ROWS = 200
const TABLES = new Map(ARCHIVED_TABLES.map((t, index) => [t.type as string, { table: t, index }]))

export interface ImportResult {
  counts: Record<string, number>
  attachmentBytes: number
}

/** Refuses an organisation that already holds any archived data (the one job counter aside). */
export async function assertEmpty(db: Kysely<Database>, organisationId: string): Promise<void> {
  const held: string[] = []
  for (const table of ARCHIVED_TABLES) {
    if (table.type === 'job_number_counters') continue
    const count = await repository.countRows(db, organisationId, table)
    if (count > 0) held.push(`${count} ${table.type}`)
  }
  if (held.length > 0)
    throw new ArchiveError(
      `The organisation ${organisationId} is not empty (it has ${held.join(', ')}): an archive is restored only into an empty organisation`,
    )
}

class Restore {
  private readonly ids = new Map<string, string>()
  private readonly storedKeys: string[] = []
  private batch: { table: ArchivedTable; rows: repository.Row[] } | null = null
  private lastIndex = -1
  readonly counts: Record<string, number> = {}
  attachmentBytes = 0

  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: AttachmentStore,
    private readonly organisationId: string,
    private readonly reader: RecordReader,
  ) {}

  private mapped(value: unknown, what: string): string | null {
    if (value === null || value === undefined) return null
    const id = this.ids.get(String(value))
    if (id === undefined)
      throw this.reader.error(`${what} ${String(value)} is not an earlier record of the archive`)
    return id
  }

  /** Ids inside JSON text (a series' job template) follow their rows; other strings stay. */
  private remapJson(value: unknown): unknown {
    if (typeof value === 'string') return this.ids.get(value) ?? value
    if (Array.isArray(value)) return value.map((v) => this.remapJson(v))
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.remapJson(v)]))
    return value
  }

  private restoredRow(table: ArchivedTable, data: Record<string, unknown>): repository.Row {
    const row: repository.Row = { ...data, organisation_id: this.organisationId }
    for (const column of table.excluded ?? []) delete row[column]
    if (table.hasId) {
      if (typeof data.id !== 'string') throw this.reader.error(`a ${table.type} record has no id`)
      const id = newId()
      this.ids.set(data.id, id)
      row.id = id
    }
    for (const column of table.references) row[column] = this.mapped(data[column], column)
    for (const column of table.json ?? []) {
      if (typeof data[column] !== 'string') continue
      try {
        row[column] = JSON.stringify(this.remapJson(JSON.parse(data[column] as string)))
      } catch {
        throw this.reader.error(`the ${column} of a ${table.type} record is not JSON text`)
      }
    }
    for (const column of table.booleans ?? []) if (row[column] !== null) row[column] = row[column] ? 1 : 0
    return row
  }

  private async flush(): Promise<void> {
    if (!this.batch) return
    const { table, rows } = this.batch
    this.batch = null
    if (table.type === 'job_number_counters')
      await repository.deleteJobNumberCounter(this.db, this.organisationId)
    try {
      await repository.insertRows(this.db, table, rows)
    } catch (error) {
      throw this.reader.error(`${table.type} could not be restored: ${(error as Error).message}`)
    }
  }

  /** The bytes of one attachment part, read from the lines that follow its metadata line. */
  private async *content(attachmentId: string, part: string): AsyncGenerator<Buffer> {
    for (;;) {
      const record = await this.reader.next()
      if (!record) throw this.reader.error(`the archive ends inside attachment ${attachmentId}'s ${part}`)
      const data = record.data as { attachmentId?: unknown; part?: unknown; base64?: unknown }
      if (data.attachmentId !== attachmentId || data.part !== part)
        throw this.reader.error(
          `expected attachment ${attachmentId}'s ${part}, found a ${record.type} record`,
        )
      if (record.type === 'attachment_content_end') return
      if (record.type !== 'attachment_content' || typeof data.base64 !== 'string')
        throw this.reader.error(`expected attachment content, found a ${record.type} record`)
      yield Buffer.from(data.base64, 'base64')
    }
  }

  private async storePart(key: string, attachmentId: string, part: string, size: unknown, sha256?: unknown) {
    this.storedKeys.push(key)
    const stored = await this.store.put(key, this.content(attachmentId, part))
    if (stored.size !== Number(size) || (sha256 !== undefined && stored.sha256 !== sha256))
      throw this.reader.error(`attachment ${attachmentId}'s ${part} is not the bytes its record describes`)
    this.attachmentBytes += stored.size
  }

  private async restoreAttachment(table: ArchivedTable, data: Record<string, unknown>): Promise<void> {
    await this.flush()
    const row = this.restoredRow(table, data)
    const contentKey = `${this.organisationId}/${row.job_id}/${row.id}`
    row.content_key = contentKey
    row.thumbnail_key = row.thumbnail_size_bytes === null ? null : `${contentKey}.thumbnail`
    await this.storePart(contentKey, data.id as string, 'content', row.size_bytes, row.sha256)
    if (row.thumbnail_key)
      await this.storePart(
        row.thumbnail_key as string,
        data.id as string,
        'thumbnail',
        row.thumbnail_size_bytes,
      )
    this.batch = { table, rows: [row] }
    await this.flush()
  }

  async add(record: ArchiveRecord): Promise<void> {
    const entry = TABLES.get(record.type)
    if (!entry) throw this.reader.error(`unknown record type "${record.type}"`)
    if (entry.index < this.lastIndex)
      throw this.reader.error(`a ${record.type} record comes after later types`)
    this.lastIndex = entry.index
    const { table } = entry
    this.counts[table.type] = (this.counts[table.type] ?? 0) + 1
    if (table.type === 'attachments') return this.restoreAttachment(table, record.data)
    if (this.batch && this.batch.table !== table) await this.flush()
    this.batch ??= { table, rows: [] }
    this.batch.rows.push(this.restoredRow(table, record.data))
    if (this.batch.rows.length >= BATCH_ROWS) await this.flush()
  }

  async finish(expected: unknown): Promise<void> {
    await this.flush()
    for (const table of ARCHIVED_TABLES) {
      const want = (expected as Record<string, unknown> | undefined)?.[table.type] ?? 0
      if ((this.counts[table.type] ?? 0) !== want)
        throw this.reader.error(
          `the archive says ${String(want)} ${table.type} but holds ${this.counts[table.type] ?? 0}`,
        )
    }
  }

  async undo(): Promise<void> {
    await repository.deleteArchivedRows(this.db, this.organisationId)
    await Promise.allSettled(this.storedKeys.map((key) => this.store.delete(key)))
  }
}

/** Restores the gzip'd archive `input` into the empty organisation `organisationId`. */
export async function importArchive(
  db: Kysely<Database>,
  store: AttachmentStore,
  organisationId: string,
  input: Readable,
): Promise<ImportResult> {
  if (!(await repository.findOrganisationSettings(db, organisationId)))
    throw new ArchiveError(`No organisation ${organisationId}`)
  await assertEmpty(db, organisationId)
  const reader = new RecordReader(input)
  const header = await reader.header()
  if (header.format !== ARCHIVE_FORMAT || header.version !== ARCHIVE_VERSION)
    throw new ArchiveError(
      `This is not a ${ARCHIVE_FORMAT} version ${ARCHIVE_VERSION} file (its first line says otherwise)`,
    )
  const restore = new Restore(db, store, organisationId, reader)
  try {
    for (;;) {
      const record = await reader.next()
      if (!record) throw reader.error('the archive ends before its end line: it is truncated')
      if (record.type === 'end') {
        await restore.finish(header.counts)
        break
      }
      await restore.add(record)
    }
    if (await reader.next()) throw reader.error('there are lines after the end line')
    const settings =
      (header.organisation as { settings?: Record<string, unknown> } | undefined)?.settings ?? {}
    const known: repository.Row = {}
    for (const column of ORGANISATION_SETTINGS) {
      if (!(column in settings)) continue
      const value = settings[column]
      known[column] = typeof value === 'boolean' ? (value ? 1 : 0) : value
    }
    if (Object.keys(known).length > 0) await repository.updateOrganisationSettings(db, organisationId, known)
  } catch (error) {
    await restore.undo()
    if (error instanceof ArchiveError) throw error
    throw new ArchiveError(`The archive could not be restored: ${(error as Error).message}`)
  }
  return { counts: restore.counts, attachmentBytes: restore.attachmentBytes }
}
