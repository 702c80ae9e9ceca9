import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { RouteOptions } from '../../http/route-options.js'
import {
  BODY_ERRORS,
  BUSINESS_ERROR,
  COMMON_ERRORS,
  IdParams,
  NOT_FOUND_ERROR,
  SUCCESS,
} from '../../http/schemas.js'
import { AssignJobBody, CancelJobBody, JobDemandsBody, JobTagsBody, NoInputBody } from './admin-schemas.js'
import * as dispatch from './admin-service.js'
import { JobResponse } from './schemas.js'

const TRANSITION_ERRORS = {
  ...COMMON_ERRORS,
  ...NOT_FOUND_ERROR,
  ...BODY_ERRORS,
  ...BUSINESS_ERROR('The job is not in a status this action applies to (INVALID_TRANSITION)'),
}
const EXTRAS_ERRORS = {
  ...COMMON_ERRORS,
  ...NOT_FOUND_ERROR,
  ...BODY_ERRORS,
  ...BUSINESS_ERROR('Job is COMPLETED or CANCELLED (TERMINAL_STATE)'),
}
const EVENTS =
  'Events carry jobId, title and the new status; STATUS_CHANGED adds previousStatus and changedAt.'

export const jobAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  app.put(
    '/jobs/:id/tags',
    {
      schema: {
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
        tags: ['Dispatch'],
        summary: 'Assign a job to a worker',
        description:
          'CREATED → ASSIGNED; an ASSIGNED job may be re-assigned or re-scheduled the same way. The user ' +
          'must be active (400 at /body/userId); a shift must belong to that user and its vehicle must be ' +
          'active (400 at /body/shiftId). Sets assignedUserId, shiftId, scheduledStart and scheduledEnd. ' +
          'Emits JOB_ASSIGNED { customerId, assignedUserId, shiftId, scheduledStart, scheduledEnd }, and ' +
          'STATUS_CHANGED when the status moves; re-assigning to another worker emits JOB_UNASSIGNED for ' +
          'the previous one first (no STATUS_CHANGED); sending the current assignment again changes ' +
          `nothing. ${EVENTS}`,
        params: IdParams,
        body: AssignJobBody,
        response: { 200: JobResponse, ...TRANSITION_ERRORS },
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
        tags: ['Dispatch'],
        summary: 'Start a job',
        description: `ASSIGNED → IN_PROGRESS; sets startedAt to now. Emits STATUS_CHANGED. ${EVENTS}`,
        params: IdParams,
        body: NoInputBody,
        response: { 200: JobResponse, ...TRANSITION_ERRORS },
      },
      config: { optionalBody: true },
    },
    async (request) => ({
      data: { job: await dispatch.startJob(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )

  app.post(
    '/jobs/:id/complete',
    {
      schema: {
        tags: ['Dispatch'],
        summary: 'Complete a job',
        description:
          'IN_PROGRESS → COMPLETED; sets completedAt to now and actualDuration to the whole seconds since ' +
          'startedAt. The job is read-only from then on. Emits JOB_COMPLETED (data exactly as spec §6: ' +
          `jobId, title, status, customerId, assignedUserId, completedAt) and STATUS_CHANGED. ${EVENTS}`,
        params: IdParams,
        body: NoInputBody,
        response: { 200: JobResponse, ...TRANSITION_ERRORS },
      },
      config: { optionalBody: true },
    },
    async (request) => ({
      data: { job: await dispatch.completeJob(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )

  app.post(
    '/jobs/:id/cancel',
    {
      schema: {
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
