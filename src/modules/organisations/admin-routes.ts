import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { BODY_ERRORS, COMMON_ERRORS, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import { MapSettingsResponse, OrganisationResponse, UpdateOrganisationBody } from './schemas.js'
import { getMapSettings, getOrganisation, updateOrganisation } from './service.js'

export const organisationAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (
  app,
  { db, apiKeys, smtpConfigured, geocoder },
) => {
  app.get(
    '/organisation',
    {
      schema: {
        operationId: 'getOrganisation',
        tags: ['Organisation'],
        summary: "Get the caller's organisation",
        description: 'The organisation the key belongs to, with its plan.',
        response: { 200: OrganisationResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: { organisation: await getOrganisation(db, request.auth.organisationId, smtpConfigured) },
      message: SUCCESS,
    }),
  )

  app.patch(
    '/organisation',
    {
      schema: {
        operationId: 'updateOrganisation',
        tags: ['Organisation'],
        summary: 'Rename the organisation, change its plan or its settings',
        description:
          'A plan change applies from the next request: moving to FREE or STARTER ends API access for ' +
          'every key of the organisation, this one included (an operator restores it with the CLI). ' +
          '`notifications.customerEmails` turns the customer emails on or off (sent only when the service ' +
          'has SMTP_URL: `smtpConfigured`). `map` sets the tile server of every map of the organisation ' +
          '(https, with {z}, {x} and {y}; an empty string or null clears it).',
        body: UpdateOrganisationBody,
        response: { 200: OrganisationResponse, ...COMMON_ERRORS, ...BODY_ERRORS },
      },
      config: { access: 'admin' },
    },
    async (request) => {
      const { organisation, planChanged } = await updateOrganisation(
        db,
        request.auth.organisationId,
        request.body,
        smtpConfigured,
      )
      if (planChanged) apiKeys.invalidate()
      return { data: { organisation }, message: SUCCESS }
    },
  )

  app.get(
    '/organisation/map',
    {
      schema: {
        operationId: 'getOrganisationMap',
        tags: ['Organisation'],
        summary: "The organisation's map background",
        description:
          'The tile server every map draws on, for any signed-in user (workers too: My day has a map); an ' +
          'admin sets it with PATCH /organisation (`map`). Both null: no tiles. `addressLookup` says whether ' +
          'the service can look addresses up (GET /geocode).',
        response: { 200: MapSettingsResponse, ...COMMON_ERRORS },
      },
      config: { access: 'worker' },
    },
    async (request) => ({
      data: {
        map: await getMapSettings(db, request.auth.organisationId),
        addressLookup: geocoder !== undefined,
      },
      message: SUCCESS,
    }),
  )
}
