import type { ShiftBreakRow } from '../../db/types.js'
import type { ShiftListedRow } from './repository.js'
import type { Shift } from './schemas.js'

export function serializeShift(row: ShiftListedRow, breaks: readonly ShiftBreakRow[]): Shift {
  return {
    id: row.id,
    userId: row.user_id,
    locationId: row.location_id,
    vehicleId: row.vehicle_id,
    day: row.day,
    startTime: row.start_time,
    endTime: row.end_time,
    isGenerated: Boolean(row.is_generated),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    user: { id: row.user_id, name: row.user_name, email: row.user_email },
    location: { id: row.location_id, name: row.location_name },
    vehicle: { id: row.vehicle_id, name: row.vehicle_name },
    breaks: breaks.map((b) => ({
      id: b.id,
      startTime: b.start_time,
      endTime: b.end_time,
      isPaid: Boolean(b.is_paid),
    })),
  }
}
