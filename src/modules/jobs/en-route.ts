// "On my way" (issue 29): the worker sets off to an ASSIGNED job. The lifecycle is unchanged (the
// status stays ASSIGNED); the job only records when, once. The tracking link and the JOB_EN_ROUTE
// event are the tracking module's, written in the same transaction.
import type { Transaction } from 'kysely'
import type { Database, JobRow } from '../../db/types.js'
import { AppError, notFound } from '../../http/errors.js'
import * as repository from './repository.js'
import { lockJob } from './service.js'

/**
 * Locks the worker's job and records `at` as its enRouteAt, the first time only. `first` is false
 * when it was already en route: a repeated "On my way" changes nothing. Anyone else's job is 404;
 * a job not ASSIGNED is 422 INVALID_TRANSITION.
 */
export async function markEnRoute(
  trx: Transaction<Database>,
  organisationId: string,
  id: string,
  assignee: string,
  at: string,
): Promise<{ job: JobRow; first: boolean }> {
  const job = await lockJob(trx, organisationId, id)
  if (job.assigned_user_id !== assignee) throw notFound('Job')
  if (job.status !== 'ASSIGNED') {
    throw new AppError('INVALID_TRANSITION', `Job is ${job.status}: only an ASSIGNED job can be on its way`)
  }
  if (job.en_route_at !== null) return { job, first: false }
  await repository.updateJob(trx, organisationId, id, { en_route_at: at, updated_at: at })
  return { job: { ...job, en_route_at: at, updated_at: at }, first: true }
}
