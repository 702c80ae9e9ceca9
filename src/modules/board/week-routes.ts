// GET /board/week: the board's week view (week-service.ts), registered by the board's admin routes.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { COMMON_ERRORS, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import { WEEK_DUE_LIMIT, WeekBoardQuery, WeekBoardResponse } from './week-schemas.js'
import { getWeekBoard } from './week-service.js'

export const weekBoardRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  app.get(
    '/board/week',
    {
      schema: {
        tags: ['Dispatch'],
        operationId: 'getWeekBoard',
        summary: 'The board’s week: workers × 7 days, their shifts, jobs and capacity used, and jobs due',
        description:
          'Seven days from `start`, each read in the depot’s time zone (the organisation’s without locationId). ' +
          'A row per worker with a weekly shift whose worker, vehicle and depot are active. Each day: the ' +
          'worker’s shifts of that weekday placed on the date with its one-off change and absences (a shift ' +
          'the worker is away from all day is `off: ABSENT` with the absence; a part-day absence is an ' +
          'unpaid break), the jobs (not cancelled) whose visit starts that day, and capacity: minutesBooked ' +
          '(their scheduled minutes) against minutesAvailable (the hours worked less breaks). Then the ' +
          `CREATED jobs due by the week’s end (latestEnd, else earliestStart), soonest first, at most ${WEEK_DUE_LIMIT} ` +
          '(dueTruncated says when more are due); with locationId those of that depot or of none. Another ' +
          'organisation’s locationId is not found.',
        querystring: WeekBoardQuery,
        response: { 200: WeekBoardResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: { week: await getWeekBoard(db, request.auth.organisationId, request.query) },
      message: SUCCESS,
    }),
  )
}
