// Compressed answers (issue 33 §2, compression.ts): the API's answers, the frozen documents, streamed
// CSV exports and the dashboard's precompressed files go out in brotli or gzip by Accept-Encoding,
// decode to exactly the uncompressed bytes, and leave ETags, 304s and idempotent replays working.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  client,
  createTenant,
  createTestApp,
  createTestDatabase,
  DIALECTS,
  type TestContext,
} from '../../test/helpers.js'
import { precompressDir } from '../../web/build/precompress.js'
import { buildApp } from '../app.js'
import { acceptedEncoding } from './compression.js'

const BROWSER = 'gzip, deflate, br, zstd'
const decode = (encoding: string | undefined, bytes: Buffer) =>
  encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes

describe('Accept-Encoding', () => {
  it('prefers brotli, then gzip, and honours q=0 and *', () => {
    expect(acceptedEncoding(undefined)).toBeNull()
    expect(acceptedEncoding('')).toBeNull()
    expect(acceptedEncoding('identity')).toBeNull()
    expect(acceptedEncoding(BROWSER)).toBe('br')
    expect(acceptedEncoding('gzip')).toBe('gzip')
    expect(acceptedEncoding('br;q=0, gzip;q=0.5')).toBe('gzip')
    expect(acceptedEncoding('BR ; q=1')).toBe('br')
    expect(acceptedEncoding('*')).toBe('br')
    expect(acceptedEncoding('*;q=0')).toBeNull()
    expect(acceptedEncoding('br;q=0, *')).toBe('gzip')
    expect(acceptedEncoding('deflate')).toBeNull()
  })
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: compressed answers`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    async function tenantWithJobs(count: number) {
      const tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      const api = client(t, tenant.headers)
      for (let i = 0; i < count; i++) {
        const made = await api.post('/jobs', {
          title: `Service the boiler at unit ${i}`,
          description: 'Annual service; the customer asks for a call thirty minutes before arrival.',
          jobLatitude: 53.46,
          jobLongitude: -2.29,
        })
        expect(made.status).toBe(201)
      }
      return tenant
    }

    it('sends a list in brotli or gzip as accepted, decoding to the same bytes, and says it varies', async () => {
      const { headers } = await tenantWithJobs(12)
      const get = (acceptEncoding?: string) =>
        t.app.inject({
          method: 'GET',
          url: '/v1/public/jobs?limit=12',
          headers: {
            ...headers,
            ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
          },
        })
      const plain = await get()
      expect(plain.statusCode).toBe(200)
      expect(plain.headers['content-encoding']).toBeUndefined()
      expect(plain.headers.vary).toMatch(/Accept-Encoding/)
      for (const [accept, expected] of [
        [BROWSER, 'br'],
        ['gzip', 'gzip'],
        ['br;q=0, gzip', 'gzip'],
        ['identity', undefined],
      ] as const) {
        const answer = await get(accept)
        expect(answer.statusCode).toBe(200)
        expect(answer.headers['content-encoding']).toBe(expected)
        expect(answer.headers.vary).toMatch(/Accept-Encoding/)
        expect(decode(expected, answer.rawPayload).toString('utf8')).toBe(plain.body)
        if (expected) expect(answer.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4)
      }
    })

    it('leaves small answers as they are', async () => {
      const { headers } = await tenantWithJobs(0)
      const missing = await t.app.inject({
        method: 'GET',
        url: '/v1/public/jobs/00000000-0000-7000-8000-000000000000',
        headers: { ...headers, 'accept-encoding': BROWSER },
      })
      expect(missing.statusCode).toBe(404)
      expect(missing.headers['content-encoding']).toBeUndefined()
      expect(missing.json().code).toBe('NOT_FOUND')
    })

    it('keeps ETags and 304s: a compressed answer’s tag is weak and matches either form', async () => {
      const { headers } = await tenantWithJobs(1)
      const api = client(t, headers)
      const job = (await api.get('/jobs')).body.data.jobs[0]
      // A description long enough that the single job is over 1 kB.
      await api.patch(`/jobs/${job.id}`, { description: 'x'.repeat(1500) })
      const url = `/v1/public/jobs/${job.id}`
      const plain = await t.app.inject({ method: 'GET', url, headers })
      const strong = plain.headers.etag as string
      expect(strong).toMatch(/^"/)
      const packed = await t.app.inject({
        method: 'GET',
        url,
        headers: { ...headers, 'accept-encoding': 'br' },
      })
      expect(packed.headers['content-encoding']).toBe('br')
      expect(packed.headers.etag).toBe(`W/${strong}`)
      expect(brotliDecompressSync(packed.rawPayload).toString('utf8')).toBe(plain.body)
      for (const tag of [strong, `W/${strong}`]) {
        const again = await t.app.inject({
          method: 'GET',
          url,
          headers: { ...headers, 'accept-encoding': 'br', 'if-none-match': tag },
        })
        expect(again.statusCode).toBe(304)
        expect(again.rawPayload.length).toBe(0)
      }
    })

    it('stores an idempotent answer uncompressed: a replay gets it in whatever coding it asks', async () => {
      const { headers } = await tenantWithJobs(0)
      const body = { title: 'Replay me', description: 'y'.repeat(1500) }
      const first = await t.app.inject({
        method: 'POST',
        url: '/v1/public/jobs',
        headers: { ...headers, 'idempotency-key': 'compress-1', 'accept-encoding': 'gzip' },
        payload: body,
      })
      expect(first.statusCode).toBe(201)
      expect(first.headers['content-encoding']).toBe('gzip')
      const created = JSON.parse(gunzipSync(first.rawPayload).toString('utf8'))
      const replay = await t.app.inject({
        method: 'POST',
        url: '/v1/public/jobs',
        headers: { ...headers, 'idempotency-key': 'compress-1' },
        payload: body,
      })
      expect(replay.statusCode).toBe(201)
      expect(replay.headers['content-encoding']).toBeUndefined()
      expect(replay.json()).toEqual(created)
      const brReplay = await t.app.inject({
        method: 'POST',
        url: '/v1/public/jobs',
        headers: { ...headers, 'idempotency-key': 'compress-1', 'accept-encoding': 'br' },
        payload: body,
      })
      expect(JSON.parse(brotliDecompressSync(brReplay.rawPayload).toString('utf8'))).toEqual(created)
    })

    it('compresses the OpenAPI documents once and answers 304 to either tag', async () => {
      const plain = await t.app.inject({ method: 'GET', url: '/v1/admin/openapi.json' })
      const packed = await t.app.inject({
        method: 'GET',
        url: '/v1/admin/openapi.json',
        headers: { 'accept-encoding': BROWSER },
      })
      expect(packed.headers['content-encoding']).toBe('br')
      expect(packed.headers.vary).toMatch(/Accept-Encoding/)
      expect(brotliDecompressSync(packed.rawPayload).toString('utf8')).toBe(plain.body)
      expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 6)
      const cached = await t.app.inject({
        method: 'GET',
        url: '/v1/admin/openapi.json',
        headers: { 'accept-encoding': BROWSER, 'if-none-match': packed.headers.etag as string },
      })
      expect(cached.statusCode).toBe(304)
    })

    it('streams a CSV export compressed', async () => {
      const { headers } = await tenantWithJobs(30)
      const url = '/v1/admin/jobs/export.csv'
      const plain = await t.app.inject({ method: 'GET', url, headers })
      expect(plain.statusCode).toBe(200)
      const packed = await t.app.inject({
        method: 'GET',
        url,
        headers: { ...headers, 'accept-encoding': 'gzip' },
      })
      expect(packed.headers['content-encoding']).toBe('gzip')
      expect(gunzipSync(packed.rawPayload).toString('utf8')).toBe(plain.body)
      expect(plain.body.split('\n').length).toBeGreaterThan(30)
    })
  })
}

describe('the dashboard’s precompressed files', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fieldservice-compressed-'))
    await mkdir(join(dir, 'assets'))
    const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word ${i}`))}\n`
    await writeFile(
      join(dir, 'index.html'),
      `<!doctype html><html><body>${'<p>hello</p>'.repeat(200)}</body></html>`,
    )
    await writeFile(join(dir, 'assets', 'app-abc.js'), script)
    await writeFile(join(dir, 'assets', 'tiny-abc.js'), 'export {}\n')
    expect(precompressDir(dir)).toBe(4)
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('sends the build’s .br or .gz by Accept-Encoding, for assets and the app’s pages alike', async () => {
    const database = await createTestDatabase('sqlite')
    const app = await buildApp({
      db: database.db,
      dialect: 'sqlite',
      dashboardDir: dir,
      config: {
        authCacheTtlMs: 0,
        defaultRateLimitPerMinute: 100,
        bodyLimitBytes: 1 << 20,
        webhookDispatcher: false,
      },
    })
    try {
      for (const url of ['/assets/app-abc.js', '/', '/jobs']) {
        const plain = await app.inject({ method: 'GET', url })
        expect(plain.statusCode, url).toBe(200)
        for (const [accept, encoding] of [
          [BROWSER, 'br'],
          ['gzip', 'gzip'],
        ] as const) {
          const packed = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': accept } })
          expect(packed.headers['content-encoding'], url).toBe(encoding)
          expect(packed.headers.vary).toMatch(/Accept-Encoding/i)
          expect(decode(encoding, packed.rawPayload).toString('utf8')).toBe(plain.body)
        }
      }
      // Under 1 kB: no copy was written, and none is made.
      const tiny = await app.inject({
        method: 'GET',
        url: '/assets/tiny-abc.js',
        headers: { 'accept-encoding': BROWSER },
      })
      expect(tiny.headers['content-encoding']).toBeUndefined()
      expect(tiny.body).toBe('export {}\n')
    } finally {
      await app.close()
      await database.cleanup()
    }
  })
})
