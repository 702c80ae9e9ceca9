import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.js'
import { COMMON_ERRORS, IdParams, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import { LocationListQuery, LocationListResponse, LocationResponse } from './schemas.js'
import * as locations from './service.js'

export const locationRoutes: FastifyPluginAsyncTypebox<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.get(
    '/locations',
    {
      schema: {
        operationId: 'listLocations',
        tags: ['Locations'],
        summary: 'List depots and hubs',
        description: 'Newest first; active and inactive depots alike unless `isActive` is given.',
        querystring: LocationListQuery,
        response: { 200: LocationListResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await locations.listLocations(db, request.auth.organisationId, request.query, app.changeSettleMs),
      message: SUCCESS,
    }),
  )

  app.get(
    '/locations/:id',
    {
      config: { etag: {} },
      schema: {
        operationId: 'getLocation',
        tags: ['Locations'],
        summary: 'Get a depot or hub',
        description: 'The depot with its address, coordinates and IANA time zone.',
        params: IdParams,
        response: { 200: LocationResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: { location: await locations.getLocation(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )
}
