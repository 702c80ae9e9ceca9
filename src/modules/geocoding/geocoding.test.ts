// Address lookup through GET /v1/admin/geocode against a real geocoder on loopback answering in
// Nominatim's or Photon's documented format (test/fake-geocoder.ts): the matches, format detection,
// the cache, bad input, a service without GEOCODER_URL, and a geocoder that is down, failing or slow.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FakeGeocoder, startFakeGeocoder } from '../../../test/fake-geocoder.js'
import {
  adminClient,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.js'
import { makeDashboardUser, sessionClient, signIn } from '../../../test/sessions.js'
import { GEOCODER_LOOKUPS_PER_MINUTE } from './geocoder.js'

/** A URL nothing listens on: a port that was just free. */
async function deadUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}

const lookUp = (t: TestContext, tenant: TestTenant, q: string) =>
  adminClient(t, tenant.headers).get(`/geocode?q=${encodeURIComponent(q)}`)

for (const dialect of DIALECTS) {
  describe(`${dialect}: address lookup (GEOCODER_URL)`, () => {
    let nominatim: FakeGeocoder
    let photon: FakeGeocoder
    let t: TestContext
    let tPhoton: TestContext
    let tPhotonNamed: TestContext
    let tUnset: TestContext
    let tDown: TestContext

    beforeAll(async () => {
      nominatim = await startFakeGeocoder('nominatim')
      photon = await startFakeGeocoder('photon')
      t = await createTestApp(dialect, { geocoderUrl: nominatim.url })
      tPhoton = await createTestApp(dialect, { geocoderUrl: `${photon.url}/` })
      tPhotonNamed = await createTestApp(dialect, { geocoderUrl: photon.url, geocoderFormat: 'photon' })
      tUnset = await createTestApp(dialect)
      tDown = await createTestApp(dialect, { geocoderUrl: await deadUrl() })
    })
    afterAll(async () => {
      for (const context of [t, tPhoton, tPhotonNamed, tUnset, tDown]) await context?.close()
      await nominatim?.close()
      await photon?.close()
    })

    it('Nominatim: up to 5 matches with decimal-string coordinates, asked in its documented form', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const response = await lookUp(t, tenant, 'baker street london')
      expect(response.status).toBe(200)
      expect(response.body.data.matches).toEqual([
        {
          label: '221B Baker Street, London, NW1 6XE, United Kingdom',
          latitude: '51.5237629',
          longitude: '-0.1584743',
        },
        {
          label: '10 Baker Street, London, W1U 3BT, United Kingdom',
          latitude: '51.5158',
          longitude: '-0.1556',
        },
      ])
      const asked = new URL(nominatim.requests.at(-1) ?? '', 'http://x')
      expect(asked.pathname).toBe('/search')
      expect(Object.fromEntries(asked.searchParams)).toEqual({
        format: 'jsonv2',
        q: 'baker street london',
        limit: '5',
      })
    })

    it('answers from its cache for the same words, however spaced or capitalised', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const first = await lookUp(t, tenant, 'Bakers Lane')
      expect(first.body.data.matches).toHaveLength(1)
      const asked = nominatim.requests.length
      const again = await lookUp(t, tenant, '  bakers   LANE ')
      expect(again.body).toEqual(first.body)
      expect(nominatim.requests.length).toBe(asked)
    })

    it('no match is an empty list', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const response = await lookUp(t, tenant, 'Nowhere Road 99')
      expect(response.status).toBe(200)
      expect(response.body.data.matches).toEqual([])
    })

    it('Photon: detected from its answers (Nominatim’s path 404s), labels built from the address parts', async () => {
      const tenant = await createTenant(tPhoton, { scopes: ['admin'] })
      const response = await lookUp(tPhoton, tenant, '221B Baker')
      expect(response.status).toBe(200)
      expect(response.body.data.matches).toEqual([
        {
          label: '221B Baker Street, NW1 6XE London, United Kingdom',
          latitude: '51.5237629',
          longitude: '-0.1584743',
        },
      ])
      expect(photon.requests.slice(-2).map((r) => new URL(r, 'http://x').pathname)).toEqual([
        '/search',
        '/api',
      ])
      // Remembered: the next lookup goes straight to /api.
      await lookUp(tPhoton, tenant, 'Bakers Lane Chelmsford')
      expect(new URL(photon.requests.at(-1) ?? '', 'http://x').pathname).toBe('/api')
      expect(photon.requests.at(-2)).toContain('/api?')
    })

    it('GEOCODER_FORMAT=photon asks only /api?q=…&limit=5', async () => {
      const tenant = await createTenant(tPhotonNamed, { scopes: ['admin'] })
      const before = photon.requests.length
      const response = await lookUp(tPhotonNamed, tenant, '10 Baker Street')
      expect(response.status).toBe(200)
      expect(response.body.data.matches[0]).toEqual({
        label: '10 Baker Street, W1U 3BT London, United Kingdom',
        latitude: '51.5158',
        longitude: '-0.1556',
      })
      const asked = photon.requests.slice(before).map((r) => new URL(r, 'http://x'))
      expect(asked).toHaveLength(1)
      expect(asked[0]?.pathname).toBe('/api')
      expect(Object.fromEntries(asked[0]?.searchParams ?? [])).toEqual({ q: '10 Baker Street', limit: '5' })
    })

    it('q of fewer than 3 or more than 200 characters, or none, is a 400 naming q', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const before = nominatim.requests.length
      for (const url of [
        '/geocode?q=ab',
        `/geocode?q=${'a'.repeat(201)}`,
        '/geocode',
        '/geocode?q=%20%20%20',
      ]) {
        const response = await adminClient(t, tenant.headers).get(url)
        expect(response.status, url).toBe(400)
        expect(response.body.code).toBe('VALIDATION_ERROR')
        expect(response.body.details[0].path).toBe('/query/q')
      }
      expect(nominatim.requests.length).toBe(before)
    })

    it('without GEOCODER_URL: 404 GEOCODER_NOT_CONFIGURED, saying what to do instead', async () => {
      const tenant = await createTenant(tUnset, { scopes: ['admin'] })
      const response = await lookUp(tUnset, tenant, 'Baker Street')
      expect(response.status).toBe(404)
      expect(response.body.code).toBe('GEOCODER_NOT_CONFIGURED')
      expect(response.body.error).toMatch(/GEOCODER_URL/)
    })

    it('a geocoder that is down: 503 GEOCODER_UNAVAILABLE, never a 500', async () => {
      const tenant = await createTenant(tDown, { scopes: ['admin'] })
      const response = await lookUp(tDown, tenant, 'Baker Street')
      expect(response.status).toBe(503)
      expect(response.body).toEqual({
        code: 'GEOCODER_UNAVAILABLE',
        error: expect.stringContaining('cannot be reached'),
      })
    })

    it('a geocoder answering an error status: 503 GEOCODER_UNAVAILABLE, and nothing cached', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      nominatim.failWith = 500
      try {
        const response = await lookUp(t, tenant, 'Baker Street failing')
        expect(response.status).toBe(503)
        expect(response.body.code).toBe('GEOCODER_UNAVAILABLE')
      } finally {
        nominatim.failWith = 0
      }
      const again = await lookUp(t, tenant, 'Baker Street failing')
      expect(again.status).toBe(200)
    })

    it('a geocoder slower than 3 s: 503 GEOCODER_UNAVAILABLE after 3 s', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      nominatim.delayMs = 5000
      const started = performance.now()
      try {
        const response = await lookUp(t, tenant, 'Baker Street slowly')
        const took = performance.now() - started
        expect(response.status).toBe(503)
        expect(response.body.code).toBe('GEOCODER_UNAVAILABLE')
        expect(response.body.error).toMatch(/within 3 s/)
        expect(took).toBeGreaterThanOrEqual(2900)
        expect(took).toBeLessThan(4900)
      } finally {
        nominatim.delayMs = 0
      }
    }, 10_000)

    it('dispatchers may look up; workers may not', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const dispatcher = await makeDashboardUser(t, tenant.organisationId, { role: 'DISPATCHER' })
      const worker = await makeDashboardUser(t, tenant.organisationId, { role: 'WORKER' })
      const asDispatcher = await sessionClient(t, await signIn(t, dispatcher)).get(
        '/geocode?q=Baker%20Street',
      )
      expect(asDispatcher.status).toBe(200)
      const asWorker = await sessionClient(t, await signIn(t, worker)).get('/geocode?q=Baker%20Street')
      expect(asWorker.status).toBe(403)
    })

    it(`at most ${GEOCODER_LOOKUPS_PER_MINUTE} lookups a minute reach the geocoder per organisation`, async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const other = await createTenant(t, { scopes: ['admin'] })
      for (let i = 0; i < GEOCODER_LOOKUPS_PER_MINUTE; i++) {
        expect((await lookUp(t, tenant, `limit test ${i}`)).status).toBe(200)
      }
      const refused = await lookUp(t, tenant, 'limit test one more')
      expect(refused.status).toBe(429)
      expect(refused.body.code).toBe('RATE_LIMITED')
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      // Cached answers are still given, and another organisation has its own minute.
      expect((await lookUp(t, tenant, 'limit test 0')).status).toBe(200)
      expect((await lookUp(t, other, 'limit test one more')).status).toBe(200)
    })
  })
}
