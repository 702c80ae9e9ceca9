// The event feed: an organisation's outbox read oldest first, as webhooks would have carried it.
// Events of the last few seconds are held back like the lists' change feed (list-order.ts): an
// event is stamped before its transaction commits, so one stamped earlier may still be invisible.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { type Kysely, sql } from 'kysely'
import type { Database, Executor } from '../../db/types.js'
import { INSTANT_EXPECTED, toStoredInstant } from '../../db/values.js'
import { decodeCursor, encodeCursor } from '../../http/cursor.js'
import { AppError, validationError } from '../../http/errors.js'
import { COMMON_ERRORS, errorResponses, SUCCESS } from '../../http/schemas.js'
import {
  EVENT_FEED_DAYS,
  type EventFeedQuery,
  EventFeedQuery as EventFeedQuerySchema,
  EventFeedResponse,
  type FeedEvent,
} from './feed-schemas.js'
import { FEED_EVENT_TYPES, type FeedEventType } from './schemas.js'

const DAY_MS = 86_400_000

interface OutboxRow {
  id: string
  event: string
  data: string
  occurred_at: string
}

function typesOf(raw: string | undefined): FeedEventType[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined
  const types = raw.split(',').map((type) => type.trim())
  const unknown = types.filter((type) => !(FEED_EVENT_TYPES as string[]).includes(type))
  if (unknown.length > 0) {
    throw validationError(
      '/query/type',
      `has unknown event types (${unknown.join(', ')}); use ${FEED_EVENT_TYPES.join(', ')}`,
    )
  }
  return [...new Set(types)] as FeedEventType[]
}

function instant(raw: string | undefined, field: string): string | undefined {
  if (raw === undefined) return undefined
  const time = toStoredInstant(raw)
  if (time === undefined) throw validationError(`/query/${field}`, INSTANT_EXPECTED)
  return time
}

export async function readEventFeed(
  db: Executor,
  organisationId: string,
  query: EventFeedQuery,
  settleMs: number,
  now = Date.now(),
): Promise<{
  events: FeedEvent[]
  pagination: { limit: number; nextCursor: string | null; resumeCursor: string | null }
}> {
  const types = typesOf(query.type)
  const since = instant(query.since, 'since')
  const until = instant(query.until, 'until')
  const horizon = new Date(now - settleMs).toISOString()
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, 'events')
  if (after && after.at < new Date(now - EVENT_FEED_DAYS * DAY_MS).toISOString()) {
    throw new AppError(
      'CURSOR_EXPIRED',
      `The cursor points to ${after.at}, before the ${EVENT_FEED_DAYS} days the event feed keeps: events after it ` +
        'may be gone. Resync from the lists with updatedSince, then read the feed from now on.',
    )
  }
  const end =
    until !== undefined && until < horizon
      ? { at: until, inclusive: false }
      : { at: horizon, inclusive: true }
  const rows = (await db
    .selectFrom('outbox_events')
    .select(['id', 'event', 'data', 'occurred_at'])
    .where('organisation_id', '=', organisationId)
    .$if(types !== undefined, (q) => q.where('event', 'in', types as string[]))
    .$if(since !== undefined, (q) => q.where('occurred_at', '>=', since as string))
    .where('occurred_at', end.inclusive ? '<=' : '<', end.at)
    .$if(after !== undefined, (q) => q.where(sql<boolean>`(occurred_at, id) > (${after?.at}, ${after?.id})`))
    .orderBy('occurred_at', 'asc')
    .orderBy('id', 'asc')
    .limit(query.limit + 1)
    .execute()) as OutboxRow[]
  const page = rows.slice(0, query.limit)
  const last = page.at(-1)
  const lastCursor = last
    ? encodeCursor({ at: isoOf(last.occurred_at), id: last.id }, 'events')
    : (query.cursor ?? null)
  return {
    events: page.map((row) => ({
      id: row.id,
      event: row.event,
      timestamp: isoOf(row.occurred_at),
      data: JSON.parse(row.data),
    })) as FeedEvent[],
    pagination: {
      limit: query.limit,
      nextCursor: rows.length > query.limit ? lastCursor : null,
      resumeCursor: lastCursor,
    },
  }
}

/** PostgreSQL's driver may hand back a Date or a string with another offset: always ISO with ms in UTC. */
function isoOf(value: string | Date): string {
  return (value instanceof Date ? value : new Date(value)).toISOString()
}

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
        querystring: EventFeedQuerySchema,
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
