// How far webhook dispatch is behind, read at scrape time. Both queries run on the partial index of
// undispatched events (outbox_events_pending_idx), and the count stops at a cap, so a large backlog
// costs a bounded scan rather than a count of the whole table.
import { type Kysely, sql } from 'kysely'
import type { Database } from '../db/types.js'

export const PENDING_COUNT_CAP = 100_000

export interface OutboxLag {
  pendingEvents: number
  /** Seconds since the oldest undispatched event occurred; 0 when none is waiting. */
  oldestAgeSeconds: number
}

export async function readOutboxLag(db: Kysely<Database>, timeoutMs: number): Promise<OutboxLag> {
  const pending = db
    .selectFrom('outbox_events')
    .select(sql<number>`1`.as('one'))
    .where('dispatched_at', 'is', null)
    .limit(PENDING_COUNT_CAP)
    .as('pending')
  const query = Promise.all([
    db
      .selectFrom(pending)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirst(),
    db
      .selectFrom('outbox_events')
      .select('occurred_at')
      .where('dispatched_at', 'is', null)
      .orderBy('occurred_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst(),
  ])
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('outbox lag query timed out')), timeoutMs)
  })
  const [count, oldest] = await Promise.race([query, timeout]).finally(() => clearTimeout(timer))
  const ageMs = oldest ? Date.now() - Date.parse(oldest.occurred_at) : 0
  return { pendingEvents: Number(count?.count ?? 0), oldestAgeSeconds: Math.max(0, ageMs / 1000) }
}
