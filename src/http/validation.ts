// Request validation. Bodies are validated strictly: no type coercion, no silent removal of unknown
// fields (both are Fastify defaults), so `"title": 42` and `"titel": "x"` are 400s. Query strings and
// path parameters arrive as text and are coerced ("?page=2" → 2), then validated just as strictly;
// a number in the query must be written in plain decimal digits (Ajv alone would also take "0x10",
// "1e2" and " 10"). No number anywhere may be NaN or ±Infinity (`1e400` parses to Infinity).
// Every Ajv error becomes `{ path, message }` in plain words here, and nowhere else.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import formatsModule from 'ajv-formats'
import type { FastifyInstance, FastifySchemaValidationError } from 'fastify'
import { describeDetail, type ErrorDetail } from './errors.js'

// ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
const addFormats = ((formatsModule as unknown as { default?: typeof formatsModule }).default ??
  formatsModule) as unknown as (ajv: Ajv) => Ajv

function createAjv(coerceTypes: boolean) {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors: true,
    allowUnionTypes: true,
    // NaN and ±Infinity fail `type: number` / `type: integer`, so they are never stored.
    strictNumbers: true,
    // Puts the failing schema on each error, so messages can use its description.
    verbose: true,
    strict: false,
  })
  addFormats(ajv)
  return ajv
}

/**
 * A body schema's validator outside a request, as strict as the request's (no coercion): for rows a
 * CSV import turns into bodies, checked by the same schema as POST. Errors: describeValidationErrors.
 */
export function compileBodyValidator(schema: object): ValidateFunction {
  bodyValidators ??= createAjv(false)
  return bodyValidators.compile(schema)
}
let bodyValidators: Ajv | undefined

export function installValidators(app: FastifyInstance): void {
  const bodyAjv = createAjv(false)
  const textAjv = createAjv(true)
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? bodyAjv.compile(schema) : requirePlainNumbers(schema, textAjv.compile(schema)),
  )
}

const PLAIN_INTEGER = /^-?[0-9]+$/
const PLAIN_DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/

interface PropertySchema {
  type?: string | string[]
}

/**
 * Ajv coerces any text that `+text` turns into a number ("0x10", "1e2", " 10", "Infinity"); a
 * query or path number must be plain decimal digits. Those of the top-level properties are checked
 * before Ajv runs; a value written otherwise fails with Ajv's own `type` error (data still text).
 */
function requirePlainNumbers(schema: unknown, validate: ValidateFunction): ValidateFunction {
  const properties = (schema as { properties?: Record<string, PropertySchema> }).properties ?? {}
  const numeric: { name: string; form: RegExp; type: string; schema: PropertySchema }[] = []
  for (const [name, property] of Object.entries(properties)) {
    const types = ([] as (string | undefined)[]).concat(property.type)
    if (types.includes('integer'))
      numeric.push({ name, form: PLAIN_INTEGER, type: 'integer', schema: property })
    else if (types.includes('number'))
      numeric.push({ name, form: PLAIN_DECIMAL, type: 'number', schema: property })
  }
  if (numeric.length === 0) return validate

  const checked = ((data: unknown, context?: unknown) => {
    const values = data as Record<string, unknown> | null
    let refused: ErrorObject[] | undefined
    for (const { name, form, type, schema } of numeric) {
      const value = values?.[name]
      if (typeof value !== 'string' || form.test(value)) continue
      refused ??= []
      refused.push({
        keyword: 'type',
        instancePath: `/${name}`,
        schemaPath: `#/properties/${name}/type`,
        params: { type },
        message: `must be ${type}`,
        data: value,
        parentSchema: schema as ErrorObject['parentSchema'],
      })
    }
    if (!refused) {
      const valid = validate(data, context as never)
      checked.errors = validate.errors
      return valid
    }
    // The other fields are still reported, as with `allErrors`.
    const rest = { ...values }
    for (const error of refused) delete rest[error.instancePath.slice(1)]
    validate(rest)
    checked.errors = [...refused, ...(validate.errors ?? [])]
    return false
  }) as ValidateFunction
  checked.schema = validate.schema
  checked.schemaEnv = validate.schemaEnv
  return checked
}

const PART_NAMES: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'params',
  headers: 'headers',
}

const plural = (count: unknown, noun: string) => `${count} ${noun}${Number(count) === 1 ? '' : 's'}`

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
}

function typeMessage(expected: string, data: unknown, part: string): string {
  const types = expected.split(',')
  if (
    typeof data === 'number' &&
    !Number.isFinite(data) &&
    types.some((t) => t === 'number' || t === 'integer')
  )
    return 'must be a finite number'
  if (part !== 'body' && typeof data === 'string' && types.includes('integer'))
    return 'must be a whole number written in decimal digits, e.g. 20'
  if (part !== 'body' && typeof data === 'string' && types.includes('number'))
    return 'must be a number written in decimal digits, e.g. 1.5'
  // null last: "must be a string or null".
  const named = types.filter((t) => t !== 'null').map((t) => TYPE_NAMES[t] ?? t)
  if (types.includes('null')) named.push('null')
  return `must be ${named.join(' or ')}`
}

const FORMAT_MESSAGES: Record<string, string> = {
  'date-time': 'must be an ISO 8601 datetime with an offset, e.g. 2026-11-23T09:00:00Z',
  date: 'must be a date, YYYY-MM-DD',
  time: 'must be a time of day with an offset, e.g. 09:00:00Z',
  email: 'must be an email address',
  uri: 'must be an absolute URL',
  url: 'must be an absolute URL',
  uuid: 'must be a UUID',
  ipv4: 'must be an IPv4 address',
  ipv6: 'must be an IPv6 address',
  hostname: 'must be a host name',
}

/** The patterns the schemas use, in words; any other is explained by its schema's description. */
const PATTERN_MESSAGES: Record<string, string> = {
  '\\S': 'must contain at least one visible character',
  '^([01][0-9]|2[0-3]):[0-5][0-9]$': 'must be a time of day, HH:MM (00:00–23:59)',
  '^(?!0000)': 'must not be in the year 0000',
}

function patternMessage(error: ErrorObject): string {
  const known = PATTERN_MESSAGES[String((error.params as { pattern: string }).pattern)]
  if (known) return known
  const description = (error.parentSchema as { description?: string } | undefined)?.description
  if (!description) return 'is not in the expected form'
  // "A lowercase letter, then…" reads "must be a lowercase letter, then…"; "HH:MM…" keeps its capitals.
  const lower = /^[A-Z][a-z]/.test(description)
    ? description[0]?.toLowerCase() + description.slice(1)
    : description
  return `must be ${lower}`
}

type Described = { path: string; message: string }

/**
 * Ajv's wording of each keyword ("must NOT have fewer than 1 characters") in plain words
 * ("must be at least 1 character"). Every keyword Ajv and ajv-formats can report is listed, not only
 * those the schemas use today, so no new schema can leak Ajv's phrasing.
 */
function describeError(error: ErrorObject, part: string): Described {
  const path = `/${part}${error.instancePath}`
  const params = error.params as Record<string, unknown>
  const at = (field: unknown, message: string) => ({ path: `${path}/${String(field)}`, message })
  const say = (message: string) => ({ path, message })
  switch (error.keyword) {
    case 'type':
      return say(typeMessage(String(params.type), error.data, part))
    case 'required':
      return at(params.missingProperty, 'is required')
    case 'dependencies':
    case 'dependentRequired':
      return at(params.missingProperty, `is required when ${String(params.property)} is given`)
    case 'additionalProperties':
      return at(params.additionalProperty, `unknown field "${String(params.additionalProperty)}"`)
    case 'unevaluatedProperties':
      return at(params.unevaluatedProperty, `unknown field "${String(params.unevaluatedProperty)}"`)
    case 'propertyNames':
      return say(`has a field name that is not allowed ("${String(params.propertyName)}")`)
    case 'enum':
      return say(`must be one of ${(params.allowedValues as unknown[]).join(', ')}`)
    case 'const':
      return say(`must be ${JSON.stringify(params.allowedValue)}`)
    case 'format':
      return say(FORMAT_MESSAGES[String(params.format)] ?? `must be a valid ${String(params.format)}`)
    case 'pattern':
      return say(patternMessage(error))
    case 'minLength':
      return say(`must be at least ${plural(params.limit, 'character')}`)
    case 'maxLength':
      return say(`must be at most ${plural(params.limit, 'character')}`)
    case 'minimum':
    case 'formatMinimum':
      return say(`must be at least ${String(params.limit)}`)
    case 'maximum':
    case 'formatMaximum':
      return say(`must be at most ${String(params.limit)}`)
    case 'exclusiveMinimum':
    case 'formatExclusiveMinimum':
      return say(`must be greater than ${String(params.limit)}`)
    case 'exclusiveMaximum':
    case 'formatExclusiveMaximum':
      return say(`must be less than ${String(params.limit)}`)
    case 'multipleOf':
      return say(`must be a multiple of ${String(params.multipleOf)}`)
    case 'minItems':
      return say(`must have at least ${plural(params.limit, 'item')}`)
    case 'maxItems':
    case 'additionalItems':
    case 'items':
    case 'unevaluatedItems':
      return say(`must have at most ${plural(params.limit ?? params.len, 'item')}`)
    case 'uniqueItems':
      return say(
        `must not repeat an item (items ${Math.min(Number(params.i), Number(params.j))} and ${Math.max(Number(params.i), Number(params.j))} are the same)`,
      )
    case 'contains':
      return say(`must contain at least ${plural(params.minContains ?? 1, 'matching item')}`)
    case 'minProperties':
      return say(`must have at least ${plural(params.limit, 'field')}`)
    case 'maxProperties':
      return say(`must have at most ${plural(params.limit, 'field')}`)
    case 'anyOf':
    case 'oneOf':
    case 'discriminator':
    case 'if':
      return say('does not match any of the accepted forms')
    default:
      // `not`, `false schema` and anything a future Ajv adds.
      return say('is not an accepted value')
  }
}

/** Ajv errors → `[{ path, message }]` with paths such as `/body/title` and plain-words messages. */
export function describeValidationErrors(
  errors: FastifySchemaValidationError[] | ErrorObject[],
  context: string,
): ErrorDetail[] {
  const part = PART_NAMES[context] ?? context
  const details = (errors as ErrorObject[])
    // `if` repeats what its `then`/`else` branch already reported.
    .filter((e, _i, all) => e.keyword !== 'if' || all.length === 1)
    .map((e) => describeError(e, part))
  return details
}

/** The `error` of a validation failure: the first problem, naming its field, and how many more. */
export function summarise(details: ErrorDetail[]): string {
  const first = details[0]
  if (!first) return 'Validation failed'
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : ''
  return `${describeDetail(first)}${more}`
}
