// Issue 13, point 12: a wrong method on a path that exists is 405 METHOD_NOT_ALLOWED with `Allow`
// (not 404), on both APIs; OPTIONS lists the methods; GET / is a small landing page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../test/helpers.js'

const SECURITY_HEADERS = { 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' }

for (const dialect of DIALECTS) {
  describe(`${dialect}: requests no route takes`, () => {
    let t: TestContext
    let tenant: TestTenant
    beforeAll(async () => {
      t = await createTestApp(dialect)
      tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
    })
    afterAll(() => t.close())

    const send = (method: string, url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: method as 'GET', url, headers })

    it.each([
      ['DELETE', '/v1/public/customers/c1', 'GET, HEAD, PATCH'],
      ['PUT', '/v1/public/jobs/j1?limit=5', 'GET, HEAD, PATCH, DELETE'],
      ['POST', '/v1/public/vehicles', 'GET, HEAD'],
      ['PATCH', '/v1/public/shifts/s1/', 'GET, HEAD'],
      ['GET', '/v1/admin/jobs/j1/assign', 'POST'],
      ['DELETE', '/v1/admin/api-keys', 'GET, HEAD, POST'],
      ['PUT', '/v1/admin/organisation', 'GET, HEAD, PATCH'],
      ['POST', '/v1/public/openapi.json', 'GET, HEAD'],
      ['DELETE', '/healthz', 'GET, HEAD'],
      ['PUT', '/', 'GET, HEAD'],
    ])('%s %s → 405 METHOD_NOT_ALLOWED, Allow: %s, OPTIONS', async (method, url, allow) => {
      for (const headers of [{}, tenant.headers]) {
        const response = await send(method, url, headers)
        expect(response.statusCode).toBe(405)
        expect(response.headers.allow).toBe(`${allow}, OPTIONS`)
        const path = url.split('?')[0]
        expect(response.json()).toEqual({
          error: `Method ${method} is not allowed on ${path}; it takes ${allow}`,
          code: 'METHOD_NOT_ALLOWED',
        })
        expect(response.headers).toMatchObject({ ...SECURITY_HEADERS, 'cache-control': 'no-store' })
        expect(response.headers['x-request-id']).toEqual(expect.any(String))
      }
    })

    it('a path nobody serves is still 404 NOT_FOUND, whatever the method', async () => {
      for (const method of ['GET', 'POST', 'DELETE', 'OPTIONS']) {
        for (const url of ['/nowhere', '/v1/public/nothing/here', '/v1/admin/jobs/j1/teleport']) {
          const response = await send(method, url)
          expect(response.statusCode, `${method} ${url}`).toBe(404)
          expect(response.json()).toEqual({ error: `Route ${method} ${url} not found`, code: 'NOT_FOUND' })
          expect(response.headers.allow).toBeUndefined()
        }
      }
    })

    it('OPTIONS on a path that exists → 204 with Allow, without a key', async () => {
      const response = await send('OPTIONS', '/v1/public/jobs/j1')
      expect(response.statusCode).toBe(204)
      expect(response.body).toBe('')
      expect(response.headers.allow).toBe('GET, HEAD, PATCH, DELETE, OPTIONS')
      expect((await send('OPTIONS', '/v1/admin/jobs/j1/start')).headers.allow).toBe('POST, OPTIONS')
    })

    it('the right method still reaches the route, with its key checks', async () => {
      expect((await send('GET', '/v1/public/customers/c1')).statusCode).toBe(401)
      expect((await send('GET', '/v1/public/customers/c1', tenant.headers)).statusCode).toBe(404)
      expect((await send('HEAD', '/v1/public/jobs', tenant.headers)).statusCode).toBe(200)
      expect((await send('GET', '/v1/admin/jobs/j1/assign', tenant.headers)).statusCode).toBe(405)
    })

    describe('GET /', () => {
      it('is a small HTML page linking to both playgrounds, with no script', async () => {
        const page = await send('GET', '/')
        expect(page.statusCode).toBe(200)
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
        expect(page.body).toContain('href="/v1/public/docs/"')
        expect(page.body).toContain('href="/v1/admin/docs/"')
        expect(page.body).not.toMatch(/<script|javascript:|\son[a-z]+=/i)
        expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/)
        expect(page.headers['content-security-policy']).not.toContain('script-src')
        expect(page.headers).toMatchObject(SECURITY_HEADERS)
        for (const link of page.body.matchAll(/href="([^"]+)"/g)) {
          const target = await send('GET', link[1] as string)
          expect(target.statusCode, link[1]).toBe(200)
        }
      })

      it('is served from fixed bytes with an ETag, and 304 when the client has them', async () => {
        const first = await send('GET', '/')
        const etag = first.headers.etag as string
        expect(etag).toMatch(/^"[\w-]{43}"$/)
        expect(first.headers['cache-control']).toBe('no-cache')
        const again = await send('GET', '/', { 'if-none-match': etag })
        expect(again.statusCode).toBe(304)
        expect(again.body).toBe('')
        expect((await send('GET', '/')).body).toBe(first.body)
      })
    })
  })
}
