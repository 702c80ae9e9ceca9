// Fleet in a real browser, signed in as a dispatcher: a depot added through its dialog (a taken code
// shown next to its field), a tag and a capacity dimension added in place, a vehicle with costs,
// capacity and that tag, then edited — each checked through the API; a vehicle made through the API
// listed and filtered by depot on the server; a vehicle in use cannot be deleted, and says why;
// another organisation's vehicle in the URL is not found.
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

interface Depot {
  id: string
  name: string
  code: string
  timezone: string
  latitude: string
  isPrimary: boolean
}
interface Vehicle {
  id: string
  name: string
  locationId: string
  fixedCost: number
  costPerKm: number
  costPerHour: number
  speedFactor: number
  endPolicy: string
  isActive: boolean
  tags: { tag: { name: string } }[]
  capacities: { capacityDimension: { key: string }; maxValue: number }[]
}

const depotBody = (name: string, code: string) => ({
  name,
  code,
  latitude: 53.48,
  longitude: -2.24,
  timezone: 'Europe/London',
})

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: Fleet`, () => {
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

    it('adds a depot, a tag, a capacity dimension and a vehicle, then edits the vehicle', async () => {
      await api('POST', '/locations', depotBody('Salford Yard', 'SAL'))
      await signIn(page, acme.dispatcher, '/fleet')
      await page.getByRole('row').filter({ hasText: 'Salford Yard' }).waitFor()
      await expectAccessible(page, 'the fleet page')

      await page.getByRole('button', { name: 'Add depot' }).click()
      const depotDialog = page.getByRole('dialog', { name: 'Add depot' })
      await depotDialog.getByLabel('Name').fill('Stockport Depot')
      await depotDialog.getByLabel('Code').fill('SAL')
      await depotDialog.getByLabel('Time zone', { exact: true }).selectOption('America/New_York')
      await depotDialog.getByLabel('Latitude').fill('53.421')
      await depotDialog.getByLabel('Longitude').fill('-2.1225')
      await depotDialog.getByRole('button', { name: 'Add depot' }).click()
      // The code is taken: the API's 409 names the field.
      await depotDialog.getByText('Code is already taken').waitFor()
      expect(await depotDialog.getByLabel('Code').getAttribute('aria-invalid')).toBe('true')
      await expectAccessible(page, 'the depot dialog with an error')
      await depotDialog.getByLabel('Code').fill('STK')
      await depotDialog.getByRole('button', { name: 'Add depot' }).click()
      await page.getByRole('row').filter({ hasText: 'Stockport Depot' }).getByText('STK').waitFor()
      const { locations } = await api<{ locations: Depot[] }>('GET', '/locations')
      const stockport = locations.find((d) => d.code === 'STK')
      expect(stockport).toMatchObject({
        name: 'Stockport Depot',
        timezone: 'America/New_York',
        latitude: '53.421',
      })

      await page.getByLabel('New tag').fill('gas-safe')
      await page.getByRole('button', { name: 'Add tag' }).click()
      await page.getByRole('list', { name: 'Tags' }).getByText('gas-safe').waitFor()
      await page.getByLabel('New dimension').fill('Weight (kg)')
      await page.getByLabel('Key', { exact: true }).fill('weight_kg')
      await page.getByRole('button', { name: 'Add dimension' }).click()
      await page.getByRole('list', { name: 'Capacity dimensions' }).getByText('Weight (kg)').waitFor()

      await page.getByRole('button', { name: 'Add vehicle' }).first().click()
      const vehicleDialog = page.getByRole('dialog', { name: 'Add vehicle' })
      await vehicleDialog.getByLabel('Name').fill('Transit MK17')
      await vehicleDialog.getByLabel('Depot', { exact: true }).selectOption({ label: 'Stockport Depot' })
      await vehicleDialog.getByLabel('Fixed cost per route').fill('45')
      await vehicleDialog.getByLabel('Cost per km').fill('0,48')
      await vehicleDialog.getByLabel('Cost per hour').fill('24')
      await vehicleDialog.getByLabel('Speed factor').fill('0.9')
      await vehicleDialog.getByLabel('At the last job').check()
      await vehicleDialog.getByLabel(/Weight \(kg\)/).fill('1000')
      await vehicleDialog.getByLabel('gas-safe').check()
      await expectAccessible(page, 'the vehicle dialog')
      await vehicleDialog.getByRole('button', { name: 'Add vehicle' }).click()
      await page.getByRole('row').filter({ hasText: 'Transit MK17' }).getByText('gas-safe').waitFor()

      const { vehicles } = await api<{ vehicles: Vehicle[] }>('GET', '/vehicles')
      expect(vehicles).toHaveLength(1)
      const [vehicle] = vehicles as [Vehicle]
      expect(vehicle).toMatchObject({
        name: 'Transit MK17',
        locationId: stockport?.id,
        fixedCost: 45,
        costPerKm: 0.48,
        costPerHour: 24,
        speedFactor: 0.9,
        endPolicy: 'END_AT_LAST_JOB',
        isActive: true,
        tags: [{ tag: { name: 'gas-safe' } }],
        capacities: [{ capacityDimension: { key: 'weight_kg' }, maxValue: 1000 }],
      })

      await page.getByRole('button', { name: 'Edit vehicle Transit MK17' }).click()
      expect(page.url()).toContain(`vehicle=${vehicle.id}`)
      const edit = page.getByRole('dialog', { name: 'Edit Transit MK17' })
      await edit.getByLabel('Speed factor').fill('11')
      await edit.getByRole('button', { name: 'Save vehicle' }).click()
      await edit.getByText(/^Speed factor must/).waitFor()
      await edit.getByLabel('Speed factor').fill('1.1')
      await edit.getByLabel('gas-safe').uncheck()
      await edit.getByLabel('In service').uncheck()
      await edit.getByRole('button', { name: 'Save vehicle' }).click()
      await page.getByRole('row').filter({ hasText: 'Transit MK17' }).getByText('Out of service').waitFor()
      const { vehicle: edited } = await api<{ vehicle: Vehicle }>('GET', `/vehicles/${vehicle.id}`)
      expect(edited).toMatchObject({ speedFactor: 1.1, isActive: false, tags: [] })
    })

    it('filters vehicles by depot on the server; a vehicle in use cannot be deleted, and says why', async () => {
      const other = await createOrganisationWithTeam(server)
      const otherApi = await adminApi(server, other.id)
      const { location: north } = await otherApi<{ location: Depot }>(
        'POST',
        '/locations',
        depotBody('North', 'N'),
      )
      const { location: south } = await otherApi<{ location: Depot }>(
        'POST',
        '/locations',
        depotBody('South', 'S'),
      )
      const { vehicle: busy } = await otherApi<{ vehicle: Vehicle }>('POST', '/vehicles', {
        name: 'North van',
        locationId: north.id,
      })
      await otherApi('POST', '/vehicles', { name: 'South van', locationId: south.id })
      await otherApi('POST', '/shifts', {
        userId: other.worker.id,
        locationId: north.id,
        vehicleId: busy.id,
        day: 'MONDAY',
        startTime: '08:00',
        endTime: '16:00',
      })

      await signIn(page, other.dispatcher, '/fleet')
      await page.getByRole('row').filter({ hasText: 'South van' }).waitFor()
      const filtered = page.waitForRequest(
        (r) => r.url().includes(`/v1/admin/vehicles?`) && r.url().includes(south.id),
      )
      await page.getByRole('combobox', { name: 'Depot' }).selectOption({ label: 'South' })
      await filtered
      await page.getByText('1–1 of 1 vehicles').waitFor()
      expect(new URL(page.url()).searchParams.get('depot')).toBe(south.id)
      expect(await page.getByRole('row').filter({ hasText: 'North van' }).count()).toBe(0)

      await page.getByRole('combobox', { name: 'Depot' }).selectOption({ label: 'Every depot' })
      await page.getByRole('button', { name: 'Delete vehicle North van' }).click()
      const confirm = page.getByRole('dialog', { name: 'Delete vehicle North van?' })
      await confirm.getByRole('button', { name: 'Delete vehicle' }).click()
      await confirm.getByText(/Vehicle is used by 1 shift/).waitFor()
      await expectAccessible(page, 'a refused deletion')
      await confirm.getByRole('button', { name: 'Cancel' }).click()
      expect((await otherApi.raw('GET', `/vehicles/${busy.id}`)).status).toBe(200)
    })

    it('treats another organisation’s vehicle as not found', async () => {
      const other = await createOrganisationWithTeam(server)
      const otherApi = await adminApi(server, other.id)
      const { location } = await otherApi<{ location: Depot }>('POST', '/locations', depotBody('Theirs', 'T'))
      const { vehicle } = await otherApi<{ vehicle: Vehicle }>('POST', '/vehicles', {
        name: 'Their van',
        locationId: location.id,
      })
      await signIn(page, acme.dispatcher, `/fleet?vehicle=${vehicle.id}`)
      await page
        .getByRole('dialog', { name: 'Edit vehicle' })
        .getByRole('alert')
        .getByText('Vehicle not found')
        .waitFor()
      await expectAccessible(page, 'a vehicle that is not found')
    })
  })
}
