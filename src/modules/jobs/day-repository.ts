// `targetDate` reads through the day tables that triggers maintain (migration 0005): the jobs of one
// UTC day come out of an index already in list order, joined with the few jobs whose window is open
// or longer than a month, and the day's total is a counter. A first page, a cursor page and a total
// cost the same whatever the organisation's size.

import type { Executor } from '../../db/types.js'
import type { CursorPosition } from '../../http/cursor.js'
import { type JobFilters, type JobListedRow, selectJobs } from './list-repository.js'

type Overlap = NonNullable<JobFilters['overlapping']>

/** Jobs with an open or longer-than-a-month window that overlap the day. */
function longWindowsOverlapping(
  db: Executor,
  organisationId: string,
  overlap: Overlap,
  status: string | undefined,
) {
  return db
    .selectFrom('job_long_windows')
    .where('organisation_id', '=', organisationId)
    .$if(status !== undefined, (q) => q.where('status', '=', status as string))
    .where((eb) => eb.or([eb('latest_end', 'is', null), eb('latest_end', '>=', overlap.start)]))
    .$if(overlap.end !== null, (q) =>
      q.where((eb) =>
        eb.or([eb('earliest_start', 'is', null), eb('earliest_start', '<', overlap.end as string)]),
      ),
    )
}

/** Job ids (with their createdAt) of the day, from both sources, each newest first. */
function jobsOfDay(
  db: Executor,
  organisationId: string,
  overlap: Overlap,
  status: string | undefined,
  options: { after?: CursorPosition; take?: number },
) {
  const { after, take } = options
  const days = db
    .selectFrom('job_days')
    .select(['job_id as id', 'created_at'])
    .where('organisation_id', '=', organisationId)
    .where('day', '=', overlap.start.slice(0, 10))
    .$if(status !== undefined, (q) => q.where('status', '=', status as string))
    .$if(after !== undefined, (q) =>
      q.where((eb) =>
        eb(eb.refTuple('created_at', 'job_id'), '<', eb.tuple(after?.createdAt ?? '', after?.id ?? '')),
      ),
    )
    .orderBy('created_at', 'desc')
    .orderBy('job_id', 'desc')
    .$if(take !== undefined, (q) => q.limit(take as number))
  const long = longWindowsOverlapping(db, organisationId, overlap, status)
    .select(['job_id as id', 'created_at'])
    .$if(after !== undefined, (q) =>
      q.where((eb) =>
        eb(eb.refTuple('created_at', 'job_id'), '<', eb.tuple(after?.createdAt ?? '', after?.id ?? '')),
      ),
    )
    .orderBy('created_at', 'desc')
    .orderBy('job_id', 'desc')
    .$if(take !== undefined, (q) => q.limit(take as number))
  return db
    .selectFrom(days.as('d'))
    .selectAll()
    .unionAll(db.selectFrom(long.as('l')).selectAll())
}

/** Filters the day tables cannot apply: with any of them, every job of the day is checked. */
const joinedFilters = (filters: JobFilters) =>
  filters.priority !== undefined || filters.customerId !== undefined || filters.locationId !== undefined

interface Hit {
  id: string
  created_at: string
}

/** List order: createdAt descending, then id descending (both compare as strings). */
const newestFirst = (a: Hit, b: Hit) =>
  a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1

/**
 * The day's matching jobs as (id, createdAt), newest first. Without joined filters each source
 * needs to give at most `take` rows; with them, the day's jobs are checked against the filters by
 * primary key, reading two columns.
 */
async function hitsOfDay(
  db: Executor,
  organisationId: string,
  filters: JobFilters & { overlapping: Overlap },
  options: { after?: CursorPosition; take?: number },
): Promise<Hit[]> {
  const joined = joinedFilters(filters)
  const hits = (await jobsOfDay(db, organisationId, filters.overlapping, filters.status, {
    after: options.after,
    take: joined ? undefined : options.take,
  }).execute()) as Hit[]
  if (!joined || hits.length === 0) return hits.sort(newestFirst)
  const kept = new Set<string>()
  // A few thousand ids at most (one day's jobs); chunked to stay far below any bind-parameter limit.
  for (let i = 0; i < hits.length; i += 5000) {
    const rows = await db
      .selectFrom('jobs')
      .select('id')
      .where('organisation_id', '=', organisationId)
      .where(
        'id',
        'in',
        hits.slice(i, i + 5000).map((hit) => hit.id),
      )
      .where('deleted_at', 'is', null)
      .$if(filters.priority !== undefined, (q) => q.where('priority', '=', filters.priority ?? 'NORMAL'))
      .$if(filters.customerId !== undefined, (q) => q.where('customer_id', '=', filters.customerId ?? ''))
      .$if(filters.locationId !== undefined, (q) => q.where('location_id', '=', filters.locationId ?? ''))
      .execute()
    for (const row of rows) kept.add(row.id)
  }
  return hits.filter((hit) => kept.has(hit.id)).sort(newestFirst)
}

export async function listJobsOfDay(
  db: Executor,
  organisationId: string,
  filters: JobFilters & { overlapping: Overlap },
  page: { limit: number; offset: number; after?: CursorPosition },
): Promise<JobListedRow[]> {
  const hits = await hitsOfDay(db, organisationId, filters, {
    after: page.after,
    take: page.offset + page.limit,
  })
  const ids = hits.slice(page.offset, page.offset + page.limit).map((hit) => hit.id)
  if (ids.length === 0) return []
  const rows = (await selectJobs(db)
    .where('jobs.organisation_id', '=', organisationId)
    .where('jobs.id', 'in', ids)
    .execute()) as JobListedRow[]
  const byId = new Map(rows.map((row) => [row.id, row]))
  return ids.map((id) => byId.get(id)).filter((row): row is JobListedRow => row !== undefined)
}

export async function countJobsOfDay(
  db: Executor,
  organisationId: string,
  filters: JobFilters & { overlapping: Overlap },
): Promise<number> {
  if (joinedFilters(filters)) return (await hitsOfDay(db, organisationId, filters, {})).length
  const [counted, long] = await Promise.all([
    db
      .selectFrom('job_day_counts')
      .select((eb) => eb.fn.sum<number>('count').as('count'))
      .where('organisation_id', '=', organisationId)
      .where('day', '=', filters.overlapping.start.slice(0, 10))
      .where('status', '=', filters.status ?? '*')
      .executeTakeFirst(),
    longWindowsOverlapping(db, organisationId, filters.overlapping, filters.status)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return Number(counted?.count ?? 0) + Number(long.n)
}
