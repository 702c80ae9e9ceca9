// One fuzzed request of an operation: path ids (own, another organisation's, hostile), query
// parameters (valid, boundary, junk, duplicated, unknown), a body (valid, mutated, raw text, over the
// size limit) and headers (every kind of key, odd content types, huge values, transfer encodings).
import fc from 'fast-check'
import type { InjectOptions } from 'fastify'
import {
  authArbitrary,
  authorization,
  contentTypeArbitrary,
  headersArbitrary,
  sessionHeaders,
} from './headers.js'
import {
  forgedCursor,
  hostileInstant,
  hostileString,
  nested,
  OVER_LIMIT_STRING,
  rawQueryJunk,
} from './hostile.js'
import type { Operation, Parameter } from './operations.js'
import {
  IdRef,
  idRef,
  mutatedBody,
  type Resource,
  resolveIds,
  resourceOfField,
  validValue,
} from './values.js'
import { pickId, type World } from './world.js'

type PathValue = IdRef | { text: string } | { raw: string }
type QueryValue = { name: string; value: unknown; encode: boolean }
type Body = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string }

export interface FuzzRequest {
  op: Operation
  method: string
  path: Record<string, PathValue>
  query: QueryValue[]
  body: Body
  auth: string
  contentType: string | string[] | null | undefined
  headers: Record<string, string | string[]>
}

const PATH_RESOURCES: Record<string, Resource> = {
  jobs: 'jobs',
  customers: 'customers',
  vehicles: 'vehicles',
  locations: 'locations',
  shifts: 'shifts',
  users: 'users',
  tags: 'tags',
  'capacity-dimensions': 'capacityDimensions',
  'api-keys': 'apiKeys',
  automations: 'automations',
  'route-plans': 'routePlans',
  'form-templates': 'formTemplates',
  absences: 'absences',
  'job-series': 'jobSeries',
  imports: 'imports',
  attachments: 'attachments',
  // /my/jobs/{id}/forms/{templateId}
  forms: 'formTemplates',
}

function pathResource(op: Operation, name: string): Resource {
  if (name === 'executionId') return 'executions'
  const segments = op.path.split('/')
  const at = segments.indexOf(`{${name}}`)
  const resource = PATH_RESOURCES[segments[at - 1] ?? '']
  if (!resource) throw new Error(`No id pool for {${name}} in ${op.key}`)
  return resource
}

/** A calendar date in the path (a shift's date): a real day mostly, around the seeded week. */
const pathDate: fc.Arbitrary<PathValue> = fc
  .integer({ min: 0, max: 60 })
  .map((days) => ({ text: new Date(Date.UTC(2026, 10, 9) + days * 86_400_000).toISOString().slice(0, 10) }))

function pathValue(op: Operation, name: string, schema?: { format?: string }): fc.Arbitrary<PathValue> {
  if (schema?.format === 'date') {
    return fc.oneof(
      { weight: 14, arbitrary: pathDate },
      { weight: 3, arbitrary: hostileString.map((text) => ({ text })) },
    )
  }
  return fc.oneof(
    { weight: 14, arbitrary: idRef(pathResource(op, name), 2) },
    { weight: 3, arbitrary: hostileString.map((text) => ({ text })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '../../etc/passwd',
          '..%2F..%2Fetc%2Fpasswd',
          '%2e%2e%2f',
          '%E0%A4%A',
          '%ED%A0%80',
          '',
          '.',
          '..',
          '%20',
          'a/b',
        )
        .map((raw) => ({ raw })),
    },
  )
}

/**
 * Values made for cursors and instants, beside the generic hostile ones: these reach SQL once decoded
 * or parsed. (Days are checked by their `date` format, which knows the calendar.)
 */
function craftedValue(name: string, schema: Parameter['schema']): fc.Arbitrary<string> | undefined {
  if (name === 'cursor') return forgedCursor
  if (schema.format === 'date-time') return hostileInstant
  return undefined
}

function queryValue(parameter: Parameter): fc.Arbitrary<QueryValue> {
  const { name, schema } = parameter
  const resource = resourceOfField(name)
  const valid = resource ? idRef(resource, 2) : validValue(schema, name)
  const crafted = craftedValue(name, schema)
  return fc.oneof(
    { weight: 6, arbitrary: valid.map((value) => ({ name, value, encode: true })) },
    ...(crafted ? [{ weight: 3, arbitrary: crafted.map((value) => ({ name, value, encode: true })) }] : []),
    { weight: 2, arbitrary: hostileString.map((value) => ({ name, value, encode: true })) },
    { weight: 2, arbitrary: rawQueryJunk.map((value) => ({ name, value, encode: false })) },
    { weight: 1, arbitrary: fc.constant({ name: `${name}[]`, value: '1', encode: true }) },
    { weight: 1, arbitrary: fc.constant({ name: `${name}[$ne]`, value: 'x', encode: true }) },
  )
}

function queryArbitrary(op: Operation): fc.Arbitrary<QueryValue[]> {
  const perParameter = op.queryParams.map((p) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constant([] as QueryValue[]) },
      { weight: 2, arbitrary: queryValue(p).map((q) => [q]) },
      { weight: 1, arbitrary: fc.array(queryValue(p), { minLength: 2, maxLength: 3 }) }, // duplicated
    ),
  )
  const extra = fc.oneof(
    { weight: 8, arbitrary: fc.constant([] as QueryValue[]) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('foo', 'organisationId', '__proto__', 'constructor[prototype]', 'x'.repeat(3000)),
          hostileString,
        )
        .map(([name, value]) => [{ name, value, encode: true }]),
    },
  )
  return fc.tuple(fc.tuple(...perParameter), extra).map(([lists, more]) => [...lists.flat(), ...more])
}

function bodyArbitrary(op: Operation): fc.Arbitrary<Body> {
  const none = fc.constant<Body>({ kind: 'none' })
  if (!op.body) {
    // Bodies where none is expected: ignored or refused, never a 5xx.
    return fc.oneof(
      { weight: 12, arbitrary: none },
      {
        weight: 1,
        arbitrary: fc.constantFrom<Body>(
          { kind: 'raw', text: '{"x":1}' },
          { kind: 'raw', text: '{' },
          { kind: 'raw', text: '' },
        ),
      },
    )
  }
  const schema = op.body.schema
  const raw = (text: string): Body => ({ kind: 'raw', text })
  const field = Object.keys(schema.properties ?? {})[0] ?? 'x'
  const rawBodies = fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .constantFrom(
          '{',
          `{"${field}": "x",}`,
          "{'a': 1}",
          `{"${field}": NaN}`,
          `{"${field}": 1e400}`,
          `{"${field}": -1e400}`,
          `{"${field}": "\\ud800"}`, // lone surrogates, escaped
          `{"${field}": "\\udc00\\ud800"}`,
          `{"${field}": "a\\u0000b"}`,
          '{"a\\u0000": 1}',
          `{"__proto__": {"isAdmin": true}, "${field}": "x"}`,
          `{"constructor": {"prototype": {"x": 1}}}`,
          `{"${field}": "a", "${field}": 1}`,
          '\uFEFF{}',
          '{} trailing',
          '/* comment */ {}',
          ' \n\t ',
          '"string"',
          'null',
          '[]',
          '1',
          `{"${field}": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
          `{"constructor": 1, "${field}": ${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`,
        )
        .map(raw),
    },
    { weight: 1, arbitrary: fc.constant(raw(JSON.stringify({ [field]: OVER_LIMIT_STRING }))) },
  )
  return fc.oneof(
    { weight: op.body.required ? 1 : 4, arbitrary: none },
    { weight: 16, arbitrary: validValue(schema).map((value): Body => ({ kind: 'json', value })) },
    { weight: 18, arbitrary: mutatedBody(schema).map((value): Body => ({ kind: 'json', value })) },
    { weight: 4, arbitrary: rawBodies },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(33, 1000)
        .map((depth): Body => ({ kind: 'json', value: { [field]: nested(depth, 'object') } })),
    },
  )
}

export function requestArbitrary(op: Operation): fc.Arbitrary<FuzzRequest> {
  const path = fc.record(
    Object.fromEntries(op.pathParams.map((p) => [p.name, pathValue(op, p.name, p.schema)])) as Record<
      string,
      fc.Arbitrary<PathValue>
    >,
  )
  const method =
    op.method === 'GET'
      ? fc.oneof(
          { weight: 30, arbitrary: fc.constant('GET') },
          { weight: 1, arbitrary: fc.constantFrom('HEAD', 'OPTIONS', 'PUT') },
        )
      : fc.oneof(
          { weight: 40, arbitrary: fc.constant(op.method) },
          { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'OPTIONS') },
        )
  return fc.record({
    op: fc.constant(op),
    method,
    path,
    query: queryArbitrary(op),
    body: bodyArbitrary(op),
    auth: authArbitrary,
    contentType: contentTypeArbitrary,
    headers: headersArbitrary,
  })
}

export interface ResolvedRequest {
  inject: InjectOptions
  /** False when a path value can route elsewhere (empty, raw `/`, bad escapes). */
  cleanPath: boolean
  /** Another organisation's ids sent in the path, and in the body (query filters may name them). */
  foreignPathIds: string[]
  foreignBodyIds: string[]
  /** Every text sent, to tell echoed input from leaked internals. */
  sentText: string
}

function encode(value: string): string {
  try {
    return encodeURIComponent(value)
  } catch {
    return '%ED%A0%80' // a lone surrogate cannot be encoded; send its UTF-8-style bytes instead
  }
}

export function resolveRequest(world: World, request: FuzzRequest): ResolvedRequest {
  const foreignPathIds: string[] = []
  const foreignBodyIds: string[] = []
  const picker = (foreign: string[] | null) => (ref: IdRef) => {
    const id = pickId(world, ref)
    if (ref.owner === 'foreign') foreign?.push(id)
    return id
  }
  let cleanPath = true
  let url = request.op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = request.path[name]
    if (value instanceof IdRef) return encode(picker(foreignPathIds)(value))
    if (value && 'raw' in value) {
      cleanPath = false
      return value.raw
    }
    const text = value?.text ?? ''
    if (text === '' || text === '.' || text === '..') cleanPath = false
    return encode(text)
  })
  const query = request.query.map(({ name, value, encode: shouldEncode }) => {
    const text = value instanceof IdRef ? picker(null)(value) : String(value)
    return `${encode(name)}=${shouldEncode ? encode(text) : text}`
  })
  if (query.length > 0) url += `?${query.join('&')}`
  const headers: Record<string, string | string[]> = {
    ...request.headers,
    ...sessionHeaders(world, request.auth),
  }
  const auth = authorization(world, request.auth)
  if (auth !== undefined) headers.authorization = auth
  let payload: string | undefined
  const body = request.body
  if (body.kind === 'json') payload = JSON.stringify(resolveIds(body.value, picker(foreignBodyIds))) ?? 'null'
  else if (body.kind === 'raw') payload = body.text
  if (request.contentType === undefined) {
    if (payload !== undefined) headers['content-type'] = 'application/json'
  } else if (request.contentType !== null) headers['content-type'] = request.contentType
  const inject: InjectOptions = {
    method: request.method as InjectOptions['method'],
    url,
    headers,
    ...(payload !== undefined && { payload }),
  }
  const sentText = `${url}\n${decodeSafely(url)}\n${JSON.stringify(headers)}\n${payload ?? ''}`
  return { inject, cleanPath, foreignPathIds, foreignBodyIds, sentText }
}

function decodeSafely(url: string): string {
  try {
    return decodeURIComponent(url)
  } catch {
    return url
  }
}

/** A short description of a request for failure messages (long values abbreviated). */
export function describeRequest(resolved: ResolvedRequest): string {
  const shorten = (text: string) =>
    text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text
  const { method, url, headers, payload } = resolved.inject as {
    method: string
    url: string
    headers: Record<string, unknown>
    payload?: string
  }
  const shownHeaders = Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, shorten(typeof v === 'string' ? v : JSON.stringify(v))]),
  )
  return `${method} ${shorten(url)}\nheaders: ${JSON.stringify(shownHeaders)}\nbody: ${payload === undefined ? '(none)' : shorten(payload)}`
}
