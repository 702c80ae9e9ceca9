// "On my way" and the customer's tracking link (issue 29 §3): the worker's en-route keeps the job
// ASSIGNED, records enRouteAt and sends JOB_EN_ROUTE once (webhooks, automations, the event feed) with
// an eta from the worker's last job over the optimiser's travel model; the link's token is stored only
// hashed; GET /v1/track/<token> shows exactly the page's fields, 404 for unknown tokens, 410 12 h after
// the visit ended, noindex, under the per-address limit; only the assigned worker may set off (404).
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertDocumentedFeedEvent, assertDocumentedPayload } from './event-payloads.js'
import { makeLocation, makeUser, outboxEvents, setJobState } from './factories.js'
import { adminClient, client, createTenant, createTestApp, DIALECTS, type TestContext } from './helpers.js'
import { makeDashboardUser, sessionClient, signIn } from './sessions.js'
import { startReceiver } from './webhook-receiver.js'

const BASE = 'https://track.example.com/fs'
const HOUR = 3_600_000
const HOME = { lat: 53.5, lng: -2.2 }
const LAST_JOB = { lat: 53.4, lng: -2.2 }
const POSITION = { latitude: 53.45, longitude: -2.19, recordedAt: '2026-11-26T09:55:00.000Z' }

/** The optimiser's travel model by hand: haversine × 1.3 at 40 km/h, whole metres, whole seconds. */
function travelSeconds(a: typeof HOME, b: typeof HOME): number {
  const rad = Math.PI / 180
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2
  const metres = Math.round(2 * 6_371_008.8 * Math.asin(Math.sqrt(h)) * 1.3)
  return Math.round(metres / (40_000 / 3600))
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: On my way and the tracking link`, () => {
    let t: TestContext
    let now = Date.parse('2026-11-26T10:00:00Z')
    beforeAll(async () => {
      t = await createTestApp(
        dialect,
        { publicBaseUrl: BASE },
        { clock: () => now, positions: async () => POSITION },
      )
    })
    afterAll(() => t.close())

    async function setup(day = '2026-11-26', depotZone = 'Europe/London') {
      now = Date.parse(`${day}T10:00:00Z`)
      const tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      const org = tenant.organisationId
      const db = t.database.db
      const api = client(t, tenant.headers)
      const admin = adminClient(t, tenant.headers)
      const depot = await makeLocation(db, org, { name: 'Depot', timezone: depotZone })
      const worker = await makeDashboardUser(t, org, { role: 'WORKER', name: 'Wendy Anne Worker' })
      const other = await makeUser(db, org, { name: 'Oscar Other' })
      const customer = (
        await api.post('/customers', {
          name: 'Secret Customer Name',
          address: '1 Private Road',
          latitude: HOME.lat,
          longitude: HOME.lng,
          email: 'home@customer.example',
          phone: '+441610000000',
        })
      ).body.data.customer
      const job = async (title: string, userId: string, place?: typeof HOME) => {
        const response = await api.post('/jobs', {
          title,
          locationId: depot.id,
          ...(place ? { jobLatitude: place.lat, jobLongitude: place.lng } : { customerId: customer.id }),
        })
        expect(response.status, JSON.stringify(response.body)).toBe(201)
        const created = response.body.data.job
        await setJobState(db, org, created.id, {
          status: 'ASSIGNED',
          assignedUserId: userId,
          scheduledStart: `${day}T10:30:00.000Z`,
          scheduledEnd: `${day}T11:30:00.000Z`,
        })
        return created.id as string
      }
      const previous = await job('Earlier visit', worker.id, LAST_JOB)
      await setJobState(db, org, previous, { status: 'COMPLETED', completedAt: `${day}T09:50:00.000Z` })
      const next = await job('Boiler service', worker.id)
      const theirs = await job('Not mine', other.id)
      const me = sessionClient(t, await signIn(t, worker))
      return { tenant, org, db, api, admin, worker, customer, me, previous, next, theirs }
    }

    async function enRouteEvents(s: Awaited<ReturnType<typeof setup>>) {
      return (await outboxEvents(s.db, s.org)).filter((e) => e.event === 'JOB_EN_ROUTE')
    }

    it('sets off: ASSIGNED stays, enRouteAt recorded, JOB_EN_ROUTE once with eta, link and first name', async () => {
      const s = await setup()
      const response = await s.me.post(`/my/jobs/${s.next}/en-route`)
      expect(response.status, response.body.error).toBe(200)
      expect(response.body.data.job).toMatchObject({
        id: s.next,
        status: 'ASSIGNED',
        enRouteAt: '2026-11-26T10:00:00.000Z',
        // The phone shows the customer's number as a tel: link.
        customer: { id: s.customer.id, phone: '+441610000000' },
      })
      expect((await s.api.get(`/jobs/${s.next}`)).body.data.job).toMatchObject({
        status: 'ASSIGNED',
        enRouteAt: '2026-11-26T10:00:00.000Z',
      })
      const [event, ...more] = await enRouteEvents(s)
      expect(more).toEqual([])
      const eta = new Date(now + travelSeconds(LAST_JOB, HOME) * 1000).toISOString()
      expect(event?.data).toEqual({
        jobId: s.next,
        eta,
        trackingUrl: expect.stringMatching(/^https:\/\/track\.example\.com\/fs\/t\/[A-Za-z0-9_-]{32}$/),
        worker: { firstName: 'Wendy' },
      })
      assertDocumentedPayload({
        event: 'JOB_EN_ROUTE',
        timestamp: event?.occurredAt as string,
        data: event?.data,
      })

      // Again (a double tap, a retry): the same job, no second event, the same link still valid.
      now += 60_000
      const again = await s.me.post(`/my/jobs/${s.next}/en-route`)
      expect(again.status).toBe(200)
      expect(again.body.data.job.enRouteAt).toBe('2026-11-26T10:00:00.000Z')
      expect(await enRouteEvents(s)).toHaveLength(1)
      const token = String(event?.data.trackingUrl).split('/t/')[1] as string
      expect((await t.app.inject({ url: `/v1/track/${token}` })).statusCode).toBe(200)
    })

    it('stores only the SHA-256 of a token of at least 128 random bits', async () => {
      const s = await setup()
      await s.me.post(`/my/jobs/${s.next}/en-route`)
      const url = String((await enRouteEvents(s))[0]?.data.trackingUrl)
      const token = url.split('/t/')[1] as string
      expect(Buffer.from(token, 'base64url').length * 8).toBeGreaterThanOrEqual(128)
      const rows = await s.db
        .selectFrom('tracking_links')
        .selectAll()
        .where('organisation_id', '=', s.org)
        .execute()
      expect(rows).toHaveLength(1)
      expect(rows[0]?.token_hash).toBe(createHash('sha256').update(token).digest('hex'))
      expect(JSON.stringify(rows)).not.toContain(token)
    })

    it("answers 404 for another worker's job and another organisation's, 422 unless ASSIGNED, touching nothing", async () => {
      const s = await setup()
      const elsewhere = await setup()
      for (const id of [s.theirs, elsewhere.next, 'no-such-job']) {
        const response = await s.me.post(`/my/jobs/${id}/en-route`)
        expect([response.status, response.body.code], id).toEqual([404, 'NOT_FOUND'])
      }
      expect(await enRouteEvents(s)).toEqual([])
      expect(await enRouteEvents(elsewhere)).toEqual([])
      expect((await s.api.get(`/jobs/${s.theirs}`)).body.data.job.enRouteAt).toBeNull()
      expect((await s.me.post(`/my/jobs/${s.previous}/en-route`)).body.code).toBe('INVALID_TRANSITION')
      expect((await s.admin.post(`/my/jobs/${s.next}/en-route`)).status).toBe(401)
      expect(
        await s.db.selectFrom('tracking_links').selectAll().where('organisation_id', '=', s.org).execute(),
      ).toEqual([])
    })

    it('an eta of null when nothing says where the worker is', async () => {
      const s = await setup()
      await setJobState(s.db, s.org, s.previous, { status: 'CANCELLED' })
      await s.me.post(`/my/jobs/${s.next}/en-route`)
      const [event] = await enRouteEvents(s)
      expect(event?.data.eta).toBeNull()
      const token = String(event?.data.trackingUrl).split('/t/')[1]
      const tracking = (await t.app.inject({ url: `/v1/track/${token}` })).json().data.tracking
      expect(tracking.arrivalWindow).toBeNull()
    })

    it('JOB_EN_ROUTE reaches the event feed and an automation subscribed to it', async () => {
      const s = await setup()
      const receiver = await startReceiver()
      try {
        const automation = await s.admin.post('/automations', {
          name: 'Tell the CRM',
          event: 'JOB_EN_ROUTE',
          url: `${receiver.url}/en-route`,
        })
        expect(automation.status, JSON.stringify(automation.body)).toBe(201)
        await s.me.post(`/my/jobs/${s.next}/en-route`)
        await s.me.post(`/my/jobs/${s.next}/en-route`)
        await t.app.webhooks.dispatcher.drain()
        const [hook, ...others] = await receiver.waitFor(1)
        expect(others).toEqual([])
        expect(hook?.json).toMatchObject({ event: 'JOB_EN_ROUTE', data: { jobId: s.next } })
        assertDocumentedPayload(hook?.json)
        await t.app.webhooks.dispatcher.drain()
        expect(receiver.received).toHaveLength(1)
      } finally {
        await receiver.close()
      }
      now += 10_000
      const feed = await s.api.get('/events?limit=100')
      const enRoute = feed.body.data.events.filter((e: { event: string }) => e.event === 'JOB_EN_ROUTE')
      expect(enRoute).toHaveLength(1)
      assertDocumentedFeedEvent(enRoute[0])
    })

    it('GET /v1/track/<token>: exactly the page fields, the window rounded, the position relative, noindex', async () => {
      const s = await setup()
      const before = await t.app.inject({ url: '/v1/track/not-a-token' })
      expect([before.statusCode, before.json().code]).toEqual([404, 'NOT_FOUND'])
      await s.me.post(`/my/jobs/${s.next}/en-route`)
      const [event] = await enRouteEvents(s)
      const token = String(event?.data.trackingUrl).split('/t/')[1]
      const response = await t.app.inject({ url: `/v1/track/${token}` })
      expect(response.statusCode).toBe(200)
      expect(response.headers['x-robots-tag']).toBe('noindex')
      const tracking = response.json().data.tracking
      const eta = Date.parse(String(event?.data.eta))
      const round = (at: number) => new Date(Math.round(at / 300_000) * 300_000).toISOString()
      expect(tracking).toEqual({
        organisationName: expect.any(String),
        technicianFirstName: 'Wendy',
        jobTitle: 'Boiler service',
        status: 'EN_ROUTE',
        timeZone: 'Europe/London',
        arrivalWindow: {
          from: round(eta - 900_000),
          to: round(eta + 900_000),
          // November: London is on GMT, its clock reads UTC.
          text: `${round(eta - 900_000).slice(11, 16)}–${round(eta + 900_000).slice(11, 16)} (GMT)`,
        },
        position: {
          metresEast: expect.any(Number),
          metresNorth: expect.any(Number),
          recordedAt: POSITION.recordedAt,
        },
        map: null,
      })
      // 0.05° south and 0.01° east of the destination.
      expect(tracking.position.metresNorth).toBe(Math.round((POSITION.latitude - HOME.lat) * 111_320))
      expect(Math.abs(tracking.position.metresEast - 662)).toBeLessThan(5)
      const text = response.body
      for (const secret of [
        'Secret Customer Name',
        'Private Road',
        'home@customer.example',
        '+441610000000',
        'Worker',
        s.worker.id,
        s.customer.id,
        s.next,
        String(HOME.lat),
        String(HOME.lng),
      ]) {
        expect(text, secret).not.toContain(secret)
      }

      // Arrived: no window, no position.
      await s.me.post(`/my/jobs/${s.next}/start`)
      const started = (await t.app.inject({ url: `/v1/track/${token}` })).json().data.tracking
      expect(started).toMatchObject({ status: 'IN_PROGRESS', arrivalWindow: null, position: null })
    })

    it("carries the organisation's tile server, the destination only while a position is drawn; never another organisation's", async () => {
      const s = await setup()
      const other = await setup()
      await s.me.post(`/my/jobs/${s.next}/en-route`)
      await other.me.post(`/my/jobs/${other.next}/en-route`)
      const token = String((await enRouteEvents(s))[0]?.data.trackingUrl).split('/t/')[1]
      const otherToken = String((await enRouteEvents(other))[0]?.data.trackingUrl).split('/t/')[1]
      const read = async (key = token) =>
        (await t.app.inject({ url: `/v1/track/${key}` })).json().data.tracking
      expect((await read()).map).toBeNull()

      const patched = await s.admin.patch('/organisation', {
        map: {
          tileUrl: 'https://{s}.tiles.example.org/{z}/{x}/{y}{r}.png',
          attribution: '© Example contributors',
        },
      })
      expect(patched.status, JSON.stringify(patched.body)).toBe(200)
      expect((await read()).map).toEqual({
        tileUrl: 'https://{s}.tiles.example.org/{z}/{x}/{y}{r}.png',
        attribution: '© Example contributors',
        destination: HOME,
      })
      // The other organisation set nothing: its customers' page stays without tiles.
      expect((await read(otherToken)).map).toBeNull()

      // Arrived: no position drawn, so no destination either.
      await s.me.post(`/my/jobs/${s.next}/start`)
      expect((await read()).map).toEqual({
        tileUrl: 'https://{s}.tiles.example.org/{z}/{x}/{y}{r}.png',
        attribution: '© Example contributors',
        destination: null,
      })
      // Cleared again: null.
      await s.admin.patch('/organisation', { map: { tileUrl: null, attribution: null } })
      expect((await read()).map).toBeNull()
    })

    it("says the window in the depot's zone: BST (+01:00) on a summer day, another zone's offset", async () => {
      const s = await setup('2026-07-16')
      await s.me.post(`/my/jobs/${s.next}/en-route`)
      const [event] = await enRouteEvents(s)
      const token = String(event?.data.trackingUrl).split('/t/')[1]
      const eta = Date.parse(String(event?.data.eta))
      const clock = (at: number, offsetHours: number) =>
        new Date(Math.round(at / 300_000) * 300_000 + offsetHours * HOUR).toISOString().slice(11, 16)
      const tracking = (await t.app.inject({ url: `/v1/track/${token}` })).json().data.tracking
      expect(tracking.timeZone).toBe('Europe/London')
      // 10:00Z is 11:00 in London in July: the window reads an hour later than UTC.
      expect(tracking.arrivalWindow.text).toBe(`${clock(eta - 900_000, 1)}–${clock(eta + 900_000, 1)} (BST)`)
      expect(tracking.arrivalWindow.text).toMatch(/^11:\d\d–11:\d\d \(BST\)$/)
      expect(tracking.arrivalWindow.from).toBe(
        new Date(Math.round((eta - 900_000) / 300_000) * 300_000).toISOString(),
      )

      // A depot in New York: its own clock and offset (EDT, four hours behind UTC).
      const ny = await setup('2026-07-16', 'America/New_York')
      await ny.me.post(`/my/jobs/${ny.next}/en-route`)
      const [nyEvent] = await enRouteEvents(ny)
      const nyToken = String(nyEvent?.data.trackingUrl).split('/t/')[1]
      const nyEta = Date.parse(String(nyEvent?.data.eta))
      const nyTracking = (await t.app.inject({ url: `/v1/track/${nyToken}` })).json().data.tracking
      expect([nyTracking.timeZone, nyTracking.arrivalWindow.text]).toEqual([
        'America/New_York',
        `${clock(nyEta - 900_000, -4)}–${clock(nyEta + 900_000, -4)} (GMT-4)`,
      ])
    })

    it("a job without a depot is said in the organisation's zone (its primary depot's)", async () => {
      const s = await setup('2026-07-16')
      await makeLocation(s.db, s.org, { name: 'Head office', timezone: 'Europe/Paris', isPrimary: true })
      await s.db.updateTable('jobs').set({ location_id: null }).where('id', '=', s.next).execute()
      await s.me.post(`/my/jobs/${s.next}/en-route`)
      const [event] = await enRouteEvents(s)
      const token = String(event?.data.trackingUrl).split('/t/')[1]
      const tracking = (await t.app.inject({ url: `/v1/track/${token}` })).json().data.tracking
      expect(tracking.timeZone).toBe('Europe/Paris')
      expect(tracking.arrivalWindow.text).toMatch(/^12:\d\d–12:\d\d \(CEST\)$/)
    })

    it('410 Gone 12 h after the job completed or was cancelled; 200 until then', async () => {
      for (const end of ['complete', 'cancel'] as const) {
        const s = await setup()
        await s.me.post(`/my/jobs/${s.next}/en-route`)
        const token = String((await enRouteEvents(s))[0]?.data.trackingUrl).split('/t/')[1]
        if (end === 'complete') {
          await s.me.post(`/my/jobs/${s.next}/start`)
          await setJobState(s.db, s.org, s.next, {
            status: 'COMPLETED',
            completedAt: new Date(now).toISOString(),
          })
        } else {
          const cancelled = await s.admin.post(`/jobs/${s.next}/cancel`, { reason: 'Customer away' })
          expect(cancelled.status).toBe(200)
          now = Date.parse(cancelled.body.data.job.updatedAt)
        }
        const ended = now
        now = ended + 12 * HOUR
        const last = await t.app.inject({ url: `/v1/track/${token}` })
        expect([last.statusCode, last.json().data.tracking.status], end).toEqual([
          200,
          end === 'complete' ? 'COMPLETED' : 'CANCELLED',
        ])
        now = ended + 12 * HOUR + 1000
        const gone = await t.app.inject({ url: `/v1/track/${token}` })
        expect([gone.statusCode, gone.json().code], end).toEqual([410, 'TRACKING_EXPIRED'])
        expect(gone.headers['x-robots-tag']).toBe('noindex')
      }
    })

    it('the page /t/<token>: its own small HTML and script, noindex, the security headers', async () => {
      const page = await t.app.inject({ url: '/t/anything' })
      expect(page.statusCode).toBe(200)
      expect(page.headers['content-type']).toContain('text/html')
      expect(page.headers['x-robots-tag']).toBe('noindex')
      expect(page.headers['content-security-policy']).toContain("script-src 'self'")
      expect(page.headers['x-frame-options']).toBe('DENY')
      // Tiles may come from the organisation's https tile server; scripts and requests stay here, and
      // no Referer (holding the token) goes with a tile request.
      expect(page.headers['content-security-policy']).toContain("img-src 'self' data: blob: https:")
      expect(page.headers['content-security-policy']).toContain("connect-src 'self'")
      expect(page.headers['referrer-policy']).toBe('no-referrer')
      expect(page.body).toContain('<meta name="referrer" content="no-referrer">')
      expect(page.body).toContain('<meta name="robots" content="noindex, nofollow">')
      expect(page.body).toContain('<script src="/t/assets/track.js" defer></script>')
      expect(page.body).not.toMatch(/<script>(?!<)/)
      const script = await t.app.inject({ url: '/t/assets/track.js' })
      expect(script.statusCode).toBe(200)
      expect(script.headers['content-type']).toContain('javascript')
      expect(script.body).toContain('/v1/track/')
      expect(script.body).not.toContain('innerHTML')
      expect(script.body.length + page.body.length).toBeLessThan(12_000)
    })
  })

  describe(`${dialect}: the tracking link's per-address limit`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect, { ipRateLimitPerMinute: 3 })
    })
    afterAll(() => t.close())

    it('answers 429 past the limit, for the data and the page alike', async () => {
      const statuses: number[] = []
      for (let i = 0; i < 3; i++) statuses.push((await t.app.inject({ url: '/v1/track/unknown' })).statusCode)
      const limited = await t.app.inject({ url: '/t/unknown' })
      expect(statuses).toEqual([404, 404, 404])
      expect([limited.statusCode, limited.json().code]).toEqual([429, 'RATE_LIMITED'])
      const other = await t.app.inject({ url: '/v1/track/unknown', remoteAddress: '10.0.0.7' })
      expect(other.statusCode).toBe(404)
    })
  })
}
