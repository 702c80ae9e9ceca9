// Values from JSON Schemas: valid ones (so requests also reach the services and succeed), and the
// mutations of a valid body that a hostile or careless client sends.
import fc from 'fast-check'
import {
  boundaryNumbers,
  hostileString,
  hugeString,
  SQL_STRINGS,
  TRAVERSAL_STRINGS,
  UNICODE_STRINGS,
  wrongTypeValue,
} from './hostile.js'
import type { JsonSchema } from './operations.js'

export type Resource =
  | 'jobs'
  | 'customers'
  | 'locations'
  | 'vehicles'
  | 'shifts'
  | 'users'
  | 'tags'
  | 'capacityDimensions'
  | 'apiKeys'
  | 'automations'
  | 'executions'
  | 'routePlans'
  | 'formTemplates'
  | 'absences'
  | 'jobSeries'
  | 'imports'
  | 'attachments'

/** An id to be picked from the pools when the request is sent: generated values stay replayable. */
export class IdRef {
  constructor(
    readonly resource: Resource,
    readonly owner: 'own' | 'foreign',
    readonly index: number,
  ) {}
}

const FIELD_RESOURCES: Record<string, Resource> = {
  customerId: 'customers',
  locationId: 'locations',
  userId: 'users',
  submittedByUserId: 'users',
  shiftId: 'shifts',
  vehicleId: 'vehicles',
  tagIds: 'tags',
  capacityDimensionId: 'capacityDimensions',
  automationId: 'automations',
}

export const resourceOfField = (name: string): Resource | undefined => FIELD_RESOURCES[name]

/**
 * Own ids mostly, another organisation's sometimes. Half the picks favour the seeded rows (the
 * front of each pool: jobs in every state, the automation that has executions), so actions that
 * need a particular state or a matching pair of ids succeed now and then.
 */
export function idRef(resource: Resource, foreignWeight = 1): fc.Arbitrary<IdRef> {
  const owner = fc.oneof(
    { weight: 6, arbitrary: fc.constant('own' as const) },
    { weight: foreignWeight, arbitrary: fc.constant('foreign' as const) },
  )
  const index = fc.oneof(fc.nat(7), fc.nat(1000))
  return fc.tuple(owner, index).map(([o, i]) => new IdRef(resource, o, i))
}

const LEGAL_ODD_STRINGS = [...SQL_STRINGS, ...TRAVERSAL_STRINGS, ...UNICODE_STRINGS.slice(0, 12)]

function isoDateTime(): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.date({
        min: new Date('1970-01-01T00:00:00Z'),
        max: new Date('2100-12-31T00:00:00Z'),
        noInvalidDate: true,
      }),
      fc.constantFrom('Z', 'no-ms', '+02:00', '-05:30', '+14:00', '-12:00'),
    )
    .map(([date, style]) => {
      const iso = date.toISOString()
      if (style === 'Z') return iso
      if (style === 'no-ms') return iso.replace(/\.\d{3}Z$/, 'Z')
      return iso.replace('Z', style)
    })
}

function validString(schema: JsonSchema, name: string): fc.Arbitrary<string> {
  const min: number = schema.minLength ?? 0
  const max: number = schema.maxLength ?? 1000
  const fits = (s: string) => {
    const length = [...s].length
    return length >= min && length <= max && (!schema.pattern || new RegExp(schema.pattern, 'u').test(s))
  }
  if (schema.format === 'date-time') return isoDateTime()
  if (schema.format === 'date')
    return fc
      .date({
        min: new Date('0001-01-01T00:00:00Z'),
        max: new Date('9999-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString().slice(0, 10))
      .filter(fits)
  if (schema.format === 'email') return fc.emailAddress().filter(fits)
  if (name === 'url')
    return fc.constantFrom(
      'http://127.0.0.1:9/hook',
      'https://127.0.0.1:9/h?x=1&y=%20',
      'http://[::1]:9/',
      'http://localhost:9/ü',
    )
  if (name === 'timezone') return fc.constantFrom('Europe/London', 'UTC', 'America/New_York', 'Asia/Kolkata')
  const base =
    schema.pattern && schema.pattern !== '\\S'
      ? fc.stringMatching(new RegExp(schema.pattern)).filter(fits)
      : fc
          .string({ minLength: Math.max(min, 1), maxLength: Math.min(max, 40), unit: 'grapheme' })
          .filter(fits)
  const odd = LEGAL_ODD_STRINGS.filter(fits)
  const atLimit = ['x'.repeat(max), '🚐'.repeat(max)].filter(fits)
  return fc.oneof(
    { weight: 6, arbitrary: base },
    ...(odd.length > 0 ? [{ weight: 3, arbitrary: fc.constantFrom(...odd) }] : []),
    ...(atLimit.length > 0 && max <= 10_000 ? [{ weight: 1, arbitrary: fc.constantFrom(...atLimit) }] : []),
  )
}

function validNumber(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  if (integer)
    return fc.integer({
      min: schema.minimum ?? -(2 ** 31),
      max: schema.maximum ?? 2 ** 31 - 1,
    })
  const hasExclusive = schema.exclusiveMinimum !== undefined
  return fc.double({
    min: schema.minimum ?? schema.exclusiveMinimum ?? -1e9,
    max: schema.maximum ?? 1e9,
    minExcluded: hasExclusive,
    noNaN: true,
    noDefaultInfinity: true,
  })
}

const typesOf = (schema: JsonSchema): string[] =>
  Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []

/** A value the schema accepts (ids come from the pools, so they can still be unknown or foreign). */
export function validValue(schema: JsonSchema, name = ''): fc.Arbitrary<unknown> {
  const types = typesOf(schema)
  if (types.includes('null') && types.length > 1) {
    const nonNull = { ...schema, type: types.find((t) => t !== 'null') }
    return fc.oneof(
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 4, arbitrary: validValue(nonNull, name) },
    )
  }
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]))
  const resource = resourceOfField(name)
  const type = types[0]
  if (resource && type === 'string') return idRef(resource)
  switch (type) {
    case 'string':
      return validString(schema, name)
    case 'integer':
      return validNumber(schema, true)
    case 'number':
      return validNumber(schema, false)
    case 'boolean':
      return fc.boolean()
    case 'array': {
      const item = validValue(schema.items ?? {}, resource ? name : '')
      const constraints = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) }
      return schema.uniqueItems
        ? fc.uniqueArray(item, { ...constraints, selector: (v) => JSON.stringify(v) })
        : fc.array(item, constraints)
    }
    case 'object':
      return validObject(schema)
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

function validObject(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  if (Object.keys(properties).length === 0) {
    if (schema.additionalProperties === false) return fc.constant({})
    return fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 })
  }
  const model: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [name, property] of Object.entries(properties)) model[name] = validValue(property, name)
  return fc.record(model, { requiredKeys: (schema.required ?? []) as string[] }) as fc.Arbitrary<
    Record<string, unknown>
  >
}

const EXTRA_FIELDS = [
  'titel',
  'organisationId',
  'organisation_id',
  'id',
  'createdAt',
  'deletedAt',
  'status',
  'keyHash',
  'isAdmin',
  '',
]

/** A valid body with one thing wrong (or the whole body wrong). */
export function mutatedBody(schema: JsonSchema): fc.Arbitrary<unknown> {
  const properties = Object.keys(schema.properties ?? {})
  const required = (schema.required ?? []) as string[]
  const valid = validObject(schema)
  const field = properties.length > 0 ? fc.constantFrom(...properties) : fc.constant('x')
  const mutations: fc.Arbitrary<(body: Record<string, unknown>) => unknown>[] = [
    fc.tuple(fc.constantFrom(...EXTRA_FIELDS), wrongTypeValue).map(([name, value]) => (body) => ({
      ...body,
      [name]: value,
    })),
    fc.tuple(field, wrongTypeValue).map(([name, value]) => (body) => ({ ...body, [name]: value })),
    fc.tuple(field, hostileString).map(([name, value]) => (body) => ({ ...body, [name]: value })),
    fc.tuple(field, fc.integer({ min: 0, max: 1000 })).chain(([name, i]) =>
      boundaryNumbers(schema.properties?.[name] ?? {}).map((value) => (body: Record<string, unknown>) => ({
        ...body,
        [name]: i % 2 === 0 ? value : [value],
      })),
    ),
    fc.constantFrom<unknown>(null, [], 'body', 42, true, [{}]).map((value) => () => value),
  ]
  if (required.length > 0)
    mutations.push(
      fc.constantFrom(...required).map((name) => (body) => {
        const { [name]: _dropped, ...rest } = body
        return rest
      }),
    )
  const weighted = mutations.map((arbitrary) => ({ weight: 10, arbitrary }))
  weighted.push({
    weight: 1,
    arbitrary: fc.tuple(field, hugeString).map(([name, value]) => (body) => ({ ...body, [name]: value })),
  })
  return fc.tuple(valid, fc.oneof(...weighted)).map(([body, mutate]) => mutate(body))
}

/** Replaces IdRefs with ids from the pools (or an unknown id when a pool is empty). */
export function resolveIds(value: unknown, pick: (ref: IdRef) => string): unknown {
  if (value instanceof IdRef) return pick(value)
  if (Array.isArray(value)) return value.map((item) => resolveIds(item, pick))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveIds(v, pick)]))
  return value
}
