// The customer's tracking link: GET /t/<token> (the page) and GET /v1/track/<token> (its data). No
// sign-in — the token is the key — and outside both APIs: registered among the routes that need no
// key, under the per-address rate limit (app.ts). Never indexed (X-Robots-Tag and the page's meta).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.js'
import { sendFrozen } from '../../http/frozen-response.js'
import { errorResponses, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import { TRACKING_SCRIPT_PATH, trackingPage, trackingScript } from './page.js'
import { TokenParams, TrackingResponse } from './schemas.js'
import { type PositionSource, trackedForecasts, trackingOf } from './service.js'

export interface TrackingRouteOptions {
  db: Kysely<Database>
  positions: PositionSource
  clock?: () => number
}

export const trackingRoutes: FastifyPluginAsyncTypebox<TrackingRouteOptions> = async (app, options) => {
  const now = options.clock ?? Date.now
  const forecasts = trackedForecasts()
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('x-robots-tag', 'noindex')
    done()
  })

  app.get(
    '/v1/track/:token',
    {
      schema: {
        hide: true,
        params: TokenParams,
        response: {
          200: TrackingResponse,
          ...NOT_FOUND_ERROR,
          ...errorResponses('TRACKING_EXPIRED', 'RATE_LIMITED', 'VALIDATION_ERROR'),
        },
      },
    },
    async (request) => ({
      data: {
        tracking: await trackingOf(options.db, request.params.token, now(), options.positions, forecasts),
      },
      message: SUCCESS,
    }),
  )

  app.get(TRACKING_SCRIPT_PATH, { schema: { hide: true } }, (request, reply) =>
    sendFrozen(request, reply, trackingScript),
  )
  app.get('/t/:token', { schema: { hide: true } }, (request, reply) =>
    sendFrozen(request, reply, trackingPage),
  )
}
