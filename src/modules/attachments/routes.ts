// The public API reads attachments (read scope), so an ERP can archive the proof of the work: the
// list of a job's attachments, their content and thumbnails. Uploads are the admin API's.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { RouteOptions } from '../route-options.js'
import { registerReads } from './audience-routes.js'

export const attachmentRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (
  app,
  { db, attachments: settings },
) => {
  registerReads(app, db, settings.store, {
    jobsPath: '/jobs',
    base: '/v1/public',
    tags: ['Attachments'],
    who: (request) => ({ organisationId: request.auth.organisationId, userId: null }),
    list: {
      operationId: 'listJobAttachments',
      summary: "A job's attachments",
      description:
        'Photos, signatures (with the signer’s name and time) and files of the job, newest first; ' +
        '`contentUrl` and `thumbnailUrl` point at this API. ATTACHMENT_ADDED announces each new one.',
    },
    read: {
      content: { operationId: 'getJobAttachmentContent', summary: "An attachment's content" },
      thumbnail: { operationId: 'getJobAttachmentThumbnail', summary: "An attachment's thumbnail" },
    },
  })
}
