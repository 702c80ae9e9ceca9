import type { LocationRow } from '../../db/types.js'
import type { Location } from './schemas.js'

export function serializeLocation(row: LocationRow): Location {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    description: row.description,
    address: row.address,
    latitude: row.latitude,
    longitude: row.longitude,
    timezone: row.timezone,
    isPrimary: Boolean(row.is_primary),
    isActive: Boolean(row.is_active),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}
