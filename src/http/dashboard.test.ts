// Serving the dashboard: hashed assets cached for a year, index.html never, the SPA's own paths
// answered with index.html, and the API's 404s left alone. A stand-in build in a temporary folder
// (the real one is exercised by test/browser/).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/helpers.js'
import { type App, buildApp } from '../app.js'

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>'

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
