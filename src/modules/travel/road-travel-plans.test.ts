// Route plans made through the admin API with ROUTING_OSRM_URL set, against a local server answering
// OSRM's table format: every stop's travel is the server's duration ÷ the vehicle's speed factor, a
// second plan of the same day asks the server nothing, and a server that fails leaves a plan made on
// straight lines that says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeLocation, makeShift, makeUser, makeVehicle } from '../../../test/factories.js'
import { type FakeOsrm, roadMetres, roadSeconds, startFakeOsrm } from '../../../test/fake-osrm.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { untilFinished } from '../../../test/route-plans.js'

const DATE = '2026-12-07'
const at = (hhmm: string) => `${DATE}T${hhmm}:00.000Z`
const DEPOT: [number, number] = [-2.2426, 53.4808]
const SPEED_FACTOR = 0.8

interface Stop {
  jobId: string
  travelMinutes: number
  travelKm: number
}
interface PlannedRoute {
  stops: Stop[]
  returnTravelMinutes: number
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: route plans on road travel times`, () => {
    let osrm: FakeOsrm
    let broken: FakeOsrm
    let road: TestContext
    let straight: TestContext
    beforeAll(async () => {
      osrm = await startFakeOsrm(3)
      broken = await startFakeOsrm(3)
      broken.failWith = 500
      road = await createTestApp(dialect, {
        planWorkers: 1,
        routingOsrmUrl: osrm.url,
        routingOsrmMaxTable: 3,
      })
      straight = await createTestApp(dialect, { planWorkers: 1, routingOsrmUrl: broken.url })
    })
    afterAll(async () => {
      await Promise.all([road.close(), straight.close()])
      await Promise.all([osrm.close(), broken.close()])
    })

    /** One worker whose van is slower than the organisation's speed, Monday 08:00–16:00, five jobs. */
    async function makeDay(t: TestContext) {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const admin = adminClient(t, tenant.headers)
      const api = client(t, tenant.headers)
      const org = tenant.organisationId
      const depot = await makeLocation(t.database.db, org, { timezone: 'Europe/London' })
      const user = await makeUser(t.database.db, org, { name: 'Ana' })
      const vehicle = await makeVehicle(t.database.db, org, depot.id, { name: 'Ana’s van' })
      expect((await admin.patch(`/vehicles/${vehicle.id}`, { speedFactor: SPEED_FACTOR })).status).toBe(200)
      await makeShift(
        t.database.db,
        org,
        { userId: user.id, locationId: depot.id, vehicleId: vehicle.id },
        { day: 'MONDAY', startTime: '08:00', endTime: '16:00', breaks: [] },
      )
      const places = new Map<string, [number, number]>()
      for (let i = 0; i < 5; i++) {
        const place: [number, number] = [-2.3 + i * 0.02, 53.45 + (i % 3) * 0.02]
        const created = await api.post('/jobs', {
          title: `Boiler service ${i + 1}`,
          jobLatitude: place[1],
          jobLongitude: place[0],
          serviceDuration: 1800,
          earliestStart: at('08:00'),
          latestEnd: at('16:00'),
        })
        expect(created.status).toBe(201)
        places.set(created.body.data.job.id, place)
      }
      return { admin, places }
    }

    async function plan(admin: ReturnType<typeof adminClient>) {
      const queued = await admin.post('/route-plans', { date: DATE, mode: 'REPLAN_ALL', timeLimitSeconds: 1 })
      expect(queued.status).toBe(202)
      return untilFinished(admin, queued.body.data.routePlan.id)
    }

    it('times every leg by the road service, ÷ the speed factor, and says where the times came from', async () => {
      const { admin, places } = await makeDay(road)
      const done = await plan(admin)
      expect(done.status).toBe('DONE')
      expect(done.result.travel).toEqual({ source: 'ROAD_NETWORK', warnings: [] })
      // 6 distinct places (depot + 5 jobs) in blocks of 3 sources × 3 destinations: 4 requests.
      expect(osrm.requests).toHaveLength(4)
      const [route] = done.result.routes as PlannedRoute[]
      expect(route?.stops).toHaveLength(5)
      let from = DEPOT
      for (const stop of route?.stops ?? []) {
        const to = places.get(stop.jobId) as [number, number]
        const seconds = Math.round(roadSeconds(from, to)) / SPEED_FACTOR
        expect(stop.travelMinutes).toBe(Math.round((seconds / 60) * 10) / 10)
        expect(stop.travelKm).toBe(Math.round(Math.round(roadMetres(from, to) * 10) / 10) / 1000)
        from = to
      }
      const back = Math.round(roadSeconds(from, DEPOT)) / SPEED_FACTOR
      expect(route?.returnTravelMinutes).toBe(Math.round((back / 60) * 10) / 10)

      // The same organisation and day again: the cached table, nothing asked.
      const again = await plan(admin)
      expect(again.status).toBe('DONE')
      expect(again.result.travel.source).toBe('ROAD_NETWORK')
      expect(osrm.requests).toHaveLength(4)
    })

    it('draws the board’s legs with the same road times, from the plan’s cached table', async () => {
      const { admin, places } = await makeDay(road)
      const done = await plan(admin)
      expect((await admin.post(`/route-plans/${done.id}/apply`)).status).toBe(200)
      const asked = osrm.requests.length
      const board = await admin.get(`/board?date=${DATE}`)
      expect(board.status).toBe(200)
      // The depot and the same five places: the plan's table, nothing asked.
      expect(osrm.requests).toHaveLength(asked)
      const [row] = board.body.data.board.rows
      const order = (done.result.routes[0] as PlannedRoute).stops.map((stop) => places.get(stop.jobId)!)
      const path = [DEPOT, ...order, DEPOT]
      expect(row.legs).toHaveLength(6)
      row.legs.forEach((leg: { distanceMeters: number; durationSeconds: number }, i: number) => {
        const [from, to] = [path[i]!, path[i + 1]!]
        expect(leg.durationSeconds, `leg ${i}`).toBe(
          Math.round(Math.round(roadSeconds(from, to)) / SPEED_FACTOR),
        )
        expect(leg.distanceMeters, `leg ${i}`).toBe(Math.round(Math.round(roadMetres(from, to) * 10) / 10))
      })
    })

    it('makes the plan on straight lines, with a TRAVEL_FALLBACK warning, when the service fails', async () => {
      const { admin } = await makeDay(straight)
      const done = await plan(admin)
      expect(done.status).toBe('DONE')
      expect(done.result.totals.assignedJobs).toBe(5)
      expect(broken.requests.length).toBeGreaterThan(0)
      expect(done.result.travel).toEqual({
        source: 'STRAIGHT_LINE',
        warnings: [{ code: 'TRAVEL_FALLBACK', message: expect.stringContaining('answered HTTP 500') }],
      })
      // The board is drawn on straight lines too, without waiting on the failed server again.
      expect((await admin.post(`/route-plans/${done.id}/apply`)).status).toBe(200)
      const asked = broken.requests.length
      const board = await admin.get(`/board?date=${DATE}`)
      expect(board.status).toBe(200)
      expect(board.body.data.board.rows[0].legs).toHaveLength(6)
      expect(board.body.data.board.rows[0].totals.driveSeconds).toBeGreaterThan(0)
      expect(broken.requests).toHaveLength(asked)
    })
  })
}
