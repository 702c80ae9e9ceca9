// Request validation. Bodies are validated strictly: no type coercion, no silent removal of unknown
// fields (both are Fastify defaults), so `"title": 42` and `"titel": "x"` are 400s. Query strings and
// path parameters arrive as text and are coerced ("?page=2" → 2), then validated just as strictly.
import { Ajv, type ErrorObject } from 'ajv'
import formatsModule from 'ajv-formats'
import type { FastifyInstance, FastifySchemaValidationError } from 'fastify'
import type { ErrorDetail } from './errors.js'

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
    // Puts the failing schema on each error, so messages can use its description.
    verbose: true,
    strict: false,
  })
  addFormats(ajv)
  return ajv
}

export function installValidators(app: FastifyInstance): void {
  const bodyAjv = createAjv(false)
  const textAjv = createAjv(true)
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? bodyAjv.compile(schema) : textAjv.compile(schema),
  )
}

const PART_NAMES: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'params',
  headers: 'headers',
}

/** Ajv errors → `[{ path, message }]` with paths such as `/body/title` and readable messages. */
export function describeValidationErrors(
  errors: FastifySchemaValidationError[] | ErrorObject[],
  context: string,
): ErrorDetail[] {
  const part = PART_NAMES[context] ?? context
  return (errors as ErrorObject[]).map((e) => {
    let path = `/${part}${e.instancePath}`
    let message = e.message ?? 'is invalid'
    if (e.keyword === 'additionalProperties') {
      const field = (e.params as { additionalProperty: string }).additionalProperty
      path = `${path}/${field}`
      message = `unknown field "${field}"`
    } else if (e.keyword === 'required') {
      const field = (e.params as { missingProperty: string }).missingProperty
      path = `${path}/${field}`
      message = 'is required'
    } else if (e.keyword === 'enum') {
      message = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`
    } else if (e.keyword === 'format') {
      const format = (e.params as { format: string }).format
      message =
        format === 'date-time'
          ? 'must be an ISO 8601 datetime with an offset, e.g. 2026-11-23T09:00:00Z'
          : message
    } else if (e.keyword === 'pattern') {
      // A pattern is explained by its schema's description where there is one ("HH:MM (00:00–23:59)").
      const description = (e.parentSchema as { description?: string } | undefined)?.description
      if (description) {
        // "At least one…" reads "must be at least one…"; "HH:MM…" keeps its capitals.
        const lower = /^[A-Z][a-z]/.test(description)
          ? description[0]?.toLowerCase() + description.slice(1)
          : description
        message = `must be ${lower}`
      }
    }
    return { path, message }
  })
}

export function summarise(details: ErrorDetail[]): string {
  const first = details[0]
  if (!first) return 'Validation failed'
  const field =
    first.path.replace(/^\/(body|query|params)\/?/, '').replaceAll('/', '.') || first.path.slice(1)
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : ''
  return `${field}: ${first.message}${more}`
}
