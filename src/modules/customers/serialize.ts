import type { CustomerRow } from '../../db/types.js'
import type { Customer } from './schemas.js'

export function serializeCustomer(row: CustomerRow): Customer {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    latitude: row.latitude,
    longitude: row.longitude,
    serviceDuration: row.service_duration,
    priority: row.priority,
    timeWindowType: row.time_window_type,
    operationalStart: row.operational_start,
    operationalEnd: row.operational_end,
    email: row.email,
    phone: row.phone,
    notes: row.notes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    externalId: row.external_id,
  }
}
