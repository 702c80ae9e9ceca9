// The archive's own repository: the one exception to "only a module's repository touches its tables",
// because a bulk dump and restore of every table through two dozen services would page each one
// through its API shape and its events. It reads and writes exactly the tables of tables.ts (and the
// organisation's settings columns), always scoped by organisation id; docs/archive.md says so.
import { type Kysely, sql } from 'kysely'
import type { Database, Executor } from '../../db/types.js'
import { ARCHIVED_TABLES, type ArchivedTable, ORGANISATION_SETTINGS } from './tables.js'

export type Row = Record<string, unknown>
// Table names come from ARCHIVED_TABLES only; Kysely's types cannot follow a name chosen at run time.
// biome-ignore lint/suspicious/noExplicitAny: see above
type AnyDb = Kysely<any>
const untyped = (db: Executor) => db as unknown as AnyDb

/** One page of a table's rows of the organisation, in keyset order after `after` (its order values). */
export async function readPage(
  db: Executor,
  organisationId: string,
  table: ArchivedTable,
  after: unknown[] | null,
  limit: number,
): Promise<Row[]> {
  let query = untyped(db).selectFrom(table.type).selectAll().where('organisation_id', '=', organisationId)
  if (after) {
    const columns = table.order.map((c) => sql.ref(c))
    const values = after.map((v) => sql`${v}`)
    query = query.where(sql<boolean>`(${sql.join(columns)}) > (${sql.join(values)})`)
  }
  for (const column of table.order) query = query.orderBy(column)
  return (await query.limit(limit).execute()) as Row[]
}

export async function countRows(db: Executor, organisationId: string, table: ArchivedTable): Promise<number> {
  const row = await untyped(db)
    .selectFrom(table.type)
    .select((eb) => eb.fn.countAll().as('count'))
    .where('organisation_id', '=', organisationId)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

export async function insertRows(db: Executor, table: ArchivedTable, rows: Row[]): Promise<void> {
  if (rows.length === 0) return
  await untyped(db).insertInto(table.type).values(rows).execute()
}

/** A counter the archive restores: the target's own (made when its first job was) goes first. */
export async function deleteJobNumberCounter(db: Executor, organisationId: string): Promise<void> {
  await db.deleteFrom('job_number_counters').where('organisation_id', '=', organisationId).execute()
}

export async function findOrganisationSettings(
  db: Executor,
  organisationId: string,
): Promise<Row | undefined> {
  return (await db
    .selectFrom('organisations')
    .select(['id', 'name', 'plan', 'created_at', ...ORGANISATION_SETTINGS])
    .where('id', '=', organisationId)
    .executeTakeFirst()) as Row | undefined
}

export async function updateOrganisationSettings(
  db: Executor,
  organisationId: string,
  settings: Row,
): Promise<void> {
  await untyped(db).updateTable('organisations').set(settings).where('id', '=', organisationId).execute()
}

/** The store keys of the organisation's attachments (content and thumbnails), to remove on a failed import. */
export async function listAttachmentKeys(db: Executor, organisationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('attachments')
    .select(['content_key', 'thumbnail_key'])
    .where('organisation_id', '=', organisationId)
    .execute()
  return rows.flatMap((r) => (r.thumbnail_key ? [r.content_key, r.thumbnail_key] : [r.content_key]))
}

/** Every archived row of the organisation, latest tables first (a failed import's clean-up). */
export async function deleteArchivedRows(db: Kysely<Database>, organisationId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of [...ARCHIVED_TABLES].reverse()) {
      await untyped(trx).deleteFrom(table.type).where('organisation_id', '=', organisationId).execute()
    }
  })
}
