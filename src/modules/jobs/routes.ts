import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.js'
import {
  BODY_ERRORS,
  BUSINESS_ERROR,
  COMMON_ERRORS,
  IdParams,
  NOT_FOUND_ERROR,
  SUCCESS,
} from '../../http/schemas.js'
import {
  CreateJobBody,
  DeletedJobResponse,
  JobListQuery,
  JobListResponse,
  JobResponse,
  UpdateJobBody,
} from './schemas.js'
import * as jobs from './service.js'

export const jobRoutes: FastifyPluginAsyncTypebox<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.get(
    '/jobs',
    {
      schema: {
        tags: ['Jobs'],
        summary: 'List jobs',
        description: 'Newest first. Deleted jobs are never listed or counted.',
        querystring: JobListQuery,
        response: { 200: JobListResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await jobs.listJobs(db, request.auth.organisationId, request.query),
      message: SUCCESS,
    }),
  )

  app.get(
    '/jobs/:id',
    {
      schema: {
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
      schema: {
        tags: ['Jobs'],
        summary: 'Create a job',
        description:
          'New jobs have status CREATED. customerId and locationId must exist in your organisation. ' +
          'Emits the JOB_CREATED webhook.',
        body: CreateJobBody,
        response: { 201: JobResponse, ...COMMON_ERRORS, ...BODY_ERRORS },
      },
    },
    async (request, reply) => {
      const job = await jobs.createJob(db, request.auth.organisationId, request.body)
      return reply.status(201).send({ data: { job }, message: SUCCESS })
    },
  )

  app.patch(
    '/jobs/:id',
    {
      schema: {
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
          ...BUSINESS_ERROR('Job is COMPLETED or CANCELLED (TERMINAL_STATE)'),
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
      schema: {
        tags: ['Jobs'],
        summary: 'Delete a job',
        description: 'Soft delete: the job is retained but behaves as not found from then on.',
        params: IdParams,
        response: {
          200: DeletedJobResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...BUSINESS_ERROR('Job is IN_PROGRESS (JOB_IN_PROGRESS)'),
        },
      },
    },
    async (request) => ({
      data: { job: await jobs.deleteJob(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )
}
