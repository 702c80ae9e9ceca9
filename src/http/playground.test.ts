// Issue 13, point 4: the OpenAPI documents, both playgrounds and their assets are served from bytes
// built once, with a strong ETag, a Cache-Control and 304 on If-None-Match.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, DIALECTS, type TestContext } from '../../test/helpers.js'

const STRONG_ETAG = /^"[\w-]{43}"$/

for (const dialect of DIALECTS) {
  describe(`${dialect}: documents and playgrounds`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    const get = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, headers })

    /** Every URL a playground page loads, and the documents. */
    async function urlsOf(api: 'public' | 'admin'): Promise<string[]> {
      const page = await get(`/v1/${api}/docs/`)
      const assets = [...page.body.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map(
        (m) => `/v1/${api}/docs/${m[1]}`,
      )
      return [
        `/v1/${api}/openapi.json`,
        `/v1/${api}/docs/json`,
        `/v1/${api}/docs/yaml`,
        `/v1/${api}/docs/`,
        `/v1/${api}/docs/static/swagger-initializer.js`,
        ...assets,
      ]
    }

    it.each(['public', 'admin'] as const)(
      '%s: every answer has a strong ETag and a Cache-Control, and 304 when the client has it',
      async (api) => {
        const urls = await urlsOf(api)
        expect(urls).toContain(`/v1/${api}/docs/static/theme/authorization-scope.js`)
        expect(urls).toContain(`/v1/${api}/docs/static/swagger-ui-bundle.js`)
        for (const url of urls) {
          const first = await get(url)
          expect(first.statusCode, url).toBe(200)
          const etag = first.headers.etag as string
          expect(etag, url).toMatch(STRONG_ETAG)
          expect(first.headers['cache-control'], url).toMatch(/^(no-cache|public, max-age=3600)$/)
          const again = await get(url)
          expect(again.headers.etag, url).toBe(etag)
          expect(again.rawPayload.equals(first.rawPayload), url).toBe(true)
          for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
            const cached = await get(url, { 'if-none-match': ifNoneMatch })
            expect(cached.statusCode, `${url} ${ifNoneMatch}`).toBe(304)
            expect(cached.body).toBe('')
            expect(cached.headers.etag).toBe(etag)
          }
          expect((await get(url, { 'if-none-match': '"other"' })).statusCode, url).toBe(200)
          const head = await t.app.inject({ method: 'HEAD', url })
          expect(head.statusCode, url).toBe(200)
          expect(head.headers.etag, url).toBe(etag)
        }
      },
    )

    it('serves each document in JSON and YAML, and the JSON forms are one and the same', async () => {
      for (const api of ['public', 'admin']) {
        const json = await get(`/v1/${api}/openapi.json`)
        expect(json.headers['content-type']).toBe('application/json; charset=utf-8')
        expect(json.json().info.title).toBe(`fieldservice ${api} API`)
        expect((await get(`/v1/${api}/docs/json`)).body).toBe(json.body)
        const yaml = await get(`/v1/${api}/docs/yaml`)
        expect(yaml.headers['content-type']).toBe('application/yaml; charset=utf-8')
        expect(yaml.body).toMatch(/^openapi: 3\.1\.0\n/)
        expect(yaml.body).toContain(`title: fieldservice ${api} API`)
      }
    })

    it('sends …/docs to …/docs/, where the page and its relative URLs live', async () => {
      const redirect = await get('/v1/admin/docs?x=1')
      expect(redirect.statusCode).toBe(302)
      expect(redirect.headers.location).toBe('docs/')
    })

    it("answers an unknown asset 404 NOT_FOUND, swagger-ui's own page included (the page is ours)", async () => {
      const missing = await get('/v1/public/docs/static/nothing.js')
      expect(missing.statusCode).toBe(404)
      expect(missing.json()).toEqual({
        error: '/v1/public/docs/static/nothing.js not found',
        code: 'NOT_FOUND',
      })
      expect((await get('/v1/public/docs/static/index.html')).statusCode).toBe(404)
    })
  })
}
