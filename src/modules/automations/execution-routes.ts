import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  BODY_ERRORS,
  COMMON_ERRORS,
  IdParams,
  NOT_FOUND_ERROR,
  NoInputBody,
  SUCCESS,
} from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import {
  AutomationExecutionListQuery,
  ExecutionListQuery,
  ExecutionListResponse,
  ExecutionParams,
  ExecutionResponse,
  IN_FLIGHT_ERROR,
} from './schemas.js'
import * as automations from './service.js'

const TAGS = ['Automations']
const RETENTION = 'Executions are kept for WEBHOOK_RETENTION_DAYS (30 by default).'

export const executionAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (
  app,
  { db, webhooks },
) => {
  app.get(
    '/executions',
    {
      schema: {
        operationId: 'listExecutions',
        tags: TAGS,
        summary: "The organisation's webhook execution log",
        description: `Every delivery attempt of every automation, newest first. ${RETENTION}`,
        querystring: ExecutionListQuery,
        response: { 200: ExecutionListResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await automations.listExecutions(db, request.auth.organisationId, request.query),
      message: SUCCESS,
    }),
  )

  app.get(
    '/automations/:id/executions',
    {
      schema: {
        operationId: 'listAutomationExecutions',
        tags: TAGS,
        summary: "An automation's execution log",
        description: `One row per delivery attempt, newest first. ${RETENTION}`,
        params: IdParams,
        querystring: AutomationExecutionListQuery,
        response: { 200: ExecutionListResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: await automations.listExecutions(
        db,
        request.auth.organisationId,
        { ...request.query, automationId: request.params.id },
        { automationMustExist: true },
      ),
      message: SUCCESS,
    }),
  )

  app.get(
    '/automations/:id/executions/:executionId',
    {
      schema: {
        operationId: 'getAutomationExecution',
        tags: TAGS,
        summary: 'Get one webhook execution',
        description:
          'One delivery of the automation: status, HTTP status, error, duration, the body sent and the start of the answer.',
        params: ExecutionParams,
        response: { 200: ExecutionResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: {
        execution: await automations.getExecution(
          db,
          request.auth.organisationId,
          request.params.id,
          request.params.executionId,
        ),
      },
      message: SUCCESS,
    }),
  )

  app.post(
    '/automations/:id/executions/:executionId/redeliver',
    {
      schema: {
        operationId: 'redeliverExecution',
        tags: TAGS,
        summary: 'Send an execution’s event again',
        description:
          "Sends the same body with the same `webhook-id` (receivers can deduplicate on it) to the automation's " +
          'current URL, freshly signed, now, and answers with the new execution and its outcome ' +
          '(SUCCESS or FAILED), which also joins the log. Works for inactive automations too. The body may be omitted.',
        params: ExecutionParams,
        body: NoInputBody,
        response: {
          201: ExecutionResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...IN_FLIGHT_ERROR,
          ...BODY_ERRORS,
        },
      },
      // An outbound HTTP request: never held inside a database transaction (see http/idempotency.ts).
      config: { optionalBody: true, externalEffects: true },
    },
    async (request, reply) => {
      const execution = await automations.redeliverExecution(
        db,
        webhooks.sender,
        request.auth.organisationId,
        request.params.id,
        request.params.executionId,
      )
      return reply.status(201).send({ data: { execution }, message: SUCCESS })
    },
  )
}
