import type { VehicleCapacityRow, VehicleListedRow, VehicleTagRow } from './repository.js'
import type { Vehicle } from './schemas.js'

export interface VehicleExtras {
  tags: readonly VehicleTagRow[]
  capacities: readonly VehicleCapacityRow[]
}

export function serializeVehicle(row: VehicleListedRow, extras: VehicleExtras): Vehicle {
  return {
    id: row.id,
    name: row.name,
    locationId: row.location_id,
    fixedCost: row.fixed_cost,
    costPerKm: row.cost_per_km,
    costPerHour: row.cost_per_hour,
    speedFactor: row.speed_factor,
    startLatitude: row.start_latitude,
    startLongitude: row.start_longitude,
    endPolicy: row.end_policy,
    isActive: Boolean(row.is_active),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    location: { id: row.location_id, name: row.location_name },
    tags: extras.tags.map((tag) => ({ tag: { id: tag.id, name: tag.name } })),
    capacities: extras.capacities.map((capacity) => ({
      capacityDimension: { id: capacity.id, key: capacity.key, label: capacity.label },
      maxValue: capacity.max_value,
    })),
  }
}
