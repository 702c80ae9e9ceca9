// Every table the organisation archive holds, in the order its records are written and restored
// (a table comes after every table it refers to). This is the one place that says what an archive
// contains: the export reads these tables, the import writes them, docs/archive.md lists them.
// Anything not here is not archived (the list of what is left out, and why, is in docs/archive.md).
import type { Database } from '../../db/types.js'

export interface ArchivedTable {
  /** The record type in the archive (`{ type, data }`): the table's name. */
  type: keyof Database
  /** Whether rows have their own `id` (given a new one on import); otherwise a composite key. */
  hasId: boolean
  /** Columns that hold another archived row's id (remapped on import). */
  references: readonly string[]
  /** Columns of JSON text whose values may hold ids (remapped wherever they appear). */
  json?: readonly string[]
  /** 0/1 on SQLite, true/false on PostgreSQL: written as true/false in the archive. */
  booleans?: readonly string[]
  /** Columns never written to an archive (secrets), nor expected in one. */
  excluded?: readonly string[]
  /** The keyset order of the export (a unique column list). */
  order: readonly string[]
}

const byId = ['id'] as const

export const ARCHIVED_TABLES: readonly ArchivedTable[] = [
  { type: 'tags', hasId: true, references: [], order: byId },
  { type: 'capacity_dimensions', hasId: true, references: [], order: byId },
  { type: 'locations', hasId: true, references: [], booleans: ['is_primary', 'is_active'], order: byId },
  {
    type: 'vehicles',
    hasId: true,
    references: ['location_id'],
    booleans: ['is_active'],
    order: byId,
  },
  {
    type: 'vehicle_tags',
    hasId: false,
    references: ['vehicle_id', 'tag_id'],
    order: ['vehicle_id', 'tag_id'],
  },
  {
    type: 'vehicle_capacities',
    hasId: false,
    references: ['vehicle_id', 'capacity_dimension_id'],
    order: ['vehicle_id', 'capacity_dimension_id'],
  },
  {
    type: 'users',
    hasId: true,
    references: [],
    booleans: ['is_active'],
    // A password hash is a credential of this server, not the organisation's data.
    excluded: ['password_hash', 'password_changed_at'],
    order: byId,
  },
  {
    type: 'shifts',
    hasId: true,
    references: ['user_id', 'location_id', 'vehicle_id'],
    booleans: ['is_generated'],
    order: byId,
  },
  { type: 'shift_breaks', hasId: true, references: ['shift_id'], booleans: ['is_paid'], order: byId },
  { type: 'shift_date_changes', hasId: true, references: ['shift_id'], booleans: ['is_off'], order: byId },
  { type: 'absences', hasId: true, references: ['user_id'], order: byId },
  { type: 'customers', hasId: true, references: [], order: byId },
  {
    type: 'form_templates',
    hasId: true,
    references: ['tag_id'],
    json: ['fields', 'requires'],
    booleans: ['is_active'],
    order: byId,
  },
  { type: 'job_series', hasId: true, references: [], json: ['template'], order: byId },
  {
    type: 'job_series_exceptions',
    hasId: false,
    references: ['series_id'],
    order: ['series_id', 'occurrence_date'],
  },
  {
    type: 'job_number_counters',
    hasId: false,
    references: [],
    order: ['last_number'],
  },
  {
    type: 'jobs',
    hasId: true,
    references: ['customer_id', 'location_id', 'assigned_user_id', 'shift_id', 'series_id'],
    order: byId,
  },
  { type: 'job_tags', hasId: false, references: ['job_id', 'tag_id'], order: ['job_id', 'tag_id'] },
  {
    type: 'job_demands',
    hasId: false,
    references: ['job_id', 'capacity_dimension_id'],
    order: ['job_id', 'capacity_dimension_id'],
  },
  {
    type: 'job_requirements',
    hasId: false,
    references: ['job_id'],
    booleans: ['signature', 'notes'],
    order: ['job_id'],
  },
  {
    type: 'job_completion_notes',
    hasId: false,
    references: ['job_id', 'written_by_user_id'],
    order: ['job_id'],
  },
  {
    type: 'form_submissions',
    hasId: true,
    references: ['job_id', 'submitted_by_user_id', 'template_id'],
    json: ['answers'],
    order: byId,
  },
  {
    type: 'attachments',
    hasId: true,
    references: ['job_id', 'uploaded_by_user_id'],
    // Where this server keeps the bytes: the import stores them under keys of its own.
    excluded: ['content_key', 'thumbnail_key'],
    order: byId,
  },
]

export const ARCHIVED_TYPES: ReadonlySet<string> = new Set(ARCHIVED_TABLES.map((t) => t.type))

/** Organisation columns the header carries (its settings); the id, name and plan stay the target's. */
export const ORGANISATION_SETTINGS = [
  'routing_detour_factor',
  'routing_speed_kmh',
  'routing_lateness_penalty_per_minute',
  'notify_customer_en_route',
  'notify_customer_completed',
  'map_tile_url',
  'map_attribution',
] as const
