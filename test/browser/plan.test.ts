// Plan the day in a real browser, with a route plan runner in the server: run the optimiser on a
// depot's Monday, watch it finish, read the preview (totals, routes on the timeline and map, the
// board as it is), apply it and see the jobs assigned on the board; a plan made stale by an edit is
// refused and run again; a plan is discarded; a dispatcher plans too.
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { makeLocation, makeShift, makeUser, makeVehicle } from '../factories.js'
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

// A Monday; Europe/London is on UTC in December.
const DATE = '2026-12-07'
const at = (hhmm: string) => `${DATE}T${hhmm}:00.000Z`
const PLAN_TIMEOUT = { timeout: 30_000 }

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: Plan the day`, () => {
    let server: DashboardServer
    let acme: Organisation
    let watched: WatchedPage
    let page: Page
    let depot: { id: string }
    const jobIds: string[] = []
    const planPath = () => `/plan?date=${DATE}&location=${depot.id}`

    beforeAll(async () => {
      server = await startDashboard(dialect, { planWorkers: 1 })
      acme = await createOrganisationWithTeam(server)
      const db = server.database.db
      depot = await makeLocation(db, acme.id, {
        name: 'Salford Depot',
        timezone: 'Europe/London',
        isPrimary: true,
      })
      for (const name of ['Ana Lopez', 'Ben Carter']) {
        const user = await makeUser(db, acme.id, { name })
        const van = await makeVehicle(db, acme.id, depot.id, { name: `${name.split(' ')[0]}'s van` })
        await makeShift(
          db,
          acme.id,
          { userId: user.id, locationId: depot.id, vehicleId: van.id },
          {
            day: 'MONDAY',
            startTime: '08:00',
            endTime: '16:00',
            breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
          },
        )
      }
      for (let i = 0; i < 6; i++) {
        const created = await callApi(server, acme.key, 'POST', '/v1/public/jobs', {
          title: `Boiler service ${i + 1}`,
          serviceDuration: 1800,
          jobLatitude: 53.45 + (i % 3) * 0.02,
          jobLongitude: -2.3 + Math.floor(i / 3) * 0.03,
          earliestStart: at('08:00'),
          latestEnd: at('16:00'),
        })
        expect(created.status).toBe(201)
        jobIds.push((created.body as { data: { job: { id: string } } }).data.job.id)
      }
      // One the optimiser cannot place: no coordinates anywhere.
      const nowhere = await callApi(server, acme.key, 'POST', '/v1/public/jobs', {
        title: 'Mystery address',
        earliestStart: at('08:00'),
        latestEnd: at('16:00'),
      })
      expect(nowhere.status).toBe(201)
    })
    afterAll(async () => {
      await server?.close()
    })
    beforeEach(async () => {
      watched = await openPage(browser, server.url)
      page = watched.page
    })
    afterEach(async () => {
      await page.context().close()
      expect(watched.problems).toEqual([])
    })

    const thePlan = () => page.getByRole('region', { name: 'The plan', exact: true })
    async function runPlan(mode: 'Keep assigned jobs' | 'Replan everything') {
      await page.getByLabel('Time limit').selectOption('1')
      await page.getByLabel(mode).check()
      await page.getByRole('button', { name: 'Run the optimiser' }).click()
      await page.waitForURL(/plan=/)
      await thePlan().getByText('Ready to apply').waitFor(PLAN_TIMEOUT)
    }

    it('runs the optimiser, previews the plan beside the board, and applies it', async () => {
      await signIn(page, acme.admin, planPath())
      await page.getByRole('heading', { name: 'Plan the day', level: 1 }).waitFor()
      await page.getByText('No plans yet').waitFor()
      await expectAccessible(page, 'the plan page')

      await page.getByLabel('Time limit').selectOption('1')
      await page.getByRole('button', { name: 'Run the optimiser' }).click()
      // Queued or running: a progress bar and Cancel, until it is done.
      await thePlan()
        .getByRole('progressbar', { name: 'Optimising' })
        .or(thePlan().getByText('Ready to apply'))
        .waitFor()
      await thePlan().getByText('Ready to apply').waitFor(PLAN_TIMEOUT)

      const totals = thePlan().getByRole('definition')
      await expect.poll(() => totals.first().textContent()).toBe('6')
      await thePlan().getByText('Mystery address').waitFor()
      await thePlan()
        .getByText(/Not on the map: neither the job nor its customer has coordinates/)
        .waitFor()
      const routes = thePlan().getByRole('region', { name: 'The plan’s routes' })
      await expect.poll(() => routes.getByText(/^Boiler service \d, planned \d\d:\d\d/).count()).toBe(6)
      // The drives between the planned stops, as on the board: one to each stop, then back to the start.
      const drives = routes.getByRole('img', { name: /^\d+ (min|h)[^,]* drive, [\d.]+ km, / })
      expect(await drives.count()).toBeGreaterThanOrEqual(6)
      await routes
        .getByRole('img', { name: /drive, [\d.]+ km, the start to Boiler service \d$/ })
        .first()
        .waitFor()
      await page.screenshot({ path: join(tmpdir(), `plan-preview-${dialect}.png`), fullPage: true })
      await thePlan()
        .getByRole('region', { name: 'The plan on the map' })
        .getByTitle('Depot: Salford Depot')
        .waitFor()
      await expectAccessible(page, 'the plan preview')

      await thePlan().getByText('The board now', { exact: true }).click()
      await thePlan().getByRole('region', { name: 'The board now', exact: true }).waitFor()
      await thePlan().getByText('This plan', { exact: true }).click()

      await thePlan().getByRole('button', { name: 'Apply plan' }).click()
      await page.getByRole('status').filter({ hasText: 'Plan applied: 6 jobs assigned' }).waitFor()
      await thePlan().getByText('Applied', { exact: true }).first().waitFor()
      for (const id of jobIds) {
        const job = (await callApi(server, acme.key, 'GET', `/v1/public/jobs/${id}`)).body as {
          data: { job: { status: string; scheduledStart: string | null } }
        }
        expect(job.data.job.status).toBe('ASSIGNED')
        expect(job.data.job.scheduledStart?.startsWith(DATE)).toBe(true)
      }
      await page.getByRole('table', { name: 'Recent plans' }).getByText('Applied').waitFor()

      await thePlan().getByRole('link', { name: 'Open the board' }).click()
      await page.getByRole('heading', { name: 'Dispatch board', level: 1 }).waitFor()
      const board = page.getByRole('region', { name: 'Shifts and their jobs' })
      await expect
        .poll(() => board.getByRole('button', { name: /^Boiler service \d, Assigned/ }).count())
        .toBe(6)
      expect(
        await page
          .getByRole('region', { name: /^Unassigned/ })
          .getByRole('heading')
          .textContent(),
      ).toBe('Unassigned (1)')
    })

    it('refuses a plan made stale by an edit, runs it again, and discards a plan', async () => {
      await signIn(page, acme.dispatcher, planPath())
      await runPlan('Replan everything')
      // The day changes under the plan: a job is edited.
      const edited = await callApi(server, acme.key, 'PATCH', `/v1/public/jobs/${jobIds[0]}`, {
        priority: 'HIGH',
      })
      expect(edited.status).toBe(200)
      await thePlan().getByRole('button', { name: 'Apply plan' }).click()
      await thePlan().getByText('Nothing was applied: the day changed after this plan was made').waitFor()
      await expectAccessible(page, 'a stale plan')
      const first = new URL(page.url()).searchParams.get('plan')
      await thePlan().getByRole('button', { name: 'Run again' }).click()
      await page.waitForURL((url) => url.searchParams.get('plan') !== first)
      await thePlan().getByText('Ready to apply').waitFor(PLAN_TIMEOUT)

      await thePlan().getByRole('button', { name: 'Discard' }).click()
      await thePlan().getByText('This plan was discarded').waitFor()
      const recent = page.getByRole('table', { name: 'Recent plans' })
      await recent.getByText('Discarded').waitFor()
      await recent.getByText('Out of date').waitFor()
    })

    it('spreads the work when asked: every worker gets some, and Run again keeps the choice', async () => {
      await signIn(page, acme.dispatcher, planPath())
      await page.getByLabel('Spread the work').selectOption({ label: 'Work for every worker' })
      await runPlan('Replan everything')
      const read = async () => {
        const id = new URL(page.url()).searchParams.get('plan')
        return page.evaluate(async (planId) => {
          const response = await fetch(`/v1/admin/route-plans/${planId}`)
          const body = (await response.json()) as {
            data: {
              routePlan: {
                balance: string
                result: { routes: { user: { name: string }; stops: unknown[] }[] }
              }
            }
          }
          return body.data.routePlan
        }, id)
      }
      const spread = await read()
      expect(spread.balance).toBe('USE_ALL')
      const working = spread.result.routes.filter((route) => route.stops.length > 0)
      expect(working.map((route) => route.user.name).sort()).toEqual(['Ana Lopez', 'Ben Carter'])
      const first = new URL(page.url()).searchParams.get('plan')
      await thePlan().getByRole('button', { name: 'Discard' }).click()
      await thePlan().getByText('This plan was discarded').waitFor()
      await thePlan().getByRole('button', { name: 'Run again' }).click()
      await page.waitForURL((url) => url.searchParams.get('plan') !== first)
      await thePlan().getByText('Ready to apply').waitFor(PLAN_TIMEOUT)
      expect((await read()).balance).toBe('USE_ALL')
      await expectAccessible(page, 'the plan page with the work spread')
    })
  })
}
