// SQL of every kind of reference data. The table and columns come from the kind's configuration
// (kinds.ts), so queries are built on an untyped view of the database; each function is typed by
// the kind's row at its boundary.
import { type Kysely, sql } from 'kysely'
import { isPostgres } from '../../db/database.js'
import { lockForUpdate } from '../../db/locking.js'
import type { Database, Executor } from '../../db/types.js'
import { countSeriesUsing } from '../job-series/references.js'
import { type BaseRow, CAPACITY_DIMENSIONS, type ReferenceKind, TAGS } from './kinds.js'

// biome-ignore lint/suspicious/noExplicitAny: tables and columns are chosen by the kind's configuration
const untyped = (db: Executor) => db as unknown as Kysely<any>

export interface ReferenceRepository<Row extends BaseRow> {
  insert(db: Executor, row: Row): Promise<void>
  list(db: Executor, organisationId: string, page: { limit: number; offset: number }): Promise<Row[]>
  count(db: Executor, organisationId: string): Promise<number>
  find(db: Executor, organisationId: string, id: string): Promise<Row | undefined>
  /** The row, locked on PostgreSQL so that no vehicle or job can take it until the transaction ends. */
  findForUpdate(db: Executor, organisationId: string, id: string): Promise<Row | undefined>
  /** The row holding `value` in the unique field (ignoring case where the kind says so). */
  findByUniqueValue(db: Executor, organisationId: string, value: string): Promise<Row | undefined>
  findByIds(db: Executor, organisationId: string, ids: readonly string[]): Promise<Row[]>
  update(db: Executor, organisationId: string, id: string, changes: Partial<Row>): Promise<number>
  /** How many vehicles, live (not deleted) jobs and job series still making jobs refer to the row. */
  countUsage(
    db: Executor,
    organisationId: string,
    id: string,
  ): Promise<{ vehicles: number; jobs: number; series: number }>
  /**
   * Deletes the row, first dropping the references of soft-deleted jobs: those are gone from the API
   * and must not keep the row alive forever. Callers check that nothing else refers to it.
   */
  delete(db: Executor, organisationId: string, id: string): Promise<number>
}

export function referenceRepository<Row extends BaseRow>(kind: ReferenceKind<Row>): ReferenceRepository<Row> {
  const { table, uniqueField, usage } = kind
  const rowsOf = (db: Executor, organisationId: string) =>
    untyped(db).selectFrom(table).selectAll().where('organisation_id', '=', organisationId)

  return {
    async insert(db, row) {
      await untyped(db).insertInto(table).values(row).execute()
    },

    async list(db, organisationId, page) {
      return (await rowsOf(db, organisationId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute()) as Row[]
    },

    async count(db, organisationId) {
      const row = await untyped(db)
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('organisation_id', '=', organisationId)
        .executeTakeFirstOrThrow()
      return Number(row.total)
    },

    async find(db, organisationId, id) {
      return (await rowsOf(db, organisationId).where('id', '=', id).executeTakeFirst()) as Row | undefined
    },

    async findForUpdate(db, organisationId, id) {
      const query = lockForUpdate(db, rowsOf(db, organisationId).where('id', '=', id))
      return (await query.executeTakeFirst()) as Row | undefined
    },

    async findByUniqueValue(db, organisationId, value) {
      // lower() is Unicode-aware on both engines.
      const query = kind.uniqueIgnoringCase
        ? rowsOf(db, organisationId).where(sql`lower(${sql.ref(uniqueField)})`, '=', value.toLowerCase())
        : rowsOf(db, organisationId).where(sql.ref(uniqueField), '=', value)
      return (await query.executeTakeFirst()) as Row | undefined
    },

    async findByIds(db, organisationId, ids) {
      // `in ()` is not valid SQL.
      if (ids.length === 0) return []
      let query = rowsOf(db, organisationId)
        .where('id', 'in', [...new Set(ids)])
        .orderBy(uniqueField)
        .orderBy('id')
      // Inside a writer's transaction on PostgreSQL the rows stay key-share locked until it ends, so a
      // concurrent delete waits instead of breaking the writer's foreign keys.
      if (isPostgres(db)) query = query.forKeyShare()
      return (await query.execute()) as Row[]
    },

    async update(db, organisationId, id, changes) {
      const result = await untyped(db)
        .updateTable(table)
        .set(changes)
        .where('organisation_id', '=', organisationId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(result.numUpdatedRows)
    },

    async countUsage(db, organisationId, id) {
      const [vehicles, jobs, series] = await Promise.all([
        untyped(db)
          .selectFrom(usage.vehicles)
          .select((eb) => eb.fn.countAll<number>().as('total'))
          .where('organisation_id', '=', organisationId)
          .where(usage.column, '=', id)
          .executeTakeFirstOrThrow(),
        untyped(db)
          .selectFrom(`${usage.jobs} as used`)
          .innerJoin('jobs', (join) =>
            join
              .onRef('jobs.id', '=', 'used.job_id')
              .onRef('jobs.organisation_id', '=', 'used.organisation_id'),
          )
          .select((eb) => eb.fn.countAll<number>().as('total'))
          .where('used.organisation_id', '=', organisationId)
          .where(`used.${usage.column}`, '=', id)
          .where('jobs.deleted_at', 'is', null)
          .executeTakeFirstOrThrow(),
        countSeriesUsing(db, organisationId, id),
      ])
      return { vehicles: Number(vehicles.total), jobs: Number(jobs.total), series }
    },

    async delete(db, organisationId, id) {
      await untyped(db)
        .deleteFrom(usage.jobs)
        .where('organisation_id', '=', organisationId)
        .where(usage.column, '=', id)
        .where(
          'job_id',
          'in',
          untyped(db)
            .selectFrom('jobs')
            .select('id')
            .where('organisation_id', '=', organisationId)
            .where('deleted_at', 'is not', null),
        )
        .execute()
      const result = await untyped(db)
        .deleteFrom(table)
        .where('organisation_id', '=', organisationId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
  }
}

export type TagRow = Database['tags']
export type CapacityDimensionRow = Database['capacity_dimensions']

export const tagRepository = referenceRepository(TAGS)
export const capacityDimensionRepository = referenceRepository(CAPACITY_DIMENSIONS)

/** Rows written as given (service.ts seedTag and seedCapacityDimension, test factories). */
export const insertTag = (db: Executor, row: TagRow) => tagRepository.insert(db, row)
export const insertCapacityDimension = (db: Executor, row: CapacityDimensionRow) =>
  capacityDimensionRepository.insert(db, row)
