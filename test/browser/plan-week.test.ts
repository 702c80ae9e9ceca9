// Plan several days in a real browser: a depot whose two workers work on Mondays and Wednesdays, jobs
// fixed to one of those days by their window, jobs that may go on any day and one due by the Monday;
// plan Monday to Friday from the plan page, read the preview day by day (each day's routes and
// totals, the days without shifts), apply it and find every job assigned on the day it was shown
// under. And a job's "Due by": set in the job dialog, shown on the job page, refused when out of
// range, cleared. Screenshots of the preview (desktop and a phone's width) and of the dialog go to
// the temporary directory.
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

// 2026-12-07 is a Monday; Europe/London is on UTC in December, so local times read as UTC.
const MON = '2026-12-07'
const WED = '2026-12-09'
const FRI = '2026-12-11'
const DAYS = [
  { date: MON, title: 'Monday 7 December' },
  { date: '2026-12-08', title: 'Tuesday 8 December' },
  { date: WED, title: 'Wednesday 9 December' },
  { date: '2026-12-10', title: 'Thursday 10 December' },
  { date: FRI, title: 'Friday 11 December' },
]
const on = (date: string, hhmm: string) => `${date}T${hhmm}:00.000Z`
const PLAN_TIMEOUT = { timeout: 30_000 }

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: Plan several days`, () => {
    let server: DashboardServer
    let acme: Organisation
    let watched: WatchedPage
    let page: Page
    let depot: { id: string }
    /** Title → id of every job seeded, and the day a job is fixed to (by window or due date). */
    const jobs = new Map<string, { id: string; day?: string }>()

    async function job(body: Record<string, unknown>, day?: string) {
      const created = await callApi(server, acme.key, 'POST', '/v1/public/jobs', {
        serviceDuration: 2700,
        ...body,
      })
      expect(created.status).toBe(201)
      const id = (created.body as { data: { job: { id: string } } }).data.job.id
      jobs.set(body.title as string, { id, ...(day ? { day } : {}) })
      return id
    }

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
        for (const day of ['MONDAY', 'WEDNESDAY'] as const) {
          await makeShift(
            db,
            acme.id,
            { userId: user.id, locationId: depot.id, vehicleId: van.id },
            {
              day,
              startTime: '08:00',
              endTime: '16:00',
              breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
            },
          )
        }
      }
      let i = 0
      const place = () => {
        i++
        return { jobLatitude: 53.45 + (i % 3) * 0.02, jobLongitude: -2.3 + (i % 2) * 0.03 }
      }
      for (const [date, name] of [
        [MON, 'Monday'],
        [WED, 'Wednesday'],
      ] as const) {
        for (const n of [1, 2]) {
          await job(
            {
              title: `${name} visit ${n}`,
              ...place(),
              earliestStart: on(date, '08:00'),
              latestEnd: on(date, '16:00'),
              timeWindowType: 'HARD',
            },
            date,
          )
        }
      }
      for (const n of [1, 2, 3]) await job({ title: `Any day ${n}`, ...place() })
      await job({ title: 'Due Monday', ...place(), dueBy: MON }, MON)
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
    const dayOf = (title: string) => thePlan().getByRole('region', { name: title, exact: true })

    it('plans Monday to Friday, shows each day with its routes and totals, and applies it', async () => {
      // Today: the rest of the day may be re-planned — for that day alone.
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date())
      await signIn(page, acme.dispatcher, `/plan?date=${today}&location=${depot.id}`)
      await page.getByRole('form', { name: 'Plan a day' }).waitFor()
      await page.getByLabel('Re-plan rest of day').waitFor()
      await page.getByText('Several days', { exact: true }).click()
      await page.getByRole('form', { name: 'Plan days' }).waitFor()
      expect(await page.getByLabel('Re-plan rest of day').count()).toBe(0)
      await page.getByText('This day', { exact: true }).click()
      await page.getByLabel('Re-plan rest of day').waitFor()

      // The server's word on either end of the range, at its field.
      const runButton = page.getByRole('button', { name: 'Run the optimiser' })
      await page.getByText('Several days', { exact: true }).click()
      await page.getByLabel('From', { exact: true }).fill('1969-12-29')
      await runButton.click()
      await page.getByText(/^From must/).waitFor()
      expect(await page.getByLabel('From', { exact: true }).getAttribute('aria-invalid')).toBe('true')
      await page.getByLabel('From', { exact: true }).fill('9998-12-30')
      await runButton.click()
      await page.getByText(/^To must/).waitFor()
      expect(await page.getByLabel('To', { exact: true }).getAttribute('aria-invalid')).toBe('true')

      await page.goto(`/plan?date=${MON}&location=${depot.id}`)
      await page.getByText('Several days', { exact: true }).click()
      const form = page.getByRole('form', { name: 'Plan days' })
      const to = form.getByLabel('To', { exact: true })
      // Seven days at most: the control stops at the Sunday and says so.
      expect(await to.getAttribute('max')).toBe('2026-12-13')
      await form.getByText('7 days at most: until Sun 13 Dec at the latest').waitFor()
      await to.fill(FRI)
      await form.getByLabel('Time limit').selectOption('1')
      await form.getByLabel('Replan everything').check()
      await expectAccessible(page, 'the plan form over several days')
      const sent = page.waitForRequest(
        (request) => request.method() === 'POST' && request.url().endsWith('/route-plans'),
      )
      await form.getByRole('button', { name: 'Run the optimiser' }).click()
      const body = (await sent).postDataJSON() as Record<string, unknown>
      expect(body).toMatchObject({ dateFrom: MON, dateTo: FRI, mode: 'REPLAN_ALL' })
      expect(body.date).toBeUndefined()
      await page.waitForURL(/plan=/)
      await thePlan().getByText('Ready to apply').waitFor(PLAN_TIMEOUT)
      await thePlan()
        .getByRole('heading', { name: /^Plan for Monday,? 7 December 2026 to Friday,? 11 December 2026$/ })
        .waitFor()
      await page.getByRole('table', { name: 'Recent plans' }).getByText('7–11 Dec 2026').waitFor()

      // One section per day, in order; the days nobody works say so.
      const headings = thePlan()
        .getByRole('region', { name: /^\w+day \d+ December$/ })
        .getByRole('heading', { level: 3 })
      await expect.poll(() => headings.allTextContents()).toEqual(DAYS.map((d) => d.title))
      for (const idle of [DAYS[1], DAYS[3], DAYS[4]]) {
        await dayOf(idle!.title).getByText('No shifts').waitFor()
      }
      // Each working day: its routes on the timeline, its jobs in its totals.
      const shown = new Map<string, string>()
      let planned = 0
      for (const day of [DAYS[0]!, DAYS[2]!]) {
        const section = dayOf(day.title)
        const routes = section.getByRole('region', { name: `Routes on ${day.title}` })
        const blocks = routes.getByText(/, planned \d\d:\d\d/)
        await blocks.first().waitFor()
        const names = await blocks.allTextContents()
        for (const name of names) shown.set(name.replace(/, planned .*$/, ''), day.date)
        const totals = section.getByRole('definition')
        expect(await totals.first().textContent()).toBe(String(names.length))
        expect(Number(await totals.nth(1).textContent())).toBeGreaterThanOrEqual(1)
        await section.getByText(/^[\d.]+ km$/).waitFor()
        planned += names.length
      }
      expect(planned).toBe(jobs.size)
      expect([...shown.keys()].sort()).toEqual([...jobs.keys()].sort())
      // Jobs of one day (by window, or due on it) are shown on it.
      for (const [title, seeded] of jobs) if (seeded.day) expect(shown.get(title), title).toBe(seeded.day)
      await expectAccessible(page, 'the preview of a plan over several days')
      await page.screenshot({ path: join(tmpdir(), `plan-week-${dialect}.png`), fullPage: true })
      await page.setViewportSize({ width: 390, height: 844 })
      await dayOf(DAYS[0]!.title).scrollIntoViewIfNeeded()
      await page.screenshot({ path: join(tmpdir(), `plan-week-phone-${dialect}.png`), fullPage: true })
      await expectAccessible(page, 'the preview of a plan over several days at a phone’s width')
      await page.setViewportSize({ width: 1360, height: 900 })

      await thePlan().getByRole('button', { name: 'Apply plan' }).click()
      await page
        .getByRole('status')
        .filter({ hasText: `Plan applied: ${jobs.size} jobs assigned on 2 days` })
        .waitFor()
      await thePlan().getByText(`${jobs.size} jobs assigned on 2 days.`, { exact: false }).waitFor()
      await thePlan().getByRole('link', { name: 'Open the week' }).waitFor()
      for (const [title, seeded] of jobs) {
        const read = (await callApi(server, acme.key, 'GET', `/v1/public/jobs/${seeded.id}`)).body as {
          data: { job: { status: string; scheduledStart: string | null } }
        }
        expect(read.data.job.status, title).toBe('ASSIGNED')
        expect(read.data.job.scheduledStart?.slice(0, 10), title).toBe(shown.get(title))
      }
    })

    it('sets a job’s Due by in the dialog, shows it on the job page, refuses one out of range, clears it', async () => {
      const id = await job({ title: 'Gutter clearing' })
      await signIn(page, acme.dispatcher, `/jobs/${id}`)
      await page.getByRole('heading', { name: 'Gutter clearing', level: 1 }).waitFor()
      const details = page.getByRole('term').filter({ hasText: /^Due by$/ })
      expect(await details.count()).toBe(0)

      await page.getByRole('button', { name: 'Edit' }).click()
      const dialog = page.getByRole('dialog', { name: 'Edit Gutter clearing' })
      const dueBy = dialog.getByLabel('Due by')
      expect(await dueBy.inputValue()).toBe('')
      // Beyond the last date the API takes: its message, at the field.
      await dueBy.fill('9999-12-31')
      await dialog.getByRole('button', { name: 'Save job' }).click()
      await dialog.getByText(/^Due by must/).waitFor()
      expect(await dueBy.getAttribute('aria-invalid')).toBe('true')

      await dueBy.fill(WED)
      await dialog.getByRole('button', { name: 'Save job' }).click()
      await dialog.waitFor({ state: 'detached' })
      await details.waitFor()
      await page
        .getByRole('definition')
        .filter({ hasText: /^Wed 9 Dec 2026$/ })
        .waitFor()
      const stored = async () =>
        (
          (await callApi(server, acme.key, 'GET', `/v1/public/jobs/${id}`)).body as {
            data: { job: { dueBy: string | null } }
          }
        ).data.job.dueBy
      expect(await stored()).toBe(WED)

      await page.getByRole('button', { name: 'Edit' }).click()
      expect(await dialog.getByLabel('Due by').inputValue()).toBe(WED)
      await dialog.getByLabel('Due by').scrollIntoViewIfNeeded()
      await expectAccessible(page, 'the job dialog with a due date')
      await page.screenshot({ path: join(tmpdir(), `job-dialog-due-by-${dialect}.png`) })
      await dialog.getByLabel('Due by').fill('')
      await dialog.getByRole('button', { name: 'Save job' }).click()
      await dialog.waitFor({ state: 'detached' })
      await expect.poll(() => details.count()).toBe(0)
      expect(await stored()).toBeNull()
    })
  })
}
