// GET /events: the organisation's event log, oldest first — every event the webhooks carry, plus
// JOB_DELETED — so an integrator that missed deliveries (or never had a receiver) can catch up.
import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Envelope, Nullable } from '../../http/schemas.js'
import { EVENT_DATA, FEED_EVENT_TYPES, FEED_ONLY_EVENT_DATA } from './schemas.js'

/** How long the feed keeps events; a cursor older than this → 410 CURSOR_EXPIRED. */
export const EVENT_FEED_DAYS = 30

const FEED_DATA = { ...EVENT_DATA, ...FEED_ONLY_EVENT_DATA }

/** JOB_CREATED → JobCreated */
const pascal = (name: string) =>
  name
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')

/** One event: what a webhook delivery of it carries (`event`, `timestamp`, `data`) and its id. */
export const FeedEvent = Type.Union(
  FEED_EVENT_TYPES.map((event) =>
    Type.Object(
      {
        id: Type.String({ description: 'The event; the delivery log of its webhooks names it as eventId' }),
        event: Type.Literal(event),
        timestamp: DateTime,
        // Its own title: the webhook documents hoist the payload schemas under theirs.
        data: { ...FEED_DATA[event], title: `${pascal(event)}FeedData` },
      },
      { additionalProperties: false, title: `${pascal(event)}FeedEvent` },
    ),
  ),
  { description: 'One of the events, told apart by `event`' },
)
export type FeedEvent = Static<typeof FeedEvent>

export const EventFeedQuery = Type.Object(
  {
    type: Type.Optional(
      Type.String({
        maxLength: 500,
        description: `Only these event types, comma-separated: ${FEED_EVENT_TYPES.join(', ')}`,
        examples: ['JOB_DELETED,STATUS_CHANGED'],
      }),
    ),
    since: Type.Optional(
      Type.String({
        format: 'date-time',
        maxLength: 40,
        description: 'Only events that occurred at or after this instant',
      }),
    ),
    until: Type.Optional(
      Type.String({
        format: 'date-time',
        maxLength: 40,
        description: 'Only events that occurred before this instant',
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        description:
          '`nextCursor` (or `resumeCursor`) of a previous response: the events after it. Older than ' +
          `${EVENT_FEED_DAYS} days → 410 CURSOR_EXPIRED.`,
      }),
    ),
    limit: Type.Integer({
      minimum: 1,
      maximum: 100,
      default: 50,
      description: 'Page size (default 50, max 100)',
    }),
  },
  { additionalProperties: false },
)
export type EventFeedQuery = Static<typeof EventFeedQuery>

export const EventFeedPagination = Type.Object(
  {
    limit: Type.Integer(),
    nextCursor: Nullable(
      Type.String({ description: 'The events after this page; null when this page is the last one for now' }),
    ),
    resumeCursor: Nullable(
      Type.String({
        description:
          'Where to continue later, even from the last page: store it and pass it as `cursor` on your next ' +
          'poll. Null only when no event was returned and no cursor was sent.',
      }),
    ),
  },
  { additionalProperties: false, title: 'EventFeedPagination' },
)

export const EventFeedResponse = Envelope(
  Type.Object({ events: Type.Array(FeedEvent), pagination: EventFeedPagination }),
  'Events in the order they occurred',
)
