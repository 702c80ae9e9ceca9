import type { OrganisationRow } from '../../db/types.js'
import type { MapSettings, Organisation } from './schemas.js'

/** `smtpConfigured`: whether this process can send customer emails (SMTP_URL is set). */
export function serializeOrganisation(row: OrganisationRow, smtpConfigured: boolean): Organisation {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    routing: {
      detourFactor: row.routing_detour_factor,
      speedKmh: row.routing_speed_kmh,
      latenessPenaltyPerMinute: row.routing_lateness_penalty_per_minute,
    },
    notifications: {
      customerEmails: {
        enRoute: Boolean(row.notify_customer_en_route),
        completed: Boolean(row.notify_customer_completed),
        smtpConfigured,
      },
    },
    map: serializeMapSettings(row),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export function serializeMapSettings(
  row: Pick<OrganisationRow, 'map_tile_url' | 'map_attribution'>,
): MapSettings {
  return { tileUrl: row.map_tile_url ?? null, attribution: row.map_attribution ?? null }
}
