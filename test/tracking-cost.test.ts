// Measurement only, skipped unless MEASURE_TRACKING=1 (no timed assertion): the cost of one
// GET /v1/track/<token> on a day of 20 stops — with the job's forecast kept a minute
// (tracking/recent-forecasts.ts), and computed on every request as before — and of the forecast alone.
//   MEASURE_TRACKING=1 npx vitest run test/tracking-cost.test.ts
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { predictJobEta } from '../src/modules/live/forecast-day.js'
import { trackedForecasts, trackingOf } from '../src/modules/tracking/service.js'
import { makeLocation, makeShift, makeVehicle, outboxEvents } from './factories.js'
import { adminClient, client, createTenant, createTestApp, DIALECTS, type TestContext } from './helpers.js'
import { makeDashboardUser, sessionClient, signIn } from './sessions.js'

const DATE = '2026-11-26'
const at = (hhmm: string) => Date.parse(`${DATE}T${hhmm}:00Z`)

for (const dialect of DIALECTS) {
  describe.skipIf(!process.env.MEASURE_TRACKING)(`${dialect}: tracking request cost`, () => {
    let t: TestContext
    let now = at('06:00')
    beforeAll(async () => {
      t = await createTestApp(dialect, {}, { clock: () => now })
    })
    afterAll(() => t.close())

    it('measures', async () => {
      const tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      const org = tenant.organisationId
      const db = t.database.db
      const admin = adminClient(t, tenant.headers)
      const api = client(t, tenant.headers)
      const depot = await makeLocation(db, org, { timezone: 'UTC' })
      const worker = await makeDashboardUser(t, org, { role: 'WORKER', name: 'Wendy Worker' })
      const van = await makeVehicle(db, org, depot.id, { startLatitude: '53.4', startLongitude: '-2.2' })
      const shift = await makeShift(
        db,
        org,
        { userId: worker.id, locationId: depot.id, vehicleId: van.id },
        {
          day: 'THURSDAY',
          startTime: '07:00',
          endTime: '19:00',
          breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
        },
      )
      const ids: string[] = []
      for (let i = 0; i < 20; i++) {
        const created = await api.post('/jobs', {
          title: `Stop ${i}`,
          locationId: depot.id,
          jobLatitude: 53.4 + (i % 5) * 0.01,
          jobLongitude: -2.2 + Math.floor(i / 5) * 0.01,
          serviceDuration: 1200,
          earliestStart: new Date(at('07:00')).toISOString(),
          latestEnd: new Date(at('19:00')).toISOString(),
        })
        expect(created.status).toBe(201)
        const id = created.body.data.job.id as string
        const start = at('07:30') + i * 30 * 60_000
        const assigned = await admin.post(`/jobs/${id}/assign`, {
          userId: worker.id,
          shiftId: shift.id,
          scheduledStart: new Date(start).toISOString(),
          scheduledEnd: new Date(start + 1_200_000).toISOString(),
        })
        expect(assigned.status, assigned.body.error).toBe(200)
        ids.push(id)
      }
      now = at('08:00')
      const me = sessionClient(t, await signIn(t, worker))
      expect((await me.post(`/my/jobs/${ids[0]}/en-route`)).status).toBe(200)
      const event = (await outboxEvents(db, org)).find((e) => e.event === 'JOB_EN_ROUTE')
      const token = String(event?.data.trackingUrl).split('/t/')[1]
      const last = ids[19] as string
      const tracked = await t.app.inject({ url: `/v1/track/${token}` })
      expect(tracked.statusCode).toBe(200)
      const time = async (label: string, n: number, run: () => Promise<unknown>) => {
        for (let i = 0; i < 5; i++) await run()
        const started = performance.now()
        for (let i = 0; i < n; i++) await run()
        const ms = (performance.now() - started) / n
        console.log(`${dialect} ${label}: ${ms.toFixed(2)} ms`)
      }
      await time('GET /v1/track/<token>, forecast kept a minute', 100, () =>
        t.app.inject({ url: `/v1/track/${token}` }),
      )
      const nowhere = async () => null
      await time('trackingOf, forecast computed every request', 100, () =>
        trackingOf(db, token as string, now, nowhere, trackedForecasts()),
      )
      const shared = trackedForecasts()
      await time('trackingOf, forecast kept a minute', 100, () =>
        trackingOf(db, token as string, now, nowhere, shared),
      )
      await time('predictJobEta (first stop)', 100, () => predictJobEta(db, org, ids[0] as string, now))
      await time('predictJobEta (20th stop)', 100, () => predictJobEta(db, org, last, now))
      await time('GET /v1/track/not-a-token (404, no forecast)', 100, () =>
        t.app.inject({ url: '/v1/track/not-a-token' }),
      )
    })
  })
}
