// Writing an organisation's archive: a header line, then every archived table's rows in dependency
// order, then each attachment's bytes as base64 lines — NDJSON, gzip'd by the caller. Everything is
// produced as it is read (keyset pages of 500 rows, the store's own chunks), so no archive is ever
// held whole in memory, however large the organisation.
import { pipeline, Readable } from 'node:stream'
import { createGzip } from 'node:zlib'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.js'
import { AppError } from '../../http/errors.js'
import type { AttachmentStore } from '../attachments/store.js'
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, CONTENT_LINE_BYTES } from './format.js'
import * as repository from './repository.js'
import { ARCHIVED_TABLES, type ArchivedTable, ORGANISATION_SETTINGS } from './tables.js'

const PAGE_ROWS = 500

const line = (value: unknown) => `${JSON.stringify(value)}\n`

/** A row as the archive shows it: no organisation id, no excluded column, booleans as booleans. */
function archivedRow(table: ArchivedTable, row: repository.Row): repository.Row {
  const out: repository.Row = {}
  for (const [column, value] of Object.entries(row)) {
    if (column === 'organisation_id' || table.excluded?.includes(column)) continue
    out[column] = table.booleans?.includes(column) && value !== null ? Boolean(value) : value
  }
  return out
}

async function* tableRows(
  db: Kysely<Database>,
  organisationId: string,
  table: ArchivedTable,
  pageRows: number,
) {
  let after: unknown[] | null = null
  for (;;) {
    const page = await repository.readPage(db, organisationId, table, after, pageRows)
    yield* page
    if (page.length < pageRows) return
    const last = page[page.length - 1] as repository.Row
    after = table.order.map((c) => last[c])
  }
}

/** The content of one stored object as base64 lines of at most CONTENT_LINE_BYTES bytes each. */
async function* contentLines(store: AttachmentStore, key: string, attachmentId: string, part: string) {
  let pending = Buffer.alloc(0)
  for await (const chunk of await store.get(key)) {
    pending = Buffer.concat([pending, chunk as Buffer])
    while (pending.length >= CONTENT_LINE_BYTES) {
      const data = pending.subarray(0, CONTENT_LINE_BYTES).toString('base64')
      pending = pending.subarray(CONTENT_LINE_BYTES)
      yield line({ type: 'attachment_content', data: { attachmentId, part, base64: data } })
    }
  }
  if (pending.length > 0)
    yield line({
      type: 'attachment_content',
      data: { attachmentId, part, base64: pending.toString('base64') },
    })
  yield line({ type: 'attachment_content_end', data: { attachmentId, part } })
}

export async function* archiveLines(
  db: Kysely<Database>,
  store: AttachmentStore,
  organisationId: string,
  exportedAt: string,
  pageRows = PAGE_ROWS,
): AsyncGenerator<string> {
  const organisation = await repository.findOrganisationSettings(db, organisationId)
  if (!organisation) throw new AppError('NOT_FOUND', 'Organisation not found')
  const counts: Record<string, number> = {}
  for (const table of ARCHIVED_TABLES)
    counts[table.type] = await repository.countRows(db, organisationId, table)
  const settings: repository.Row = {}
  for (const column of ORGANISATION_SETTINGS) settings[column] = organisation[column]
  settings.notify_customer_en_route = Boolean(settings.notify_customer_en_route)
  settings.notify_customer_completed = Boolean(settings.notify_customer_completed)
  yield line({
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    exportedAt,
    organisation: {
      id: organisation.id,
      name: organisation.name,
      plan: organisation.plan,
      createdAt: organisation.created_at,
      settings,
    },
    counts,
  })
  for (const table of ARCHIVED_TABLES) {
    for await (const row of tableRows(db, organisationId, table, pageRows)) {
      yield line({ type: table.type, data: archivedRow(table, row) })
      if (table.type !== 'attachments') continue
      // The bytes follow their metadata line, so an import stores them as it reads them.
      const id = row.id as string
      yield* contentLines(store, row.content_key as string, id, 'content')
      if (row.thumbnail_key) yield* contentLines(store, row.thumbnail_key as string, id, 'thumbnail')
    }
  }
  yield line({ type: 'end', data: { counts } })
}

/** The archive as a gzip'd byte stream (what GET /v1/admin/export and `fieldservice export` send). */
export function archiveStream(
  db: Kysely<Database>,
  store: AttachmentStore,
  organisationId: string,
  exportedAt: string,
  /** Rows read a query (tests make it small, to cross many pages). */
  pageRows = PAGE_ROWS,
): Readable {
  // pipeline, not pipe: a failed read destroys the gzip stream too, so a download ends broken, not
  // silently short.
  return pipeline(
    Readable.from(archiveLines(db, store, organisationId, exportedAt, pageRows)),
    createGzip(),
    () => {},
  )
}
