import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { BODY_ERRORS, COMMON_ERRORS, IdParams, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import {
  CreateVehicleBody,
  DeletedVehicleResponse,
  UpdateVehicleBody,
  VEHICLE_IN_USE_ERROR,
} from './admin-schemas.js'
import { vehicleRoutes } from './routes.js'
import { VehicleResponse } from './schemas.js'
import * as vehicles from './service.js'

const REFERENCES =
  'locationId, every tagIds item and every capacityDimensionId must exist in your organisation; each ' +
  'unknown id is a 400 detail naming it (e.g. /body/tagIds/2). startLatitude and startLongitude are ' +
  'set together, or both null (routes then start at the depot).'

export const vehicleAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  // Reads are the public API's own routes, registered here too so the admin document is complete.
  await app.register(vehicleRoutes, { db })

  app.post(
    '/vehicles',
    {
      schema: {
        operationId: 'createVehicle',
        tags: ['Vehicles'],
        summary: 'Add a vehicle to the fleet',
        description: `Omitted costs are 0, speedFactor 1, endPolicy RETURN_TO_ORIGIN. ${REFERENCES}`,
        body: CreateVehicleBody,
        response: { 201: VehicleResponse, ...COMMON_ERRORS, ...BODY_ERRORS },
      },
    },
    async (request, reply) => {
      const vehicle = await vehicles.createVehicle(db, request.auth.organisationId, request.body)
      return reply.status(201).send({ data: { vehicle }, message: SUCCESS })
    },
  )

  app.patch(
    '/vehicles/:id',
    {
      schema: {
        operationId: 'updateVehicle',
        tags: ['Vehicles'],
        summary: 'Update or deactivate a vehicle',
        description:
          'Only supplied fields change, and updatedAt moves only when something really changes. tagIds ' +
          `and capacities replace the whole set when supplied. isActive false deactivates. ${REFERENCES}`,
        params: IdParams,
        body: UpdateVehicleBody,
        response: { 200: VehicleResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS },
      },
    },
    async (request) => ({
      data: {
        vehicle: await vehicles.updateVehicle(
          db,
          request.auth.organisationId,
          request.params.id,
          request.body,
        ),
      },
      message: SUCCESS,
    }),
  )

  app.delete(
    '/vehicles/:id',
    {
      schema: {
        operationId: 'deleteVehicle',
        tags: ['Vehicles'],
        summary: 'Delete a vehicle',
        description:
          'Permanent, with its tags and capacities. Refused with 409 IN_USE while shifts use the vehicle; ' +
          'deactivate it instead (PATCH isActive false).',
        params: IdParams,
        response: {
          200: DeletedVehicleResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...VEHICLE_IN_USE_ERROR,
        },
      },
    },
    async (request) => ({
      data: { vehicle: await vehicles.deleteVehicle(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )
}
