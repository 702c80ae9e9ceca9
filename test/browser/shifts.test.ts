// Shifts in a real browser, signed in as a dispatcher: shifts for two weekdays added through the
// dialog (a break outside the shift refused by the API and shown next to the breaks), shown in the
// week grid and checked through the API; one edited; deleting a shift with a job planned on it is
// refused and explained, and works once the job is unassigned; another organisation's shift in the
// URL is not found.
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

interface Shift {
  id: string
  day: string
  startTime: string
  endTime: string
  vehicleId: string
  breaks: { startTime: string; endTime: string; isPaid: boolean }[]
}

/** A depot and a vehicle there, through the API. */
async function depotWithVehicle(api: AdminApi, name: string) {
  const { location } = await api<{ location: { id: string } }>('POST', '/locations', {
    name,
    code: name.slice(0, 3).toUpperCase(),
    latitude: 53.48,
    longitude: -2.24,
    timezone: 'Europe/London',
  })
  const { vehicle } = await api<{ vehicle: { id: string } }>('POST', '/vehicles', {
    name: `${name} van`,
    locationId: location.id,
  })
  return { depotId: location.id, vehicleId: vehicle.id }
}

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: Shifts`, () => {
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

    it('adds shifts for two weekdays with a break, shows them in the week grid, and edits one', async () => {
      const { depotId } = await depotWithVehicle(api, 'Salford')
      await signIn(page, acme.dispatcher, '/shifts')
      await page.getByText('No shifts at Salford yet').waitFor()
      await expectAccessible(page, 'the empty shifts page')

      await page.getByRole('button', { name: 'Add shift' }).first().click()
      const dialog = page.getByRole('dialog', { name: 'Add shift' })
      await dialog.getByLabel('Worker').selectOption({ label: acme.worker.name })
      await dialog.getByLabel('Vehicle').selectOption({ label: 'Salford van' })
      await dialog.getByText('Monday', { exact: true }).click()
      await dialog.getByText('Wednesday', { exact: true }).click()
      await dialog.getByLabel('Starts', { exact: true }).fill('08:00')
      await dialog.getByLabel('Ends', { exact: true }).fill('16:00')
      await dialog.getByRole('button', { name: 'Add break' }).click()
      await dialog.getByLabel('Break 1 starts').fill('17:00')
      await dialog.getByLabel('Break 1 ends').fill('17:30')
      await dialog.getByRole('button', { name: 'Add shift' }).click()
      // The API refuses the break outside the shift and names it.
      await dialog.getByText('Break 1 must lie within the shift (08:00–16:00)').waitFor()
      await expectAccessible(page, 'the shift dialog with an error')
      await dialog.getByLabel('Break 1 starts').fill('12:00')
      await dialog.getByLabel('Break 1 ends').fill('12:30')
      await dialog.getByRole('button', { name: 'Add shift' }).click()
      await page.getByRole('status').filter({ hasText: '2 shifts added' }).waitFor()

      const grid = page.getByRole('table', { name: 'Week of shifts at Salford' })
      const monday = grid.getByRole('button', {
        name: new RegExp(
          `^${acme.worker.name}, Monday: 08:00–16:00 Salford van .*, breaks 12:00–12:30 unpaid$`,
        ),
      })
      await monday.waitFor()
      await grid
        .getByRole('button', { name: new RegExp(`^${acme.worker.name}, Wednesday: 08:00–16:00`) })
        .waitFor()
      await grid.getByRole('button', { name: `Add a Tuesday shift for ${acme.worker.name}` }).waitFor()
      await expectAccessible(page, 'the week grid')

      const { shifts } = await api<{ shifts: Shift[] }>('GET', `/shifts?locationId=${depotId}`)
      expect(shifts.map((s) => s.day).sort()).toEqual(['MONDAY', 'WEDNESDAY'])
      for (const shift of shifts) {
        expect(shift).toMatchObject({
          startTime: '08:00',
          endTime: '16:00',
          breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
        })
      }

      const mondayShift = shifts.find((s) => s.day === 'MONDAY') as Shift
      await monday.click()
      expect(page.url()).toContain(`shift=${mondayShift.id}`)
      const edit = page.getByRole('dialog', { name: `Edit ${acme.worker.name}’s Monday shift` })
      await edit.getByLabel('Ends', { exact: true }).fill('17:00')
      await edit.getByLabel('Paid').check()
      await edit.getByRole('button', { name: 'Save shift' }).click()
      await grid
        .getByRole('button', {
          name: new RegExp(`^${acme.worker.name}, Monday: 08:00–17:00 .*, breaks 12:00–12:30 paid$`),
        })
        .waitFor()
      const { shift } = await api<{ shift: Shift }>('GET', `/shifts/${mondayShift.id}`)
      expect(shift).toMatchObject({ endTime: '17:00', breaks: [{ startTime: '12:00', isPaid: true }] })
    })

    it('explains why a shift with a job on it cannot be deleted, and deletes it once the job is off it', async () => {
      const other = await createOrganisationWithTeam(server)
      const otherApi = await adminApi(server, other.id)
      const { depotId, vehicleId } = await depotWithVehicle(otherApi, 'Bolton')
      const { shift } = await otherApi<{ shift: Shift }>('POST', '/shifts', {
        userId: other.worker.id,
        locationId: depotId,
        vehicleId,
        day: 'FRIDAY',
        startTime: '09:00',
        endTime: '15:00',
      })
      const { job } = await otherApi<{ job: { id: string } }>('POST', '/jobs', { title: 'Boiler service' })
      await otherApi('POST', `/jobs/${job.id}/assign`, {
        userId: other.worker.id,
        shiftId: shift.id,
        scheduledStart: '2026-11-27T10:00:00Z',
        scheduledEnd: '2026-11-27T11:00:00Z',
      })

      await signIn(page, other.dispatcher, `/shifts?shift=${shift.id}`)
      const edit = page.getByRole('dialog', { name: `Edit ${other.worker.name}’s Friday shift` })
      await edit.getByRole('button', { name: 'Delete shift' }).click()
      const confirm = page.getByRole('dialog', { name: `Delete ${other.worker.name}’s Friday shift?` })
      await confirm.getByRole('button', { name: 'Delete shift' }).click()
      await confirm.getByText('Jobs are still planned on this shift.', { exact: false }).waitFor()
      await expectAccessible(page, 'a refused shift deletion')
      expect((await otherApi.raw('GET', `/shifts/${shift.id}`)).status).toBe(200)

      await otherApi('POST', `/jobs/${job.id}/unassign`)
      await confirm.getByRole('button', { name: 'Delete shift' }).click()
      await page.getByRole('status').filter({ hasText: 'Shift deleted' }).waitFor()
      await page.getByText('No shifts at Bolton yet').waitFor()
      expect((await otherApi.raw('GET', `/shifts/${shift.id}`)).status).toBe(404)
    })

    it('treats another organisation’s shift as not found', async () => {
      const other = await createOrganisationWithTeam(server)
      const otherApi = await adminApi(server, other.id)
      const { depotId, vehicleId } = await depotWithVehicle(otherApi, 'Wigan')
      const { shift } = await otherApi<{ shift: Shift }>('POST', '/shifts', {
        userId: other.worker.id,
        locationId: depotId,
        vehicleId,
        day: 'MONDAY',
        startTime: '09:00',
        endTime: '15:00',
      })
      await api('POST', '/locations', {
        name: 'Ours',
        code: 'OUR',
        latitude: 53,
        longitude: -2,
        timezone: 'Europe/London',
      })
      await signIn(page, acme.dispatcher, `/shifts?shift=${shift.id}`)
      await page
        .getByRole('dialog', { name: 'Edit shift' })
        .getByRole('alert')
        .getByText('Shift not found')
        .waitFor()
      await expectAccessible(page, 'a shift that is not found')
    })
  })
}
