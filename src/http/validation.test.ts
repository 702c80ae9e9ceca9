import type { ErrorObject } from 'ajv'
import { Ajv2019 } from 'ajv/dist/2019.js'
import formatsModule from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type JsonSchema, loadOperations, type Operation } from '../../test/fuzz/operations.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../test/helpers.js'
import { makeDashboardUser, signIn } from '../../test/sessions.js'
import { describeValidationErrors } from './validation.js'

const addFormats = ((formatsModule as unknown as { default?: typeof formatsModule }).default ??
  formatsModule) as unknown as (ajv: Ajv2019, options?: { keywords: boolean }) => Ajv2019

/**
 * Ajv's own wording (ajv 8 and ajv-formats), one pattern per message it can produce. The keyword
 * table below proves each pattern matches what Ajv really says, so the list cannot drift from Ajv.
 */
const AJV_PHRASES: RegExp[] = [
  /must have required property/,
  /must NOT have additional properties/,
  /must NOT have unevaluated properties/,
  /must be equal to one of the allowed values/,
  /must be equal to constant/,
  /must match format "/,
  /must match pattern "/,
  /must NOT have (fewer|more) than \d+ (characters|items|properties)/,
  /must be [<>]=? ?-?\d/,
  /should be [<>]=? ?/,
  /must be multiple of/,
  /must NOT have duplicate items/,
  /must match a schema in anyOf/,
  /must match exactly one schema in oneOf/,
  /must NOT be valid/,
  /property name must be valid/,
  /must contain at (least|most) \d+ valid item/,
  /must have propert(y|ies) .* when property .* is present/,
  /must match "(then|else)" schema/,
  /must pass ".*" keyword validation/,
  /boolean schema is false/,
  /must be (integer|number|string|boolean|object|array|null)\b/,
  /tag ".*" must be (string|in oneOf)/,
  /value of tag ".*" must be in oneOf/,
]
const rawAjvPhrase = (text: string) => AJV_PHRASES.find((phrase) => phrase.test(text))

/** One failing value per keyword Ajv (and ajv-formats) can report: [keyword, schema, data]. */
const KEYWORD_CASES: [string, JsonSchema, unknown][] = [
  ['type', { type: 'integer' }, 'x'],
  ['type (union)', { type: ['string', 'null'] }, 1],
  ['type (non-finite)', { type: 'number' }, Number.POSITIVE_INFINITY],
  ['required', { type: 'object', required: ['title'] }, {}],
  ['additionalProperties', { type: 'object', additionalProperties: false }, { colour: 1 }],
  ['unevaluatedProperties', { type: 'object', unevaluatedProperties: false }, { colour: 1 }],
  ['enum', { enum: ['LOW', 'HIGH'] }, 'MID'],
  ['const', { const: 'x' }, 'y'],
  ['format', { type: 'string', format: 'date-time' }, 'soon'],
  ['format (other)', { type: 'string', format: 'ipv4' }, 'x'],
  ['pattern', { type: 'string', pattern: '^a$' }, 'b'],
  ['minLength', { type: 'string', minLength: 1 }, ''],
  ['maxLength', { type: 'string', maxLength: 2 }, 'abc'],
  ['minimum', { type: 'number', minimum: 1 }, 0],
  ['maximum', { type: 'number', maximum: 1 }, 2],
  ['exclusiveMinimum', { type: 'number', exclusiveMinimum: 1 }, 1],
  ['exclusiveMaximum', { type: 'number', exclusiveMaximum: 1 }, 1],
  ['multipleOf', { type: 'number', multipleOf: 5 }, 3],
  ['minItems', { type: 'array', minItems: 1 }, []],
  ['maxItems', { type: 'array', maxItems: 1 }, [1, 2]],
  ['uniqueItems', { type: 'array', uniqueItems: true }, [1, 1]],
  ['additionalItems', { type: 'array', items: [{}], additionalItems: false }, [1, 2]],
  ['contains', { type: 'array', contains: { type: 'string' } }, [1]],
  ['minProperties', { type: 'object', minProperties: 1 }, {}],
  ['maxProperties', { type: 'object', maxProperties: 1 }, { a: 1, b: 2 }],
  ['propertyNames', { type: 'object', propertyNames: { maxLength: 1 } }, { ab: 1 }],
  ['dependencies', { type: 'object', dependencies: { a: ['b'] } }, { a: 1 }],
  ['dependentRequired', { type: 'object', dependentRequired: { a: ['b'] } }, { a: 1 }],
  ['anyOf', { anyOf: [{ type: 'string' }, { type: 'integer' }] }, true],
  ['oneOf', { oneOf: [{ type: 'number' }, { type: 'integer' }] }, 1],
  ['not', { not: { type: 'string' } }, 'x'],
  // Written as JSON: an object literal with a `then` key looks like a promise.
  ['if/then', JSON.parse('{ "if": { "const": 1 }, "then": { "const": 2 } }'), 1],
  ['false schema', { type: 'object', properties: { a: false } }, { a: 1 }],
  ['formatMinimum', { type: 'string', format: 'date', formatMinimum: '2026-01-01' }, '2025-01-01'],
  [
    'formatExclusiveMaximum',
    { type: 'string', format: 'date', formatExclusiveMaximum: '2026-01-01' },
    '2026-01-01',
  ],
]

function ajvErrors(schema: JsonSchema, data: unknown, options: { verbose: boolean }): ErrorObject[] {
  // Draft 2019-09, so its keywords (unevaluatedProperties, dependentRequired) are covered too.
  const ajv = new Ajv2019({
    allErrors: true,
    strict: false,
    strictNumbers: true,
    allowUnionTypes: true,
    ...options,
  })
  addFormats(ajv, { keywords: true })
  const validate = ajv.compile(schema)
  expect(validate(data)).toBe(false)
  return validate.errors ?? []
}

describe('validation messages for every Ajv keyword', () => {
  it.each(KEYWORD_CASES)('%s: Ajv says it its way, we say it in plain words', (_keyword, schema, data) => {
    const raw = ajvErrors(schema, data, { verbose: false })
    for (const error of raw) expect(rawAjvPhrase(error.message ?? ''), error.message).toBeDefined()
    const details = describeValidationErrors(ajvErrors(schema, data, { verbose: true }), 'body')
    expect(details.length).toBeGreaterThan(0)
    for (const { path, message } of details) {
      expect(path).toMatch(/^\/body/)
      expect(rawAjvPhrase(message), message).toBeUndefined()
    }
  })
})

/** A value that breaks one constraint of `schema`, one per constraint it has. */
function badValues(schema: JsonSchema): unknown[] {
  const values: unknown[] = []
  const types = ([] as unknown[]).concat(schema.type)
  if (types.includes('string')) values.push(42)
  else if (types.includes('integer') || types.includes('number')) values.push('7', 1.5)
  else if (types.includes('boolean')) values.push('yes')
  else if (types.includes('array')) values.push({ not: 'an array' })
  else if (types.includes('object')) values.push('not an object')
  if (!types.includes('null')) values.push(null)
  if (typeof schema.minLength === 'number' && schema.minLength > 0) values.push('')
  if (typeof schema.maxLength === 'number') values.push('x'.repeat(schema.maxLength + 1))
  if (schema.pattern) values.push(' ')
  if (schema.format) values.push('not-a-value-of-the-format')
  if (schema.enum) values.push('NOT_ONE_OF_THEM')
  if (typeof schema.minimum === 'number') values.push(schema.minimum - 1)
  if (typeof schema.maximum === 'number') values.push(schema.maximum + 1)
  if (typeof schema.exclusiveMinimum === 'number') values.push(schema.exclusiveMinimum)
  if (typeof schema.minItems === 'number' && schema.minItems > 0) values.push([])
  if (typeof schema.maxItems === 'number')
    values.push(Array.from({ length: schema.maxItems + 1 }, (_, i) => `${i}`))
  if (schema.uniqueItems) values.push(['same', 'same'])
  if (schema.items?.type === 'object') {
    for (const [name, property] of Object.entries(schema.items.properties ?? {}))
      for (const value of badValues(property as JsonSchema)) values.push([{ [name]: value }])
  }
  return values
}

interface BadRequest {
  operation: Operation
  url: string
  payload?: unknown
}

/** Bad bodies (each property broken each way, unknown fields, missing fields, non-objects) and queries. */
function badRequests(operations: Operation[]): BadRequest[] {
  const requests: BadRequest[] = []
  for (const operation of operations) {
    const url = operation.path.replace(/\{[^}]+\}/g, 'no-such-id')
    for (const param of operation.queryParams) {
      for (const value of badValues(param.schema)) {
        if (value === null || typeof value === 'object') continue
        requests.push({ operation, url: `${url}?${param.name}=${encodeURIComponent(String(value))}` })
      }
    }
    if (operation.method === 'GET') requests.push({ operation, url: `${url}?colour=red` })
    if (!operation.body) continue
    const schema = operation.body.schema
    requests.push({ operation, url, payload: [] }, { operation, url, payload: { colour: 'red' } })
    if (operation.body.required) requests.push({ operation, url, payload: {} })
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      for (const value of badValues(property)) requests.push({ operation, url, payload: { [name]: value } })
    }
  }
  return requests
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: every validation error names its field in plain words`, () => {
    let t: TestContext
    let tenant: TestTenant
    /** My day answers only a signed-in user: its operations are sent with a worker's session. */
    let workerHeaders: Record<string, string>
    const operations = loadOperations()
    beforeAll(async () => {
      t = await createTestApp(dialect)
      tenant = await createTenant(t, { scopes: ['admin'] })
      const worker = await makeDashboardUser(t, tenant.organisationId, { role: 'WORKER' })
      const signedIn = await signIn(t, worker)
      workerHeaders = { cookie: `fs_session=${signedIn.cookie}`, 'x-csrf-token': signedIn.csrfToken }
    })
    afterAll(() => t.close())

    it('across every operation of both APIs, never in Ajv wording', async () => {
      const requests = badRequests(operations)
      const refused = new Set<string>()
      let answered400 = 0
      for (const { operation, url, payload } of requests) {
        const response = await t.app.inject({
          method: operation.method,
          url,
          headers: url.startsWith('/v1/admin/my/') ? workerHeaders : tenant.headers,
          ...(payload === undefined ? {} : { payload: payload as object }),
        })
        if (response.statusCode !== 400) continue
        answered400++
        refused.add(operation.key)
        const body = response.json()
        const sent = `${operation.key} ${url} ${JSON.stringify(payload)}`
        expect(body.code, sent).toBe('VALIDATION_ERROR')
        expect(rawAjvPhrase(body.error), `${sent} → ${body.error}`).toBeUndefined()
        expect(body.details, sent).toEqual(expect.any(Array))
        for (const detail of body.details) {
          expect(Object.keys(detail).sort(), sent).toEqual(['message', 'path'])
          expect(rawAjvPhrase(detail.message), `${sent} → ${detail.message}`).toBeUndefined()
        }
        // The error starts with the field of the first detail: `title must …`, `tagIds.1: …`.
        const field = body.details[0].path.replace(/^\/(body|query|params)\/?/, '').replaceAll('/', '.')
        expect(body.error.startsWith(field || 'body'), `${sent} → ${body.error}`).toBe(true)
      }
      expect(answered400).toBeGreaterThan(500)
      // Every operation that takes input had at least one bad input refused.
      const takingInput = operations.filter((o) => o.body || o.queryParams.length > 0)
      expect(takingInput.filter((o) => !refused.has(o.key)).map((o) => o.key)).toEqual([])
    })

    it.each([
      ['POST', '/jobs', {}, 'title is required', '/body/title'],
      ['POST', '/jobs', { title: '' }, 'title must be at least 1 character (and 1 more)', '/body/title'],
      ['POST', '/jobs', { title: '   ' }, 'title must contain at least one visible character', '/body/title'],
      ['POST', '/jobs', { title: 42 }, 'title must be a string', '/body/title'],
      ['POST', '/jobs', { title: 'x', colour: 'red' }, 'colour: unknown field "colour"', '/body/colour'],
      [
        'POST',
        '/jobs',
        { title: 'x', priority: 'URGENT' },
        'priority must be one of LOW, NORMAL, HIGH',
        '/body/priority',
      ],
      [
        'POST',
        '/jobs',
        { title: 'x', jobLatitude: 91 },
        'jobLatitude must be at most 90',
        '/body/jobLatitude',
      ],
      [
        'POST',
        '/jobs',
        { title: 'x', description: 5 },
        'description must be a string or null',
        '/body/description',
      ],
      [
        'POST',
        '/jobs',
        { title: 'x', serviceDuration: 1.5 },
        'serviceDuration must be an integer',
        '/body/serviceDuration',
      ],
      [
        'POST',
        '/jobs',
        { title: 'x', earliestStart: 'tomorrow' },
        'earliestStart must be an ISO 8601 datetime with an offset, e.g. 2026-11-23T09:00:00Z',
        '/body/earliestStart',
      ],
      [
        'POST',
        '/jobs',
        { title: 'x', earliestStart: '2026-11-24T10:00:00Z', latestEnd: '2026-11-24T09:00:00Z' },
        'latestEnd must be after earliestStart',
        '/body/latestEnd',
      ],
      ['POST', '/jobs', [], 'body must be an object', '/body'],
      [
        'POST',
        '/customers',
        { name: 'x', latitude: 1, longitude: 1, operationalStart: '7:30' },
        'operationalStart must be a time of day, HH:MM (00:00–23:59)',
        '/body/operationalStart',
      ],
      ['GET', '/jobs?limit=0', undefined, 'limit must be at least 1', '/query/limit'],
      [
        'GET',
        '/jobs?status=DONE',
        undefined,
        'status must be one of CREATED, ASSIGNED, IN_PROGRESS, COMPLETED, CANCELLED',
        '/query/status',
      ],
      [
        'GET',
        '/jobs?targetDate=soon',
        undefined,
        'targetDate must be a date, YYYY-MM-DD',
        '/query/targetDate',
      ],
    ] as const)('%s %s %j → "%s"', async (method, url, payload, error, path) => {
      const api = client(t, tenant.headers)
      const response = method === 'GET' ? await api.get(url) : await api.post(url, payload)
      expect(response.status).toBe(400)
      expect(response.body.error).toBe(error)
      expect(response.body.details[0].path).toBe(path)
    })

    it.each([
      [{ name: 'x', scopes: [] }, 'scopes must have at least 1 item'],
      [
        { name: 'x', scopes: ['read', 'read'] },
        'scopes must not repeat an item (items 0 and 1 are the same)',
      ],
    ])('admin POST /api-keys %j → "%s"', async (payload, error) => {
      const response = await adminClient(t, tenant.headers).post('/api-keys', payload)
      expect(response.status).toBe(400)
      expect(response.body.error).toBe(error)
    })
  })

  describe(`${dialect}: numbers are finite, and query numbers plain decimal digits`, () => {
    let t: TestContext
    let tenant: TestTenant
    /** My day answers only a signed-in user: its operations are sent with a worker's session. */
    let workerHeaders: Record<string, string>
    const operations = loadOperations()
    beforeAll(async () => {
      t = await createTestApp(dialect)
      tenant = await createTenant(t, { scopes: ['admin'] })
      const worker = await makeDashboardUser(t, tenant.organisationId, { role: 'WORKER' })
      const signedIn = await signIn(t, worker)
      workerHeaders = { cookie: `fs_session=${signedIn.cookie}`, 'x-csrf-token': signedIn.csrfToken }
    })
    afterAll(() => t.close())

    /** Every numeric body field of every operation, top level and inside arrays of objects. */
    function numericFields(schema: JsonSchema): { path: string; body: (raw: string) => string }[] {
      const fields: { path: string; body: (raw: string) => string }[] = []
      const isNumeric = (s: JsonSchema) =>
        ([] as unknown[]).concat(s.type).some((t) => t === 'number' || t === 'integer')
      for (const [name, property] of Object.entries(
        (schema.properties ?? {}) as Record<string, JsonSchema>,
      )) {
        if (isNumeric(property)) fields.push({ path: `/body/${name}`, body: (raw) => `{"${name}":${raw}}` })
        for (const [inner, item] of Object.entries(
          (property.items?.properties ?? {}) as Record<string, JsonSchema>,
        )) {
          if (isNumeric(item))
            fields.push({
              path: `/body/${name}/0/${inner}`,
              body: (raw) => `{"${name}":[{"${inner}":${raw}}]}`,
            })
        }
      }
      return fields
    }

    it('refuses 1e400 and -1e400 in every numeric body field with 400 naming it', async () => {
      let checked = 0
      for (const operation of operations.filter((o) => o.body)) {
        const url = operation.path.replace(/\{[^}]+\}/g, 'no-such-id')
        for (const field of numericFields(operation.body?.schema ?? {})) {
          for (const raw of ['1e400', '-1e400']) {
            const response = await t.app.inject({
              method: operation.method,
              url,
              headers: {
                ...(url.startsWith('/v1/admin/my/') ? workerHeaders : tenant.headers),
                'content-type': 'application/json',
              },
              payload: field.body(raw),
            })
            const sent = `${operation.key} ${field.body(raw)}`
            expect(response.statusCode, sent).toBe(400)
            expect(response.json().details, sent).toContainEqual({
              path: field.path,
              message: 'must be a finite number',
            })
            checked++
          }
        }
      }
      expect(checked).toBeGreaterThan(30)
    })

    it('stores nothing: a vehicle keeps its cost when sent 1e400', async () => {
      const admin = adminClient(t, tenant.headers)
      const location = await admin.post('/locations', {
        name: 'Depot',
        code: 'D1',
        latitude: 51.5,
        longitude: -0.1,
        timezone: 'Europe/London',
      })
      expect(location.status).toBe(201)
      const vehicle = await admin.post('/vehicles', {
        name: 'Van',
        locationId: location.body.data.location.id,
      })
      expect(vehicle.status).toBe(201)
      const id = vehicle.body.data.vehicle.id
      const response = await t.app.inject({
        method: 'PATCH',
        url: `/v1/admin/vehicles/${id}`,
        headers: { ...tenant.headers, 'content-type': 'application/json' },
        payload: '{"fixedCost":1e400}',
      })
      expect(response.statusCode).toBe(400)
      expect(response.json().error).toBe('fixedCost must be a finite number')
      expect((await admin.get(`/vehicles/${id}`)).body.data.vehicle).toEqual(vehicle.body.data.vehicle)
    })

    it.each(['0x10', '1e2', ' 10', '10 ', '+10', '1.0', 'Infinity', '0b11', '1_0', '١٠'])(
      'refuses the query integer %j on every list, naming the parameter',
      async (value) => {
        let checked = 0
        for (const operation of operations) {
          const url = operation.path.replace(/\{[^}]+\}/g, 'no-such-id')
          for (const param of operation.queryParams.filter((p) => p.schema.type === 'integer')) {
            // Every other required parameter given a good value, so the one error is this one's.
            const others = operation.queryParams
              .filter((p) => p.required && p.name !== param.name)
              .map((p) => `&${p.name}=${p.schema.format === 'date' ? '2026-12-07' : 'boiler'}`)
              .join('')
            const response = await t.app.inject({
              method: operation.method,
              url: `${url}?${param.name}=${encodeURIComponent(value)}${others}`,
              headers: tenant.headers,
            })
            const sent = `${operation.key}?${param.name}=${value}`
            expect(response.statusCode, sent).toBe(400)
            expect(response.json(), sent).toEqual({
              error: `${param.name} must be a whole number written in decimal digits, e.g. 20`,
              code: 'VALIDATION_ERROR',
              details: [
                {
                  path: `/query/${param.name}`,
                  message: 'must be a whole number written in decimal digits, e.g. 20',
                },
              ],
            })
            checked++
          }
        }
        expect(checked).toBeGreaterThan(20)
      },
    )

    it('still takes plain digits (leading zeros too), and reports other fields alongside', async () => {
      const api = client(t, tenant.headers)
      const page = await api.get('/jobs?limit=010&page=1')
      expect(page.status).toBe(200)
      expect(page.body.data.pagination).toMatchObject({ page: 1, limit: 10 })
      const both = await api.get('/jobs?limit=1e2&page=0')
      expect(both.status).toBe(400)
      expect(both.body.details).toEqual([
        { path: '/query/limit', message: 'must be a whole number written in decimal digits, e.g. 20' },
        { path: '/query/page', message: 'must be at least 1' },
      ])
      expect((await api.get('/jobs?page=-1')).body.error).toBe('page must be at least 1')
    })
  })
}
