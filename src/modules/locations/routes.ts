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
        tags: ['Locations'],
        summary: 'List depots and hubs',
        querystring: LocationListQuery,
        response: { 200: LocationListResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await locations.listLocations(db, request.auth.organisationId, request.query),
      message: SUCCESS,
    }),
  )

  app.get(
    '/locations/:id',
    {
      schema: {
        tags: ['Locations'],
        summary: 'Get a depot or hub',
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
