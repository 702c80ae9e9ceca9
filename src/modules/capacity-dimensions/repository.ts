import type { Selectable } from 'kysely'
import type { CapacityDimensionsTable, Executor } from '../../db/types.js'

export type CapacityDimensionRow = Selectable<CapacityDimensionsTable>

export async function insertCapacityDimension(db: Executor, row: CapacityDimensionRow): Promise<void> {
  await db.insertInto('capacity_dimensions').values(row).execute()
}
