import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { afterCommit } from '../../db/ambient-transaction.js'
import {
  BODY_ERRORS,
  COMMON_ERRORS,
  errorResponses,
  IdParams,
  NOT_FOUND_ERROR,
  NoInputBody,
  SUCCESS,
} from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import {
  CreateRoutePlanBody,
  RoutePlanListQuery,
  RoutePlanListResponse,
  RoutePlanResponse,
} from './schemas.js'
import * as plans from './service.js'

const TAGS = ['Route plans']

export const routePlanAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (
  app,
  { db, planRunner, routePlanQueueMax, clock },
) => {
  app.post(
    '/route-plans',
    {
      schema: {
        tags: TAGS,
        operationId: 'createRoutePlan',
        summary: 'Plan a day: queue the route optimiser',
        description:
          'Answers 202 at once with the QUEUED plan; a runner (on any instance) solves it within ' +
          'timeLimitSeconds, sooner when the plan cannot improve. Poll GET /route-plans/{id} for progress ' +
          'and the result, then apply it. Runners serve organisations in turn, oldest plan first within ' +
          `each; an organisation may have ${routePlanQueueMax || 'any number of'} plans QUEUED or RUNNING ` +
          'at once (ROUTE_PLAN_QUEUE_MAX): one more gets 429 TOO_MANY_PLANS with Retry-After. ' +
          'Routes are the shift templates of the date’s weekday whose worker, vehicle and depot are active, ' +
          'placed on the date in their depot’s time zone. Jobs are the live CREATED (and, by mode, ASSIGNED) ' +
          'jobs whose window overlaps the date (as `targetDate`) or that have no window.',
        body: CreateRoutePlanBody,
        response: {
          202: RoutePlanResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...errorResponses('JOBS_NOT_PLANNABLE', 'RATE_LIMITED', 'TOO_MANY_PLANS'),
        },
      },
    },
    async (request, reply) => {
      const { organisationId } = request.auth
      const routePlan = await plans.createRoutePlan(
        db,
        organisationId,
        request.body,
        routePlanQueueMax,
        clock,
      )
      // Under an Idempotency-Key the plan commits after this handler returns: wake the runner then.
      afterCommit(() => planRunner?.wake())
      return reply.status(202).send({ data: { routePlan }, message: SUCCESS })
    },
  )

  app.get(
    '/route-plans',
    {
      schema: {
        tags: TAGS,
        operationId: 'listRoutePlans',
        summary: 'List route plans, newest first',
        description: 'Without their routes: read one plan for its result.',
        querystring: RoutePlanListQuery,
        response: { 200: RoutePlanListResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await plans.listRoutePlans(db, request.auth.organisationId, request.query),
      message: SUCCESS,
    }),
  )

  app.get(
    '/route-plans/:id',
    {
      schema: {
        tags: TAGS,
        operationId: 'getRoutePlan',
        summary: 'Get a route plan: status, progress, and its routes once DONE',
        description:
          'While RUNNING, `progress` says how far the search is; once DONE, `result` holds each route ' +
          '(worker, vehicle, breaks, ordered stops with arrival, service window, travel from the previous ' +
          'stop and load after it), the unassigned jobs with their reason, totals and the cost broken down.',
        params: IdParams,
        response: { 200: RoutePlanResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: { routePlan: await plans.getRoutePlan(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )

  app.post(
    '/route-plans/:id/cancel',
    {
      schema: {
        tags: TAGS,
        operationId: 'cancelRoutePlan',
        summary: 'Cancel a queued or running plan, or discard a finished one',
        description:
          'A QUEUED or DONE plan becomes CANCELLED at once; a RUNNING one stops within about a second ' +
          '(read it again to see CANCELLED). The body may be omitted.',
        params: IdParams,
        body: NoInputBody,
        response: {
          200: RoutePlanResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...errorResponses(['CONFLICT', 'The plan has already ended']),
        },
      },
      config: { optionalBody: true },
    },
    async (request) => ({
      data: { routePlan: await plans.cancelRoutePlan(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )

  app.post(
    '/route-plans/:id/apply',
    {
      schema: {
        tags: TAGS,
        operationId: 'applyRoutePlan',
        summary: 'Apply a DONE plan: assign every planned job',
        description:
          'In one transaction, every planned job is assigned (worker, shift, scheduled window) through ' +
          'the job lifecycle, emitting JOB_ASSIGNED and STATUS_CHANGED — except a job the plan keeps on ' +
          'its worker within the same minute (not in `result.changes`: nothing is written for it); with ' +
          'REPLAN_ALL and REPLAN_REMAINING, jobs the plan took off a route are unassigned (JOB_UNASSIGNED). ' +
          'If any job, shift, vehicle, worker, customer ' +
          'or depot the plan read has changed since, nothing is applied: 409 PLAN_STALE and the plan ' +
          'becomes STALE. The body may be omitted.',
        params: IdParams,
        body: NoInputBody,
        response: {
          200: RoutePlanResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...errorResponses('PLAN_STALE', 'PLAN_NOT_READY'),
        },
      },
      config: { optionalBody: true },
    },
    async (request) => ({
      data: { routePlan: await plans.applyRoutePlan(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )
}
