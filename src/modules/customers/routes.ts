import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.js'
import type { Precondition } from '../../http/etags.js'
import {
  BODY_ERRORS,
  COMMON_ERRORS,
  errorResponses,
  IdParams,
  NOT_FOUND_ERROR,
  SUCCESS,
} from '../../http/schemas.js'
import {
  CreateCustomerBody,
  CustomerListQuery,
  CustomerListResponse,
  CustomerResponse,
  UpdateCustomerBody,
} from './schemas.js'
import * as customers from './service.js'

const EXTERNAL_ID_TAKEN = errorResponses([
  'CONFLICT',
  'Another customer of your organisation has this externalId',
])

export const customerRoutes: FastifyPluginAsyncTypebox<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.get(
    '/customers',
    {
      schema: {
        operationId: 'listCustomers',
        tags: ['Customers'],
        summary: 'List customers',
        description: 'Newest first. `search` matches the name or address, ignoring case.',
        querystring: CustomerListQuery,
        response: { 200: CustomerListResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await customers.listCustomers(db, request.auth.organisationId, request.query, app.changeSettleMs),
      message: SUCCESS,
    }),
  )

  const precondition: Precondition = {
    table: 'customers',
    schema: CustomerResponse,
    current: async (request: FastifyRequest<{ Params: { id: string } }>) => ({
      customer: await customers.getCustomer(db, request.auth.organisationId, request.params.id),
    }),
  }

  app.get(
    '/customers/:id',
    {
      config: { etag: {} },
      schema: {
        operationId: 'getCustomer',
        tags: ['Customers'],
        summary: 'Get a customer',
        description:
          'The customer with its address, coordinates, service duration, priority and opening hours.',
        params: IdParams,
        response: { 200: CustomerResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: { customer: await customers.getCustomer(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )

  app.post(
    '/customers',
    {
      config: { etag: {} },
      schema: {
        operationId: 'createCustomer',
        tags: ['Customers'],
        summary: 'Create a customer',
        description:
          'Omitted optional fields take defaults: address "", serviceDuration 900, priority NORMAL, ' +
          'timeWindowType HARD, operationalStart 00:00, operationalEnd 23:59.',
        body: CreateCustomerBody,
        response: { 201: CustomerResponse, ...COMMON_ERRORS, ...BODY_ERRORS, ...EXTERNAL_ID_TAKEN },
      },
    },
    async (request, reply) => {
      const customer = await customers.createCustomer(db, request.auth.organisationId, request.body)
      return reply.status(201).send({ data: { customer }, message: SUCCESS })
    },
  )

  app.patch(
    '/customers/:id',
    {
      config: { etag: { precondition } },
      schema: {
        operationId: 'updateCustomer',
        tags: ['Customers'],
        summary: 'Update a customer',
        description: 'Only supplied fields change.',
        params: IdParams,
        body: UpdateCustomerBody,
        response: {
          200: CustomerResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...errorResponses('PRECONDITION_FAILED'),
          ...EXTERNAL_ID_TAKEN,
        },
      },
    },
    async (request) => ({
      data: {
        customer: await customers.updateCustomer(
          db,
          request.auth.organisationId,
          request.params.id,
          request.body,
        ),
      },
      message: SUCCESS,
    }),
  )
}
