// Serving the dashboard: hashed assets cached for a year, index.html never, the SPA's own paths
// answered with index.html, and the API's 404s left alone. A stand-in build in a temporary folder
// (the real one is exercised by test/browser/).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/helpers.js'
import { type App, buildApp } from '../app.js'

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>'

/** Paths a proxy, a client library or a typo could turn into the API's: none may get index.html. */
const API_LOOKALIKES = [
  // The issue's.
  '/V1/admin/session',
  '//v1/public/jobs',
  '/v1%2fadmin/session',
  '/./v1/public/jobs',
  '/v1;/admin/session',
  '/my/../v1/admin/session',
  '/v1x',
  // And more of the same kinds.
  '/V1',
  '/v1.json',
  '/v1;jsessionid=0/public/jobs',
  '///V1//ADMIN//',
  '/%76%31/admin/session',
  '/%56%31x',
  '/%2e/v1/public/jobs',
  '/jobs/%2e%2e/v1/public/jobs',
  '/jobs/../../../v1/public/jobs',
  '/\\v1\\admin\\session',
  '/v1%3Badmin',
  '/v1%zz',
]

/** What a path that reads as the API may be answered, by status. */
const ANSWERS: Record<number, string> = { 400: 'VALIDATION_ERROR', 401: 'UNAUTHORIZED', 404: 'NOT_FOUND' }

/** The dashboard's own paths: still the app. */
const APP_PATHS = [
  '/',
  '/team',
  '/my',
  '/my/jobs/0190a0b4-5b7a-7c3d-9e1f-2a4b6c8d0e1f',
  '/settings/api-keys',
  '/jobs/0190a0b4-5b7a-7c3d-9e1f-2a4b6c8d0e1f',
  '/vehicles?v1=1',
  '/jobs/../team',
]

/** A GET sent as written (no client-side normalisation of the path). */
function rawGet(
  base: string,
  path: string,
): Promise<{ statusCode: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base)
    const request = httpRequest({ host: hostname, port, path, method: 'GET' }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        body += chunk
      })
      response.on('end', () =>
        resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body }),
      )
    })
    request.on('error', reject)
    request.end()
  })
}

async function appServing(database: TestDatabase, dialect: (typeof DIALECTS)[number], dashboardDir: string) {
  const app = await buildApp({
    db: database.db,
    dialect,
    dashboardDir,
    config: {
      authCacheTtlMs: 0,
      defaultRateLimitPerMinute: 100,
      bodyLimitBytes: 1024 * 1024,
      webhookDispatcher: false,
    },
  })
  await app.ready()
  return app
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the dashboard at /`, () => {
    let database: TestDatabase
    let dir: string
    let app: App
    let bare: App

    beforeAll(async () => {
      database = await createTestDatabase(dialect)
      dir = await mkdtemp(join(tmpdir(), 'fieldservice-web-'))
      await mkdir(join(dir, 'assets'))
      await writeFile(join(dir, 'index.html'), INDEX)
      await writeFile(join(dir, 'assets', 'index-abc123.js'), 'console.log("dashboard")')
      // A map a build with source maps on would leave: it must not be served.
      await writeFile(join(dir, 'assets', 'index-abc123.js.map'), '{"version":3,"sourcesContent":["secret"]}')
      await mkdir(join(dir, 'icons'))
      await writeFile(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {})')
      await writeFile(join(dir, 'manifest.webmanifest'), '{"name":"My day","start_url":"/my"}')
      await writeFile(join(dir, 'icons', 'icon-192.png'), 'png')
      app = await appServing(database, dialect, dir)
      bare = await appServing(database, dialect, join(dir, 'not-built'))
    })
    afterAll(async () => {
      await app?.close()
      await bare?.close()
      await database?.cleanup()
      await rm(dir, { recursive: true, force: true })
    })

    it.each(['/', '/jobs', '/settings/api-keys', '/settings/automations/0190a0b4?execution=1'])(
      'answers %s with index.html, never cached',
      async (url) => {
        const response = await app.inject({ method: 'GET', url })
        expect(response.statusCode).toBe(200)
        expect(response.headers['content-type']).toMatch(/^text\/html/)
        expect(response.headers['cache-control']).toBe('no-cache')
        expect(response.body).toBe(INDEX)
      },
    )

    it('serves hashed assets for a year, immutable', async () => {
      const response = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' })
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toMatch(/javascript/)
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      expect(response.body).toBe('console.log("dashboard")')
      expect((await app.inject({ method: 'HEAD', url: '/' })).statusCode).toBe(200)
    })

    it('serves the service worker and the manifest never cached, with their content types', async () => {
      const worker = await app.inject({ method: 'GET', url: '/sw.js' })
      expect(worker.statusCode).toBe(200)
      expect(worker.headers['content-type']).toMatch(/^(application|text)\/javascript/)
      expect(worker.headers['cache-control']).toBe('no-cache')
      expect(worker.body).toBe('self.addEventListener("fetch", () => {})')
      const manifest = await app.inject({ method: 'GET', url: '/manifest.webmanifest' })
      expect(manifest.statusCode).toBe(200)
      expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/)
      expect(manifest.headers['cache-control']).toBe('no-cache')
      expect(manifest.json()).toEqual({ name: 'My day', start_url: '/my' })
      const icon = await app.inject({ method: 'GET', url: '/icons/icon-192.png' })
      expect(icon.statusCode).toBe(200)
      expect(icon.headers['content-type']).toBe('image/png')
      expect(icon.headers['cache-control']).toBe('public, max-age=86400')
      expect((await app.inject({ method: 'GET', url: '/icons/gone.png' })).statusCode).toBe(404)
      expect((await bare.inject({ method: 'GET', url: '/sw.js' })).statusCode).toBe(404)
    })

    it('answers a missing file or a source map with a 404, not the app', async () => {
      for (const url of [
        '/assets/index-gone.js',
        '/favicon.ico',
        '/robots.txt',
        '/assets/../index.html',
        '/assets/index-abc123.js.map',
      ]) {
        const response = await app.inject({ method: 'GET', url })
        expect(response.statusCode, url).toBe(404)
        expect(response.headers['content-type'], url).toMatch(/^application\/json/)
      }
    })

    it('never answers the API with HTML: unknown API paths keep their JSON 404', async () => {
      for (const url of ['/v1', '/v1/', '/v1/public/nope', '/v1/admin/nope/deeper', '/v1/unknown']) {
        const response = await app.inject({ method: 'GET', url })
        expect(response.statusCode, url).toBe(404)
        expect(response.json(), url).toEqual({ error: expect.any(String), code: 'NOT_FOUND' })
      }
      const jobs = await app.inject({ method: 'GET', url: '/v1/public/jobs' })
      expect(jobs.statusCode).toBe(401)
      expect((await app.inject({ method: 'GET', url: '/v1/public/docs/' })).statusCode).toBe(200)
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
    })

    it('answers any path that reads as the API once normalised with its JSON 404, never the app', async () => {
      // Through inject and through a socket: inject might hand the router another path than a client does.
      const address = await app.listen({ port: 0, host: '127.0.0.1' })
      const get = async (how: string, url: string) =>
        how === 'inject' ? await app.inject({ method: 'GET', url }) : await rawGet(address, url)
      const failures: string[] = []
      for (const how of ['inject', 'socket']) {
        for (const url of API_LOOKALIKES) {
          // inject parses URLs as a browser does: /\v1\… becomes //v1/…, the host v1 and path /admin/….
          if (how === 'inject' && url.includes('\\')) continue
          const { statusCode, headers, body } = await get(how, url)
          const json = /^application\/json/.test(String(headers['content-type']))
          const code = json ? JSON.parse(body).code : undefined
          // 404 from the fallback; 400 for a bad escape; 401 where the router itself decodes the path
          // (or inject resolves it) into an API route: the API answered, as it should.
          if (code === undefined || ANSWERS[statusCode] !== code)
            failures.push(`${how} ${url} → ${statusCode} ${json ? body : headers['content-type']}`)
        }
        for (const url of APP_PATHS) {
          const { statusCode, body } = await get(how, url)
          if (statusCode !== 200 || body !== INDEX)
            failures.push(`${how} ${url} → ${statusCode}, not the app`)
        }
      }
      expect(failures).toEqual([])
    })

    it('answers only GET and HEAD: other methods on app paths are 404s', async () => {
      const response = await app.inject({ method: 'POST', url: '/settings/api-keys', payload: {} })
      expect(response.statusCode).toBe(404)
      expect(response.json().code).toBe('NOT_FOUND')
    })

    it('without a build, / explains how to build it and links the playgrounds', async () => {
      const landing = await bare.inject({ method: 'GET', url: '/' })
      expect(landing.statusCode).toBe(200)
      expect(landing.headers['content-type']).toMatch(/^text\/html/)
      expect(landing.body).toContain('npm run build:web')
      expect(landing.body).toContain('href="/v1/public/docs/"')
      expect(landing.body).toContain('href="/v1/admin/docs/"')
      expect((await bare.inject({ method: 'GET', url: '/settings/api-keys' })).statusCode).toBe(404)
    })
  })
}
