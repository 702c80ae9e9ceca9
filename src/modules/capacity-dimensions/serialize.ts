import type { CapacityDimensionRow } from './repository.js'
import type { CapacityDimension } from './schemas.js'

export function serializeCapacityDimension(row: CapacityDimensionRow): CapacityDimension {
  return {
    id: row.id,
    key: row.key,
    label: row.label,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}
