import type { Kysely, Selectable, Transaction } from 'kysely'
import type { CapacityDimensionsTable, Database } from '../../db/types.js'

type Executor = Kysely<Database> | Transaction<Database>
export type CapacityDimensionRow = Selectable<CapacityDimensionsTable>

export async function insertCapacityDimension(db: Executor, row: CapacityDimensionRow): Promise<void> {
  await db.insertInto('capacity_dimensions').values(row).execute()
}
