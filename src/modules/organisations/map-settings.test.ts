// The organisation's map background: an admin sets it once (PATCH /organisation `map`), every signed-in
// user of the organisation reads it (GET /organisation/map, workers too), other organisations keep theirs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  adminClient,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { makeDashboardUser, sessionClient, signIn } from '../../../test/sessions.js'

const OSM = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png'

for (const dialect of DIALECTS) {
  describe(`${dialect}: the organisation's map background`, () => {
    let t: TestContext

    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    it('an admin sets it once; workers, dispatchers and admins read it; another organisation keeps none', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const other = await createTenant(t, { scopes: ['admin'] })
      const admin = await makeDashboardUser(t, tenant.organisationId)
      const worker = await makeDashboardUser(t, tenant.organisationId, { role: 'WORKER' })
      const dispatcher = await makeDashboardUser(t, tenant.organisationId, { role: 'DISPATCHER' })
      const asAdmin = sessionClient(t, await signIn(t, admin))
      const saved = await asAdmin.patch('/organisation', {
        map: { tileUrl: ` ${OSM} `, attribution: '© OpenStreetMap contributors' },
      })
      expect(saved.status).toBe(200)
      expect(saved.body.data.organisation.map).toEqual({
        tileUrl: OSM,
        attribution: '© OpenStreetMap contributors',
      })
      for (const user of [worker, dispatcher, admin]) {
        const response = await sessionClient(t, await signIn(t, user)).get('/organisation/map')
        expect(response.status).toBe(200)
        expect(response.body.data.map).toEqual({ tileUrl: OSM, attribution: '© OpenStreetMap contributors' })
        // No GEOCODER_URL on this server: the address fields say so instead of asking (address-lookup
        // tests the other answer in a browser).
        expect(response.body.data.addressLookup).toBe(false)
      }
      expect((await adminClient(t, other.headers).get('/organisation')).body.data.organisation.map).toEqual({
        tileUrl: null,
        attribution: null,
      })
      // Changing the attribution alone keeps the URL; an empty URL (or null) clears it.
      const attribution = await asAdmin.patch('/organisation', { map: { attribution: 'Tiles: Example' } })
      expect(attribution.body.data.organisation.map).toEqual({ tileUrl: OSM, attribution: 'Tiles: Example' })
      const cleared = await asAdmin.patch('/organisation', { map: { tileUrl: '', attribution: null } })
      expect(cleared.body.data.organisation.map).toEqual({ tileUrl: null, attribution: null })
    })

    it('only an admin writes it', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const dispatcher = await makeDashboardUser(t, tenant.organisationId, { role: 'DISPATCHER' })
      const response = await sessionClient(t, await signIn(t, dispatcher)).patch('/organisation', {
        map: { tileUrl: OSM },
      })
      expect(response.status).toBe(403)
      // GET /organisation/map is for sessions; a key reads the same in GET /organisation.
      expect((await adminClient(t, tenant.headers).get('/organisation/map')).status).toBe(401)
      const admin = await makeDashboardUser(t, tenant.organisationId)
      expect(
        (await sessionClient(t, await signIn(t, admin)).get('/organisation/map')).body.data.map.tileUrl,
      ).toBe(null)
    })

    it.each([
      ['http', 'http://tiles.example.com/{z}/{x}/{y}.png', /https/],
      ['no {z}', 'https://tiles.example.com/{x}/{y}.png', /\{z\}/],
      ['no {y}', 'https://tiles.example.com/{z}/{x}.png', /\{y\}/],
      ['a password', 'https://user:secret@tiles.example.com/{z}/{x}/{y}.png', /password/],
      ['an unknown placeholder', 'https://tiles.example.com/{z}/{x}/{y}.png?key={apikey}', /\{apikey\}/],
      ['javascript', 'javascript:alert(1)//{z}{x}{y}', /https/],
    ])('a tile URL with %s is a 400 naming map.tileUrl, and nothing changes', async (_case, tileUrl, why) => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const admin = adminClient(t, tenant.headers)
      const response = await admin.patch('/organisation', { map: { tileUrl, attribution: 'x' } })
      expect(response.status).toBe(400)
      expect(response.body.code).toBe('VALIDATION_ERROR')
      expect(response.body.details).toEqual([
        { path: '/body/map/tileUrl', message: expect.stringMatching(why) },
      ])
      expect(response.body.error).toMatch(/^map\.tileUrl /)
      expect((await admin.get('/organisation')).body.data.organisation.map).toEqual({
        tileUrl: null,
        attribution: null,
      })
    })

    it('refuses an attribution over two lines, unknown map fields and wrong types', async () => {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const admin = adminClient(t, tenant.headers)
      const lines = await admin.patch('/organisation', { map: { attribution: 'a\nb' } })
      expect(lines.status).toBe(400)
      expect(lines.body.details[0].path).toBe('/body/map/attribution')
      for (const map of [{ url: OSM }, { tileUrl: 7 }, 'x']) {
        const response = await admin.patch('/organisation', { map })
        expect(response.status, JSON.stringify(map)).toBe(400)
        expect(response.body.details[0].path).toMatch(/^\/body\/map/)
      }
    })
  })
}
