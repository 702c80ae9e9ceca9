// The completion checklist and a job's own requirements (issue 31 §3): the dispatcher's routes and
// the worker's read of their own job's checklist.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { AppError } from '../../http/errors.js'
import {
  BODY_ERRORS,
  COMMON_ERRORS,
  errorResponses,
  IdParams,
  NOT_FOUND_ERROR,
  SUCCESS,
} from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import { CompletionResponse, JobRequirementsBody } from './schemas.js'
import { completionOf, myCompletionOf, setJobRequirements } from './service.js'

const CHECKLIST =
  'requires: the largest of what the job itself and every active form template that applies to it ' +
  'require (sources lists each); has: the signatures and photos attached so far, the notes written on ' +
  'completing, the forms and whether each is submitted; missing: what completing still needs, in words ' +
  '(NOTES can also be given with the complete request).'

export const completionAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  app.get(
    '/jobs/:id/completion',
    {
      schema: {
        operationId: 'getJobCompletion',
        tags: ['Dispatch'],
        summary: 'What completing a job needs, and has',
        description: CHECKLIST,
        params: IdParams,
        response: { 200: CompletionResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: { completion: await completionOf(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )

  app.put(
    '/jobs/:id/requirements',
    {
      schema: {
        operationId: 'replaceJobRequirements',
        tags: ['Dispatch'],
        summary: "Set what completing a job needs (the job's own)",
        description:
          'A signature, at least so many photos, notes: what is left out is not required. Form templates ' +
          'that apply to the job may require more (the largest of each counts). 422 TERMINAL_STATE once the ' +
          `job is COMPLETED or CANCELLED. Answers the checklist: ${CHECKLIST}`,
        params: IdParams,
        body: JobRequirementsBody,
        response: {
          200: CompletionResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...errorResponses('TERMINAL_STATE'),
        },
      },
    },
    async (request) => ({
      data: {
        completion: await setJobRequirements(
          db,
          request.auth.organisationId,
          request.params.id,
          request.body.requires,
        ),
      },
      message: SUCCESS,
    }),
  )
}

export const myCompletionRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  app.get(
    '/my/jobs/:id/completion',
    {
      config: { access: 'worker' as const },
      schema: {
        operationId: 'getMyJobCompletion',
        tags: ['My day'],
        summary: 'What completing one of my jobs needs, and has',
        description: `The phone's checklist before Complete. ${CHECKLIST} Only the signed-in user’s own jobs.`,
        params: IdParams,
        response: { 200: CompletionResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => {
      const auth = request.auth
      if (auth.kind !== 'session') throw new AppError('UNAUTHORIZED', 'Sign in as the worker to use My day')
      return {
        data: {
          completion: await myCompletionOf(db, auth.organisationId, auth.session.userId, request.params.id),
        },
        message: SUCCESS,
      }
    },
  )
}
