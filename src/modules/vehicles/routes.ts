import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.js'
import { COMMON_ERRORS, IdParams, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import { VehicleListQuery, VehicleListResponse, VehicleResponse } from './schemas.js'
import * as vehicles from './service.js'

export const vehicleRoutes: FastifyPluginAsyncTypebox<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.get(
    '/vehicles',
    {
      schema: {
        operationId: 'listVehicles',
        tags: ['Vehicles'],
        summary: 'List vehicles',
        description: 'Newest first, each with its depot, tags and capacities.',
        querystring: VehicleListQuery,
        response: { 200: VehicleListResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await vehicles.listVehicles(db, request.auth.organisationId, request.query, app.changeSettleMs),
      message: SUCCESS,
    }),
  )

  app.get(
    '/vehicles/:id',
    {
      config: { etag: {} },
      schema: {
        operationId: 'getVehicle',
        tags: ['Vehicles'],
        summary: 'Get a vehicle',
        description: 'A vehicle with its depot, tags and capacities.',
        params: IdParams,
        response: { 200: VehicleResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: { vehicle: await vehicles.getVehicle(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )
}
