// How the OpenAPI documents present what the route schemas say, for the tools that read them
// (linters, validating proxies, generated clients). Only the documents change here: the route
// schemas that validate requests and serialise responses stay exactly as the routes declare them.
//
// - Error responses: each lists the codes it can carry as an enum of `code` (from the codes a route
//   declares with errorResponses(), or else every code of the catalogue with that status), and
//   every operation documents 500.
// - Named components: every schema with a `title` (Job, JobDetail, Customer, …, Pagination) becomes
//   one entry of `components.schemas`, referenced by `$ref` wherever it is used.
// - Headers: the request id on every response, the rate-limit headers (the spec's `X-RateLimit-*` and
//   the IETF draft's `RateLimit-Policy` / `RateLimit`) on every response given after the key was
//   authenticated, `Retry-After` where a client is asked to wait, and `Idempotent-Replayed` on the
//   answers of operations that take an `Idempotency-Key`.
import { ERROR_STATUS, type ErrorCode } from './errors.js'
import { ERROR_CODE_DESCRIPTIONS, ERROR_CODES_KEYWORD, ErrorBody } from './schemas.js'

type Json = Record<string, unknown>
// biome-ignore lint/suspicious/noExplicitAny: the generated document is walked structurally
type OpenApiDocument = Record<string, any>

const ERROR_ID = ErrorBody.$id as string

/** Every code of the catalogue answered with `status`. */
export function codesOfStatus(status: number): ErrorCode[] {
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => ERROR_STATUS[code] === status)
}

function isErrorRef(schema: unknown): schema is Json {
  return typeof schema === 'object' && schema !== null && (schema as Json).$ref === ERROR_ID
}

/**
 * The Error body narrowed to `codes`: what a client switches on for this response, with the fields
 * some errors carry beside error and code (see ErrorBodyWith).
 */
function errorSchema(description: string, codes: readonly string[], extra: Json = {}): Json {
  return {
    description,
    allOf: [
      { $ref: ERROR_ID },
      {
        type: 'object',
        required: ['code', ...Object.keys(extra)],
        properties: { code: { type: 'string', enum: [...codes] }, ...extra },
      },
    ],
  }
}

/** An ErrorBodyWith() schema: an object listing its codes, with fields beside error and code. */
function isErrorWithFields(schema: unknown): schema is Json {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    Array.isArray((schema as Json)[ERROR_CODES_KEYWORD]) &&
    (schema as Json).type === 'object'
  )
}

const INTERNAL_ERROR_RESPONSE = errorSchema(
  `${ERROR_CODE_DESCRIPTIONS.INTERNAL_ERROR} (INTERNAL_ERROR)`,
  codesOfStatus(500),
)

/**
 * The responses of one route as the document shows them: error responses with their code enum, and
 * 500 on every operation. Called by @fastify/swagger's per-route transform, on a copy.
 */
export function documentedResponses(response: Json | undefined): Json | undefined {
  if (!response) return response
  const documented: Json = {}
  for (const [status, schema] of Object.entries(response)) {
    if (Number(status) >= 400 && isErrorRef(schema)) {
      const declared = schema[ERROR_CODES_KEYWORD] as ErrorCode[] | undefined
      const codes = declared ?? codesOfStatus(Number(status))
      const description = (schema.description as string | undefined) ?? codes.join(', ')
      documented[status] = errorSchema(description, codes)
    } else if (Number(status) >= 400 && isErrorWithFields(schema)) {
      const { error: _error, code: _code, ...extra } = schema.properties as Json
      const codes = schema[ERROR_CODES_KEYWORD] as ErrorCode[]
      documented[status] = errorSchema(schema.description as string, codes, extra)
    } else {
      documented[status] = schema
    }
  }
  documented[500] ??= INTERNAL_ERROR_RESPONSE
  return documented
}

const HEADERS = {
  'X-Request-Id': {
    description:
      'The id of this request, also in every log line about it: the `X-Request-Id` the client sent when it ' +
      'is printable ASCII of at most 128 characters, else a fresh UUID',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description: 'Requests the key may make per minute',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests the key has left in the current minute',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the current window ends and the count starts again',
    schema: { type: 'integer' },
  },
  'RateLimit-Policy': {
    description:
      'The same limit in the syntax of the IETF draft draft-ietf-httpapi-ratelimit-headers (a draft: ' +
      'it may still change; the `X-RateLimit-*` headers are the stable ones): `"default";q=<limit>;w=60`',
    schema: { type: 'string' },
    example: '"default";q=100;w=60',
  },
  RateLimit: {
    description:
      'What is left of the limit, in the syntax of the same IETF draft: `"default";r=<remaining>;t=<seconds ' +
      'until the window ends>`',
    schema: { type: 'string' },
    example: '"default";r=99;t=42',
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying',
    schema: { type: 'integer' },
  },
  'Idempotent-Replayed': {
    description:
      '`true` when this response is the stored answer to an earlier request with the same `Idempotency-Key` ' +
      '(nothing was done again); absent otherwise',
    schema: { type: 'string', enum: ['true'] },
  },
}
const RATE_LIMIT_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit-Policy',
  'RateLimit',
]
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` })

/** The headers a response carries; an operation without authentication has no rate-limit budget. */
function responseHeaders(status: string, authenticated: boolean): Json {
  const names = ['X-Request-Id']
  // Rate limiting runs after authentication: a 401 has no budget to show.
  if (status !== '401' && authenticated) names.push(...RATE_LIMIT_HEADERS)
  if (status === '429' || status === '503') names.push('Retry-After')
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]))
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

function operationsOf(paths: OpenApiDocument | undefined): Json[] {
  return Object.values(paths ?? {}).flatMap((item) =>
    Object.entries(item as Json)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([, operation]) => operation as Json),
  )
}

/** Keys whose values are data, not schemas: a `title` in an example is a job's title. */
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'enum', 'const'])

const COMPONENT_NAME = /^[A-Z][A-Za-z0-9]*$/

function isDeepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/**
 * Replaces every titled schema under `value` by a `$ref` to `components.schemas[title]`, collecting
 * the schemas in `named`. Two different schemas with one title are a mistake in the route schemas.
 */
function hoistNamedSchemas(value: unknown, named: Map<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((item) => hoistNamedSchemas(item, named))
  if (value === null || typeof value !== 'object') return value
  const node = Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      DATA_KEYWORDS.has(key) ? child : hoistNamedSchemas(child, named),
    ]),
  )
  const { title, type } = node as { title?: unknown; type?: unknown }
  const isObjectSchema = type === 'object' || (Array.isArray(type) && type.includes('object'))
  if (typeof title !== 'string' || !isObjectSchema) return node
  if (!COMPONENT_NAME.test(title))
    throw new Error(`The title ${title} cannot name a component: use PascalCase`)
  const known = named.get(title)
  if (known !== undefined && !isDeepEqual(known, node))
    throw new Error(`Two different schemas are titled ${title}: give one of them another title`)
  named.set(title, node)
  return { $ref: `#/components/schemas/${title}` }
}

const IDEMPOTENCY_KEY_DESCRIPTION =
  'Makes a retry safe: a new value per operation (a UUID, say), 1 to 255 printable ASCII characters. For ' +
  '24 hours, a request with the same key, method, path and body gets the first response again, status and ' +
  'body, with `Idempotent-Replayed: true`, and nothing is done twice; with another method, path or body it ' +
  'gets 422 `IDEMPOTENCY_KEY_REUSED`, and while the first is still running 409 `IDEMPOTENCY_KEY_IN_USE`. ' +
  'Keys belong to the organisation (all its API keys share them). A request refused before it ran (a body ' +
  'or header that fails validation, 401, 403, 429) or that failed on the server (5xx) is not kept: retry it ' +
  'with the same key. The answers of a request that ran, errors included (404, 409, 422, a 400 naming a ' +
  'reference that does not exist), are kept and replayed.'

/** Answers given before an idempotent request's key is claimed, or never stored: never replays. */
const NEVER_REPLAYED = new Set(['401', '403', '413', '415', '429', '500', '503'])

/**
 * Operations that take an Idempotency-Key (its schema names it in lower case, as Fastify sees it):
 * the parameter spelled as clients send it, and `Idempotent-Replayed` on the answers that can be replays.
 */
function documentIdempotency(operation: Json): void {
  const parameters = (operation.parameters ?? []) as Json[]
  documentPreconditions(operation, parameters)
  const key = parameters.find((p) => p.in === 'header' && p.name === 'idempotency-key')
  if (!key) return
  key.name = 'Idempotency-Key'
  key.description = IDEMPOTENCY_KEY_DESCRIPTION
  for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
    if (NEVER_REPLAYED.has(status)) continue
    response.headers = {
      ...(response.headers as Json),
      'Idempotent-Replayed': headerRef('Idempotent-Replayed'),
    }
  }
}

/** Conditional request headers spelled as clients send them; the ETag on the answers that carry it. */
function documentPreconditions(operation: Json, parameters: Json[]): void {
  let conditional = false
  for (const parameter of parameters) {
    if (parameter.in !== 'header') continue
    if (parameter.name === 'if-match') parameter.name = 'If-Match'
    else if (parameter.name === 'if-none-match') parameter.name = 'If-None-Match'
    else continue
    conditional = true
  }
  if (!conditional) return
  for (const status of ['200', '304', '412']) {
    const response = (operation.responses as Record<string, Json>)[status]
    if (!response) continue
    response.headers = { ...(response.headers as Json), ETag: ETAG_HEADER }
  }
}

const ETAG_HEADER = {
  description:
    'The version of the resource in this answer (strong); send it back as If-Match or If-None-Match',
  schema: { type: 'string' },
}

/** The finishing pass over a generated document (see the top of this file). */
export function finishDocument(document: OpenApiDocument): OpenApiDocument {
  for (const operation of operationsOf(document.paths)) {
    const authenticated = !(Array.isArray(operation.security) && operation.security.length === 0)
    for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
      response.headers = {
        ...responseHeaders(status, authenticated),
        ...(response.headers as Json | undefined),
      }
    }
    documentIdempotency(operation)
  }
  const named = new Map<string, unknown>()
  document.paths = hoistNamedSchemas(document.paths, named)
  if (document.webhooks) document.webhooks = hoistNamedSchemas(document.webhooks, named)
  const schemas = { ...document.components?.schemas }
  for (const title of [...named.keys()].sort()) {
    if (schemas[title] !== undefined && !isDeepEqual(schemas[title], named.get(title)))
      throw new Error(`The component ${title} is defined twice`)
    schemas[title] = named.get(title)
  }
  document.components = { ...document.components, schemas, headers: HEADERS }
  return document
}
