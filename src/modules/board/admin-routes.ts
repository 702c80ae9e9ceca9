import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { COMMON_ERRORS, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import { BoardQuery, BoardResponse } from './schemas.js'
import { getBoard } from './service.js'
import { weekBoardRoutes } from './week-routes.js'

export const boardAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, options) => {
  const { db, travelTimes } = options
  app.get(
    '/board',
    {
      schema: {
        tags: ['Dispatch'],
        operationId: 'getBoard',
        summary: 'The dispatch board of a day: shifts as rows, their jobs, and the jobs waiting',
        description:
          'Rows are the shift templates of the date’s weekday whose worker, vehicle and depot are active, ' +
          'placed on the date in their depot’s time zone with their breaks (as a route plan places them). ' +
          'Jobs are those scheduled on a row during that date (any status), then the CREATED jobs whose ' +
          'window overlaps the date (as `targetDate`) or that have no window — with locationId, those of ' +
          'that depot or of none. Another organisation’s locationId is not found.',
        querystring: BoardQuery,
        response: { 200: BoardResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: { board: await getBoard(db, request.auth.organisationId, request.query, travelTimes) },
      message: SUCCESS,
    }),
  )
  // The week view: workers × 7 days (week-routes.ts).
  await app.register(weekBoardRoutes, options)
}
