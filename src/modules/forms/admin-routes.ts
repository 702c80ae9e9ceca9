import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { RouteOptions } from '../../http/route-options.js'
import { BODY_ERRORS, COMMON_ERRORS, IdParams, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import {
  FormSubmissionListQuery,
  FormSubmissionListResponse,
  FormSubmissionResponse,
  SubmitFormBody,
} from './schemas.js'
import * as forms from './service.js'

const FORMS = ['Forms']

export const formAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  app.post(
    '/jobs/:id/form-submissions',
    {
      schema: {
        tags: FORMS,
        summary: 'Submit a form for a job',
        description:
          'Records what was filled in on a job (any status, including COMPLETED and CANCELLED; 404 for a ' +
          'deleted job). `answers` is any JSON object and is kept exactly as sent. submittedByUserId, when ' +
          'given, must be a user of your organisation (400 at /body/submittedByUserId). Emits FORM_SUBMITTED ' +
          '{ submissionId, jobId, title, form, answers, submittedByUserId, submittedAt }.',
        params: IdParams,
        body: SubmitFormBody,
        response: { 201: FormSubmissionResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS },
      },
    },
    async (request, reply) => {
      const formSubmission = await forms.submitForm(
        db,
        request.auth.organisationId,
        request.params.id,
        request.body,
      )
      return reply.status(201).send({ data: { formSubmission }, message: SUCCESS })
    },
  )

  app.get(
    '/jobs/:id/form-submissions',
    {
      schema: {
        tags: FORMS,
        summary: "List a job's form submissions",
        description: 'Newest first. 404 when the job does not exist or is deleted.',
        params: IdParams,
        querystring: FormSubmissionListQuery,
        response: { 200: FormSubmissionListResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: await forms.listFormSubmissions(
        db,
        request.auth.organisationId,
        request.params.id,
        request.query,
      ),
      message: SUCCESS,
    }),
  )
}
