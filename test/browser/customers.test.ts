// Customers in a real browser, signed in as a dispatcher: add one through the dialog (where it is asked
// for in words and focused, the API's field error next to its field, the pin placed by clicking the map) and edit it, checked through the API;
// customers made through the API listed, searched and paged on the server with the state in the URL;
// another organisation's customer in the URL is not found.
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

interface Customer {
  id: string
  name: string
  address: string
  latitude: string
  longitude: string
  serviceDuration: number
  priority: string
  operationalStart: string
}

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: Customers`, () => {
    let server: DashboardServer
    let acme: Organisation
    let api: AdminApi
    let watched: WatchedPage
    let page: Page

    beforeAll(async () => {
      server = await startDashboard(dialect)
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

    it('adds a customer with a pin and edits it, showing the API’s field error next to its field', async () => {
      await signIn(page, acme.dispatcher, '/customers')
      await page.getByText('No customers yet').waitFor()
      await expectAccessible(page, 'the empty customers page')

      await page.getByRole('button', { name: 'Add customer' }).first().click()
      const dialog = page.getByRole('dialog', { name: 'Add customer' })
      await dialog.getByLabel('Name').fill('Harbour Café')
      await dialog.getByLabel('Address').fill('1 Quay Street, Manchester')
      // No coordinates yet: the dialog says how to give them, and the focus goes to the field (below
      // the map, out of sight until then).
      await dialog.getByRole('button', { name: 'Add customer' }).click()
      await dialog
        .getByText(/^Place the pin on the map/)
        .first()
        .waitFor()
      expect(await dialog.getByLabel('Latitude').getAttribute('aria-invalid')).toBe('true')
      await expect.poll(() => page.locator(':focus').getAttribute('aria-invalid')).toBe('true')
      // There is no address lookup on this server, and the address field says so.
      await dialog.getByText('No address lookup on this service', { exact: false }).waitFor()
      await expectAccessible(page, 'the customer dialog with an error')

      // Clicking the map places the pin and fills both numbers.
      await dialog
        .getByRole('group', { name: 'Customer location map' })
        .click({ position: { x: 200, y: 120 } })
      await expect.poll(() => dialog.getByLabel('Latitude').inputValue()).toMatch(/^-?\d+\.\d+$/)
      expect(await dialog.getByLabel('Longitude').inputValue()).toMatch(/^-?\d+\.\d+$/)
      // A latitude past the pole: the API refuses it and names the field, beside it.
      await dialog.getByLabel('Latitude').fill('95')
      await dialog.getByRole('button', { name: 'Add customer' }).click()
      await dialog.getByText('Latitude must be at most 90').waitFor()
      await dialog.getByLabel('Latitude').fill('53.4794')
      await dialog.getByLabel('Longitude').fill('-2.2453')
      await dialog.getByLabel('Service time (minutes)').fill('45')
      await dialog.getByLabel('Priority').selectOption('HIGH')
      await dialog.getByLabel('Opens').fill('09:00')
      await dialog.getByRole('button', { name: 'Add customer' }).click()
      await page.getByRole('status').filter({ hasText: 'Harbour Café added' }).waitFor()

      const { customers } = await api<{ customers: Customer[] }>('GET', '/customers')
      expect(customers).toHaveLength(1)
      const [saved] = customers as [Customer]
      expect(saved).toMatchObject({
        name: 'Harbour Café',
        address: '1 Quay Street, Manchester',
        serviceDuration: 2700,
        priority: 'HIGH',
        operationalStart: '09:00',
      })
      expect(Number(saved.latitude)).toBeCloseTo(53.4794, 6)
      expect(Number(saved.longitude)).toBeCloseTo(-2.2453, 6)

      await page.getByRole('button', { name: 'Edit Harbour Café' }).click()
      await expect.poll(() => page.url()).toContain(`customer=${saved.id}`)
      const edit = page.getByRole('dialog', { name: 'Edit Harbour Café' })
      expect(await edit.getByLabel('Latitude').inputValue()).toBe('53.4794')
      // The saved pin is drawn inside the map (a rotation on the element Leaflet positions once
      // turned it about the map's corner, off the map).
      const pinInside = async () => {
        const map = await edit.locator('.pin-picker-map').boundingBox()
        const pin = await edit.locator('.pin-marker').boundingBox()
        if (!map || !pin) return false
        return (
          pin.x >= map.x &&
          pin.y >= map.y &&
          pin.x + pin.width <= map.x + map.width &&
          pin.y + pin.height <= map.y + map.height
        )
      }
      await expect.poll(pinInside).toBe(true)
      await edit.getByLabel('Name').fill('Harbour Café & Bar')
      await edit.getByRole('button', { name: 'Save customer' }).click()
      await page.getByRole('row').filter({ hasText: 'Harbour Café & Bar' }).waitFor()
      const { customer } = await api<{ customer: Customer }>('GET', `/customers/${saved.id}`)
      expect(customer.name).toBe('Harbour Café & Bar')
      // The saved name can reach the list (its query refetched) before the dialog has closed and
      // taken `customer=` out of the URL.
      await expect.poll(() => page.url()).not.toContain('customer=')
    })

    it('searches and pages on the server, keeping both in the URL', async () => {
      const other = await createOrganisationWithTeam(server)
      const otherApi = await adminApi(server, other.id)
      for (let i = 1; i <= 27; i++) {
        await otherApi('POST', '/customers', {
          name: `Customer ${String(i).padStart(2, '0')}`,
          address: i % 10 === 0 ? `${i} Harbour Road` : `${i} High Street`,
          latitude: 53.4 + i / 1000,
          longitude: -2.2,
        })
      }
      await signIn(page, other.dispatcher, '/customers')
      await page.getByText('1–25 of 27 customers').waitFor()
      await expectAccessible(page, 'the customers list')

      const second = page.waitForRequest((r) => /\/v1\/admin\/customers\?.*page=2/.test(r.url()))
      await page.getByRole('button', { name: 'Next' }).click()
      await second
      await page.getByText('26–27 of 27 customers').waitFor()
      expect(new URL(page.url()).searchParams.get('page')).toBe('2')
      // The oldest are on the last page (newest first).
      await page.getByRole('row').filter({ hasText: 'Customer 01' }).waitFor()

      const searched = page.waitForRequest((r) => /\/v1\/admin\/customers\?.*search=harbour/.test(r.url()))
      await page.getByLabel('Search', { exact: true }).fill('harbour')
      await searched
      await page.getByText('1–2 of 2 customers').waitFor()
      const url = new URL(page.url())
      expect(url.searchParams.get('q')).toBe('harbour')
      expect(url.searchParams.get('page')).toBeNull()
      expect(await page.getByRole('table', { name: 'Customers' }).getByRole('row').count()).toBe(3)

      // The URL alone brings the same view back.
      await page.goto('/customers?q=nothing-like-this')
      await page.getByText('No customer matches “nothing-like-this”').waitFor()
    })

    it('treats another organisation’s customer as not found', async () => {
      const other = await createOrganisationWithTeam(server)
      const otherApi = await adminApi(server, other.id)
      const { customer } = await otherApi<{ customer: Customer }>('POST', '/customers', {
        name: 'Not yours',
        latitude: 51,
        longitude: 0,
      })
      await signIn(page, acme.dispatcher, `/customers?customer=${customer.id}`)
      await page
        .getByRole('dialog', { name: 'Edit customer' })
        .getByRole('alert')
        .getByText('Customer not found')
        .waitFor()
      await expectAccessible(page, 'a customer that is not found')
    })
  })
}
