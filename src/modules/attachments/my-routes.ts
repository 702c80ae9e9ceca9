// The worker's phone: photos and signatures on the signed-in user's own assigned jobs, and reading
// them back (list, content, thumbnail). Any other job is 404, as in the rest of My day.
import type { Readable } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { AppError } from '../../http/errors.js'
import { declaredLength, installRawBodyParser } from '../../http/raw-body.js'
import { COMMON_ERRORS, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import { sendContent } from './content-reply.js'
import {
  AttachmentListResponse,
  AttachmentParams,
  AttachmentResponse,
  CONTENT_DESCRIPTION,
  CONTENT_RESPONSES,
  JobParams,
  MyUploadQuery,
  THUMBNAIL_RESPONSES,
  UPLOAD_CONTENT_TYPES,
  UPLOAD_DESCRIPTION,
  UPLOAD_ERRORS,
} from './schemas.js'
import * as attachments from './service.js'

const TAGS = ['My day']
const ONLY_MINE = 'Only the signed-in user’s own assigned jobs: any other job is 404, as if it did not exist.'

/** The signed-in worker (these routes admit sessions only). */
function me(request: FastifyRequest): attachments.Requester {
  const auth = request.auth
  if (auth.kind !== 'session') throw new AppError('UNAUTHORIZED', 'Sign in as the worker to use My day')
  const userId = auth.session.userId
  return { organisationId: auth.organisationId, userId, onlyAssignedTo: userId }
}

export const myAttachmentRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (
  app,
  { db, attachments: settings },
) => {
  // Only the upload reads a raw body: every other route keeps the JSON parser.
  const upload: FastifyPluginAsyncTypebox = async (uploads) => {
    installRawBodyParser(uploads)
    uploads.post(
      '/my/jobs/:id/attachments',
      {
        config: { rawBody: UPLOAD_CONTENT_TYPES, externalEffects: true },
        schema: {
          operationId: 'uploadMyJobAttachment',
          tags: TAGS,
          summary: 'Attach a photo or signature to one of my jobs',
          description: `${UPLOAD_DESCRIPTION} Workers attach PHOTO and SIGNATURE only, in any job status. ${ONLY_MINE}`,
          params: JobParams,
          querystring: MyUploadQuery,
          response: { 201: AttachmentResponse, ...UPLOAD_ERRORS },
        },
      },
      async (request, reply) => {
        const attachment = await attachments.addAttachment(
          db,
          settings,
          me(request),
          request.params.id,
          {
            query: request.query,
            body: request.body as Readable | undefined,
            declaredLength: declaredLength(request),
          },
          '/v1/admin/my',
        )
        return reply.status(201).send({ data: { attachment }, message: SUCCESS })
      },
    )
  }
  await app.register(upload)

  app.get(
    '/my/jobs/:id/attachments',
    {
      schema: {
        operationId: 'listMyJobAttachments',
        tags: TAGS,
        summary: 'The attachments of one of my jobs',
        description: `Every attachment of the job (whoever added it), newest first. ${ONLY_MINE}`,
        params: JobParams,
        response: { 200: AttachmentListResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: {
        attachments: await attachments.listAttachments(db, me(request), request.params.id, '/v1/admin/my'),
      },
      message: SUCCESS,
    }),
  )

  for (const part of ['content', 'thumbnail'] as const) {
    app.get(
      `/my/jobs/:id/attachments/:attachmentId/${part}`,
      {
        schema: {
          operationId: part === 'content' ? 'getMyJobAttachmentContent' : 'getMyJobAttachmentThumbnail',
          tags: TAGS,
          summary:
            part === 'content'
              ? 'An attachment of one of my jobs'
              : 'An attachment’s thumbnail, of one of my jobs',
          description: `${CONTENT_DESCRIPTION[part]} ${ONLY_MINE}`,
          params: AttachmentParams,
          response: part === 'content' ? CONTENT_RESPONSES : THUMBNAIL_RESPONSES,
        },
      },
      async (request, reply) => {
        const { id, attachmentId } = request.params
        const opened = await attachments.readAttachment(
          db,
          settings.store,
          me(request),
          id,
          attachmentId,
          part,
        )
        return sendContent(request, reply, opened)
      },
    )
  }
}
