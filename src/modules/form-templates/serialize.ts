import type { FormTemplateRow } from '../../db/types.js'
import type { Requires } from '../completion/schemas.js'
import type { FormField, FormTemplate } from './schemas.js'

export function serializeFormTemplate(row: FormTemplateRow): FormTemplate {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    appliesTo: row.applies_to,
    tagId: row.tag_id,
    fields: JSON.parse(row.fields) as FormField[],
    isActive: Boolean(row.is_active),
    requires: JSON.parse(row.requires) as Requires,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}
