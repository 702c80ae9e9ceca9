// SQL of the job series: the series rows, their skipped and moved occurrences, and the reads of the
// jobs generated from them (jobs are written by the jobs module's service only). Every query is
// scoped by organisation.
import type { Insertable, Updateable } from 'kysely'
import { lockForUpdate } from '../../db/locking.js'
import type {
  Executor,
  JobSeriesExceptionsTable,
  JobSeriesTable,
  JobStatus,
  TimeWindowType,
} from '../../db/types.js'

export type SeriesRow = JobSeriesTable
export type ExceptionRow = JobSeriesExceptionsTable

export async function insertSeries(db: Executor, row: Insertable<JobSeriesTable>): Promise<void> {
  await db.insertInto('job_series').values(row).execute()
}

export async function findSeries(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<SeriesRow | undefined> {
  return db
    .selectFrom('job_series')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/**
 * The series, its row locked until the transaction of `db` ends: everything that makes, changes or
 * cancels a series' jobs holds it, so two of them (a PATCH and the hourly generator) run one after
 * the other and never make one occurrence's job twice.
 */
export async function lockSeries(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<SeriesRow | undefined> {
  const query = db
    .selectFrom('job_series')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
  return lockForUpdate(db, query).executeTakeFirst()
}

/**
 * How many series still making jobs name `id` in their template: a tag, capacity dimension or depot
 * they use cannot be deleted (the generator could make no more jobs). Ids are UUIDs, so the quoted
 * id is found in the template's JSON only where the template refers to it. A series ended on a date
 * of its own calendar: a day's margin keeps one ending today in any zone.
 */
export async function countLiveSeriesReferring(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<number> {
  const since = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
  const row = await db
    .selectFrom('job_series')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('organisation_id', '=', organisationId)
    .where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>=', since)]))
    .where('template', 'like', `%"${id.replace(/[\\%_"]/g, '')}"%`)
    .executeTakeFirstOrThrow()
  return Number(row.total)
}

export async function updateSeries(
  db: Executor,
  organisationId: string,
  id: string,
  changes: Updateable<JobSeriesTable>,
): Promise<void> {
  await db
    .updateTable('job_series')
    .set(changes)
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .execute()
}

/** One page of the organisation's series, newest first, and how many it has. */
export async function listSeries(
  db: Executor,
  organisationId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: SeriesRow[]; total: number }> {
  const scoped = db.selectFrom('job_series').where('organisation_id', '=', organisationId)
  const [rows, total] = await Promise.all([
    scoped
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    scoped.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ])
  return { rows, total: Number(total.total) }
}

/** Series that may have occurrences to generate: not ended before `today` (any organisation). */
export async function listLiveSeries(db: Executor, today: string): Promise<SeriesRow[]> {
  return db
    .selectFrom('job_series')
    .selectAll()
    .where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>=', today)]))
    .orderBy('id')
    .execute()
}

export async function listExceptions(
  db: Executor,
  organisationId: string,
  seriesId: string,
): Promise<ExceptionRow[]> {
  return db
    .selectFrom('job_series_exceptions')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('series_id', '=', seriesId)
    .execute()
}

/** Records a skip or a move of one occurrence, replacing what was recorded for it before. */
export async function upsertException(
  db: Executor,
  row: Insertable<JobSeriesExceptionsTable>,
): Promise<void> {
  const { organisation_id, series_id, occurrence_date, ...rest } = row
  await db
    .insertInto('job_series_exceptions')
    .values(row)
    .onConflict((oc) => oc.columns(['organisation_id', 'series_id', 'occurrence_date']).doUpdateSet(rest))
    .execute()
}

/** A job generated for an occurrence (soft-deleted ones too: their occurrence is taken). */
export interface OccurrenceJobRow {
  id: string
  occurrence_date: string
  status: JobStatus
  deleted: boolean
  earliest_start: string | null
  time_window_type: TimeWindowType
}

/** The jobs generated for the series, optionally only those of the given occurrence dates. */
export async function listOccurrenceJobs(
  db: Executor,
  organisationId: string,
  seriesId: string,
  dates?: readonly string[],
): Promise<OccurrenceJobRow[]> {
  if (dates !== undefined && dates.length === 0) return []
  const rows = await db
    .selectFrom('jobs')
    .select(['id', 'occurrence_date', 'status', 'deleted_at', 'earliest_start', 'time_window_type'])
    .where('organisation_id', '=', organisationId)
    .where('series_id', '=', seriesId)
    .$if(dates !== undefined, (q) => q.where('occurrence_date', 'in', dates as string[]))
    .orderBy('occurrence_date')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    occurrence_date: row.occurrence_date as string,
    status: row.status,
    deleted: row.deleted_at !== null,
    earliest_start: row.earliest_start,
    time_window_type: row.time_window_type,
  }))
}

/** A generated job as the series' page lists it. */
export interface SeriesJobRow {
  id: string
  number: number
  title: string
  status: JobStatus
  occurrence_date: string
  earliest_start: string | null
  latest_end: string | null
  time_window_type: TimeWindowType
}

/** One page of the series' generated jobs (not deleted), latest occurrence first, and how many. */
export async function listSeriesJobs(
  db: Executor,
  organisationId: string,
  seriesId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: SeriesJobRow[]; total: number }> {
  const scoped = db
    .selectFrom('jobs')
    .where('organisation_id', '=', organisationId)
    .where('series_id', '=', seriesId)
    .where('deleted_at', 'is', null)
  const [rows, total] = await Promise.all([
    scoped
      .select([
        'id',
        'number',
        'title',
        'status',
        'occurrence_date',
        'earliest_start',
        'latest_end',
        'time_window_type',
      ])
      .orderBy('occurrence_date', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    scoped.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ])
  return {
    rows: rows.map((row) => ({
      ...row,
      number: Number(row.number),
      occurrence_date: row.occurrence_date as string,
    })),
    total: Number(total.total),
  }
}
