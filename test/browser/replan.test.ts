// Re-plan the rest of today in a real browser, the server's and the browser's clocks both at 12:45
// on a Monday: the plan form offers "Re-plan rest of day" for today, with how much to change; the
// preview lists each change (job, worker and time before → after), places nothing before 12:45,
// and applying it leaves the job in progress as it is.
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { makeLocation, makeShift, makeUser, makeVehicle, setJobState } from '../factories.js'
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
const NOW = Date.parse(at('12:45'))
const PLAN_TIMEOUT = { timeout: 30_000 }

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: Re-plan rest of day`, () => {
    let server: DashboardServer
    let acme: Organisation
    let watched: WatchedPage
    let page: Page
    let depot: { id: string }
    let inProgress: string
    const waiting: string[] = []

    beforeAll(async () => {
      server = await startDashboard(dialect, { planWorkers: 1, clock: () => NOW })
      acme = await createOrganisationWithTeam(server)
      const db = server.database.db
      depot = await makeLocation(db, acme.id, {
        name: 'Salford Depot',
        timezone: 'Europe/London',
        isPrimary: true,
      })
      const shifts = []
      for (const name of ['Ana Lopez', 'Ben Carter']) {
        const user = await makeUser(db, acme.id, { name })
        const van = await makeVehicle(db, acme.id, depot.id, { name: `${name.split(' ')[0]}'s van` })
        const shift = await makeShift(
          db,
          acme.id,
          { userId: user.id, locationId: depot.id, vehicleId: van.id },
          { day: 'MONDAY', startTime: '08:00', endTime: '17:00', breaks: [] },
        )
        shifts.push({ userId: user.id, shiftId: shift.id })
      }
      const job = async (title: string, i: number) => {
        const created = await callApi(server, acme.key, 'POST', '/v1/public/jobs', {
          title,
          serviceDuration: 1800,
          jobLatitude: 53.45 + i * 0.01,
          jobLongitude: -2.3,
          earliestStart: at('08:00'),
          latestEnd: at('17:00'),
        })
        expect(created.status).toBe(201)
        return (created.body as { data: { job: { id: string } } }).data.job.id
      }
      inProgress = await job('Boiler breakdown', 0)
      await setJobState(db, acme.id, inProgress, {
        status: 'IN_PROGRESS',
        assignedUserId: shifts[1]!.userId,
        shiftId: shifts[1]!.shiftId,
        scheduledStart: at('12:30'),
        scheduledEnd: at('13:00'),
        startedAt: at('12:30'),
      })
      for (let i = 1; i <= 3; i++) waiting.push(await job(`Urgent leak ${i}`, i))
    })
    afterAll(async () => {
      await server?.close()
    })
    beforeEach(async () => {
      watched = await openPage(browser, server.url)
      page = watched.page
      await page.clock.setFixedTime(NOW)
    })
    afterEach(async () => {
      await page.context().close()
      expect(watched.problems).toEqual([])
    })

    const thePlan = () => page.getByRole('region', { name: 'The plan', exact: true })

    it('offers Re-plan rest of day today, previews the changes from now, and applies them', async () => {
      await signIn(page, acme.dispatcher, `/plan?location=${depot.id}`)
      await page.getByRole('heading', { name: 'Plan the day', level: 1 }).waitFor()
      await page.getByLabel('Time limit').selectOption('1')
      await page.getByLabel('Re-plan rest of day').check()
      await page.getByLabel('Changes to the day').selectOption({ label: 'As few changes as possible' })
      await expectAccessible(page, 'the plan form for today')
      await page.getByRole('button', { name: 'Run the optimiser' }).click()
      await page.waitForURL(/plan=/)
      await thePlan().getByText('Ready to apply').waitFor(PLAN_TIMEOUT)

      await thePlan()
        .getByRole('heading', { name: /^Changes \(3: 3 newly planned\)$/ })
        .waitFor()
      // Jobs planned: the three waiting ones (the job in progress was assigned already).
      expect(await thePlan().getByRole('definition').first().textContent()).toBe('3')
      const changes = thePlan().getByRole('list', { name: 'What the plan changes' })
      for (let i = 1; i <= 3; i++) {
        const line = await changes.getByText(`Urgent leak ${i}`).locator('..').textContent()
        // waiting → a worker at a time no earlier than 12:45
        const match = line?.match(/waiting → (Ana Lopez|Ben Carter) (\d\d):(\d\d)$/)
        expect(match, line ?? '').not.toBeNull()
        expect(Number(match![2]) * 60 + Number(match![3])).toBeGreaterThanOrEqual(12 * 60 + 45)
      }
      const routes = thePlan().getByRole('region', { name: 'The plan’s routes' })
      await routes.getByText(/^Boiler breakdown \(in progress\), planned 12:30–13:00/).waitFor()
      await expectAccessible(page, 'the re-plan preview')
      await page.screenshot({
        path: `${process.env.SCREENSHOT_DIR ?? '/tmp'}/replan-rest-of-day-${dialect}.png`,
        fullPage: true,
      })

      await thePlan().getByRole('button', { name: 'Apply plan' }).click()
      await page.getByRole('status').filter({ hasText: 'Plan applied' }).waitFor()
      const current = (await callApi(server, acme.key, 'GET', `/v1/public/jobs/${inProgress}`)).body as {
        data: { job: { status: string } }
      }
      expect(current.data.job.status).toBe('IN_PROGRESS')
      for (const id of waiting) {
        const job = (await callApi(server, acme.key, 'GET', `/v1/public/jobs/${id}`)).body as {
          data: { job: { status: string; scheduledStart: string } }
        }
        expect(job.data.job.status).toBe('ASSIGNED')
        expect(Date.parse(job.data.job.scheduledStart)).toBeGreaterThanOrEqual(NOW)
      }
    })

    it('does not offer it for another day', async () => {
      await signIn(page, acme.dispatcher, `/plan?date=2026-12-14&location=${depot.id}`)
      await page.getByRole('heading', { name: 'Plan the day', level: 1 }).waitFor()
      await page.getByLabel('Keep assigned jobs').waitFor()
      expect(await page.getByLabel('Re-plan rest of day').count()).toBe(0)
    })
  })
}
