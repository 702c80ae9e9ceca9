import type { Kysely, Transaction } from 'kysely'
import { sqlBool } from '../../db/database.js'
import type { Database, ShiftBreakRow, ShiftRow } from '../../db/types.js'

type Executor = Kysely<Database> | Transaction<Database>

export async function insertShift(db: Executor, row: ShiftRow): Promise<void> {
  await db
    .insertInto('shifts')
    .values({ ...row, is_generated: sqlBool(Boolean(row.is_generated)) })
    .execute()
}

export async function insertShiftBreak(db: Executor, row: ShiftBreakRow): Promise<void> {
  await db
    .insertInto('shift_breaks')
    .values({ ...row, is_paid: sqlBool(Boolean(row.is_paid)) })
    .execute()
}
