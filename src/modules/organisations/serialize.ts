import type { OrganisationRow } from '../../db/types.js'
import type { Organisation } from './schemas.js'

export function serializeOrganisation(row: OrganisationRow): Organisation {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    routing: {
      detourFactor: row.routing_detour_factor,
      speedKmh: row.routing_speed_kmh,
      latenessPenaltyPerMinute: row.routing_lateness_penalty_per_minute,
    },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}
