import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { BODY_ERRORS, COMMON_ERRORS, IdParams, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import { type BaseRow, CAPACITY_DIMENSIONS, type ReferenceKind, TAGS } from './kinds.js'
import { type ReferenceInput, ReferenceListQuery, referenceSchemas } from './schemas.js'
import { capacityDimensions, type ReferenceService, tags } from './service.js'

/** The five admin routes of one kind of reference data: list, create, get, update, delete. */
function referenceDataAdminRoutes<Row extends BaseRow>(
  kind: ReferenceKind<Row>,
  service: ReferenceService<Row>,
): FastifyPluginAsyncTypebox<RouteOptions> {
  const { names, docs } = kind
  const schemas = referenceSchemas(kind)
  const path = names.path
  const tagged = { tags: [names.openApiTag] }
  const one = <T>(item: T) => ({ data: { [names.property]: item }, message: SUCCESS })

  return async (app, { db }) => {
    app.get(
      path,
      {
        schema: {
          operationId: `list${names.plural}`,
          ...tagged,
          ...docs.list,
          querystring: ReferenceListQuery,
          response: { 200: schemas.ListResponse, ...COMMON_ERRORS },
        },
      },
      async (request) => {
        const { items, pagination } = await service.list(db, request.auth.organisationId, request.query)
        return { data: { [names.listProperty]: items, pagination }, message: SUCCESS }
      },
    )

    app.post(
      path,
      {
        schema: {
          operationId: `create${names.singular}`,
          ...tagged,
          ...docs.create,
          body: schemas.CreateBody,
          response: { 201: schemas.Response, ...COMMON_ERRORS, ...BODY_ERRORS, ...schemas.TAKEN_ERROR },
        },
      },
      async (request, reply) => {
        const item = await service.create(db, request.auth.organisationId, request.body as ReferenceInput)
        return reply.status(201).send(one(item))
      },
    )

    app.get(
      `${path}/:id`,
      {
        schema: {
          operationId: `get${names.singular}`,
          ...tagged,
          ...docs.get,
          params: IdParams,
          response: { 200: schemas.Response, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
        },
      },
      async (request) => one(await service.get(db, request.auth.organisationId, request.params.id)),
    )

    app.patch(
      `${path}/:id`,
      {
        schema: {
          operationId: `update${names.singular}`,
          ...tagged,
          ...docs.update,
          params: IdParams,
          body: schemas.UpdateBody,
          response: {
            200: schemas.Response,
            ...COMMON_ERRORS,
            ...NOT_FOUND_ERROR,
            ...BODY_ERRORS,
            ...schemas.TAKEN_ERROR,
          },
        },
      },
      async (request) => {
        const input = request.body as ReferenceInput
        return one(await service.update(db, request.auth.organisationId, request.params.id, input))
      },
    )

    app.delete(
      `${path}/:id`,
      {
        schema: {
          operationId: `delete${names.singular}`,
          ...tagged,
          ...docs.delete,
          params: IdParams,
          response: {
            200: schemas.DeletedResponse,
            ...COMMON_ERRORS,
            ...NOT_FOUND_ERROR,
            ...BODY_ERRORS,
            ...schemas.IN_USE_ERROR,
          },
        },
      },
      async (request) => one(await service.delete(db, request.auth.organisationId, request.params.id)),
    )
  }
}

export const tagAdminRoutes = referenceDataAdminRoutes(TAGS, tags)
export const capacityDimensionAdminRoutes = referenceDataAdminRoutes(CAPACITY_DIMENSIONS, capacityDimensions)
