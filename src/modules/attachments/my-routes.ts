// The worker's phone: photos and signatures on the signed-in user's own assigned jobs, and reading
// them back (list, content, thumbnail). Any other job is 404, as in the rest of My day.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { AppError } from '../../http/errors.js'
import type { RouteOptions } from '../route-options.js'
import { type Audience, registerReads, registerUpload } from './audience-routes.js'
import { MyUploadQuery, UPLOAD_DESCRIPTION } from './schemas.js'
import type * as attachments from './service.js'

const ONLY_MINE = 'Only the signed-in user’s own assigned jobs: any other job is 404, as if it did not exist.'

/** The signed-in worker (these routes admit sessions only). */
function me(request: FastifyRequest): attachments.Requester {
  const auth = request.auth
  if (auth.kind !== 'session') throw new AppError('UNAUTHORIZED', 'Sign in as the worker to use My day')
  const userId = auth.session.userId
  return { organisationId: auth.organisationId, userId, onlyAssignedTo: userId }
}

const WORKER: Audience = {
  jobsPath: '/my/jobs',
  base: '/v1/admin/my',
  tags: ['My day'],
  who: me,
  list: {
    operationId: 'listMyJobAttachments',
    summary: 'The attachments of one of my jobs',
    description: `Every attachment of the job (whoever added it), newest first. ${ONLY_MINE}`,
  },
  read: {
    content: { operationId: 'getMyJobAttachmentContent', summary: 'An attachment of one of my jobs' },
    thumbnail: {
      operationId: 'getMyJobAttachmentThumbnail',
      summary: 'An attachment’s thumbnail, of one of my jobs',
    },
  },
  readNote: ONLY_MINE,
}

export const myAttachmentRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (
  app,
  { db, attachments: settings },
) => {
  await registerUpload(app, { db, settings }, WORKER, {
    operationId: 'uploadMyJobAttachment',
    summary: 'Attach a photo or signature to one of my jobs',
    description: `${UPLOAD_DESCRIPTION} Workers attach PHOTO and SIGNATURE only, in any job status. ${ONLY_MINE}`,
    querystring: MyUploadQuery,
  })
  registerReads(app, db, settings.store, WORKER)
}
