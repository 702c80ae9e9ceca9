// Job series in a real browser, signed in as a dispatcher: "Repeat…" on a quarterly job opens the
// series dialog filled from it (its window's times, its date, the banner saying the job itself is not
// in the series), the rule set with the editor (Monthly, every 3, on the 2nd Tuesday) says itself in
// words with its next 4 dates; the series page shows the rule, the next visits and the job made for
// the first; an edit moves the window, on the job already made too; a visit is moved, another skipped
// (its job cancelled), the series ended; the job made links back to its series; the list shows it. The server's clock stands ten days before the first visit, so the
// 28-day horizon makes its job and not the next one's.
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { zonedToUtc } from '../../web/src/lib/time.js'
import { BROWSER_DIALECTS } from '../helpers.js'
import { type AdminApi, adminApi } from './admin-api.js'
import { expectAccessible, launchBrowser, openPage, PHONE, type WatchedPage } from './browser.js'
import {
  createOrganisationWithTeam,
  type DashboardServer,
  type Organisation,
  signIn,
  startDashboard,
} from './harness.js'

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']

/** The 2nd Tuesday of the month `offset` months after the month of `from` (YYYY-MM-DD). */
function secondTuesday(from: Date, offset: number): string {
  const first = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + offset, 1))
  const firstTuesday = 1 + ((2 - first.getUTCDay() + 7) % 7)
  return new Date(first.getTime() + (firstTuesday + 6) * 86_400_000).toISOString().slice(0, 10)
}

/** "Tue 9 Feb 2027", as the dashboard writes a date. */
function shortDate(date: string): string {
  const at = new Date(`${date}T00:00:00Z`)
  return `${WEEKDAYS[at.getUTCDay()]} ${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`
}

// The job is two months ahead of the real today (the browser's clock, which the preview reads).
const jobMonth = new Date()
const JOB_DATE = secondTuesday(jobMonth, 2)
const VISITS = [5, 8, 11, 14, 17].map((months) => secondTuesday(jobMonth, months))
const SERVER_NOW = Date.parse(`${VISITS[0]}T08:00:00Z`) - 10 * 86_400_000

/** Chooses a radio or checkbox drawn as a button (the input itself is hidden): its label is clicked. */
const choose = (scope: Locator, role: 'radio' | 'checkbox', name: string) =>
  scope.locator('label', { has: scope.page().getByRole(role, { name, exact: true }) }).click()

/** How wide the page's content is: wider than the phone means it scrolls sideways. */
const pageWidth = (page: Page) =>
  page.locator('html').evaluate((html) => (html as unknown as { scrollWidth: number }).scrollWidth)

interface Job {
  id: string
  status: string
  seriesId: string | null
  occurrenceDate: string | null
  earliestStart: string | null
  latestEnd: string | null
  timeWindowType: string
  address: string | null
}

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: Job series`, () => {
    let server: DashboardServer
    let acme: Organisation
    let api: AdminApi
    let watched: WatchedPage
    let page: Page

    beforeAll(async () => {
      server = await startDashboard(dialect, { clock: () => SERVER_NOW })
      acme = await createOrganisationWithTeam(server)
      api = await adminApi(server, acme.id)
    })
    afterAll(() => server?.close())
    beforeEach(async () => {
      watched = await openPage(browser, server.url)
      page = watched.page
    })
    afterEach(async () => {
      await page.context().close()
      expect(watched.problems).toEqual([])
    })

    it('repeats a job every 3 months on the 2nd Tuesday, skips a visit and ends the series', async () => {
      const { location } = await api<{ location: { id: string } }>('POST', '/locations', {
        name: 'Salford',
        code: 'SAL',
        latitude: 53.48,
        longitude: -2.29,
        timezone: 'Europe/London',
        isPrimary: true,
      })
      const { customer } = await api<{ customer: { id: string } }>('POST', '/customers', {
        name: 'Harbour Café',
        latitude: 53.47,
        longitude: -2.25,
      })
      const { job } = await api<{ job: Job }>('POST', '/jobs', {
        title: 'Quarterly boiler check',
        customerId: customer.id,
        locationId: location.id,
        address: '1 Quay Street, Salford',
        jobLatitude: 53.471,
        jobLongitude: -2.251,
        serviceDuration: 3600,
        priority: 'HIGH',
        earliestStart: zonedToUtc(JOB_DATE, '09:00', 'Europe/London').toISOString(),
        latestEnd: zonedToUtc(JOB_DATE, '12:00', 'Europe/London').toISOString(),
        timeWindowType: 'HARD',
      })

      await signIn(page, acme.dispatcher, `/jobs/${job.id}`)
      await page.getByRole('button', { name: 'Repeat…' }).click()
      const dialog = page.getByRole('dialog', { name: 'Repeat Quarterly boiler check' })
      expect(await dialog.getByLabel('Title').inputValue()).toBe('Quarterly boiler check')
      expect(await dialog.getByLabel('Start date').inputValue()).toBe(JOB_DATE)
      expect(await dialog.getByLabel('Window from').inputValue()).toBe('09:00')
      expect(await dialog.getByLabel('Window to').inputValue()).toBe('12:00')
      expect(await dialog.getByRole('radio', { name: /^Must be kept/ }).isChecked()).toBe(true)

      await choose(dialog, 'radio', 'Monthly')
      await dialog.getByLabel('Every', { exact: true }).fill('3')
      await dialog.getByRole('radio', { name: /^on the/ }).check()
      expect(await dialog.getByLabel('Which week of the month').inputValue()).toBe('2')
      expect(await dialog.getByLabel('Day of the week').inputValue()).toBe('TU')
      const summary = dialog.getByRole('region', { name: 'The series in words' })
      await summary.getByText('Every 3 months on the 2nd Tuesday, 09:00–12:00 (must be kept)').waitFor()
      const preview = summary.getByRole('list', { name: 'Next dates' }).getByRole('listitem')
      expect(await preview.allTextContents()).toEqual(VISITS.slice(0, 4).map(shortDate))
      await dialog
        .getByText(
          `This job stays as it is and is not part of the series: the series starts with the next date after it, ${shortDate(VISITS[0] as string)}.`,
        )
        .waitFor()
      await expectAccessible(page, 'the series dialog')

      // Keyboard: an interval of 0 is refused before anything is sent, next to its field.
      await dialog.getByLabel('Every', { exact: true }).fill('0')
      await dialog.getByRole('button', { name: 'Create series' }).click()
      await dialog.getByText('Every: a whole number from 1 to 1000').waitFor()
      await dialog.getByLabel('Every', { exact: true }).fill('3')
      await dialog.getByRole('button', { name: 'Create series' }).click()

      // The new series' page opens (the job's page had the same title).
      await page.waitForURL(/\/series\/[^/]+$/)
      await page.getByRole('heading', { name: /^Quarterly boiler check/ }).waitFor()
      const seriesId = new URL(page.url()).pathname.split('/').pop() as string
      await page.getByText('Every 3 months on the 2nd Tuesday, 09:00–12:00 (must be kept)').first().waitFor()
      const next = page.getByRole('table', { name: 'Next visits' })
      const rows = next.getByRole('row')
      await expect.poll(() => rows.count()).toBe(6)
      for (const [i, date] of VISITS.entries()) {
        expect(
          await rows
            .nth(i + 1)
            .getByRole('cell')
            .first()
            .textContent(),
        ).toBe(shortDate(date))
      }
      await rows.nth(2).getByText('Not made into a job yet').waitFor()
      const made = page.getByRole('table', { name: 'Jobs made' })
      await made.getByText(shortDate(VISITS[0] as string)).waitFor()
      await made.getByText('Unassigned').waitFor()
      await expectAccessible(page, 'the series page')

      const { series } = await api<{
        series: { rrule: string; startDate: string; window: unknown; job: Record<string, unknown> }
      }>('GET', `/job-series/${seriesId}`)
      expect(series).toMatchObject({
        rrule: 'FREQ=MONTHLY;INTERVAL=3;BYDAY=2TU',
        startDate: VISITS[0],
        window: { startTime: '09:00', endTime: '12:00', type: 'HARD' },
        job: {
          title: 'Quarterly boiler check',
          customerId: customer.id,
          locationId: location.id,
          address: '1 Quay Street, Salford',
          jobLatitude: 53.471,
          jobLongitude: -2.251,
          serviceDuration: 3600,
          priority: 'HIGH',
        },
      })
      const { jobs } = await api<{ jobs: { id: string; occurrenceDate: string }[] }>(
        'GET',
        `/job-series/${seriesId}/jobs`,
      )
      expect(jobs.map((j) => j.occurrenceDate)).toEqual([VISITS[0]])
      const firstJob = jobs[0]?.id as string
      // The repeated job stays outside the series.
      expect((await api<{ job: Job }>('GET', `/jobs/${job.id}`)).job.seriesId).toBeNull()

      // Edit: the window from 10:00, also on the job already made (nobody has assigned it).
      await page.getByRole('button', { name: 'Edit', exact: true }).click()
      const edit = page.getByRole('dialog', { name: 'Edit series: Quarterly boiler check' })
      await edit.getByLabel('Window from').fill('10:00')
      await edit.getByText('Every 3 months on the 2nd Tuesday, 10:00–12:00 (must be kept)').waitFor()
      const alsoJobs = edit.getByRole('radio', {
        name: /^Also change the 1 job already made that nobody has assigned yet/,
      })
      await alsoJobs.check()
      await expectAccessible(page, 'the edit-series dialog')
      await edit.getByRole('button', { name: 'Save series' }).click()
      await edit.waitFor({ state: 'detached' })
      await page.getByText('Every 3 months on the 2nd Tuesday, 10:00–12:00 (must be kept)').first().waitFor()
      expect((await api<{ job: Job }>('GET', `/jobs/${firstJob}`)).job.earliestStart).toBe(
        zonedToUtc(VISITS[0] as string, '10:00', 'Europe/London').toISOString(),
      )

      // Move the third visit a day later: it shows where it moved from.
      const third = VISITS[2] as string
      const dayAfter = new Date(Date.parse(`${third}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
      await rows.nth(3).getByRole('button', { name: /^Move/ }).click()
      const move = page.getByRole('dialog', { name: `Move the visit of ${shortDate(third)}` })
      await move.getByLabel('New date').fill(dayAfter)
      await move.getByRole('button', { name: 'Move visit' }).click()
      await rows
        .nth(3)
        .getByText(`moved from ${shortDate(third)}`)
        .waitFor()
      expect(await rows.nth(3).getByRole('cell').first().textContent()).toContain(shortDate(dayAfter))

      // Skip the first visit: confirmed, its job cancelled.
      await rows.nth(1).getByRole('button', { name: /^Skip/ }).click()
      const skip = page.getByRole('dialog', { name: `Skip the visit of ${shortDate(VISITS[0] as string)}?` })
      await expectAccessible(page, 'the skip confirmation')
      await skip.getByRole('button', { name: 'Skip visit' }).click()
      await rows.nth(1).getByText('Skipped').waitFor()
      await made.getByText('Cancelled').waitFor()
      expect((await api<{ job: Job }>('GET', `/jobs/${firstJob}`)).job.status).toBe('CANCELLED')

      // The job made links back to its series.
      await made.getByRole('link').first().click()
      await page.getByText('Part of series:').waitFor()
      await page
        .getByRole('link', { name: 'Every 3 months on the 2nd Tuesday, 10:00–12:00 (must be kept)' })
        .click()
      await page.getByRole('table', { name: 'Next visits' }).waitFor()

      // End the series after the second visit.
      await page.getByRole('button', { name: 'End series' }).click()
      const end = page.getByRole('dialog', { name: 'End Quarterly boiler check?' })
      await end.getByLabel('Last date').fill(VISITS[1] as string)
      await end.getByRole('button', { name: 'End series' }).click()
      await page.getByText(`Ended: no visit after`).waitFor()
      await expect.poll(() => rows.count()).toBe(3)
      expect(
        (await api<{ series: { endDate: string } }>('GET', `/job-series/${seriesId}`)).series.endDate,
      ).toBe(VISITS[1])

      // The list: its title, customer, rule in words, next visit, and that it ends.
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Series', exact: true })
        .click()
      const list = page.getByRole('table', { name: 'Series' })
      const row = list.getByRole('row', { name: /Quarterly boiler check/ })
      await row.getByText('Harbour Café').waitFor()
      await row.getByText('Every 3 months on the 2nd Tuesday, 10:00–12:00 (must be kept)').waitFor()
      await row
        .getByText(shortDate(VISITS[1] as string))
        .first()
        .waitFor()
      await row.getByText(`Ends ${shortDate(VISITS[1] as string)}`).waitFor()
      await expectAccessible(page, 'the series list')
    })

    it('creates a weekly series with the editor at a phone’s width; another organisation’s is not found', async () => {
      const other = await createOrganisationWithTeam(server)
      const otherApi = await adminApi(server, other.id)
      const { series: theirs } = await otherApi<{ series: { id: string } }>('POST', '/job-series', {
        job: { title: 'Their visit' },
        rrule: 'FREQ=DAILY',
        startDate: '2027-01-01',
      })
      await page.context().close()
      watched = await openPage(browser, server.url, { ...PHONE, timezoneId: 'Europe/London' })
      page = watched.page

      await signIn(page, acme.dispatcher, '/series')
      await page.getByRole('button', { name: 'Create series' }).first().click()
      const dialog = page.getByRole('dialog', { name: 'Create series' })
      await dialog.getByLabel('Title').fill('Office clean')
      await dialog.getByLabel('Start date').fill(JOB_DATE)
      await choose(dialog, 'radio', 'Weekly')
      // The start date's weekday is chosen; Thursday is added with the keyboard.
      expect(await dialog.getByRole('checkbox', { name: 'Tuesday' }).isChecked()).toBe(true)
      await choose(dialog, 'checkbox', 'Tuesday')
      await choose(dialog, 'checkbox', 'Monday')
      await dialog.getByRole('checkbox', { name: 'Thursday' }).focus()
      await page.keyboard.press('Space')
      // Going to a time field chooses a window of times, even when its times stay as they were.
      await dialog.getByLabel('Window from').focus()
      await dialog.getByText('Every week on Monday and Thursday, 09:00–12:00').waitFor()
      await dialog.getByRole('radio', { name: /^Any time that day/ }).check()
      await dialog.getByText('Every week on Monday and Thursday, any time that day').waitFor()
      await dialog.getByRole('radio', { name: /^after/ }).check()
      await dialog.getByLabel('Number of times').fill('3')
      await dialog.getByText('Every week on Monday and Thursday, 3 times, any time that day').waitFor()
      const preview = dialog.getByRole('list', { name: 'Next dates' }).getByRole('listitem')
      expect(await preview.count()).toBe(3)
      expect(await pageWidth(page)).toBeLessThanOrEqual(390)
      await expectAccessible(page, 'the series dialog on a phone')
      await dialog.getByRole('button', { name: 'Create series' }).click()
      await page.waitForURL(/\/series\/[^/]+$/)
      await page.getByRole('heading', { name: /^Office clean/ }).waitFor()
      await page.getByText('Every week on Monday and Thursday, 3 times, any time that day').first().waitFor()
      expect(await pageWidth(page)).toBeLessThanOrEqual(390)

      await page.goto(`/series/${theirs.id}`)
      await page.getByText('This series could not be loaded').waitFor()
    })
  })
}
