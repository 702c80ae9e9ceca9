// The event feed's route: GET /events (feed-service.ts reads the outbox).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/types.js'
import { COMMON_ERRORS, errorResponses, SUCCESS } from '../../http/schemas.js'
import { EVENT_FEED_DAYS, EventFeedQuery, EventFeedResponse } from './feed-schemas.js'
import { readEventFeed } from './feed-service.js'

export const eventFeedRoutes: FastifyPluginAsyncTypebox<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.get(
    '/events',
    {
      schema: {
        operationId: 'listEvents',
        tags: ['Events'],
        summary: 'Read the event feed',
        description:
          'Every event of your organisation of the last ' +
          `${EVENT_FEED_DAYS} days, oldest first: the events webhooks carry (with the same data), plus ` +
          'JOB_DELETED when a job is deleted (no webhook carries it). Follow `nextCursor` to the end, store ' +
          '`resumeCursor`, and poll with it later: nothing is skipped or repeated. Events of the last 5 seconds ' +
          'appear on the next read (every write stamped earlier has committed by then).',
        querystring: EventFeedQuery,
        response: {
          200: EventFeedResponse,
          ...COMMON_ERRORS,
          ...errorResponses('CURSOR_EXPIRED'),
        },
      },
    },
    async (request) => ({
      data: await readEventFeed(db, request.auth.organisationId, request.query, app.changeSettleMs),
      message: SUCCESS,
    }),
  )
}
