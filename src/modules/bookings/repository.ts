// Booking holds: one row per offered window, found by the SHA-256 of its token, used once.
import { sql, type Transaction } from 'kysely'
import { isPostgres } from '../../db/dialect.js'
import type { BookingHoldsTable, Database, Executor } from '../../db/types.js'

export type BookingHoldRow = BookingHoldsTable

export async function insertHolds(db: Executor, rows: readonly BookingHoldRow[]): Promise<void> {
  // Chunks keep every statement under both engines' parameter limits.
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('booking_holds')
      .values(rows.slice(i, i + 200))
      .execute()
  }
}

/** The hold of a token hash in this organisation; another organisation's is not found. */
export async function findHold(
  db: Executor,
  organisationId: string,
  tokenHash: string,
): Promise<BookingHoldRow | undefined> {
  return db
    .selectFrom('booking_holds')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst()
}

/** Marks the hold used unless it already is; false when another request used it first. */
export async function useHold(
  db: Executor,
  organisationId: string,
  id: string,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('booking_holds')
    .set({ used_at: at })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/**
 * Serializes bookings of one shift until the transaction ends: PostgreSQL takes a transaction-scoped
 * advisory lock on the shift's id; SQLite writers are exclusive already.
 */
export async function lockShiftForBooking(trx: Transaction<Database>, shiftId: string): Promise<void> {
  if (!isPostgres(trx)) return
  await sql`select pg_advisory_xact_lock(hashtextextended(${`booking:${shiftId}`}, 0))`.execute(trx)
}

export async function deleteExpiredHolds(
  db: Executor,
  organisationId: string,
  before: string,
): Promise<void> {
  await db
    .deleteFrom('booking_holds')
    .where('organisation_id', '=', organisationId)
    .where('expires_at', '<', before)
    .execute()
}
