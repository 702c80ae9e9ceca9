// A plan whose road travel times could not be had says so in its preview: the routing server
// (ROUTING_OSRM_URL) answers 500, the plan is still made on straight lines, and the dispatcher reads
// that its times are estimates before applying it.
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { makeLocation, makeShift, makeUser, makeVehicle } from '../factories.js'
import { type FakeOsrm, startFakeOsrm } from '../fake-osrm.js'
import { BROWSER_DIALECTS } from '../helpers.js'
import { expectAccessible, launchBrowser, openPage, type WatchedPage } from './browser.js'
import {
  callApi,
  createOrganisationWithTeam,
  type DashboardServer,
  type Organisation,
  signIn,
  startDashboard,
} from './harness.js'

const DATE = '2026-12-07'
const at = (hhmm: string) => `${DATE}T${hhmm}:00.000Z`

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: a plan made without road times`, () => {
    let osrm: FakeOsrm
    let server: DashboardServer
    let acme: Organisation
    let watched: WatchedPage
    let page: Page
    let depot: { id: string }

    beforeAll(async () => {
      osrm = await startFakeOsrm()
      osrm.failWith = 500
      server = await startDashboard(dialect, { planWorkers: 1, routingOsrmUrl: osrm.url })
      acme = await createOrganisationWithTeam(server)
      const db = server.database.db
      depot = await makeLocation(db, acme.id, {
        name: 'Salford Depot',
        timezone: 'Europe/London',
        isPrimary: true,
      })
      const user = await makeUser(db, acme.id, { name: 'Ana Lopez' })
      const van = await makeVehicle(db, acme.id, depot.id, { name: 'Ana’s van' })
      await makeShift(
        db,
        acme.id,
        { userId: user.id, locationId: depot.id, vehicleId: van.id },
        { day: 'MONDAY', startTime: '08:00', endTime: '16:00', breaks: [] },
      )
      for (let i = 0; i < 3; i++) {
        const created = await callApi(server, acme.key, 'POST', '/v1/public/jobs', {
          title: `Boiler service ${i + 1}`,
          serviceDuration: 1800,
          jobLatitude: 53.45 + i * 0.02,
          jobLongitude: -2.3,
          earliestStart: at('08:00'),
          latestEnd: at('16:00'),
        })
        expect(created.status).toBe(201)
      }
    })
    afterAll(async () => {
      await server?.close()
      await osrm?.close()
    })
    beforeEach(async () => {
      watched = await openPage(browser, server.url)
      page = watched.page
    })
    afterEach(async () => {
      await page.context().close()
      expect(watched.problems).toEqual([])
    })

    it('shows the fallback to straight lines above the plan', async () => {
      await signIn(page, acme.admin, `/plan?date=${DATE}&location=${depot.id}`)
      await page.getByRole('heading', { name: 'Plan the day', level: 1 }).waitFor()
      await page.getByLabel('Time limit').selectOption('1')
      await page.getByRole('button', { name: 'Run the optimiser' }).click()
      const thePlan = page.getByRole('region', { name: 'The plan', exact: true })
      await thePlan.getByText('Ready to apply').waitFor({ timeout: 30_000 })
      await thePlan
        .getByText(
          'The road travel service answered HTTP 500 (InternalError): travel times are straight-line estimates',
        )
        .waitFor()
      expect(osrm.requests.length).toBeGreaterThan(0)
      await page.screenshot({
        path: join(process.env.SCREENSHOT_DIR ?? tmpdir(), `plan-travel-fallback-${dialect}.png`),
      })
      await expectAccessible(page, 'a plan on straight lines')
    })
  })
}
