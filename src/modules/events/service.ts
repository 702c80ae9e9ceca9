// Domain events (spec §6). Services record them in the same transaction as the change they describe,
// so an event exists exactly when its change committed; the webhook dispatcher delivers them later.
import { newId, nowIso } from '../../db/ids.js'
import type { Executor } from '../../db/types.js'
import { insertOutboxEvent } from './repository.js'

export const EVENT_TYPES = [
  'JOB_CREATED',
  'JOB_UPDATED',
  'STATUS_CHANGED',
  'JOB_ASSIGNED',
  'JOB_UNASSIGNED',
  'JOB_COMPLETED',
  'JOB_CANCELLED',
  'FORM_SUBMITTED',
] as const
export type EventType = (typeof EVENT_TYPES)[number]

/** Writes one event to the outbox. Call it with the transaction that makes the change. */
export async function recordEvent(
  trx: Executor,
  organisationId: string,
  event: EventType,
  data: Record<string, unknown>,
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
