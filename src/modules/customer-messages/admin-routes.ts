import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { COMMON_ERRORS, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import { CustomerMessageListQuery, CustomerMessageListResponse } from './schemas.js'
import { listCustomerMessages } from './service.js'

export const customerMessageAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  app.get(
    '/customer-messages',
    {
      schema: {
        operationId: 'listCustomerMessages',
        tags: ['Automations'],
        summary: 'The emails sent to customers',
        description:
          'Each "on my way" and "completed" email sent to a customer (organisation `notifications`), with ' +
          'its outcome, newest first — beside the webhook executions. Kept for WEBHOOK_RETENTION_DAYS.',
        querystring: CustomerMessageListQuery,
        response: { 200: CustomerMessageListResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await listCustomerMessages(db, request.auth.organisationId, request.query),
      message: SUCCESS,
    }),
  )
}
