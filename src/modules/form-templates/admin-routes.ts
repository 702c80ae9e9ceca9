import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { BODY_ERRORS, COMMON_ERRORS, IdParams, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import {
  CreateFormTemplateBody,
  DeletedFormTemplateResponse,
  FormTemplateListQuery,
  FormTemplateListResponse,
  FormTemplateResponse,
  UpdateFormTemplateBody,
} from './schemas.js'
import * as templates from './service.js'

const TAGS = ['Forms']

/** Form templates: ADMIN sessions and admin keys (the module's access, set in app.ts). */
export const formTemplateAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  app.get(
    '/form-templates',
    {
      schema: {
        operationId: 'listFormTemplates',
        tags: TAGS,
        summary: 'List form templates',
        description: 'Newest first.',
        querystring: FormTemplateListQuery,
        response: { 200: FormTemplateListResponse, ...COMMON_ERRORS },
      },
    },
    async (request) => ({
      data: await templates.listFormTemplates(db, request.auth.organisationId, request.query),
      message: SUCCESS,
    }),
  )

  app.post(
    '/form-templates',
    {
      schema: {
        operationId: 'createFormTemplate',
        tags: TAGS,
        summary: 'Create a form template',
        description:
          'The form workers fill in on the jobs that need it: every job (ALL_JOBS) or the jobs with `tagId` ' +
          '(TAGGED_JOBS). While active, such a job can be completed only once a submission answers it (422 ' +
          'FORM_REQUIRED). Fields: unique keys; min/max only on NUMBER (min ≤ max); options only on, and ' +
          'required for, CHOICE — each mistake a 400 naming the field.',
        body: CreateFormTemplateBody,
        response: { 201: FormTemplateResponse, ...COMMON_ERRORS, ...BODY_ERRORS },
      },
    },
    async (request, reply) => {
      const formTemplate = await templates.createFormTemplate(db, request.auth.organisationId, request.body)
      return reply.status(201).send({ data: { formTemplate }, message: SUCCESS })
    },
  )

  app.get(
    '/form-templates/:id',
    {
      schema: {
        operationId: 'getFormTemplate',
        tags: TAGS,
        summary: 'Get a form template',
        description: "One of the organisation's form templates, with its fields.",
        params: IdParams,
        response: { 200: FormTemplateResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: {
        formTemplate: await templates.getFormTemplate(db, request.auth.organisationId, request.params.id),
      },
      message: SUCCESS,
    }),
  )

  app.patch(
    '/form-templates/:id',
    {
      schema: {
        operationId: 'updateFormTemplate',
        tags: TAGS,
        summary: 'Update a form template',
        description:
          'Only supplied fields change; `fields` replaces the whole list. Submissions already made keep their ' +
          'answers. Deactivating a template means no job needs it any more.',
        params: IdParams,
        body: UpdateFormTemplateBody,
        response: { 200: FormTemplateResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS },
      },
    },
    async (request) => ({
      data: {
        formTemplate: await templates.updateFormTemplate(
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
    '/form-templates/:id',
    {
      schema: {
        operationId: 'deleteFormTemplate',
        tags: TAGS,
        summary: 'Delete a form template',
        description: 'No job needs it any more; the submissions that answered it are kept (with its id).',
        params: IdParams,
        response: { 200: DeletedFormTemplateResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS },
      },
    },
    async (request) => ({
      data: {
        formTemplate: await templates.deleteFormTemplate(db, request.auth.organisationId, request.params.id),
      },
      message: SUCCESS,
    }),
  )
}
