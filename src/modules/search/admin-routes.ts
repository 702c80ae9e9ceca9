import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { COMMON_ERRORS, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import { SearchQuery, SearchResponse } from './schemas.js'
import { search } from './service.js'

export const searchAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  app.get(
    '/search',
    {
      schema: {
        operationId: 'search',
        tags: ['Search'],
        summary: 'Find jobs and customers',
        description:
          "The dashboard header's search: jobs by number, by title, by their own address or by their " +
          'customer, and customers by ' +
          'name, address, email or phone, each best first. Only your organisation is searched.',
        querystring: SearchQuery,
        response: { 200: SearchResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await search(db, request.auth.organisationId, request.query),
      message: SUCCESS,
    }),
  )
}
