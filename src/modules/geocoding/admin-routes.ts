import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { COMMON_ERRORS, errorResponses, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import { geocoderNotConfigured } from './geocoder.js'
import { GeocodeQuery, GeocodeResponse } from './schemas.js'

export const geocodingAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { geocoder }) => {
  app.get(
    '/geocode',
    {
      schema: {
        operationId: 'geocodeAddress',
        tags: ['Address lookup'],
        summary: 'Find the coordinates of an address',
        description:
          "Asks the service's geocoder (GEOCODER_URL: a Nominatim or Photon server) for up to 5 places " +
          'matching `q`, for the dialogs that offer matches as you type. Answers are cached for 10 minutes; ' +
          'lookups that reach the geocoder are limited to 60 a minute per organisation (429 RATE_LIMITED). ' +
          'Without GEOCODER_URL: 404 GEOCODER_NOT_CONFIGURED (the feature is not there: coordinates are entered by ' +
          'hand or on the map); a geocoder that fails, or takes over 3 s: 503 GEOCODER_UNAVAILABLE.',
        querystring: GeocodeQuery,
        response: {
          200: GeocodeResponse,
          ...COMMON_ERRORS,
          ...errorResponses('GEOCODER_NOT_CONFIGURED', 'GEOCODER_UNAVAILABLE', 'SERVICE_UNAVAILABLE'),
        },
      },
    },
    async (request) => {
      if (!geocoder) throw geocoderNotConfigured()
      const matches = await geocoder.search(request.auth.organisationId, request.query.q)
      return { data: { matches }, message: SUCCESS }
    },
  )
}
