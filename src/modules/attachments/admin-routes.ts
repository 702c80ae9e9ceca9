// The admin API's attachments of a job: dispatchers and admin keys upload, list, read and (ADMIN only)
// delete them. Uploads are the raw request body (http/raw-body.ts) with the metadata in the query.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { BODY_ERRORS, COMMON_ERRORS, NOT_FOUND_ERROR, SUCCESS } from '../../http/schemas.js'
import type { RouteOptions } from '../route-options.js'
import { type Audience, registerReads, registerUpload } from './audience-routes.js'
import { AttachmentParams, DeletedAttachmentResponse, UPLOAD_DESCRIPTION, UploadQuery } from './schemas.js'
import * as attachments from './service.js'

function requester(request: FastifyRequest): attachments.Requester {
  const auth = request.auth
  return { organisationId: auth.organisationId, userId: auth.kind === 'session' ? auth.session.userId : null }
}

const DISPATCH: Audience = {
  jobsPath: '/jobs',
  base: '/v1/admin',
  tags: ['Attachments'],
  who: requester,
  list: {
    operationId: 'listJobAttachments',
    summary: "A job's attachments",
    description: 'Every attachment of the job, newest first.',
  },
  read: {
    content: { operationId: 'getJobAttachmentContent', summary: "An attachment's content" },
    thumbnail: { operationId: 'getJobAttachmentThumbnail', summary: "An attachment's thumbnail" },
  },
}

export const attachmentAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (
  app,
  { db, attachments: settings },
) => {
  await registerUpload(app, { db, settings }, DISPATCH, {
    operationId: 'uploadJobAttachment',
    summary: 'Attach a photo, signature or file to a job',
    description: `${UPLOAD_DESCRIPTION} A FILE may be up to 25 MiB. The uploader is the signed-in user (null through an API key).`,
    querystring: UploadQuery,
  })
  registerReads(app, db, settings.store, DISPATCH)

  app.delete(
    '/jobs/:id/attachments/:attachmentId',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'deleteJobAttachment',
        tags: DISPATCH.tags,
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
