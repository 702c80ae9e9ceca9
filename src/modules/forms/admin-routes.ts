import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import {
  BODY_ERRORS,
  COMMON_ERRORS,
  ErrorBody,
  IdParams,
  NOT_FOUND_ERROR,
  SUCCESS,
} from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import {
  FormSubmissionListQuery,
  FormSubmissionListResponse,
  FormSubmissionResponse,
  MAX_ANSWERS_BYTES,
  MAX_SUBMISSIONS_PER_PAGE,
  SubmitFormBody,
} from './schemas.js'
import * as forms from './service.js'

const FORMS = ['Forms']

export const formAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { db }) => {
  app.post(
    '/jobs/:id/form-submissions',
    {
      schema: {
        operationId: 'createFormSubmission',
        tags: FORMS,
        summary: 'Submit a form for a job',
        description:
          'Records what was filled in on a job (any status, including COMPLETED and CANCELLED; 404 for a ' +
          'deleted job). `answers` is any JSON object and is kept exactly as sent, up to ' +
          `${MAX_ANSWERS_BYTES / 1024} KiB as JSON (413 PAYLOAD_TOO_LARGE beyond, nothing stored). submittedByUserId, when ` +
          'given, must be a user of your organisation (400 at /body/submittedByUserId). Emits FORM_SUBMITTED ' +
          '{ submissionId, jobId, title, form, answers, submittedByUserId, submittedAt }.',
        params: IdParams,
        body: SubmitFormBody,
        response: {
          201: FormSubmissionResponse,
          ...COMMON_ERRORS,
          ...NOT_FOUND_ERROR,
          ...BODY_ERRORS,
          413: Type.Ref(ErrorBody, {
            description: `Body larger than 1 MiB, or answers larger than ${MAX_ANSWERS_BYTES / 1024} KiB as JSON (PAYLOAD_TOO_LARGE)`,
          }),
        },
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
        operationId: 'listFormSubmissions',
        tags: FORMS,
        summary: "List a job's form submissions",
        description:
          'Newest first, each submission with its answers. Pages hold at most ' +
          `${MAX_SUBMISSIONS_PER_PAGE} submissions (not 100 as other lists), so a page stays under 1.5 MB ` +
          'however large the answers. 404 when the job does not exist or is deleted.',
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
