// The event feed: an organisation's outbox read oldest first, as webhooks would have carried it.
// Events of the last few seconds are held back like the lists' change feed (list-order.ts): an
// event is stamped before its transaction commits, so one stamped earlier may still be invisible.
import type { Executor } from '../../db/types.js'
import { INSTANT_EXPECTED, toStoredInstant } from '../../db/values.js'
import { decodeCursor, encodeCursor } from '../../http/cursor.js'
import { AppError, validationError } from '../../http/errors.js'
import { EVENT_FEED_DAYS, type EventFeedQuery, type FeedEvent } from './feed-schemas.js'
import { findOutboxPage } from './repository.js'
import { FEED_EVENT_TYPES, type FeedEventType } from './schemas.js'

const DAY_MS = 86_400_000

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
  const rows = await findOutboxPage(db, organisationId, {
    types,
    since,
    end,
    after,
    limit: query.limit + 1,
  })
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
