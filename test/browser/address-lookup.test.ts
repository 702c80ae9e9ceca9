// Address lookup in a real browser against a geocoder on loopback answering in Nominatim's documented
// format (test/fake-geocoder.ts): the customer dialog offers matches as you type and the keyboard
// picks one, filling the address, the coordinates and the pin; the job dialog fills the job's own
// address and coordinates from a clicked match, keeps an address typed without a match, and a
// cleared one leaves the job at its customer's address. Checked through the API and the job page.
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeGeocoder, startFakeGeocoder } from '../fake-geocoder.js'
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
let geocoder: FakeGeocoder
beforeAll(async () => {
  browser = await launchBrowser()
  geocoder = await startFakeGeocoder('nominatim')
})
afterAll(async () => {
  await browser?.close()
  await geocoder?.close()
})

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: address lookup in the dialogs`, () => {
    let server: DashboardServer
    let acme: Organisation
    let api: AdminApi
    let watched: WatchedPage
    let page: Page

    beforeAll(async () => {
      server = await startDashboard(dialect, { geocoderUrl: geocoder.url })
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

    it('offers matches as the address is typed; the keyboard picks one and it fills the coordinates', async () => {
      await signIn(page, acme.dispatcher, '/customers')
      await page.getByRole('button', { name: 'Add customer' }).first().click()
      const dialog = page.getByRole('dialog', { name: 'Add customer' })
      await dialog.getByLabel('Name').fill('Holmes & Watson')
      const address = dialog.getByRole('combobox', { name: /^Address/ })
      // Two letters ask nothing.
      const asked = geocoder.requests.length
      await address.pressSequentially('ba')
      await page.waitForTimeout(600)
      expect(geocoder.requests.length).toBe(asked)
      await address.pressSequentially('ker street')
      const matches = dialog.getByRole('listbox', { name: 'Matches' })
      await matches.getByRole('option').nth(1).waitFor()
      expect(await matches.getByRole('option').allTextContents()).toEqual([
        '221B Baker Street, London, NW1 6XE, United Kingdom51.5237629, -0.1584743',
        '10 Baker Street, London, W1U 3BT, United Kingdom51.5158, -0.1556',
      ])
      expect(await address.getAttribute('aria-expanded')).toBe('true')
      await expectAccessible(page, 'the customer dialog with address matches')

      await address.press('ArrowDown')
      await expect
        .poll(() => matches.getByRole('option', { selected: true }).textContent())
        .toContain('10 Baker Street')
      await address.press('Enter')
      await expect.poll(() => address.inputValue()).toBe('10 Baker Street, London, W1U 3BT, United Kingdom')
      expect(await dialog.getByLabel('Latitude').inputValue()).toBe('51.5158')
      expect(await dialog.getByLabel('Longitude').inputValue()).toBe('-0.1556')
      expect(await matches.isHidden()).toBe(true)
      // The pin moved there too.
      await dialog.locator('.pin-marker').waitFor()
      // Escape closes a list, not the dialog.
      await address.fill('Bakers Lane')
      await matches.getByRole('option').first().waitFor()
      await address.press('Escape')
      await matches.waitFor({ state: 'hidden' })
      expect(await dialog.isVisible()).toBe(true)
      await address.fill('10 Baker Street, London, W1U 3BT, United Kingdom')

      await dialog.getByRole('button', { name: 'Add customer' }).click()
      await page.getByRole('status').filter({ hasText: 'Holmes & Watson added' }).waitFor()
      const { customers } = await api<{
        customers: { address: string; latitude: string; longitude: string }[]
      }>('GET', '/customers')
      expect(customers).toEqual([
        expect.objectContaining({
          address: '10 Baker Street, London, W1U 3BT, United Kingdom',
          latitude: '51.5158',
          longitude: '-0.1556',
        }),
      ])
    })

    it('fills a job’s address and coordinates from a clicked match', async () => {
      await signIn(page, acme.dispatcher, '/jobs')
      await page.getByRole('button', { name: 'Create job' }).first().click()
      const dialog = page.getByRole('dialog', { name: 'Create job' })
      await dialog.getByLabel('Title').fill('Gutter repair')
      const address = dialog.getByRole('combobox', { name: /^Address/ })
      await address.pressSequentially('Bakers Lane')
      await dialog.getByRole('option', { name: /Bakers Lane, Chelmsford/ }).click()
      await expect.poll(() => address.inputValue()).toBe('Bakers Lane, Chelmsford, CM2 9JX, United Kingdom')
      expect(await dialog.getByLabel('Latitude').inputValue()).toBe('51.7')
      expect(await dialog.getByLabel('Longitude').inputValue()).toBe('0.5')
      await dialog.getByRole('button', { name: 'Create job' }).click()
      await page.getByRole('heading', { name: /Gutter repair/ }).waitFor()
      await page.getByText('Bakers Lane, Chelmsford, CM2 9JX, United Kingdom').waitFor()
      const { jobs } = await api<{
        jobs: { title: string; address: string | null; jobLatitude: string; jobLongitude: string }[]
      }>('GET', '/jobs')
      expect(jobs).toEqual([
        expect.objectContaining({
          title: 'Gutter repair',
          address: 'Bakers Lane, Chelmsford, CM2 9JX, United Kingdom',
          jobLatitude: '51.7',
          jobLongitude: '0.5',
        }),
      ])
    })

    it('keeps a job’s address typed without a match; cleared, the job is at its customer’s again', async () => {
      const other = await createOrganisationWithTeam(server)
      const otherApi = await adminApi(server, other.id)
      await otherApi('POST', '/customers', {
        name: 'Dock Stores',
        address: '7 Dock Road, Salford M5 3AA',
        latitude: 53.47,
        longitude: -2.28,
      })
      await signIn(page, other.dispatcher, '/jobs')
      await page.getByRole('button', { name: 'Create job' }).first().click()
      const dialog = page.getByRole('dialog', { name: 'Create job' })
      await dialog.getByLabel('Title').fill('Shutter repair')
      await dialog.getByLabel('Customer', { exact: true }).selectOption({ label: 'Dock Stores' })
      const address = dialog.getByRole('combobox', { name: /^Address/ })
      // The customer's address shows where the job will be while the field is blank.
      await expect.poll(() => address.getAttribute('placeholder')).toBe('7 Dock Road, Salford M5 3AA')
      // Too long: the server's field error is shown next to the field.
      await address.fill('x'.repeat(1001))
      await dialog.getByRole('button', { name: 'Create job' }).click()
      await dialog.getByText(/^Address must/).waitFor()
      expect(await address.getAttribute('aria-invalid')).toBe('true')
      // An organisation without tags: the dialog's "add them under Fleet › Tags" link is underlined.
      await expectAccessible(page, 'the job dialog without tags, with an error')

      await address.fill('Unit 2, Canal Yard, Salford M5 4WT')
      await dialog.getByText('No address found: check the spelling, or type the coordinates.').waitFor()
      await dialog.getByRole('button', { name: 'Create job' }).click()
      await page.getByRole('heading', { name: /^Shutter repair/ }).waitFor()
      // Where the job is done, as the job page words it.
      const place = page.locator('.job-place')
      await place.getByText(/^Unit 2, Canal Yard, Salford M5 4WT/).waitFor()
      await place.getByText('Customer’s address: 7 Dock Road, Salford M5 3AA').waitFor()
      const id = new URL(page.url()).pathname.split('/').pop() as string
      const read = async () =>
        (
          await otherApi<{ job: { address: string | null; jobLatitude: string | null } }>(
            'GET',
            `/jobs/${id}`,
          )
        ).job
      expect(await read()).toMatchObject({ address: 'Unit 2, Canal Yard, Salford M5 4WT', jobLatitude: null })

      await page.getByRole('button', { name: 'Edit' }).click()
      const edit = page.getByRole('dialog', { name: 'Edit Shutter repair' })
      const editAddress = edit.getByRole('combobox', { name: /^Address/ })
      expect(await editAddress.inputValue()).toBe('Unit 2, Canal Yard, Salford M5 4WT')
      await editAddress.fill('   ')
      await edit.getByRole('button', { name: 'Save job' }).click()
      await edit.waitFor({ state: 'hidden' })
      await place.getByText('At the customer', { exact: true }).waitFor()
      await place.getByText(/^7 Dock Road, Salford M5 3AA/).waitFor()
      expect(await page.getByText('Unit 2, Canal Yard').count()).toBe(0)
      expect((await read()).address).toBeNull()
    })
  })
}
