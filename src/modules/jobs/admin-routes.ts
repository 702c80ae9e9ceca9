import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  BODY_ERRORS,
  COMMON_ERRORS,
  errorResponses,
  IdParams,
  NOT_FOUND_ERROR,
  SUCCESS,
} from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import {
  AssignJobBody,
  CancelJobBody,
  CompleteJobBody,
  JobDemandsBody,
  JobTagsBody,
  NoInputBody,
  StartJobBody,
} from './admin-schemas.js'
import * as dispatch from './dispatch-service.js'
import { jobRoutes } from './routes.js'
import { JobResponse } from './schemas.js'

const TRANSITION_ERRORS = {
  ...COMMON_ERRORS,
  ...NOT_FOUND_ERROR,
  ...BODY_ERRORS,
  ...errorResponses('INVALID_TRANSITION'),
}
const ASSIGN_ERRORS = {
  ...TRANSITION_ERRORS,
  ...errorResponses<'INVALID_TRANSITION' | 'WORKER_ABSENT' | readonly ['OUTSIDE_TIME_WINDOW', string]>(
    'INVALID_TRANSITION',
    [
      'OUTSIDE_TIME_WINDOW',
      'The job has a HARD window and the scheduled visit falls outside [earliestStart, latestEnd]',
    ] as const,
    'WORKER_ABSENT',
  ),
}
const EXTRAS_ERRORS = {
  ...COMMON_ERRORS,
  ...NOT_FOUND_ERROR,
  ...BODY_ERRORS,
  ...errorResponses('TERMINAL_STATE'),
}
const EVENTS =
  'Events carry jobId, title and the new status; STATUS_CHANGED adds previousStatus and changedAt.'

export const jobAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  // The public API's job routes (list, get, create, update, delete), registered here too: the
  // dashboard works on jobs through the admin API, the only one a session may use. Its list also
  // searches titles.
  await app.register(jobRoutes, { db, search: true })

  app.put(
    '/jobs/:id/tags',
    {
      schema: {
        operationId: 'replaceJobTags',
        tags: ['Dispatch'],
        summary: "Replace a job's tags",
        description:
          'Sets the complete list of tags (an empty list removes them all). Each tag must exist in your ' +
          'organisation: 400 at /body/tagIds/N otherwise. updatedAt moves, and JOB_UPDATED { changes.tags } ' +
          'is emitted, only when the set changes.',
        params: IdParams,
        body: JobTagsBody,
        response: { 200: JobResponse, ...EXTRAS_ERRORS },
      },
    },
    async (request) => ({
      data: {
        job: await dispatch.setJobTags(db, request.auth.organisationId, request.params.id, request.body),
      },
      message: SUCCESS,
    }),
  )

  app.put(
    '/jobs/:id/demands',
    {
      schema: {
        operationId: 'replaceJobDemands',
        tags: ['Dispatch'],
        summary: "Replace a job's capacity demands",
        description:
          'Sets the complete list of demands (an empty list removes them all), one per capacity dimension; ' +
          'each dimension must exist in your organisation: 400 at /body/demands/N/capacityDimensionId ' +
          'otherwise. updatedAt moves, and JOB_UPDATED { changes.demands } is emitted, only when the set changes.',
        params: IdParams,
        body: JobDemandsBody,
        response: { 200: JobResponse, ...EXTRAS_ERRORS },
      },
    },
    async (request) => ({
      data: {
        job: await dispatch.setJobDemands(db, request.auth.organisationId, request.params.id, request.body),
      },
      message: SUCCESS,
    }),
  )

  app.post(
    '/jobs/:id/assign',
    {
      schema: {
        operationId: 'assignJob',
        tags: ['Dispatch'],
        summary: 'Assign a job to a worker',
        description:
          'CREATED → ASSIGNED; an ASSIGNED job may be re-assigned or re-scheduled the same way. The user ' +
          'must be active (400 at /body/userId); a shift must belong to that user and its vehicle must be ' +
          'active (400 at /body/shiftId). A job with a HARD time window must be scheduled within ' +
          '[earliestStart, latestEnd] (422 OUTSIDE_TIME_WINDOW; a missing bound is open); a SOFT one may be ' +
          'scheduled outside it. A worker away then (an absence covering the date, or a part-day one ' +
          'overlapping the visit, in the shift’s depot calendar) is refused: 422 WORKER_ABSENT. Sets assignedUserId, shiftId, scheduledStart and scheduledEnd. ' +
          'Emits JOB_ASSIGNED { customerId, assignedUserId, shiftId, scheduledStart, scheduledEnd }, and ' +
          'STATUS_CHANGED when the status moves; re-assigning to another worker emits JOB_UNASSIGNED for ' +
          'the previous one first (no STATUS_CHANGED); sending the current assignment again changes ' +
          `nothing. ${EVENTS}`,
        params: IdParams,
        body: AssignJobBody,
        response: { 200: JobResponse, ...ASSIGN_ERRORS },
      },
    },
    async (request) => ({
      data: {
        job: await dispatch.assignJob(db, request.auth.organisationId, request.params.id, request.body),
      },
      message: SUCCESS,
    }),
  )

  app.post(
    '/jobs/:id/unassign',
    {
      schema: {
        operationId: 'unassignJob',
        tags: ['Dispatch'],
        summary: 'Take a job back from its worker',
        description:
          'ASSIGNED → CREATED; clears assignedUserId, shiftId and the scheduled window. Emits ' +
          `JOB_UNASSIGNED { previousAssignedUserId } and STATUS_CHANGED. ${EVENTS}`,
        params: IdParams,
        body: NoInputBody,
        response: { 200: JobResponse, ...TRANSITION_ERRORS },
      },
      config: { optionalBody: true },
    },
    async (request) => ({
      data: { job: await dispatch.unassignJob(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )

  app.post(
    '/jobs/:id/start',
    {
      schema: {
        operationId: 'startJob',
        tags: ['Dispatch'],
        summary: 'Start a job',
        description:
          'ASSIGNED → IN_PROGRESS; sets startedAt to now, or to the `startedAt` sent (when the worker ' +
          'started: work recorded late), and startRecordedAt to now. Emits STATUS_CHANGED (changedAt: ' +
          `startedAt). ${EVENTS}`,
        params: IdParams,
        body: StartJobBody,
        response: {
          200: JobResponse,
          ...TRANSITION_ERRORS,
          ...errorResponses('INVALID_TRANSITION', 'OUTSIDE_SHIFT'),
        },
      },
      config: { optionalBody: true },
    },
    async (request) => ({
      data: {
        job: await dispatch.startJob(db, request.auth.organisationId, request.params.id, undefined, {
          startedAt: request.body?.startedAt,
        }),
      },
      message: SUCCESS,
    }),
  )

  app.post(
    '/jobs/:id/complete',
    {
      schema: {
        operationId: 'completeJob',
        tags: ['Dispatch'],
        summary: 'Complete a job',
        description:
          'IN_PROGRESS → COMPLETED; sets completedAt to now (or to the `completedAt` sent: when it was ' +
          'completed, work recorded late), completeRecordedAt to now, and actualDuration to the whole ' +
          'seconds from startedAt to completedAt. The job is read-only from then on. Emits JOB_COMPLETED ' +
          '(data exactly as spec §6: jobId, title, status, customerId, assignedUserId, completedAt) and ' +
          `STATUS_CHANGED, both with the completion's time (completedAt, changedAt). ${EVENTS} ` +
          'A job that needs an active form template (all jobs, or jobs with its tag) is completed only once a ' +
          'submission answers it: else 422 FORM_REQUIRED, `details` naming each missing form.',
        params: IdParams,
        body: CompleteJobBody,
        response: {
          200: JobResponse,
          ...TRANSITION_ERRORS,
          ...errorResponses('INVALID_TRANSITION', 'FORM_REQUIRED', 'OUTSIDE_SHIFT'),
        },
      },
      config: { optionalBody: true },
    },
    async (request) => ({
      data: {
        job: await dispatch.completeJob(db, request.auth.organisationId, request.params.id, undefined, {
          completedAt: request.body?.completedAt,
        }),
      },
      message: SUCCESS,
    }),
  )

  app.post(
    '/jobs/:id/cancel',
    {
      schema: {
        operationId: 'cancelJob',
        tags: ['Dispatch'],
        summary: 'Cancel a job',
        description:
          'CREATED, ASSIGNED or IN_PROGRESS → CANCELLED; the assignment is kept for the record and the job ' +
          'is read-only from then on. Emits JOB_CANCELLED { customerId, assignedUserId, previousStatus, ' +
          `cancelledAt, reason } and STATUS_CHANGED. ${EVENTS}`,
        params: IdParams,
        body: CancelJobBody,
        response: { 200: JobResponse, ...TRANSITION_ERRORS },
      },
      config: { optionalBody: true },
    },
    async (request) => ({
      data: {
        job: await dispatch.cancelJob(db, request.auth.organisationId, request.params.id, request.body),
      },
      message: SUCCESS,
    }),
  )
}
