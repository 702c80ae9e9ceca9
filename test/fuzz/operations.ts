// The fuzzer's view of the API: every operation of the committed OpenAPI documents (the same ones CI
// checks against the code), with its path and query parameters, request body schema and compiled
// validators for its documented responses.
import { readFileSync } from 'node:fs'
import { Ajv, type ValidateFunction } from 'ajv'
import formatsModule from 'ajv-formats'

const addFormats = ((formatsModule as unknown as { default?: typeof formatsModule }).default ??
  formatsModule) as unknown as (ajv: Ajv) => Ajv

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema from a JSON document
export type JsonSchema = Record<string, any>

export interface Parameter {
  name: string
  in: 'path' | 'query'
  required: boolean
  schema: JsonSchema
}

export interface Operation {
  /** e.g. `POST /v1/admin/jobs/{id}/assign` */
  key: string
  api: 'public' | 'admin'
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  /** The full path template, e.g. `/v1/admin/jobs/{id}/assign`. */
  path: string
  pathParams: Parameter[]
  queryParams: Parameter[]
  body?: { required: boolean; schema: JsonSchema }
  /** The body is raw bytes, not JSON (an attachment upload): documented, but with no JSON schema. */
  rawBody: boolean
  /** Documented statuses → validator of the JSON body. */
  responses: Map<number, ValidateFunction>
  /** Documented statuses whose answer is bytes, not JSON (an attachment's content). */
  binary: Set<number>
}

const DOCUMENTS = [
  { api: 'public', file: 'openapi/public-v1.json', prefix: '/v1/public' },
  { api: 'admin', file: 'openapi/admin-v1.json', prefix: '/v1/admin' },
] as const

function createAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: false, allowUnionTypes: true, validateFormats: true })
  addFormats(ajv)
  return ajv
}

/** Inlines `#/components/schemas/…` references, so each schema compiles on its own. */
function inlineRefs(value: unknown, components: Record<string, JsonSchema>): unknown {
  if (Array.isArray(value)) return value.map((item) => inlineRefs(item, components))
  if (value === null || typeof value !== 'object') return value
  const ref = (value as { $ref?: unknown }).$ref
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const target = components[ref.slice('#/components/schemas/'.length)]
    if (!target) throw new Error(`Unresolved $ref ${ref}`)
    const { $id: _id, ...rest } = target
    return inlineRefs(rest, components)
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inlineRefs(v, components)]))
}

export const errorBodyValidator = (() => {
  const document = JSON.parse(readFileSync('openapi/public-v1.json', 'utf8'))
  const { $id: _id, ...schema } = document.components.schemas.Error
  return createAjv().compile(schema)
})()

export function loadOperations(): Operation[] {
  const ajv = createAjv()
  const operations: Operation[] = []
  for (const { api, file, prefix } of DOCUMENTS) {
    const document = JSON.parse(readFileSync(file, 'utf8'))
    const components = document.components?.schemas ?? {}
    for (const [path, methods] of Object.entries(document.paths as Record<string, JsonSchema>)) {
      for (const [method, operation] of Object.entries(methods)) {
        const parameters = ((operation.parameters ?? []) as Parameter[]).map((p) => ({
          name: p.name,
          in: p.in,
          required: Boolean(p.required),
          schema: p.schema,
        }))
        const responses = new Map<number, ValidateFunction>()
        const binary = new Set<number>()
        for (const [status, response] of Object.entries(operation.responses as Record<string, JsonSchema>)) {
          const schema = response.content?.['application/json']?.schema
          if (schema) responses.set(Number(status), ajv.compile(inlineRefs(schema, components) as JsonSchema))
          else if (response.content) binary.add(Number(status))
        }
        const bodySchema = operation.requestBody?.content?.['application/json']?.schema
        operations.push({
          key: `${method.toUpperCase()} ${prefix}${path}`,
          api,
          method: method.toUpperCase() as Operation['method'],
          path: `${prefix}${path}`,
          pathParams: parameters.filter((p) => p.in === 'path'),
          queryParams: parameters.filter((p) => p.in === 'query'),
          ...(bodySchema && {
            body: { required: Boolean(operation.requestBody.required), schema: bodySchema },
          }),
          rawBody: Boolean(operation.requestBody) && !bodySchema,
          responses,
          binary,
        })
      }
    }
  }
  return operations
}
