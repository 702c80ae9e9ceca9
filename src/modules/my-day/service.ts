// The signed-in user's own jobs. Every read and action is scoped by organisation AND assignee: a job
// of another worker (or of another organisation) is not found, exactly like a missing one.
import type { Kysely } from 'kysely'
import type { Database, Executor } from '../../db/types.js'
import { storedBound } from '../../db/values.js'
import { AppError, notFound } from '../../http/errors.js'
import {
  assertAnswersFit,
  findFormTemplate,
  submissionsByTemplate,
  templatesNeededBy,
} from '../form-templates/service.js'
import type { FormSubmission } from '../forms/schemas.js'
import { recordFormSubmission } from '../forms/service.js'
import { completeJob, type HappenedBody, startJob } from '../jobs/dispatch-service.js'
import { lockJob } from '../jobs/service.js'
import { myDayEtas } from '../live/service.js'
import { absencesOfDate } from '../shifts/absences-service.js'
import { DAY, localTime } from '../shifts/zoned-time.js'
import { setOff } from '../tracking/service.js'
import { type MyJobRow, selectMyJobs, tagsOf } from './repository.js'
import type { MyJob } from './schemas.js'

const TERMINAL = new Set(['COMPLETED', 'CANCELLED'])

type Etas = Awaited<ReturnType<typeof myDayEtas>>

async function shape(
  db: Executor,
  organisationId: string,
  rows: MyJobRow[],
  etas: Etas = new Map(),
): Promise<MyJob[]> {
  const tags = await tagsOf(
    db,
    organisationId,
    rows.map((row) => row.id),
  )
  return Promise.all(
    rows.map(async (row, i) => {
      const [needed, submitted] = await Promise.all([
        templatesNeededBy(db, organisationId, row.id),
        submissionsByTemplate(db, organisationId, row.id),
      ])
      const ownPlace = row.job_latitude !== null && row.job_longitude !== null
      return {
        id: row.id,
        sequence: i + 1,
        title: row.title,
        description: row.description,
        status: row.status,
        priority: row.priority,
        tags: tags.get(row.id) ?? [],
        serviceDuration: row.service_duration,
        timeWindowType: row.time_window_type,
        earliestStart: row.earliest_start,
        latestEnd: row.latest_end,
        scheduledStart: row.scheduled_start,
        scheduledEnd: row.scheduled_end,
        startedAt: row.started_at,
        completedAt: row.completed_at,
        eta: etas.get(row.id)?.eta ?? null,
        expectedStart: etas.get(row.id)?.expectedStart ?? null,
        risk: etas.get(row.id)?.risk ?? null,
        enRouteAt: row.en_route_at,
        timeZone: row.depot_timezone ?? 'UTC',
        number: `J-${row.number}`,
        address: row.address,
        customer:
          row.customer_id && row.customer_name !== null
            ? {
                id: row.customer_id,
                name: row.customer_name,
                address: row.customer_address ?? '',
                phone: row.customer_phone,
                email: row.customer_email,
                notes: row.customer_notes,
              }
            : null,
        latitude: ownPlace ? row.job_latitude : (row.customer_latitude ?? null),
        longitude: ownPlace ? row.job_longitude : (row.customer_longitude ?? null),
        depot:
          row.depot_id && row.depot_name !== null
            ? {
                id: row.depot_id,
                name: row.depot_name,
                latitude: row.depot_latitude as string,
                longitude: row.depot_longitude as string,
              }
            : null,
        forms: needed.map((template) => ({ template, submission: submitted.get(template.id) ?? null })),
      } as MyJob
    }),
  )
}

/** The user's jobs scheduled on `date` (each on its depot's clock), in visiting order. */
export async function myDay(
  db: Executor,
  organisationId: string,
  userId: string,
  date: string,
  now: number,
): Promise<MyJob[]> {
  const dayUtc = Date.parse(`${date}T00:00:00.000Z`)
  // Every zone's day lies within a day and a half of the UTC one.
  const rows = await selectMyJobs(db, organisationId, userId)
    .where('jobs.scheduled_start', '>=', storedBound(dayUtc - 0.6 * DAY))
    .where('jobs.scheduled_start', '<', storedBound(dayUtc + 1.6 * DAY))
    .orderBy('jobs.scheduled_start')
    .orderBy('jobs.id')
    .execute()
  const onDate = rows.filter((row) => {
    const zone = row.depot_timezone ?? 'UTC'
    const at = Date.parse(row.scheduled_start as string)
    return at >= localTime(dayUtc, 0, zone) && at < localTime(dayUtc + DAY, 0, zone)
  })
  return shape(db, organisationId, onDate, await myDayEtas(db, organisationId, userId, date, now))
}

/** One of the user's jobs (its sequence among that day's jobs), or 404. */
export async function myJob(
  db: Executor,
  organisationId: string,
  userId: string,
  id: string,
  now: number,
): Promise<MyJob> {
  const row = await selectMyJobs(db, organisationId, userId).where('jobs.id', '=', id).executeTakeFirst()
  if (!row) throw notFound('Job')
  const [job] = await shape(db, organisationId, [row])
  if (row.scheduled_start === null) return job as MyJob
  const zone = row.depot_timezone ?? 'UTC'
  const local = new Intl.DateTimeFormat('en-CA', { timeZone: zone, dateStyle: 'short' }).format(
    new Date(row.scheduled_start),
  )
  const day = await myDay(db, organisationId, userId, local, now)
  return day.find((j) => j.id === id) ?? (job as MyJob)
}

/** `body.startedAt`: when the worker started, if the phone sends it (done offline, sent later). */
export async function startMyJob(
  db: Kysely<Database>,
  organisationId: string,
  userId: string,
  id: string,
  now: number,
  body: HappenedBody = {},
) {
  await startJob(db, organisationId, id, userId, body)
  return myJob(db, organisationId, userId, id, now)
}

export async function completeMyJob(
  db: Kysely<Database>,
  organisationId: string,
  userId: string,
  id: string,
  now: number,
  body: HappenedBody = {},
) {
  await completeJob(db, organisationId, id, userId, body)
  return myJob(db, organisationId, userId, id, now)
}

/**
 * "On my way" to one of the user's ASSIGNED jobs: enRouteAt, the tracking link and JOB_EN_ROUTE the
 * first time; again, nothing changes (tracking/service.ts).
 */
export async function setOffToMyJob(
  db: Kysely<Database>,
  organisationId: string,
  userId: string,
  id: string,
  publicBaseUrl: string,
  at: string,
) {
  await setOff(db, organisationId, userId, id, publicBaseUrl, at)
  return myJob(db, organisationId, userId, id, Date.parse(at))
}

/** A form of the user's job, answered against its template; FORM_SUBMITTED with the worker as submitter. */
export async function submitMyForm(
  db: Kysely<Database>,
  organisationId: string,
  userId: string,
  jobId: string,
  templateId: string,
  answers: Record<string, string | number | boolean>,
): Promise<FormSubmission> {
  return db.transaction().execute(async (trx) => {
    const job = await lockJob(trx, organisationId, jobId)
    if (job.assigned_user_id !== userId) throw notFound('Job')
    const template = await findFormTemplate(trx, organisationId, templateId)
    if (!template) throw notFound('Form template')
    if (TERMINAL.has(job.status)) {
      throw new AppError('TERMINAL_STATE', `Job is ${job.status}: its forms can no longer be filled in here`)
    }
    assertAnswersFit(template, answers)
    return recordFormSubmission(trx, organisationId, job, {
      form: template.name,
      answers: JSON.stringify(answers),
      submittedByUserId: userId,
      templateId: template.id,
    })
  })
}

/** A worker reads their own absences here (never through the admin API): off when away all day. */
export async function myAbsences(db: Executor, organisationId: string, userId: string, date: string) {
  const absences = await absencesOfDate(db, organisationId, userId, date)
  return { off: absences.some((a) => a.startTime === null), absences }
}
