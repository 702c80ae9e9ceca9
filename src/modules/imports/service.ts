// CSV imports (issue 31 §4). An import is a resource: POST makes it (its kind, mapping and whether it
// is a dry run), PUT …/file streams the CSV through csv-parse, 500 rows at a time, and every batch
// writes its counts to the imports row, so GET answers the progress from any instance.
// Bad rows are reported and skipped; good rows are written ("write valid rows, report bad ones"):
// rows are upserts by externalId, so importing the corrected file again finishes the job and changes
// nothing that is already right.
import type { Readable } from 'node:stream'
import { parse } from 'csv-parse'
import type { Kysely } from 'kysely'
import { newId, nowIso } from '../../db/ids.js'
import type { Database, ImportRow } from '../../db/types.js'
import { AppError, notFound } from '../../http/errors.js'
import { importCustomerRows } from './customer-rows.js'
import { importJobRows } from './job-rows.js'
import { assertMapping, columnsOf, ImportFileError, type ImportKind, valuesOf } from './mapping.js'
import * as repository from './repository.js'
import type { ImportRowInput, RowOutcome } from './rows.js'
import type { CreateImportBody, Import, ImportRowError } from './schemas.js'
import { serializeImport } from './serialize.js'

/** Rows per batch: per transaction for customers, per progress update for both. */
export const IMPORT_BATCH_ROWS = 500
/** The largest file PUT …/file takes. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024
const KEPT_ERRORS = 100
const SAMPLE_ROWS = 20

const ROW_WRITERS: Record<
  ImportKind,
  (
    db: Kysely<Database>,
    organisationId: string,
    rows: readonly ImportRowInput[],
    dryRun: boolean,
  ) => Promise<RowOutcome[]>
> = { customers: importCustomerRows, jobs: importJobRows }

export async function createImport(
  db: Kysely<Database>,
  organisationId: string,
  input: CreateImportBody,
): Promise<Import> {
  const mapping = input.mapping ?? {}
  assertMapping(input.kind, mapping)
  const now = nowIso()
  const row: ImportRow = {
    id: newId(),
    organisation_id: organisationId,
    kind: input.kind,
    dry_run: input.dryRun ? 1 : 0,
    mapping: JSON.stringify(mapping),
    status: 'PENDING',
    processed: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    failed: 0,
    bytes_read: 0,
    bytes_total: null,
    errors: '[]',
    sample: '[]',
    failure: null,
    created_at: now,
    updated_at: now,
    finished_at: null,
  }
  await repository.insertImport(db, row)
  return serializeImport(row)
}

export async function getImport(db: Kysely<Database>, organisationId: string, id: string): Promise<Import> {
  const row = await repository.findImport(db, organisationId, id)
  if (!row) throw notFound('Import')
  return serializeImport(row)
}

/**
 * Reads the import's file from `body` to the end and answers the finished import. 409 when the import
 * already had its file; a file that is not CSV (or lacks a mapped column) ends FAILED, not in an error,
 * so the rows written before stay counted.
 */
export async function runImport(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  body: Readable,
  bytesTotal: number | null,
): Promise<Import> {
  const current = await repository.findImport(db, organisationId, id)
  if (!current) throw notFound('Import')
  if (!(await repository.claimImport(db, organisationId, id, bytesTotal, nowIso()))) {
    throw new AppError(
      'CONFLICT',
      `Import ${id} already has its file (status ${current.status}); start a new import`,
    )
  }
  const kind = current.kind
  const mapping = JSON.parse(current.mapping) as Record<string, string>
  const dryRun = current.dry_run === 1 || String(current.dry_run) === '1'
  const counts = { processed: 0, created: 0, updated: 0, unchanged: 0, failed: 0, bytes_read: 0 }
  const errors: ImportRowError[] = []
  const sample: Record<string, unknown>[] = []
  const progress = () => ({
    ...counts,
    errors: JSON.stringify(errors),
    sample: JSON.stringify(sample),
    updated_at: nowIso(),
  })

  body.on('data', (chunk: Buffer) => {
    counts.bytes_read += chunk.length
    if (counts.bytes_read > MAX_IMPORT_BYTES)
      body.destroy(new ImportFileError(`the file is larger than ${MAX_IMPORT_BYTES} bytes`))
  })
  const parser = body.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true }))
  body.on('error', (error) => parser.destroy(error))

  const writeBatch = async (batch: ImportRowInput[]) => {
    const outcomes = await ROW_WRITERS[kind](db, organisationId, batch, dryRun)
    for (const outcome of outcomes) {
      if (typeof outcome === 'string') counts[outcome]++
      else {
        counts.failed++
        if (errors.length < KEPT_ERRORS) errors.push(outcome)
      }
    }
    counts.processed += batch.length
    await repository.updateImport(db, organisationId, id, progress())
  }

  try {
    let columns: Map<string, number> | undefined
    let rowNumber = 1
    let batch: ImportRowInput[] = []
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!columns) {
        columns = columnsOf(kind, mapping, record)
        continue
      }
      rowNumber++
      const values = valuesOf(record, columns)
      if (sample.length < SAMPLE_ROWS) sample.push(values)
      batch.push({ row: rowNumber, values })
      if (batch.length === IMPORT_BATCH_ROWS) {
        await writeBatch(batch)
        batch = []
      }
    }
    if (!columns) throw new ImportFileError('the file is empty: a header row is expected')
    if (batch.length > 0) await writeBatch(batch)
    const at = nowIso()
    await repository.updateImport(db, organisationId, id, {
      ...progress(),
      status: 'SUCCEEDED',
      finished_at: at,
    })
  } catch (error) {
    // A file csv-parse cannot read (its errors have CSV_ codes) or that lacks a column: FAILED, saying
    // why. Anything else is the server's fault: FAILED without its message, and a 500.
    const unreadable =
      error instanceof ImportFileError || /^CSV_/.test(String((error as { code?: unknown }).code))
    await repository.updateImport(db, organisationId, id, {
      ...progress(),
      status: 'FAILED',
      failure: unreadable
        ? `The file could not be read: ${(error as Error).message}`
        : 'The import stopped on a server error',
      finished_at: nowIso(),
    })
    body.resume()
    if (!unreadable) throw error
  }
  return getImport(db, organisationId, id)
}
