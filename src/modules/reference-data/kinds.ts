// Reference data: the small, organisation-wide lists that vehicles and jobs refer to by id. Tags and
// capacity dimensions are two kinds of it, with the same routes, rules and errors; what differs is
// this configuration (table, fields, which field is unique, what refers to a row, and the words).
import { type TSchema, Type } from '@sinclair/typebox'
import type { Database } from '../../db/types.js'

/** The columns every kind has; the others are its fields, all strings. */
export interface BaseRow {
  id: string
  organisation_id: string
  created_at: string
  updated_at: string
}

export type FieldsOf<Row extends BaseRow> = Omit<Row, keyof BaseRow>

export interface ReferenceKind<Row extends BaseRow = BaseRow> {
  table: 'tags' | 'capacity_dimensions'
  /** Request schemas of the fields, in response order (each field is a column of the same name). */
  bodyFields: { [F in keyof FieldsOf<Row>]: TSchema }
  /** Response schemas of the fields. */
  resourceFields: { [F in keyof FieldsOf<Row>]: TSchema }
  /** The field unique within an organisation; the conflict `details` point at it. */
  uniqueField: keyof FieldsOf<Row> & string
  /** Tags: "Gas Safe" and "gas safe" are the same name (a change of case alone is a rename). */
  uniqueIgnoringCase: boolean
  /** Fields whose leading and trailing spaces are removed before anything else. */
  trimmedFields: readonly (keyof FieldsOf<Row> & string)[]
  /** Where vehicles and jobs refer to a row (jobs only while they are not deleted). */
  usage: {
    vehicles: keyof Database & ('vehicle_tags' | 'vehicle_capacities')
    jobs: keyof Database & ('job_tags' | 'job_demands')
    column: 'tag_id' | 'capacity_dimension_id'
  }
  names: {
    /** PascalCase: the schema title and the end of each operationId (listTags, getTag). */
    singular: string
    plural: string
    /** In messages: `Tag not found`. */
    noun: string
    /** The collection path and the OpenAPI tag. */
    path: string
    openApiTag: string
    /** `data.tag`, `data.tags`. */
    property: string
    listProperty: string
  }
  messages: {
    taken(value: string): string
    /** What to do about the vehicles and jobs that still refer to a row. */
    inUseRemedy: string
  }
  examples: { create: Record<string, string>; update: Record<string, string> }
  docs: Record<'list' | 'create' | 'get' | 'update' | 'delete', { summary: string; description: string }> & {
    taken: string
    inUse: string
  }
}

const TagName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  description:
    'Unique within the organisation, compared case-insensitively; leading and trailing spaces are removed',
  examples: ['gas-safe'],
})

export const TAGS: ReferenceKind<Database['tags']> = {
  table: 'tags',
  bodyFields: { name: TagName },
  resourceFields: { name: Type.String() },
  uniqueField: 'name',
  uniqueIgnoringCase: true,
  trimmedFields: ['name'],
  usage: { vehicles: 'vehicle_tags', jobs: 'job_tags', column: 'tag_id' },
  names: {
    singular: 'Tag',
    plural: 'Tags',
    noun: 'Tag',
    path: '/tags',
    openApiTag: 'Tags',
    property: 'tag',
    listProperty: 'tags',
  },
  messages: {
    taken: (name) => `Your organisation already has a tag named "${name}"`,
    inUseRemedy: 'remove it from them first',
  },
  examples: { create: { name: 'gas-safe' }, update: { name: 'gas-safe-certified' } },
  docs: {
    list: {
      summary: 'List tags',
      description: 'Tags describe skills and equipment; vehicles and jobs carry them.',
    },
    create: {
      summary: 'Create a tag',
      description: 'The name is unique within the organisation, ignoring case.',
    },
    get: { summary: 'Get a tag', description: "One of the organisation's tags." },
    update: {
      summary: 'Rename a tag',
      description:
        'Vehicles and jobs refer to the tag by id: the public API shows the new name on them at once.',
    },
    delete: {
      summary: 'Delete a tag',
      description:
        'Refused with 409 IN_USE while a vehicle or a job that is not deleted carries the tag, or a job ' +
        'series that has not ended gives it to its jobs (the message says how many); deleted jobs lose the ' +
        'tag silently.',
    },
    taken: 'Another tag of the organisation has this name',
    inUse: 'Vehicles or jobs still carry the tag',
  },
}

const DimensionKey = Type.String({
  pattern: '^[a-z][a-z0-9_]{0,62}$',
  maxLength: 63,
  description: 'a lowercase letter, then up to 62 lowercase letters, digits or underscores',
  examples: ['weight_kg'],
})
const DimensionLabel = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  examples: ['Weight (kg)'],
})

export const CAPACITY_DIMENSIONS: ReferenceKind<Database['capacity_dimensions']> = {
  table: 'capacity_dimensions',
  bodyFields: { key: DimensionKey, label: DimensionLabel },
  resourceFields: {
    key: Type.String({ description: 'Unique within the organisation' }),
    label: Type.String(),
  },
  uniqueField: 'key',
  uniqueIgnoringCase: false,
  trimmedFields: [],
  usage: { vehicles: 'vehicle_capacities', jobs: 'job_demands', column: 'capacity_dimension_id' },
  names: {
    singular: 'CapacityDimension',
    plural: 'CapacityDimensions',
    noun: 'Capacity dimension',
    path: '/capacity-dimensions',
    openApiTag: 'Capacity dimensions',
    property: 'capacityDimension',
    listProperty: 'capacityDimensions',
  },
  messages: {
    taken: (key) => `Your organisation already has a capacity dimension with the key "${key}"`,
    inUseRemedy: 'remove their capacities and demands in it first',
  },
  examples: { create: { key: 'weight_kg', label: 'Weight (kg)' }, update: { label: 'Payload (kg)' } },
  docs: {
    list: {
      summary: 'List capacity dimensions',
      description:
        'What vehicles carry and jobs need is measured in dimensions such as weight or volume: vehicles ' +
        'have a maximum and jobs a demand in each.',
    },
    create: {
      summary: 'Create a capacity dimension',
      description: 'The key is unique within the organisation.',
    },
    get: {
      summary: 'Get a capacity dimension',
      description: "One of the organisation's capacity dimensions.",
    },
    update: {
      summary: 'Change the key or label of a capacity dimension',
      description:
        'Capacities and demands refer to the dimension by id: the public API shows the new key and ' +
        'label on vehicles and jobs at once.',
    },
    delete: {
      summary: 'Delete a capacity dimension',
      description:
        'Refused with 409 IN_USE while a vehicle has a capacity, or a job that is not deleted or a job ' +
        'series that has not ended a demand, in the dimension (the message says how many); demands of ' +
        'deleted jobs go with it.',
    },
    taken: 'Another capacity dimension of the organisation has this key',
    inUse: 'Vehicle capacities or job demands still use the dimension',
  },
}
