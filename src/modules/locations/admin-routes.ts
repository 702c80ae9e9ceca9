import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { BODY_ERRORS, COMMON_ERRORS, IdParams, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import {
  CODE_CONFLICT_ERROR,
  CreateLocationBody,
  DeletedLocationResponse,
  LOCATION_IN_USE_ERROR,
  UpdateLocationBody,
} from './admin-schemas.js'
import { locationRoutes } from './routes.js'
import { LocationResponse } from './schemas.js'
import * as locations from './service.js'

export const locationAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  // Reads are the public API's own routes, registered here too so the admin document is complete.
  await app.register(locationRoutes, { db })

  app.post(
    '/locations',
    {
      schema: {
        operationId: 'createLocation',
        tags: ['Locations'],
        summary: 'Create a depot or hub',
        description:
          'Coordinates are stored exactly and returned as decimal strings. With isPrimary true the new ' +
          "location becomes the organisation's only primary location. The code must be unique within the " +
          'organisation (409 CONFLICT otherwise).',
        body: CreateLocationBody,
        response: { 201: LocationResponse, ...COMMON_ERRORS, ...BODY_ERRORS, ...CODE_CONFLICT_ERROR },
      },
    },
    async (request, reply) => {
      const location = await locations.createLocation(db, request.auth.organisationId, request.body)
      return reply.status(201).send({ data: { location }, message: SUCCESS })
    },
  )

  app.patch(
    '/locations/:id',
    {
      schema: {
        operationId: 'updateLocation',
        tags: ['Locations'],
        summary: 'Update, deactivate or make primary a depot or hub',
        description:
          'Only supplied fields change, and updatedAt moves only when a value really changes. ' +
          'isActive false deactivates the location; isPrimary true makes the previous primary ' +
          'location non-primary in the same change.',
        params: IdParams,
        body: UpdateLocationBody,
        response: {
          200: LocationResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...CODE_CONFLICT_ERROR,
        },
      },
    },
    async (request) => ({
      data: {
        location: await locations.updateLocation(
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
    '/locations/:id',
    {
      schema: {
        operationId: 'deleteLocation',
        tags: ['Locations'],
        summary: 'Delete a depot or hub',
        description:
          'Permanent. Refused with 409 IN_USE while vehicles, shifts, jobs or job series not ended use the location; ' +
          'deactivate it instead (PATCH isActive false) to keep its history.',
        params: IdParams,
        response: {
          200: DeletedLocationResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...LOCATION_IN_USE_ERROR,
        },
      },
    },
    async (request) => ({
      data: {
        location: await locations.deleteLocation(db, request.auth.organisationId, request.params.id),
      },
      message: SUCCESS,
    }),
  )
}
