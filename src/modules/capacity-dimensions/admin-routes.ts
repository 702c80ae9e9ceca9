import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { RouteOptions } from '../../http/route-options.js'
import { BODY_ERRORS, COMMON_ERRORS, IdParams, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import {
  CapacityDimensionListQuery,
  CapacityDimensionListResponse,
  CapacityDimensionResponse,
  CreateCapacityDimensionBody,
  DeletedCapacityDimensionResponse,
  DIMENSION_IN_USE_ERROR,
  KEY_CONFLICT_ERROR,
  UpdateCapacityDimensionBody,
} from './schemas.js'
import * as dimensions from './service.js'

const TAGS = ['Capacity dimensions']

export const capacityDimensionAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  app.get(
    '/capacity-dimensions',
    {
      schema: {
        tags: TAGS,
        summary: 'List capacity dimensions',
        description:
          'What vehicles carry and jobs need is measured in dimensions such as weight or volume: vehicles ' +
          'have a maximum and jobs a demand in each.',
        querystring: CapacityDimensionListQuery,
        response: { 200: CapacityDimensionListResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await dimensions.listCapacityDimensions(db, request.auth.organisationId, request.query),
      message: SUCCESS,
    }),
  )

  app.post(
    '/capacity-dimensions',
    {
      schema: {
        tags: TAGS,
        summary: 'Create a capacity dimension',
        description: 'The key is unique within the organisation.',
        body: CreateCapacityDimensionBody,
        response: {
          201: CapacityDimensionResponse,
          ...COMMON_ERRORS,
          ...BODY_ERRORS,
          ...KEY_CONFLICT_ERROR,
        },
      },
    },
    async (request, reply) => {
      const capacityDimension = await dimensions.createCapacityDimension(
        db,
        request.auth.organisationId,
        request.body,
      )
      return reply.status(201).send({ data: { capacityDimension }, message: SUCCESS })
    },
  )

  app.get(
    '/capacity-dimensions/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Get a capacity dimension',
        params: IdParams,
        response: { 200: CapacityDimensionResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: {
        capacityDimension: await dimensions.getCapacityDimension(
          db,
          request.auth.organisationId,
          request.params.id,
        ),
      },
      message: SUCCESS,
    }),
  )

  app.patch(
    '/capacity-dimensions/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Change the key or label of a capacity dimension',
        description:
          'Capacities and demands refer to the dimension by id: the public API shows the new key and ' +
          'label on vehicles and jobs at once.',
        params: IdParams,
        body: UpdateCapacityDimensionBody,
        response: {
          200: CapacityDimensionResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...KEY_CONFLICT_ERROR,
        },
      },
    },
    async (request) => ({
      data: {
        capacityDimension: await dimensions.updateCapacityDimension(
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
    '/capacity-dimensions/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete a capacity dimension',
        description:
          'Refused with 409 IN_USE while a vehicle has a capacity, or a job that is not deleted a demand, ' +
          'in the dimension (the message says how many); demands of deleted jobs go with it.',
        params: IdParams,
        response: {
          200: DeletedCapacityDimensionResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...DIMENSION_IN_USE_ERROR,
        },
      },
    },
    async (request) => ({
      data: {
        capacityDimension: await dimensions.deleteCapacityDimension(
          db,
          request.auth.organisationId,
          request.params.id,
        ),
      },
      message: SUCCESS,
    }),
  )
}
