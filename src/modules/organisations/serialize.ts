import type { OrganisationRow } from '../../db/types.js'
import type { Organisation } from './schemas.js'

export function serializeOrganisation(row: OrganisationRow): Organisation {
  return { id: row.id, name: row.name, plan: row.plan, createdAt: row.created_at, updatedAt: row.updated_at }
}
