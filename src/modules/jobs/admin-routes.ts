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
  AssignmentCheckResponse,
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
type AssignErrorSpec =
  | 'INVALID_TRANSITION'
  | 'WORKER_ABSENT'
  | 'OVERLAP'
  | 'SKILL_MISSING'
  | 'CAPACITY_EXCEEDED'
  | readonly ['OUTSIDE_TIME_WINDOW' | 'OUTSIDE_SHIFT', string]
const ASSIGN_ERRORS = {
  ...TRANSITION_ERRORS,
  ...errorResponses<AssignErrorSpec>(
    'INVALID_TRANSITION',
    [
      'OUTSIDE_TIME_WINDOW',
      'The job has a HARD window and the scheduled visit falls outside [earliestStart, latestEnd]',
    ] as const,
    'WORKER_ABSENT',
    [
      'OUTSIDE_SHIFT',
      "The visit starts outside the shift's hours on its date, during one of its breaks (or the drive there " +
        'would), or on a date the shift does not run',
    ] as const,
    'OVERLAP',
    'SKILL_MISSING',
    'CAPACITY_EXCEEDED',
  ),
}
/** The assign body's own 400s and 404s, without the transition's or the rules' 422s. */
const CHECK_ERRORS = { ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS }
const ASSIGNMENT_RULES =
  'With a shift, the day is checked as a route plan would check it (the optimiser’s own feasibility ' +
  'checker, on the shift’s route of that date with the jobs already on it at their scheduled times and ' +
  'each visit lasting as scheduled): a visit starting outside the shift’s hours or in a break, or whose ' +
  'drive there from the previous stop would cut into a break → OUTSIDE_SHIFT; one the worker cannot reach ' +
  'after the previous visit (driving included) or that leaves too little time to reach the next → OVERLAP; ' +
  'a job tag the vehicle lacks → SKILL_MISSING; the day’s demands over the vehicle’s capacity → ' +
  'CAPACITY_EXCEEDED (only when the job has a demand in that dimension). Without a shift there is no vehicle ' +
  'and no hours: only the overlap with the worker’s other visits within 12 hours, the window and absences. ' +
  'Jobs without coordinates count no driving. Soft problems never refuse: SOFT_WINDOW_MISSED (a SOFT window ' +
  'missed), OVERTIME (the visit starts in the shift but it, or the way back to the start, ends after the ' +
  'shift, or reaching the first visit means leaving before the shift starts), IN_THE_PAST (it starts before ' +
  'now). Re-assigning a job never overlaps with itself.'
const EXTRAS_ERRORS = {
  ...COMMON_ERRORS,
  ...NOT_FOUND_ERROR,
  ...BODY_ERRORS,
  ...errorResponses('TERMINAL_STATE'),
}
const EVENTS =
  'Events carry jobId, title and the new status; STATUS_CHANGED adds previousStatus and changedAt.'

export const jobAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db, clock }) => {
  // The public API's job routes (list, get, create, update, delete), registered here too: the
  // dashboard works on jobs through the admin API, the only one a session may use. Its list also
  // searches titles.
  await app.register(jobRoutes, { db, search: true, clock })

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
          'overlapping the visit, in the shift’s depot calendar) is refused: 422 WORKER_ABSENT. The other ' +
          'HARD problems of POST /jobs/{id}/assignment-check refuse it too, with their code (the first found, ' +
          `in its order). ${ASSIGNMENT_RULES} Sets assignedUserId, shiftId, scheduledStart and scheduledEnd. ` +
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
        job: await dispatch.assignJob(
          db,
          request.auth.organisationId,
          request.params.id,
          request.body,
          clock,
        ),
      },
      message: SUCCESS,
    }),
  )

  app.post(
    '/jobs/:id/assignment-check',
    {
      schema: {
        operationId: 'checkJobAssignment',
        tags: ['Dispatch'],
        summary: 'Check an assignment before making it',
        description:
          'Takes the body of POST /jobs/{id}/assign (validated the same way: 400s for the user, the shift and ' +
          'the times) and answers every problem the assignment would have, HARD first, writing nothing. ' +
          'HARD problems are what assign refuses with 422 and the same code: OUTSIDE_TIME_WINDOW, ' +
          `WORKER_ABSENT, OUTSIDE_SHIFT, OVERLAP, SKILL_MISSING, CAPACITY_EXCEEDED. ${ASSIGNMENT_RULES} ` +
          'The job’s status is not checked (assign answers INVALID_TRANSITION for a finished job).',
        params: IdParams,
        body: AssignJobBody,
        response: { 200: AssignmentCheckResponse, ...CHECK_ERRORS },
      },
    },
    async (request) => ({
      data: {
        check: await dispatch.checkJobAssignment(
          db,
          request.auth.organisationId,
          request.params.id,
          request.body,
          clock,
        ),
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
          'submission answers it: else 422 FORM_REQUIRED, `details` naming each missing form. Then what ' +
          'the job and its form templates require (GET /jobs/{id}/completion): else 422 ' +
          'COMPLETION_REQUIREMENTS naming each missing signature, photo or notes; `notes` sent here count.',
        params: IdParams,
        body: CompleteJobBody,
        response: {
          200: JobResponse,
          ...TRANSITION_ERRORS,
          ...errorResponses(
            'INVALID_TRANSITION',
            'FORM_REQUIRED',
            'COMPLETION_REQUIREMENTS',
            'OUTSIDE_SHIFT',
          ),
        },
      },
      config: { optionalBody: true },
    },
    async (request) => ({
      data: {
        job: await dispatch.completeJob(db, request.auth.organisationId, request.params.id, undefined, {
          completedAt: request.body?.completedAt,
          notes: request.body?.notes,
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
