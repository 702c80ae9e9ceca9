import type { TagRow } from './repository.js'
import type { Tag } from './schemas.js'

export function serializeTag(row: TagRow): Tag {
  return { id: row.id, name: row.name, createdAt: row.created_at, updatedAt: row.updated_at }
}
