// Domain events (spec §6). Services record them in the same transaction as the change they describe,
// so an event exists exactly when its change committed; the webhook dispatcher delivers them later.
// What each event carries is fixed by schemas.ts.
import { newId, nowIso } from '../../db/ids.js'
import type { Executor } from '../../db/types.js'
import { insertOutboxEvent, insertOutboxEvents } from './repository.js'
import type { DomainEvent, EventData, EventType, FeedOnlyEventData, FeedOnlyEventType } from './schemas.js'

export type { DomainEvent, EventData, EventType } from './schemas.js'
export { EVENT_TYPES } from './schemas.js'

/** Writes one event to the outbox. Call it with the transaction that makes the change. */
export async function recordEvent<E extends EventType>(
  trx: Executor,
  organisationId: string,
  event: E,
  data: EventData[E],
  occurredAt: string = nowIso(),
): Promise<void> {
  await recordEvents(trx, organisationId, [{ event, data } as DomainEvent], occurredAt)
}

/** Writes an event only the event feed carries (no automation can subscribe to it). */
export async function recordFeedEvent<E extends FeedOnlyEventType>(
  trx: Executor,
  organisationId: string,
  event: E,
  data: FeedOnlyEventData[E],
  occurredAt: string = nowIso(),
): Promise<void> {
  await insertOutboxEvent(trx, {
    id: newId(),
    organisation_id: organisationId,
    event,
    data: JSON.stringify(data),
    occurred_at: occurredAt,
  })
}

/**
 * Writes the events one change emits, in the order given, with one occurredAt. UUIDv7 ids made in the
 * same millisecond are not ordered among themselves, so the batch's ids are sorted before use: the
 * outbox order (occurred_at, id) is the order given here.
 */
export async function recordEvents(
  trx: Executor,
  organisationId: string,
  events: readonly DomainEvent[],
  occurredAt: string = nowIso(),
): Promise<void> {
  const ids = events.map(() => newId()).sort()
  for (const [i, { event, data }] of events.entries()) {
    await insertOutboxEvent(trx, {
      id: ids[i] as string,
      organisation_id: organisationId,
      event,
      data: JSON.stringify(data),
      occurred_at: occurredAt,
    })
  }
}

/**
 * recordEvents for many events (a route plan applied: thousands) in one statement instead of one each:
 * the same rows, ids and order.
 */
export async function recordEventsInBulk(
  trx: Executor,
  organisationId: string,
  events: readonly DomainEvent[],
  occurredAt: string = nowIso(),
): Promise<void> {
  const ids = events.map(() => newId()).sort()
  const rows = events.map(({ event, data }, i) => ({
    id: ids[i] as string,
    event,
    data: JSON.stringify(data),
  }))
  await insertOutboxEvents(trx, organisationId, occurredAt, rows)
}
