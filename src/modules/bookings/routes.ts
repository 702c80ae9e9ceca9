// POST /v1/public/availability: the arrival windows a customer can choose (issue 32 §4). Booking one
// is POST /jobs with its bookingToken (jobs/routes.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Kysely } from 'kysely'
import { type Clock, systemClock } from '../../clock.js'
import type { Database } from '../../db/types.js'
import { BODY_ERRORS, COMMON_ERRORS, SUCCESS } from '../../http/schemas.js'
import { AvailabilityBody, AvailabilityResponse } from './schemas.js'
import { findAvailability } from './service.js'

export const bookingRoutes: FastifyPluginAsyncTypebox<{ db: Kysely<Database>; clock?: Clock }> = async (
  app,
  { db, clock = systemClock },
) => {
  app.post(
    '/availability',
    {
      schema: {
        operationId: 'findAvailability',
        tags: ['Jobs'],
        summary: 'Find booking windows',
        description:
          'The arrival windows (aligned windows of `windowLength` in the depot’s time zone) over dateFrom–dateTo ' +
          'in which some worker can take the job — inserted into the route as planned (ASSIGNED and ' +
          'IN_PROGRESS jobs at their scheduled times, breaks, absences, vehicle tags) without breaking any ' +
          'HARD window or shift end, and for today only from now. One window per slot, the worker adding the ' +
          'least driving; each carries a bookingToken, valid 10 minutes and single use, for POST /jobs. ' +
          'Needs the write scope (it holds the windows). Writes no job.',
        body: AvailabilityBody,
        response: { 200: AvailabilityResponse, ...COMMON_ERRORS, ...BODY_ERRORS },
      },
    },
    async (request) => ({
      data: { windows: await findAvailability(db, request.auth.organisationId, request.body, clock()) },
      message: SUCCESS,
    }),
  )
}
