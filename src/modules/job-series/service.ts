// Recurring job series: a job template and an RFC 5545 rule (rules.ts). Writing one checks the
// template as POST /jobs checks a job (jobs/service.ts assertJobCreatable, its 400s moved under
// /body/job), stores the rule normalised, and generates the occurrences up to the horizon at once
// (generator.ts). Generated jobs are changed only through the jobs module's services, and only while
// CREATED: an ASSIGNED or later job is the dispatcher's, never changed by its series.
import type { Kysely } from 'kysely'
import { ambientDatabase, inAmbientTransactionOrJoin } from '../../db/ambient-transaction.js'
import { idsOf, newId, nowIso } from '../../db/ids.js'
import type { Database, TimeWindowType } from '../../db/types.js'
import { AppError, describeDetail, notFound, validationError } from '../../http/errors.js'
import { offsetOf, paginationOf } from '../../http/pagination.js'
import type { Pagination } from '../../http/schemas.js'
import { cancelJob, setJobDemands, setJobTags } from '../jobs/dispatch-service.js'
import { assertJobCreatable, updateJob } from '../jobs/service.js'
import { findCapacityDimensionsByIds, findTagsByIds } from '../reference-data/service.js'
import { generateSeries, jobBodyOf, seriesTimeZone, templateOf } from './generator.js'
import {
  isSeriesDate,
  jobWindowOf,
  localDateOf,
  nextOccurrences,
  type Occurrence,
  planOf,
  windowOfRow,
} from './occurrences.js'
import * as repository from './repository.js'
import { addDays, datesFrom, LOOKAHEAD_DAYS, parseRule, ruleText } from './rules.js'
import type {
  CreateSeriesBody,
  EndSeriesBody,
  JobTemplate,
  MoveOccurrenceBody,
  Occurrence as OccurrenceShape,
  Series,
  SeriesDetail,
  SeriesJob,
  SeriesJobsQuery,
  SeriesListed,
  SeriesListQuery,
  SeriesWindow,
  UpdateSeriesBody,
} from './schemas.js'

type Db = Kysely<Database>

/** What a series needs from the app: its clock and how far ahead occurrences become jobs. */
export interface SeriesContext {
  now: () => number
  horizonDays: number
}

const NEXT_OCCURRENCES = 5

/** 400s of the jobs module name /body/<field>; in a series the field is under /body/job. */
function underJob(error: unknown): unknown {
  if (!(error instanceof AppError) || error.code !== 'VALIDATION_ERROR' || !error.details) return error
  const details = error.details.map((d) => ({ ...d, path: d.path.replace(/^\/body\//, '/body/job/') }))
  const first = details[0] as (typeof details)[number]
  return new AppError('VALIDATION_ERROR', describeDetail(first), details)
}

function assertWindow(window: SeriesWindow | null | undefined, path: string): void {
  if (window && window.endTime <= window.startTime) {
    throw validationError(`${path}/endTime`, 'must be after startTime (the same day)')
  }
}

/** The template's tags and dimensions exist in the organisation (400 naming the first that does not). */
async function assertTemplateExtras(db: Db, organisationId: string, template: Partial<JobTemplate>) {
  const tagIds = template.tagIds ?? []
  const tags = idsOf(await findTagsByIds(db, organisationId, tagIds))
  const tag = tagIds.findIndex((id) => !tags.has(id))
  if (tag >= 0) {
    throw validationError(`/body/job/tagIds/${tag}`, `tag ${tagIds[tag]} does not exist in your organisation`)
  }
  const dimensionIds = (template.demands ?? []).map((demand) => demand.capacityDimensionId)
  const repeated = dimensionIds.findIndex((id, i) => dimensionIds.indexOf(id) !== i)
  if (repeated >= 0) {
    throw validationError(`/body/job/demands/${repeated}/capacityDimensionId`, 'appears more than once')
  }
  const dimensions = idsOf(await findCapacityDimensionsByIds(db, organisationId, dimensionIds))
  const missing = dimensionIds.findIndex((id) => !dimensions.has(id))
  if (missing >= 0) {
    throw validationError(
      `/body/job/demands/${missing}/capacityDimensionId`,
      `capacity dimension ${dimensionIds[missing]} does not exist in your organisation`,
    )
  }
}

/** The template checked as POST /jobs checks a job (its window aside), with its tags and demands. */
async function assertTemplate(db: Db, organisationId: string, template: JobTemplate): Promise<void> {
  const { tagIds: _tags, demands: _demands, ...fields } = template
  try {
    await db.transaction().execute((trx) => assertJobCreatable(trx, organisationId, fields))
  } catch (error) {
    throw underJob(error)
  }
  await assertTemplateExtras(db, organisationId, template)
}

/** The rule, refused when it has no occurrence within ten years of its start. */
function assertRule(text: string, startDate: string) {
  const rule = parseRule(text)
  if (datesFrom(rule, startDate, startDate, 1).length === 0) {
    throw validationError('/body/rrule', `has no occurrence within ten years of startDate ${startDate}`)
  }
  return rule
}

const windowColumns = (window: SeriesWindow | null | undefined) => ({
  window_start: window?.startTime ?? null,
  window_end: window?.endTime ?? null,
  window_type: (window?.type ?? null) as TimeWindowType | null,
})

function serializeSeries(row: repository.SeriesRow, timeZone: string): Series {
  const rule = parseRule(row.rrule)
  return {
    id: row.id,
    job: templateOf(row),
    rrule: rule.text,
    ruleText: ruleText(rule),
    startDate: row.start_date,
    endDate: row.end_date,
    window: windowOfRow(row),
    timeZone,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/**
 * `work` in one transaction that every service it calls joins (the request's own when it has one),
 * given the database as those services must see it inside.
 */
function atomically<T>(db: Db, work: (db: Db) => Promise<T>): Promise<T> {
  return inAmbientTransactionOrJoin(db, () => work(ambientDatabase(db)))
}

/** The series, locked for the rest of the transaction (repository.lockSeries), or 404. */
async function lockedSeriesRow(db: Db, organisationId: string, id: string): Promise<repository.SeriesRow> {
  const row = await repository.lockSeries(db, organisationId, id)
  if (!row) throw notFound('Job series')
  return row
}

async function findSeriesRow(db: Db, organisationId: string, id: string): Promise<repository.SeriesRow> {
  const row = await repository.findSeries(db, organisationId, id)
  if (!row) throw notFound('Job series')
  return row
}

export async function createSeries(
  db: Db,
  organisationId: string,
  input: CreateSeriesBody,
  context: SeriesContext,
): Promise<SeriesDetail> {
  return atomically(db, async (db) => {
    const rule = assertRule(input.rrule, input.startDate)
    assertWindow(input.window, '/body/window')
    await assertTemplate(db, organisationId, input.job)
    const now = nowIso()
    const row: repository.SeriesRow = {
      id: newId(),
      organisation_id: organisationId,
      template: JSON.stringify(input.job),
      rrule: rule.text,
      start_date: input.startDate,
      end_date: null,
      ...windowColumns(input.window),
      created_at: now,
      updated_at: now,
    }
    await repository.insertSeries(db, row)
    await generateSeries(db, row, context.now(), context.horizonDays)
    return getSeries(db, organisationId, row.id, context)
  })
}

export async function listSeries(
  db: Db,
  organisationId: string,
  query: SeriesListQuery,
  context: SeriesContext,
): Promise<{ series: SeriesListed[]; pagination: Pagination }> {
  const { rows, total } = await repository.listSeries(db, organisationId, {
    limit: query.limit,
    offset: offsetOf(query),
  })
  const series: SeriesListed[] = []
  for (const row of rows) {
    const timeZone = await seriesTimeZone(db, row)
    series.push({ ...serializeSeries(row, timeZone), nextDate: await nextDateOf(db, row, timeZone, context) })
  }
  return { series, pagination: paginationOf(query, total) }
}

/**
 * The date the series' next occurrence from today happens on: skipped ones passed over, a moved one
 * on its new date (one moved before today is passed over too). Null when none is left.
 */
async function nextDateOf(
  db: Db,
  row: repository.SeriesRow,
  timeZone: string,
  context: SeriesContext,
): Promise<string | null> {
  const today = localDateOf(context.now(), timeZone)
  const exceptions = await repository.listExceptions(db, row.organisation_id, row.id)
  // Enough occurrences that a run of skipped ones still leaves one to show.
  const upcoming = nextOccurrences(planOf(row), exceptions, today, exceptions.length + NEXT_OCCURRENCES)
  const dates = upcoming.filter((o) => !o.skipped && o.onDate >= today).map((o) => o.onDate)
  return dates.sort()[0] ?? null
}

/** The series' generated jobs, latest occurrence first (404 for another organisation's series). */
export async function listSeriesJobs(
  db: Db,
  organisationId: string,
  id: string,
  query: SeriesJobsQuery,
): Promise<{ jobs: SeriesJob[]; pagination: Pagination }> {
  await findSeriesRow(db, organisationId, id)
  const { rows, total } = await repository.listSeriesJobs(db, organisationId, id, {
    limit: query.limit,
    offset: offsetOf(query),
  })
  const jobs = rows.map((row) => ({
    id: row.id,
    number: `J-${row.number}`,
    title: row.title,
    status: row.status,
    occurrenceDate: row.occurrence_date,
    earliestStart: row.earliest_start,
    latestEnd: row.latest_end,
    timeWindowType: row.time_window_type,
  }))
  return { jobs, pagination: paginationOf(query, total) }
}

function occurrenceShape(occurrence: Occurrence, jobId: string | null): OccurrenceShape {
  return {
    date: occurrence.date,
    movedTo: occurrence.onDate === occurrence.date ? null : occurrence.onDate,
    skipped: occurrence.skipped,
    jobId,
  }
}

export async function getSeries(
  db: Db,
  organisationId: string,
  id: string,
  context: SeriesContext,
): Promise<SeriesDetail> {
  const row = await findSeriesRow(db, organisationId, id)
  const timeZone = await seriesTimeZone(db, row)
  const exceptions = await repository.listExceptions(db, organisationId, id)
  const next = nextOccurrences(
    planOf(row),
    exceptions,
    localDateOf(context.now(), timeZone),
    NEXT_OCCURRENCES,
  )
  const jobs = await repository.listOccurrenceJobs(
    db,
    organisationId,
    id,
    next.map((o) => o.date),
  )
  const jobOf = new Map(jobs.filter((job) => !job.deleted).map((job) => [job.occurrence_date, job.id]))
  return {
    ...serializeSeries(row, timeZone),
    nextOccurrences: next.map((o) => occurrenceShape(o, jobOf.get(o.date) ?? null)),
  }
}

/** The series' generated jobs still CREATED whose occurrence happens on or after `today`. */
async function futureCreatedJobs(db: Db, row: repository.SeriesRow, timeZone: string, today: string) {
  const jobs = await repository.listOccurrenceJobs(db, row.organisation_id, row.id)
  return jobs.filter(
    (job) =>
      !job.deleted &&
      job.status === 'CREATED' &&
      job.earliest_start !== null &&
      localDateOf(Date.parse(job.earliest_start), timeZone) >= today,
  )
}

export async function updateSeries(
  db: Db,
  organisationId: string,
  id: string,
  input: UpdateSeriesBody,
  context: SeriesContext,
): Promise<SeriesDetail> {
  return atomically(db, async (db) => {
    const row = await lockedSeriesRow(db, organisationId, id)
    const startDate = input.startDate ?? row.start_date
    const rule =
      input.rrule !== undefined || input.startDate !== undefined
        ? assertRule(input.rrule ?? row.rrule, startDate)
        : parseRule(row.rrule)
    assertWindow(input.window, '/body/window')
    const template: JobTemplate = { ...templateOf(row), ...(input.job ?? {}) }
    if (input.job !== undefined) await assertTemplate(db, organisationId, template)
    const window = input.window !== undefined ? input.window : windowOfRow(row)
    const updated: repository.SeriesRow = {
      ...row,
      template: JSON.stringify(template),
      rrule: rule.text,
      start_date: startDate,
      ...windowColumns(window),
      updated_at: nowIso(),
    }
    const { id: _id, organisation_id: _org, created_at: _created, ...changes } = updated
    await repository.updateSeries(db, organisationId, id, changes)
    if (input.applyTo === 'FUTURE_JOBS') await applyToFutureJobs(db, updated, input, context)
    await generateSeries(db, updated, context.now(), context.horizonDays)
    return getSeries(db, organisationId, id, context)
  })
}

/**
 * The series' CREATED jobs from today on take its template and window (JOB_UPDATED when something
 * really changes); an occurrence no longer in the rule is cancelled.
 */
async function applyToFutureJobs(
  db: Db,
  row: repository.SeriesRow,
  input: UpdateSeriesBody,
  context: SeriesContext,
): Promise<void> {
  const timeZone = await seriesTimeZone(db, row)
  const today = localDateOf(context.now(), timeZone)
  const plan = planOf(row)
  const exceptions = new Map(
    (await repository.listExceptions(db, row.organisation_id, row.id)).map((e) => [e.occurrence_date, e]),
  )
  const template = templateOf(row)
  for (const job of await futureCreatedJobs(db, row, timeZone, today)) {
    if (!isSeriesDate(plan, job.occurrence_date)) {
      await cancelJob(db, row.organisation_id, job.id, { reason: 'No longer an occurrence of its series' })
      continue
    }
    const exception = exceptions.get(job.occurrence_date)
    const occurrence: Occurrence = {
      date: job.occurrence_date,
      onDate: exception?.moved_to ?? job.occurrence_date,
      skipped: false,
      window: (exception && windowOfRow(exception)) ?? plan.window,
    }
    await updateJob(db, row.organisation_id, job.id, jobBodyOf(template, occurrence, timeZone))
    if (input.job?.tagIds !== undefined) {
      await setJobTags(db, row.organisation_id, job.id, { tagIds: input.job.tagIds })
    }
    if (input.job?.demands !== undefined) {
      await setJobDemands(db, row.organisation_id, job.id, { demands: input.job.demands })
    }
  }
}

/** No occurrence after `lastDate`; the CREATED jobs of later occurrences are cancelled. */
export async function endSeries(
  db: Db,
  organisationId: string,
  id: string,
  input: EndSeriesBody,
  context: SeriesContext,
): Promise<SeriesDetail> {
  return atomically(db, async (db) => {
    const row = await lockedSeriesRow(db, organisationId, id)
    if (input.lastDate < row.start_date) {
      throw validationError('/body/lastDate', `must be on or after the series' startDate ${row.start_date}`)
    }
    await repository.updateSeries(db, organisationId, id, { end_date: input.lastDate, updated_at: nowIso() })
    for (const job of await repository.listOccurrenceJobs(db, organisationId, id)) {
      if (job.deleted || job.status !== 'CREATED' || job.occurrence_date <= input.lastDate) continue
      await cancelJob(db, organisationId, job.id, { reason: `The series ended on ${input.lastDate}` })
    }
    return getSeries(db, organisationId, id, context)
  })
}

/**
 * The series and its occurrence of `date` (404 OCCURRENCE_NOT_FOUND when the rule has none then).
 * Dates more than ten years ahead are not looked for: rrule walks every period up to the date.
 */
async function occurrenceOf(db: Db, organisationId: string, id: string, date: string, now: number) {
  const row = await lockedSeriesRow(db, organisationId, id)
  const plan = planOf(row)
  const furthest = addDays(new Date(now).toISOString().slice(0, 10), LOOKAHEAD_DAYS)
  if (date > furthest) {
    throw new AppError(
      'OCCURRENCE_NOT_FOUND',
      `${date} is more than ten years ahead: occurrences are looked up until ${furthest}`,
    )
  }
  if (!isSeriesDate(plan, date)) {
    throw new AppError('OCCURRENCE_NOT_FOUND', `${date} is not an occurrence of this series`)
  }
  const [job] = (await repository.listOccurrenceJobs(db, organisationId, id, [date])).filter(
    (j) => !j.deleted,
  )
  return { row, plan, job }
}

function assertNotDispatched(job: repository.OccurrenceJobRow | undefined, allowCancelled: boolean): void {
  if (!job || job.status === 'CREATED' || (allowCancelled && job.status === 'CANCELLED')) return
  throw new AppError(
    'OCCURRENCE_DISPATCHED',
    `The occurrence's job is ${job.status}: a series never changes it; change the job itself`,
  )
}

/** The occurrence is not to happen: its CREATED job is cancelled, and it is never generated again. */
export async function skipOccurrence(
  db: Db,
  organisationId: string,
  id: string,
  date: string,
  context: SeriesContext,
): Promise<OccurrenceShape> {
  return atomically(db, async (db) => {
    const { job } = await occurrenceOf(db, organisationId, id, date, context.now())
    assertNotDispatched(job, true)
    await repository.upsertException(db, {
      organisation_id: organisationId,
      series_id: id,
      occurrence_date: date,
      kind: 'SKIP',
      moved_to: null,
      ...windowColumns(null),
      created_at: nowIso(),
    })
    if (job?.status === 'CREATED') {
      await cancelJob(db, organisationId, job.id, { reason: `Occurrence ${date} of its series skipped` })
    }
    return { date, movedTo: null, skipped: true, jobId: job?.id ?? null }
  })
}

/** The occurrence happens on another date (and window); its CREATED job moves with it. */
export async function moveOccurrence(
  db: Db,
  organisationId: string,
  id: string,
  date: string,
  input: MoveOccurrenceBody,
  context: SeriesContext,
): Promise<OccurrenceShape> {
  return atomically(db, async (db) => {
    assertWindow(input.window, '/body/window')
    const { row, plan, job } = await occurrenceOf(db, organisationId, id, date, context.now())
    assertNotDispatched(job, false)
    const exception = {
      organisation_id: organisationId,
      series_id: id,
      occurrence_date: date,
      kind: 'MOVE' as const,
      moved_to: input.date,
      ...windowColumns(input.window),
      created_at: nowIso(),
    }
    await repository.upsertException(db, exception)
    if (job) {
      const timeZone = await seriesTimeZone(db, row)
      const window = jobWindowOf(input.date, input.window ?? plan.window, timeZone)
      await updateJob(db, organisationId, job.id, window)
    } else {
      await generateSeries(db, row, context.now(), context.horizonDays)
    }
    const [made] = (await repository.listOccurrenceJobs(db, organisationId, id, [date])).filter(
      (j) => !j.deleted,
    )
    return { date, movedTo: input.date, skipped: false, jobId: made?.id ?? null }
  })
}
