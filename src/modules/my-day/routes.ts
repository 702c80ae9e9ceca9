import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { AppError } from '../../http/errors.js'
import {
  BODY_ERRORS,
  COMMON_ERRORS,
  errorResponses,
  IdParams,
  NOT_FOUND_ERROR,
  NoInputBody,
  SUCCESS,
} from '../../http/schemas.js'
import { CompleteJobBody, StartJobBody } from '../jobs/admin-schemas.js'
import { myShifts } from '../live/service.js'
import type { RouteOptions } from '../route-options.js'
import {
  MyDayQuery,
  MyDayResponse,
  MyFormBody,
  MyFormParams,
  MyFormResponse,
  MyJobResponse,
} from './schemas.js'
import * as my from './service.js'

const TAGS = ['My day']
const WORKER_ACCESS = { access: 'worker' as const }

/** The signed-in user (these routes admit sessions only: access.ts answers 401 to an API key). */
function me(request: FastifyRequest): { organisationId: string; userId: string } {
  const auth = request.auth
  if (auth.kind !== 'session') throw new AppError('UNAUTHORIZED', 'Sign in as the worker to use My day')
  return { organisationId: auth.organisationId, userId: auth.session.userId }
}

const ONLY_MINE = 'Only the signed-in user’s own jobs: any other job is 404, as if it did not exist.'

export const myDayRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (
  app,
  { db, clock, publicBaseUrl },
) => {
  app.get(
    '/my/jobs',
    {
      config: WORKER_ACCESS,
      schema: {
        operationId: 'listMyJobs',
        tags: TAGS,
        summary: 'My jobs of a day',
        description:
          'The signed-in user’s jobs scheduled on `date` (on the clock of each job’s depot), in visiting ' +
          'order: an applied route plan schedules them in its order, so scheduledStart order is the plan’s; ' +
          'each still to visit with its predicted eta, expectedStart and risk; and the user’s shifts that day, ' +
          'without those the user is away from (off: true and the absence, e.g. HOLIDAY, when away all day). ' +
          'Any signed-in user (a WORKER mostly); not for API keys.',
        querystring: MyDayQuery,
        response: { 200: MyDayResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => {
      const { organisationId, userId } = me(request)
      return {
        data: {
          date: request.query.date,
          jobs: await my.myDay(db, organisationId, userId, request.query.date, clock()),
          shifts: await myShifts(db, organisationId, userId, request.query.date),
          ...(await my.myAbsences(db, organisationId, userId, request.query.date)),
        },
        message: SUCCESS,
      }
    },
  )

  app.get(
    '/my/jobs/:id',
    {
      config: WORKER_ACCESS,
      schema: {
        operationId: 'getMyJob',
        tags: TAGS,
        summary: 'One of my jobs',
        description: ONLY_MINE,
        params: IdParams,
        response: { 200: MyJobResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => {
      const { organisationId, userId } = me(request)
      return {
        data: { job: await my.myJob(db, organisationId, userId, request.params.id, clock()) },
        message: SUCCESS,
      }
    },
  )

  app.post(
    '/my/jobs/:id/start',
    {
      config: { ...WORKER_ACCESS, optionalBody: true },
      schema: {
        operationId: 'startMyJob',
        tags: TAGS,
        summary: 'Start one of my jobs',
        description:
          'ASSIGNED → IN_PROGRESS as the admin action (startedAt now, or the `startedAt` the phone sends: ' +
          `when the worker started, for work done offline), with its events. ${ONLY_MINE}`,
        params: IdParams,
        body: StartJobBody,
        response: {
          200: MyJobResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...errorResponses('INVALID_TRANSITION', 'OUTSIDE_SHIFT'),
        },
      },
    },
    async (request) => {
      const { organisationId, userId } = me(request)
      const body = { startedAt: request.body?.startedAt }
      return {
        data: { job: await my.startMyJob(db, organisationId, userId, request.params.id, clock(), body) },
        message: SUCCESS,
      }
    },
  )

  app.post(
    '/my/jobs/:id/en-route',
    {
      config: { ...WORKER_ACCESS, optionalBody: true },
      schema: {
        operationId: 'setOffToMyJob',
        tags: TAGS,
        summary: 'On my way to one of my jobs',
        description:
          'The worker sets off to an ASSIGNED job: the status stays ASSIGNED, the job records `enRouteAt`, ' +
          'gets a tracking link for its customer (`<PUBLIC_BASE_URL>/t/<token>`) and JOB_EN_ROUTE ' +
          '{ jobId, eta, trackingUrl, worker: { firstName } } is sent (and, when the organisation turned ' +
          'customer emails on, the customer gets the link by email). Once per job: calling it again ' +
          'answers the job as it is, sends nothing and keeps the link already made. 422 ' +
          `INVALID_TRANSITION unless the job is ASSIGNED. ${ONLY_MINE}`,
        params: IdParams,
        body: NoInputBody,
        response: {
          200: MyJobResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...errorResponses('INVALID_TRANSITION'),
        },
      },
    },
    async (request) => {
      const { organisationId, userId } = me(request)
      const at = new Date(clock()).toISOString()
      return {
        data: {
          job: await my.setOffToMyJob(db, organisationId, userId, request.params.id, publicBaseUrl, at),
        },
        message: SUCCESS,
      }
    },
  )

  app.post(
    '/my/jobs/:id/complete',
    {
      config: { ...WORKER_ACCESS, optionalBody: true },
      schema: {
        operationId: 'completeMyJob',
        tags: TAGS,
        summary: 'Complete one of my jobs',
        description:
          'IN_PROGRESS → COMPLETED (completedAt now, or the `completedAt` the phone sends; actualDuration), ' +
          'emitting JOB_COMPLETED and STATUS_CHANGED; ' +
          '422 FORM_REQUIRED while a form the job needs has no submission; 422 COMPLETION_REQUIREMENTS while ' +
          'its signature, photos or notes are missing (GET …/completion is the checklist; `notes` sent here ' +
          `count). ${ONLY_MINE}`,
        params: IdParams,
        body: CompleteJobBody,
        response: {
          200: MyJobResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...errorResponses(
            'INVALID_TRANSITION',
            'FORM_REQUIRED',
            'COMPLETION_REQUIREMENTS',
            'OUTSIDE_SHIFT',
          ),
        },
      },
    },
    async (request) => {
      const { organisationId, userId } = me(request)
      const body = { completedAt: request.body?.completedAt, notes: request.body?.notes }
      return {
        data: { job: await my.completeMyJob(db, organisationId, userId, request.params.id, clock(), body) },
        message: SUCCESS,
      }
    },
  )

  app.post(
    '/my/jobs/:id/forms/:templateId',
    {
      config: WORKER_ACCESS,
      schema: {
        operationId: 'submitMyForm',
        tags: TAGS,
        summary: 'Fill in a form of one of my jobs',
        description:
          'The answers are checked against the template’s fields (400 naming each wrong answer at ' +
          '/body/answers/<key>) and stored as a form submission with the worker as submitter, emitting ' +
          `FORM_SUBMITTED. 422 TERMINAL_STATE once the job is COMPLETED or CANCELLED. ${ONLY_MINE}`,
        params: MyFormParams,
        body: MyFormBody,
        response: {
          201: MyFormResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...errorResponses('TERMINAL_STATE'),
        },
      },
    },
    async (request, reply) => {
      const { organisationId, userId } = me(request)
      const submission = await my.submitMyForm(
        db,
        organisationId,
        userId,
        request.params.id,
        request.params.templateId,
        request.body.answers,
      )
      return reply.status(201).send({ data: { submission }, message: SUCCESS })
    },
  )
}
