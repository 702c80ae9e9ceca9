import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { AppError } from '../../http/errors.js'
import { BODY_ERRORS, COMMON_ERRORS, errorResponses, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import { LiveQuery, LiveResponse, PositionBody, PositionResponse } from './schemas.js'
import { liveDay, recordPositions, refreshEtas } from './service.js'

/** The signed-in worker (My day routes admit sessions only: access.ts answers 401 to an API key). */
function me(request: FastifyRequest): { organisationId: string; userId: string } {
  const auth = request.auth
  if (auth.kind !== 'session') throw new AppError('UNAUTHORIZED', 'Sign in as the worker to use My day')
  return { organisationId: auth.organisationId, userId: auth.session.userId }
}

/** POST /my/positions: the phone's fixes while its worker is on shift. */
export const livePositionRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (
  app,
  { db, clock, live },
) => {
  app.post(
    '/my/positions',
    {
      config: { access: 'worker' as const },
      schema: {
        operationId: 'recordMyPositions',
        tags: ['My day'],
        summary: 'Send my positions',
        description:
          'The signed-in worker’s device positions (1–100 a call, batched by the phone; offline ones ' +
          'later, in any order). Each `recordedAt` must not be in the future (a minute of clock skew is ' +
          'allowed) nor older than 24 hours (400 naming it), and must fall within one of the worker’s ' +
          'shifts, from 30 min before its start to 30 min after its end: otherwise 409 OFF_SHIFT and the ' +
          'phone stops sending. The ETAs of the worker’s shift are recomputed at once. Only admins and ' +
          'dispatchers read positions (GET /live). Kept POSITION_RETENTION_DAYS (default 7).',
        body: PositionBody,
        response: {
          201: PositionResponse,
          ...COMMON_ERRORS,
          ...BODY_ERRORS,
          ...errorResponses('OFF_SHIFT'),
        },
      },
    },
    async (request, reply) => {
      const { organisationId, userId } = me(request)
      const now = clock()
      const accepted = await recordPositions(db, organisationId, userId, request.body.positions, now)
      await refreshEtas(db, organisationId, { userId, thresholdMinutes: live.settings.etaChangeMinutes }, now)
      return reply.status(201).send({ data: { accepted }, message: SUCCESS })
    },
  )
}

/** GET /live: the dispatcher's view of a day's shifts. */
export const liveAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db, clock }) => {
  app.get(
    '/live',
    {
      schema: {
        operationId: 'getLiveDay',
        tags: ['Live day'],
        summary: 'Where every worker is and when each stop will be reached',
        description:
          'Per shift of `date` (optionally of one depot): the worker, vehicle, last position with its ' +
          'recordedAt, the job under way, and each remaining stop’s eta (arrival), expectedStart and risk, ' +
          'predicted from now: from the job under way (its expected end: startedAt + service duration, ' +
          'or now if overdue), else a position of the last 15 min, else the last job done, else the ' +
          'route’s start; travel as the optimiser’s (great-circle × detour at the organisation’s speed ' +
          '÷ the vehicle’s speed factor); windows narrowed by the customer’s hours; breaks at their ' +
          'time. risk: AT_RISK when the expected start is within 15 min of the latest start that still ' +
          'ends the visit in its window, or a SOFT window is missed; LATE when a HARD one can no longer be met. ' +
          'Admins and dispatchers only; a locationId not of this organisation is 404.',
        querystring: LiveQuery,
        response: { 200: LiveResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => {
      const { date, locationId } = request.query
      const shifts = await liveDay(
        db,
        request.auth.organisationId,
        { date, ...(locationId ? { locationId } : {}) },
        clock(),
      )
      return { data: { date, shifts }, message: SUCCESS }
    },
  )
}
