// The OpenAPI documents as integrators' tools read them (generated clients, validating proxies,
// linters), and the playgrounds built on them. What the documents say about headers is checked
// against real answers on both databases.
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, createTenant, createTestApp, DIALECTS, type TestContext } from '../../test/helpers.js'
import { ERROR_STATUS } from './errors.js'

// biome-ignore lint/suspicious/noExplicitAny: the documents are inspected structurally
type Json = any

const METHODS = ['get', 'put', 'post', 'patch', 'delete']

function operations(document: Json): { key: string; operation: Json }[] {
  return Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      key: `${method.toUpperCase()} ${path}`,
      operation: item[method],
    })),
  )
}

/** Every value under `value` for which `match` holds, skipping examples (data, not schemas). */
function findSchemas(value: Json, match: (node: Json) => boolean, found: Json[] = []): Json[] {
  if (Array.isArray(value)) for (const item of value) findSchemas(item, match, found)
  else if (value !== null && typeof value === 'object') {
    if (match(value)) found.push(value)
    for (const [key, child] of Object.entries(value))
      if (key !== 'examples' && key !== 'example') findSchemas(child, match, found)
  }
  return found
}

describe('OpenAPI documents as tools read them', () => {
  let t: TestContext
  const documents: Record<'public' | 'admin', Json> = { public: undefined, admin: undefined }

  beforeAll(async () => {
    t = await createTestApp('sqlite')
    for (const api of ['public', 'admin'] as const) {
      const response = await t.app.inject({ method: 'GET', url: `/v1/${api}/openapi.json` })
      documents[api] = response.json()
    }
  })
  afterAll(() => t.close())

  it('names every operation with a camelCase operationId, unique across both documents', () => {
    const ids = Object.values(documents).flatMap((document) =>
      operations(document).map(({ operation }) => operation.operationId),
    )
    expect(ids.length).toBe(153)
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/)
    expect(new Set(ids).size).toBe(ids.length)
    // Both documents describe the same webhooks, each once.
    for (const document of Object.values(documents)) {
      const webhooks = Object.values(document.webhooks as Record<string, Json>).map(
        (item) => item.post.operationId,
      )
      for (const id of webhooks) expect(id).toMatch(/^webhook[A-Z][a-zA-Z0-9]*$/)
      expect(new Set([...webhooks, ...ids]).size).toBe(webhooks.length + ids.length)
    }
    const publicIds = operations(documents.public).map(
      ({ key, operation }) => `${key} ${operation.operationId}`,
    )
    expect(publicIds).toEqual(expect.arrayContaining(['GET /jobs listJobs', 'GET /jobs/{id} getJob']))
    const adminIds = operations(documents.admin).map(
      ({ key, operation }) => `${key} ${operation.operationId}`,
    )
    expect(adminIds).toEqual(
      expect.arrayContaining([
        'GET /locations adminListLocations',
        'POST /jobs/{id}/assign assignJob',
        'POST /jobs/{id}/assignment-check checkJobAssignment',
        'GET /tags listTags',
        'DELETE /capacity-dimensions/{id} deleteCapacityDimension',
      ]),
    )
  })

  it('lists the codes of every error response as an enum of codes of that status, and documents 500', () => {
    for (const document of Object.values(documents)) {
      for (const { key, operation } of operations(document)) {
        expect(Object.keys(operation.responses), key).toEqual(expect.arrayContaining(['401', '429', '500']))
        for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
          if (Number(status) < 400) continue
          const schema = response.content['application/json'].schema
          expect(schema.allOf[0], `${key} ${status}`).toEqual({ $ref: '#/components/schemas/Error' })
          const codes: string[] = schema.allOf[1].properties.code.enum
          expect(codes.length, `${key} ${status}`).toBeGreaterThan(0)
          for (const code of codes)
            expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], `${key} ${status} ${code}`).toBe(
              Number(status),
            )
          for (const code of codes) expect(response.description).toContain(code)
        }
      }
    }
    const responses = documents.admin.paths['/tags/{id}'].delete.responses
    expect(responses['409'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual([
      'IN_USE',
    ])
    // A dashboard session's change can also be refused for its CSRF token; a read cannot.
    expect(responses['403'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual([
      'FORBIDDEN',
      'PLAN_UPGRADE_REQUIRED',
      'CSRF_INVALID',
    ])
    const getTag = documents.admin.paths['/tags/{id}'].get.responses
    expect(getTag['403'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual([
      'FORBIDDEN',
      'PLAN_UPGRADE_REQUIRED',
    ])
    const publicWrite = documents.public.paths['/jobs'].post.responses
    expect(publicWrite['403'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual([
      'FORBIDDEN',
      'PLAN_UPGRADE_REQUIRED',
    ])
    // The sign-in's 409 lists the organisations to choose from, beside the code.
    const signIn = documents.admin.paths['/session'].post.responses['409'].content['application/json'].schema
    expect(signIn.allOf[1].properties.code.enum).toEqual(['ORGANISATION_REQUIRED'])
    expect(signIn.allOf[1].required).toEqual(['code', 'organisations'])
    expect(signIn.allOf[1].properties.organisations.items.required).toEqual(['id', 'name'])
    const patchJob = documents.public.paths['/jobs/{id}'].patch.responses
    expect(patchJob['422'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual([
      'TERMINAL_STATE',
      'IDEMPOTENCY_KEY_REUSED',
    ])
  })

  it('takes an Idempotency-Key on every POST, PUT and PATCH, and says which answers can be replays', () => {
    let writes = 0
    const secrets: string[] = []
    for (const document of Object.values(documents)) {
      expect(document.components.headers['Idempotent-Replayed'].schema).toEqual({
        type: 'string',
        enum: ['true'],
      })
      for (const { key, operation } of operations(document)) {
        const header = ((operation.parameters ?? []) as Json[]).find(
          (p) => p.in === 'header' && p.name === 'Idempotency-Key',
        )
        if (!/^(POST|PUT|PATCH) /.test(key)) {
          expect(header, key).toBeUndefined()
          continue
        }
        if (/Takes no `Idempotency-Key`/.test(operation.description)) {
          secrets.push(operation.operationId)
          expect(header, key).toBeUndefined()
          continue
        }
        writes++
        expect(header, key).toMatchObject({ name: 'Idempotency-Key', required: false })
        expect(header.schema).toMatchObject({ minLength: 1, maxLength: 255 })
        expect(header.description).toMatch(/24 hours/)
        const codes = (status: string) =>
          operation.responses[status].content['application/json'].schema.allOf[1].properties.code.enum
        expect(codes('409'), key).toContain('IDEMPOTENCY_KEY_IN_USE')
        expect(codes('422'), key).toContain('IDEMPOTENCY_KEY_REUSED')
        for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
          const replayable = !['401', '403', '413', '415', '429', '500', '503'].includes(status)
          expect('Idempotent-Replayed' in response.headers, `${key} ${status}`).toBe(replayable)
        }
      }
    }
    expect(writes).toBe(61)
    // Their answers, or their requests (a password), hold a secret, which would be stored.
    expect(secrets.sort()).toEqual([
      'createApiKey',
      'createAutomation',
      'rotateApiKey',
      'rotateAutomationSecret',
      'setUserPassword',
      'signIn',
    ])
  })

  it('documents the request id, rate-limit and Retry-After headers on the responses that carry them', () => {
    for (const document of Object.values(documents)) {
      for (const name of [
        'X-Request-Id',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'RateLimit-Policy',
        'RateLimit',
      ])
        expect(document.components.headers[name].schema.type).toBeDefined()
      expect(document.components.headers['RateLimit-Policy'].description).toMatch(/draft/)
      for (const { key, operation } of operations(document)) {
        // Signing in needs no credential, so it has no key's budget to show (its limits are its own).
        const authenticated = operation.security?.length !== 0
        for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
          const headers = Object.keys(response.headers)
          expect(headers, `${key} ${status}`).toContain('X-Request-Id')
          if (status === '401' || !authenticated) expect(headers).not.toContain('X-RateLimit-Limit')
          else
            expect(headers, `${key} ${status}`).toEqual(
              expect.arrayContaining([
                'X-RateLimit-Limit',
                'X-RateLimit-Remaining',
                'X-RateLimit-Reset',
                'RateLimit-Policy',
                'RateLimit',
              ]),
            )
          if (status === '429' || status === '503') expect(headers).toContain('Retry-After')
        }
      }
    }
  })

  it('has resource and error bodies as named components, referenced by $ref and never inlined', () => {
    expect(Object.keys(documents.public.components.schemas)).toEqual(
      expect.arrayContaining(['Job', 'JobDetail', 'Customer', 'Vehicle', 'Location', 'Shift', 'Error']),
    )
    expect(Object.keys(documents.public.components.schemas)).toEqual(
      expect.arrayContaining(['ChangeFeedPagination', 'CursorPagination', 'EventFeedPagination']),
    )
    expect(Object.keys(documents.admin.components.schemas)).toEqual(
      expect.arrayContaining([
        'Tag',
        'CapacityDimension',
        'User',
        'ApiKey',
        'Automation',
        'WebhookExecution',
      ]),
    )
    const jobList = documents.public.paths['/jobs'].get.responses['200'].content['application/json'].schema
    expect(jobList.properties.data.properties.jobs.items).toEqual({ $ref: '#/components/schemas/Job' })
    expect(jobList.properties.data.properties.pagination).toEqual({
      $ref: '#/components/schemas/CursorPagination',
    })
    for (const document of Object.values(documents)) {
      const inlined = findSchemas(document.paths, (node) => typeof node.title === 'string')
      expect(inlined.map((node) => node.title)).toEqual([])
    }
  })

  it('gives path parameters and coordinates examples that are valid values', () => {
    for (const document of Object.values(documents)) {
      for (const { key, operation } of operations(document)) {
        for (const parameter of (operation.parameters ?? []) as Json[]) {
          if (parameter.in !== 'path') continue
          // Ids are UUIDv7s; a calendar date (a shift's date) is YYYY-MM-DD.
          expect(parameter.schema.examples?.[0] ?? parameter.example, `${key} ${parameter.name}`).toMatch(
            parameter.schema.format === 'date'
              ? /^\d{4}-\d{2}-\d{2}$/
              : /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
          )
        }
      }
      const coordinates = findSchemas(
        document,
        (node) =>
          typeof node.description === 'string' &&
          /(Latitude|Longitude) in decimal|Decimal degrees, -/.test(node.description),
      )
      expect(coordinates.length).toBeGreaterThan(0)
      for (const node of coordinates) {
        const example = Number(node.examples[0])
        const longitude = /-180|^Longitude/.test(node.description)
        expect(Math.abs(example)).toBeLessThanOrEqual(longitude ? 180 : 90)
        if (longitude) expect(example).toBe(-0.1276)
        else expect(example).toBe(51.5072)
      }
    }
  })

  it('gives automation examples a URL that can never resolve (.invalid)', () => {
    const create = documents.admin.paths['/automations'].post.requestBody.content['application/json']
    const update = documents.admin.paths['/automations/{id}'].patch.requestBody.content['application/json']
    const urls = [create.example.url, update.example.url, create.schema.properties.url.examples[0]]
    for (const url of urls) expect(new URL(url).hostname).toMatch(/\.invalid$/)
  })
})

describe('playgrounds', () => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestApp('sqlite')
  })
  afterAll(() => t.close())

  /** One page load on an origin whose localStorage is `origin`: runs the playground's scope script. */
  async function loadPlayground(api: 'public' | 'admin', origin: Map<string, string>) {
    const page = await t.app.inject({ method: 'GET', url: `/v1/${api}/docs/` })
    expect(page.body).toContain('theme/authorization-scope.js')
    const script = await t.app.inject({
      method: 'GET',
      url: `/v1/${api}/docs/static/theme/authorization-scope.js`,
    })
    expect(script.statusCode).toBe(200)
    class Storage {
      getItem(name: string) {
        return origin.get(name) ?? null
      }
      setItem(name: string, value: string) {
        origin.set(name, String(value))
      }
      removeItem(name: string) {
        origin.delete(name)
      }
    }
    const localStorage = new Storage()
    runInNewContext(script.body, { Storage, window: { localStorage } })
    return localStorage
  }

  it('keep separate stored authorisations: a public key never shows on the admin page', async () => {
    const origin = new Map([['authorized', '{"bearerAuth":{"value":"svc_live_from_before"}}']])
    // swagger-ui, with persistAuthorization, stores what the user authorised under `authorized`.
    const publicPage = await loadPlayground('public', origin)
    expect(origin.has('authorized')).toBe(false)
    publicPage.setItem('authorized', '{"bearerAuth":{"value":"svc_live_public"}}')
    const adminPage = await loadPlayground('admin', origin)
    expect(adminPage.getItem('authorized')).toBeNull()
    adminPage.setItem('authorized', '{"bearerAuth":{"value":"svc_live_admin"}}')
    expect((await loadPlayground('public', origin)).getItem('authorized')).toContain('svc_live_public')
    expect((await loadPlayground('admin', origin)).getItem('authorized')).toContain('svc_live_admin')
  })
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: the documented headers are on real answers`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    it('sends the request id everywhere, the rate-limit headers after authentication, Retry-After on 429', async () => {
      const tenant = await createTenant(t, { rateLimitPerMinute: 2 })
      const api = client(t, tenant.headers)
      const ok = await api.get('/jobs')
      const notFound = await api.get('/jobs/no-such-job')
      const limited = await api.get('/jobs')
      const unauthorised = await client(t, { authorization: 'Bearer svc_live_nope' }).get('/jobs')
      expect([ok.status, notFound.status, limited.status, unauthorised.status]).toEqual([200, 404, 429, 401])
      for (const answer of [ok, notFound, limited, unauthorised])
        expect(answer.headers['x-request-id']).toBeTruthy()
      for (const answer of [ok, notFound, limited]) {
        expect(answer.headers['x-ratelimit-limit']).toBe('2')
        expect(answer.headers['x-ratelimit-remaining']).toMatch(/^\d+$/)
        expect(answer.headers['x-ratelimit-reset']).toMatch(/^\d+$/)
      }
      expect(limited.headers['retry-after']).toMatch(/^\d+$/)
      expect(unauthorised.headers['x-ratelimit-limit']).toBeUndefined()
    })
  })
}
