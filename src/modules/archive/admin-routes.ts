// GET /v1/admin/export: the organisation's whole data as one archive (docs/archive.md), ADMIN only —
// what a company takes with it when it leaves. Streamed as it is read; `fieldservice import` restores it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../http/schemas.js'
import { BinaryContent } from '../attachments/schemas.js'
import type { RouteOptions } from '../route-options.js'
import { archiveStream } from './export.js'

const EXPORT_RESPONSES = {
  200: BinaryContent(
    "The organisation's archive: gzip'd NDJSON, a header line then one `{ type, data }` line per record (docs/archive.md)",
    ['application/gzip'],
  ),
  ...errorResponses('UNAUTHORIZED', 'FORBIDDEN', 'PLAN_UPGRADE_REQUIRED', 'RATE_LIMITED'),
}

export const archiveAdminRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (
  app,
  { db, attachments, clock },
) => {
  app.get(
    '/export',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'exportOrganisation',
        tags: ['Organisation'],
        summary: "Download the organisation's whole data",
        description:
          'Everything the organisation keeps here — tags, capacity dimensions, depots, vehicles, the team, ' +
          'shifts and absences, customers, form templates, job series, jobs with their requirements, notes ' +
          'and form answers, and attachments with their bytes — as one gzip’d NDJSON archive, streamed as ' +
          'it is read. Passwords, sessions, API keys, automations and logs are not in it. ' +
          '`fieldservice import` restores it into an empty organisation. ADMIN only (403 for dispatchers).',
        response: EXPORT_RESPONSES,
      },
    },
    async (request, reply) => {
      const organisationId = request.auth.organisationId
      const exportedAt = new Date(clock()).toISOString()
      const day = exportedAt.slice(0, 10)
      reply
        .type('application/gzip')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="fieldservice-archive-${day}.ndjson.gz"`)
      // A stream is sent as it is read; the 200 schema documents the bytes it makes.
      return reply.send(archiveStream(db, attachments.store, organisationId, exportedAt) as unknown as string)
    },
  )
}
