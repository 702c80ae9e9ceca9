// The admin API's attachments of a job: dispatchers and admin keys upload, list, read and (ADMIN only)
// delete them. Uploads are the raw request body (http/raw-body.ts) with the metadata in the query.

import type { Readable } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { declaredLength, installRawBodyParser } from '../../http/raw-body.js'
import { BODY_ERRORS, COMMON_ERRORS, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import { sendContent } from './content-reply.js'
import {
  AttachmentListResponse,
  AttachmentParams,
  AttachmentResponse,
  CONTENT_DESCRIPTION,
  CONTENT_RESPONSES,
  DeletedAttachmentResponse,
  JobParams,
  THUMBNAIL_RESPONSES,
  UPLOAD_CONTENT_TYPES,
  UPLOAD_DESCRIPTION,
  UPLOAD_ERRORS,
  UploadQuery,
} from './schemas.js'
import * as attachments from './service.js'

const TAGS = ['Attachments']

function requester(request: FastifyRequest): attachments.Requester {
  const auth = request.auth
  return { organisationId: auth.organisationId, userId: auth.kind === 'session' ? auth.session.userId : null }
}

export const attachmentAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (
  app,
  { db, attachments: settings },
) => {
  // Only the upload reads a raw body: every other route keeps the JSON parser.
  const upload: FastifyPluginAsyncTypebox = async (uploads) => {
    installRawBodyParser(uploads)
    uploads.post(
      '/jobs/:id/attachments',
      {
        config: { rawBody: UPLOAD_CONTENT_TYPES, externalEffects: true },
        schema: {
          operationId: 'uploadJobAttachment',
          tags: TAGS,
          summary: 'Attach a photo, signature or file to a job',
          description: `${UPLOAD_DESCRIPTION} A FILE may be up to 25 MiB. The uploader is the signed-in user (null through an API key).`,
          params: JobParams,
          querystring: UploadQuery,
          response: { 201: AttachmentResponse, ...UPLOAD_ERRORS },
        },
      },
      async (request, reply) => {
        const attachment = await attachments.addAttachment(
          db,
          settings,
          requester(request),
          request.params.id,
          {
            query: request.query,
            body: request.body as Readable | undefined,
            declaredLength: declaredLength(request),
          },
          '/v1/admin',
        )
        return reply.status(201).send({ data: { attachment }, message: SUCCESS })
      },
    )
  }
  await app.register(upload)

  app.get(
    '/jobs/:id/attachments',
    {
      schema: {
        operationId: 'listJobAttachments',
        tags: TAGS,
        summary: "A job's attachments",
        description: 'Every attachment of the job, newest first.',
        params: JobParams,
        response: { 200: AttachmentListResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: {
        attachments: await attachments.listAttachments(
          db,
          requester(request),
          request.params.id,
          '/v1/admin',
        ),
      },
      message: SUCCESS,
    }),
  )

  for (const part of ['content', 'thumbnail'] as const) {
    app.get(
      `/jobs/:id/attachments/:attachmentId/${part}`,
      {
        schema: {
          operationId: part === 'content' ? 'getJobAttachmentContent' : 'getJobAttachmentThumbnail',
          tags: TAGS,
          summary: part === 'content' ? "An attachment's content" : "An attachment's thumbnail",
          description: CONTENT_DESCRIPTION[part],
          params: AttachmentParams,
          response: part === 'content' ? CONTENT_RESPONSES : THUMBNAIL_RESPONSES,
        },
      },
      async (request, reply) => {
        const { id, attachmentId } = request.params
        const opened = await attachments.readAttachment(
          db,
          settings.store,
          requester(request),
          id,
          attachmentId,
          part,
        )
        return sendContent(request, reply, opened)
      },
    )
  }

  app.delete(
    '/jobs/:id/attachments/:attachmentId',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'deleteJobAttachment',
        tags: TAGS,
        summary: 'Delete an attachment',
        description:
          'Removes the attachment and its stored content (and thumbnail), freeing its bytes of the ' +
          "organisation's quota. ADMIN only (not dispatchers, never workers); allowed in every job status, " +
          'a COMPLETED job’s proof included (a photo taken by mistake, personal data to erase). No event is sent.',
        params: AttachmentParams,
        response: { 200: DeletedAttachmentResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR, ...BODY_ERRORS },
      },
    },
    async (request) => {
      const { id, attachmentId } = request.params
      const deleted = await attachments.deleteAttachment(
        db,
        settings.store,
        request.auth.organisationId,
        id,
        attachmentId,
      )
      return { data: { attachment: deleted }, message: SUCCESS }
    },
  )
}
