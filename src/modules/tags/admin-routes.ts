import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { RouteOptions } from '../../http/route-options.js'
import { BODY_ERRORS, COMMON_ERRORS, IdParams, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import {
  CreateTagBody,
  DeletedTagResponse,
  TAG_IN_USE_ERROR,
  TAG_NAME_CONFLICT_ERROR,
  TagListQuery,
  TagListResponse,
  TagResponse,
  UpdateTagBody,
} from './schemas.js'
import * as tags from './service.js'

const TAGS = ['Tags']

export const tagAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  app.get(
    '/tags',
    {
      schema: {
        tags: TAGS,
        summary: 'List tags',
        description: 'Tags describe skills and equipment; vehicles and jobs carry them.',
        querystring: TagListQuery,
        response: { 200: TagListResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await tags.listTags(db, request.auth.organisationId, request.query),
      message: SUCCESS,
    }),
  )

  app.post(
    '/tags',
    {
      schema: {
        tags: TAGS,
        summary: 'Create a tag',
        body: CreateTagBody,
        response: { 201: TagResponse, ...COMMON_ERRORS, ...BODY_ERRORS, ...TAG_NAME_CONFLICT_ERROR },
      },
    },
    async (request, reply) => {
      const tag = await tags.createTag(db, request.auth.organisationId, request.body)
      return reply.status(201).send({ data: { tag }, message: SUCCESS })
    },
  )

  app.get(
    '/tags/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Get a tag',
        params: IdParams,
        response: { 200: TagResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: { tag: await tags.getTag(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )

  app.patch(
    '/tags/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Rename a tag',
        description:
          'Vehicles and jobs refer to the tag by id: the public API shows the new name on them at once.',
        params: IdParams,
        body: UpdateTagBody,
        response: {
          200: TagResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...TAG_NAME_CONFLICT_ERROR,
        },
      },
    },
    async (request) => ({
      data: { tag: await tags.updateTag(db, request.auth.organisationId, request.params.id, request.body) },
      message: SUCCESS,
    }),
  )

  app.delete(
    '/tags/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete a tag',
        description:
          'Refused with 409 IN_USE while a vehicle or a job that is not deleted carries the tag (the ' +
          'message says how many); deleted jobs lose the tag silently.',
        params: IdParams,
        response: {
          200: DeletedTagResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          ...TAG_IN_USE_ERROR,
        },
      },
    },
    async (request) => ({
      data: { tag: await tags.deleteTag(db, request.auth.organisationId, request.params.id) },
      message: SUCCESS,
    }),
  )
}
