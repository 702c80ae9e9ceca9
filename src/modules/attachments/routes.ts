// The public API reads attachments (read scope), so an ERP can archive the proof of the work: the
// list of a job's attachments, their content and thumbnails. Uploads are the admin API's.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { COMMON_ERRORS, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import { sendContent } from './content-reply.js'
import {
  AttachmentListResponse,
  AttachmentParams,
  CONTENT_DESCRIPTION,
  CONTENT_RESPONSES,
  JobParams,
  THUMBNAIL_RESPONSES,
} from './schemas.js'
import * as attachments from './service.js'

const TAGS = ['Attachments']

export const attachmentRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (
  app,
  { db, attachments: settings },
) => {
  app.get(
    '/jobs/:id/attachments',
    {
      schema: {
        operationId: 'listJobAttachments',
        tags: TAGS,
        summary: "A job's attachments",
        description:
          'Photos, signatures (with the signer’s name and time) and files of the job, newest first; ' +
          '`contentUrl` and `thumbnailUrl` point at this API. ATTACHMENT_ADDED announces each new one.',
        params: JobParams,
        response: { 200: AttachmentListResponse, ...COMMON_ERRORS, ...NOT_FOUND_ERROR },
      },
    },
    async (request) => ({
      data: {
        attachments: await attachments.listAttachments(
          db,
          { organisationId: request.auth.organisationId, userId: null },
          request.params.id,
          '/v1/public',
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
        const who = { organisationId: request.auth.organisationId, userId: null }
        const opened = await attachments.readAttachment(db, settings.store, who, id, attachmentId, part)
        return sendContent(request, reply, opened)
      },
    )
  }
}
