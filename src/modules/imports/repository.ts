// SQL for the imports table (migration 0032): every query is scoped by organisation.
import type { Executor, ImportRow, ImportsTable } from '../../db/types.js'

export async function insertImport(db: Executor, row: ImportRow): Promise<void> {
  await db.insertInto('imports').values(row).execute()
}

export async function findImport(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<ImportRow | undefined> {
  return db
    .selectFrom('imports')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** Moves a PENDING import to RUNNING; false when it was not PENDING (its file was already sent). */
export async function claimImport(
  db: Executor,
  organisationId: string,
  id: string,
  bytesTotal: number | null,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('imports')
    .set({ status: 'RUNNING', bytes_total: bytesTotal, updated_at: at })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .where('status', '=', 'PENDING')
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export type ImportProgress = Partial<
  Pick<
    ImportsTable,
    | 'status'
    | 'processed'
    | 'created'
    | 'updated'
    | 'unchanged'
    | 'failed'
    | 'bytes_read'
    | 'errors'
    | 'sample'
    | 'failure'
    | 'finished_at'
  >
> & { updated_at: string }

export async function updateImport(
  db: Executor,
  organisationId: string,
  id: string,
  progress: ImportProgress,
): Promise<void> {
  await db
    .updateTable('imports')
    .set(progress)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .execute()
}
