import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { type Clock, systemClock } from '../../clock.js'
import type { Database } from '../../db/types.js'
import type { Precondition } from '../../http/etags.js'
import {
  BODY_ERRORS,
  COMMON_ERRORS,
  errorResponses,
  IdParams,
  NOT_FOUND_ERROR,
  SUCCESS,
} from '../../http/schemas.js'
import { CreateJobOrBookingBody } from '../bookings/schemas.js'
import { bookJob } from '../bookings/service.js'
import {
  AdminJobListQuery,
  DeletedJobResponse,
  JobListQuery,
  JobListResponse,
  JobResponse,
  UpdateJobBody,
} from './schemas.js'
import * as jobs from './service.js'

/** `search`: the admin API's list also takes `search` (titles); the public API's does not. */
const EXTERNAL_ID_TAKEN = errorResponses(['CONFLICT', 'Another job of your organisation has this externalId'])

export const jobRoutes: FastifyPluginAsyncTypebox<{
  db: Kysely<Database>
  search?: boolean
  clock?: Clock
}> = async (app, { db, search = false, clock = systemClock }) => {
  app.get(
    '/jobs',
    {
      schema: {
        operationId: 'listJobs',
        tags: ['Jobs'],
        summary: 'List jobs',
        description:
          'Newest first; with `updatedSince`, oldest change first (a change feed: see docs/integrators.md). ' +
          'Deleted jobs are never listed or counted: GET /events has their JOB_DELETED.' +
          (search ? ' `search` matches the title, ignoring case.' : ''),
        querystring: search ? AdminJobListQuery : JobListQuery,
        response: { 200: JobListResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await jobs.listJobs(db, request.auth.organisationId, request.query, app.changeSettleMs),
      message: SUCCESS,
    }),
  )

  const precondition: Precondition = {
    table: 'jobs',
    schema: JobResponse,
    current: async (request: FastifyRequest<{ Params: { id: string } }>) => ({
      job: await jobs.getJob(db, request.auth.organisationId, request.params.id),
    }),
  }

  app.get(
    '/jobs/:id',
    {
      config: { etag: {} },
      schema: {
        operationId: 'getJob',
        tags: ['Jobs'],
        summary: 'Get a job',
        description: 'The single-job shape: customer with address and coordinates, tags, demands, shift.',
        params: IdParams,
        response: { 200: JobResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: { job: await jobs.getJob(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )

  app.post(
    '/jobs',
    {
      config: { etag: {} },
      schema: {
        operationId: 'createJob',
        tags: ['Jobs'],
        summary: 'Create a job',
        description:
          'New jobs have status CREATED. customerId and locationId must exist in your organisation. ' +
          'Emits the JOB_CREATED webhook. With a `bookingToken` from POST /availability, books that window: ' +
          'the job is created and assigned to the offered worker in one transaction (JOB_CREATED, then ' +
          'JOB_ASSIGNED), or 409 SLOT_TAKEN when the window is no longer free, and nothing is written.',
        body: CreateJobOrBookingBody,
        response: {
          201: JobResponse,
          ...COMMON_ERRORS,
          ...BODY_ERRORS,
          ...errorResponses<'SLOT_TAKEN' | 'BOOKING_EXPIRED' | readonly ['CONFLICT', string]>(
            ['CONFLICT', 'Another job of your organisation has this externalId'],
            'SLOT_TAKEN',
            'BOOKING_EXPIRED',
          ),
        },
      },
    },
    async (request, reply) => {
      const organisationId = request.auth.organisationId
      const job =
        request.body.bookingToken === undefined
          ? await jobs.createJob(db, organisationId, request.body)
          : await bookJob(db, organisationId, request.body, clock())
      return reply.status(201).send({ data: { job }, message: SUCCESS })
    },
  )

  app.patch(
    '/jobs/:id',
    {
      config: { etag: { precondition } },
      schema: {
        operationId: 'updateJob',
        tags: ['Jobs'],
        summary: 'Update a job',
        description:
          'Only supplied fields change; null clears a nullable field. When something really changes, emits ' +
          'the JOB_UPDATED webhook with each changed field as { previous, current }.',
        params: IdParams,
        body: UpdateJobBody,
        response: {
          200: JobResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...errorResponses('TERMINAL_STATE', 'PRECONDITION_FAILED'),
          ...EXTERNAL_ID_TAKEN,
        },
      },
    },
    async (request) => ({
      data: { job: await jobs.updateJob(db, request.auth.organisationId, request.params.id, request.body) },
      message: SUCCESS,
    }),
  )

  app.delete(
    '/jobs/:id',
    {
      config: { etag: { precondition } },
      schema: {
        operationId: 'deleteJob',
        tags: ['Jobs'],
        summary: 'Delete a job',
        description: 'Soft delete: the job is retained but behaves as not found from then on.',
        params: IdParams,
        response: {
          200: DeletedJobResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...errorResponses('JOB_IN_PROGRESS', 'PRECONDITION_FAILED'),
        },
      },
    },
    async (request) => ({
      data: { job: await jobs.deleteJob(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )
}
