// The header search in a real browser, signed in as a dispatcher: "/" focuses the box, typing a
// customer's phone number the way a caller reads it ("7700 900123") lists the customer's job, and
// Enter opens the job page, which shows the job's number, the customer's tap-to-call and mail links
// and notes. The listbox follows the combobox pattern (arrow keys move aria-activedescendant);
// another organisation's job with the same phone is never listed.
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { BROWSER_DIALECTS } from '../helpers.js'
import { type AdminApi, adminApi } from './admin-api.js'
import { expectAccessible, launchBrowser, openPage, type WatchedPage } from './browser.js'
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

const PHONE = '+447700900123'

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: the header search`, () => {
    let server: DashboardServer
    let acme: Organisation
    let api: AdminApi
    let watched: WatchedPage
    let page: Page
    let job: { id: string; number: string }

    beforeAll(async () => {
      server = await startDashboard(dialect)
      acme = await createOrganisationWithTeam(server)
      api = await adminApi(server, acme.id)
      const { customer } = await api<{ customer: { id: string } }>('POST', '/customers', {
        name: 'Northern Quarter Bakery',
        address: '41 Oldham Street, Manchester',
        latitude: 53.4839,
        longitude: -2.2346,
        phone: PHONE,
        email: 'orders@nqbakery.example',
        notes: 'Call 30 minutes before arrival',
      })
      await api('POST', '/jobs', { title: 'Annual boiler service' })
      job = (
        await api<{ job: { id: string; number: string } }>('POST', '/jobs', {
          title: 'Replace boiler valve',
          customerId: customer.id,
        })
      ).job
      // Another organisation's customer has the same phone: never listed here.
      const other = await createOrganisationWithTeam(server)
      const theirs = await adminApi(server, other.id)
      const twin = await theirs<{ customer: { id: string } }>('POST', '/customers', {
        name: 'Somebody Else',
        latitude: 53.48,
        longitude: -2.24,
        phone: PHONE,
      })
      await theirs('POST', '/jobs', { title: 'Their job', customerId: twin.customer.id })
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

    it("finds a job by its customer's phone number from the header and opens it", async () => {
      await signIn(page, acme.dispatcher, '/jobs')
      await page.getByRole('heading', { name: 'Jobs' }).waitFor()
      const box = page.getByRole('combobox', { name: 'Search jobs and customers' })
      // "/" focuses the search from anywhere outside a field.
      await page.locator('body').press('/')
      await expect
        .poll(() =>
          box.evaluate((element: { matches(selector: string): boolean }) => element.matches(':focus')),
        )
        .toBe(true)

      await box.pressSequentially('7700 900123')
      const results = page.getByRole('listbox', { name: 'Search results' })
      await results.getByRole('option', { name: /Replace boiler valve/ }).waitFor()
      expect(await box.getAttribute('aria-expanded')).toBe('true')
      const options = results.getByRole('option')
      expect(await options.allInnerTexts()).toEqual([
        expect.stringContaining(`${job.number} Replace boiler valve`),
        expect.stringContaining('Northern Quarter Bakery'),
      ])
      expect(await results.textContent()).not.toContain('Their job')
      expect(await results.textContent()).not.toContain('Somebody Else')
      await expectAccessible(page, 'the header search with results')
      await page.screenshot({ path: join(tmpdir(), `header-search-${dialect}.png`) })

      // Arrow keys move the active option; Enter opens it.
      const first = await options.nth(0).getAttribute('id')
      const second = await options.nth(1).getAttribute('id')
      expect(await box.getAttribute('aria-activedescendant')).toBe(first)
      await box.press('ArrowDown')
      expect(await box.getAttribute('aria-activedescendant')).toBe(second)
      await box.press('ArrowUp')
      expect(await box.getAttribute('aria-activedescendant')).toBe(first)
      await box.press('Enter')

      await page.waitForURL(`**/jobs/${job.id}`)
      await page.getByRole('heading', { name: /Replace boiler valve/ }).waitFor()
      await page.getByText(job.number, { exact: true }).waitFor()
      // Shown as people write it; dialled as stored.
      const call = page.getByRole('link', { name: 'Call 07700 900123' })
      expect(await call.getAttribute('href')).toBe(`tel:${PHONE}`)
      const mail = page.getByRole('link', { name: 'orders@nqbakery.example' })
      expect(await mail.getAttribute('href')).toBe('mailto:orders@nqbakery.example')
      await page.getByText('Call 30 minutes before arrival').waitFor()
    })

    it('finds a job by its number and opens it with a click; Escape closes the list', async () => {
      await signIn(page, acme.dispatcher, '/customers')
      const box = page.getByRole('combobox', { name: 'Search jobs and customers' })
      await box.fill(job.number.toLowerCase())
      const option = page.getByRole('option', { name: /Replace boiler valve/ })
      await option.waitFor()
      await box.press('Escape')
      expect(await box.getAttribute('aria-expanded')).toBe('false')
      await box.fill(job.number.slice(2))
      await option.click()
      await page.waitForURL(`**/jobs/${job.id}`)
    })
  })
}
