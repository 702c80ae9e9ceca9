import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestContext } from '../../test/helpers.js'

const OPERATIONS = [
  'GET /jobs',
  'POST /jobs',
  'GET /jobs/{id}',
  'PATCH /jobs/{id}',
  'DELETE /jobs/{id}',
  'GET /customers',
  'POST /customers',
  'GET /customers/{id}',
  'PATCH /customers/{id}',
  'GET /vehicles',
  'GET /vehicles/{id}',
  'GET /locations',
  'GET /locations/{id}',
  'GET /shifts',
  'GET /shifts/{id}',
]
/** Additions to the spec (docs/contract-decisions.md): the event feed. */
const ADDITIONS = [
  'GET /events',
  // Issue 31 §2: a job's attachments, read-only, for archiving the proof of work.
  'GET /jobs/{id}/attachments',
  'GET /jobs/{id}/attachments/{attachmentId}/content',
  'GET /jobs/{id}/attachments/{attachmentId}/thumbnail',
  // Issue 31 §3: the job's proof of completion as a PDF.
  'GET /jobs/{id}/proof',
  // Issue 32 §4: the booking windows a customer can choose (booked with POST /jobs's bookingToken).
  'POST /availability',
]

// The documentation does not depend on the database engine: SQLite is enough.
describe('OpenAPI document and playground', () => {
  let t: TestContext
  // biome-ignore lint/suspicious/noExplicitAny: the document is inspected structurally
  let document: any

  beforeAll(async () => {
    t = await createTestApp('sqlite')
    const response = await t.app.inject({ method: 'GET', url: '/v1/public/openapi.json' })
    expect(response.statusCode).toBe(200)
    document = response.json()
  })
  afterAll(() => t.close())

  it('is OpenAPI 3.1 with the public base path and bearer security', () => {
    expect(document.openapi).toBe('3.1.0')
    expect(document.servers).toEqual([{ url: '/v1/public' }])
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(document.security).toEqual([{ bearerAuth: [] }])
  })

  it('describes exactly the 15 operations of the spec, and the additions', () => {
    const operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(operations.sort()).toEqual([...OPERATIONS, ...ADDITIONS].sort())
  })

  it('documents defaults, limits and error responses from the validating schemas', () => {
    const list = document.paths['/jobs'].get
    const limit = list.parameters.find((p: { name: string }) => p.name === 'limit')
    expect(limit).toMatchObject({ required: false, schema: { default: 20, maximum: 100, minimum: 1 } })
    const customersLimit = document.paths['/customers'].get.parameters.find(
      (p: { name: string }) => p.name === 'limit',
    )
    expect(customersLimit.schema.default).toBe(50)
    expect(Object.keys(document.paths['/jobs/{id}'].patch.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '422', '429']),
    )
    const body = document.paths['/jobs'].post.requestBody.content['application/json'].schema
    expect(body.required).toEqual(['title'])
    expect(body.additionalProperties).toBe(false)
  })

  it('matches the committed openapi/public-v1.json', async () => {
    const committed = JSON.parse(
      await readFile(new URL('../../openapi/public-v1.json', import.meta.url), 'utf8'),
    )
    expect(document).toEqual(committed)
  })

  it('serves the interactive playground without a key, from local assets', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/v1/public/docs/' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/text\/html/)
    expect(page.body).not.toMatch(/https?:\/\/(cdn|unpkg|cdnjs)/)
    const assets = [...page.body.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((m) => m[1])
    expect(assets.length).toBeGreaterThan(0)
    for (const asset of assets) {
      const response = await t.app.inject({ method: 'GET', url: `/v1/public/docs/${asset}` })
      expect(response.statusCode, asset).toBe(200)
    }
    const redirect = await t.app.inject({ method: 'GET', url: '/v1/public/docs' })
    expect([200, 302]).toContain(redirect.statusCode)
  })

  describe('admin document', () => {
    // biome-ignore lint/suspicious/noExplicitAny: the document is inspected structurally
    let admin: any

    beforeAll(async () => {
      const response = await t.app.inject({ method: 'GET', url: '/v1/admin/openapi.json' })
      expect(response.statusCode).toBe(200)
      admin = response.json()
    })

    it('is a separate OpenAPI 3.1 document for /v1/admin', () => {
      expect(admin.openapi).toBe('3.1.0')
      expect(admin.info.title).toBe('fieldservice admin API')
      expect(admin.servers).toEqual([{ url: '/v1/admin' }])
      // An admin key, or the dashboard's session cookie.
      expect(admin.security).toEqual([{ bearerAuth: [] }, { cookieAuth: [] }])
      expect(admin.components.securitySchemes.cookieAuth).toMatchObject({
        type: 'apiKey',
        in: 'cookie',
        name: 'fs_session',
      })
      expect(Object.keys(admin.paths)).toContain('/organisation')
      // Neither document leaks the other's routes: the admin document has the public API's job and
      // customer routes (a dashboard session may use only the admin API), under admin operationIds.
      expect(admin.paths['/customers'].get.operationId).toBe('adminListCustomers')
      expect(Object.keys(document.paths)).not.toContain('/organisation')
      expect(Object.keys(document.paths)).not.toContain('/session')
    })

    it('marks bodies optional exactly where a route takes none', () => {
      expect(admin.paths['/jobs/{id}/start'].post.requestBody.required).toBe(false)
      expect(admin.paths['/api-keys/{id}/rotate'].post.requestBody.required).toBe(false)
      expect(admin.paths['/jobs/{id}/assign'].post.requestBody.required).toBe(true)
      expect(document.paths['/jobs'].post.requestBody.required).toBe(true)
    })

    it('matches the committed openapi/admin-v1.json', async () => {
      const committed = JSON.parse(
        await readFile(new URL('../../openapi/admin-v1.json', import.meta.url), 'utf8'),
      )
      expect(admin).toEqual(committed)
    })

    it('has a playground of its own that loads the admin document', async () => {
      const page = await t.app.inject({ method: 'GET', url: '/v1/admin/docs/' })
      expect(page.statusCode).toBe(200)
      expect(page.headers['content-type']).toMatch(/text\/html/)
      const json = await t.app.inject({ method: 'GET', url: '/v1/admin/docs/json' })
      expect(json.json().info.title).toBe('fieldservice admin API')
      const publicJson = await t.app.inject({ method: 'GET', url: '/v1/public/docs/json' })
      expect(publicJson.json().info.title).toBe('fieldservice public API')
    })
  })
})
