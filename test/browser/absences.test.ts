// Absences and one-off shift changes in a real browser, signed in as a dispatcher: a holiday added
// from the Team page (a last day before the first refused by the API and shown beside the field,
// the note's markup shown as text), listed, and removed after a confirm; one Monday of a weekly
// shift worked 10:00–14:00 through "Change hours on a date…" on the Shifts page, then restored.
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

const DAY = 86_400_000
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10)
/** The first Monday at least a week from today (UTC; the depot is London, on UTC in winter or an hour off). */
function mondayAfterNextWeek(): string {
  let at = Date.now() + 7 * DAY
  while (new Date(at).getUTCDay() !== 1) at += DAY
  return isoDate(at)
}

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: absences and changed hours`, () => {
    let server: DashboardServer
    let acme: Organisation
    let api: AdminApi
    let watched: WatchedPage
    let page: Page
    let shiftId: string

    beforeAll(async () => {
      server = await startDashboard(dialect)
      acme = await createOrganisationWithTeam(server)
      api = await adminApi(server, acme.id)
      const { location } = await api<{ location: { id: string } }>('POST', '/locations', {
        name: 'Salford',
        code: 'SAL',
        latitude: 53.48,
        longitude: -2.24,
        timezone: 'Europe/London',
      })
      const { vehicle } = await api<{ vehicle: { id: string } }>('POST', '/vehicles', {
        name: 'Salford van',
        locationId: location.id,
      })
      const { shift } = await api<{ shift: { id: string } }>('POST', '/shifts', {
        userId: acme.worker.id,
        locationId: location.id,
        vehicleId: vehicle.id,
        day: 'MONDAY',
        startTime: '08:00',
        endTime: '16:00',
        breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
      })
      shiftId = shift.id
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

    it('adds a holiday on the Team page, lists it, and removes it after a confirm', async () => {
      const first = isoDate(Date.now() + 10 * DAY)
      const last = isoDate(Date.now() + 14 * DAY)
      await signIn(page, acme.dispatcher, '/team')
      await page.getByRole('button', { name: `Absences of ${acme.worker.name}` }).click()
      const dialog = page.getByRole('dialog', { name: `${acme.worker.name}’s absences` })
      await dialog.getByText('No absences coming up').waitFor()
      await expectAccessible(page, 'the absences dialog')

      await dialog.getByLabel('Reason').selectOption({ label: 'Holiday' })
      await dialog.getByLabel('First day').fill(last)
      await dialog.getByLabel('Last day').fill(first)
      await dialog.getByLabel('Note').fill('Family <b>visit</b>')
      await dialog.getByRole('button', { name: 'Add absence' }).click()
      // The API refuses a last day before the first and names the field: shown beside it.
      await dialog.getByText('Last day must be on or after startDate').waitFor()
      await dialog.getByLabel('First day').fill(first)
      await dialog.getByLabel('Last day').fill(last)
      await dialog.getByRole('button', { name: 'Add absence' }).click()
      await page
        .getByRole('status')
        .filter({ hasText: `Holiday added for ${acme.worker.name}` })
        .waitFor()

      const list = dialog.getByRole('list', { name: `Absences of ${acme.worker.name}` })
      await list.getByText('Family <b>visit</b>').waitFor()
      expect(await list.locator('b').count()).toBe(0)
      expect(await list.getByRole('listitem').count()).toBe(1)
      await page.screenshot({ path: join(tmpdir(), `absences-team-${dialect}.png`) })
      await expectAccessible(page, 'the absences dialog with a holiday')
      const { absences } = await api<{ absences: { startDate: string; endDate: string; reason: string }[] }>(
        'GET',
        `/team/users/${acme.worker.id}/absences`,
      )
      expect(absences).toEqual([
        expect.objectContaining({ startDate: first, endDate: last, reason: 'HOLIDAY' }),
      ])

      await list.getByRole('button', { name: /^Remove holiday / }).click()
      const confirm = page.getByRole('dialog', { name: `Remove ${acme.worker.name}’s holiday?` })
      await confirm.getByRole('button', { name: 'Remove absence' }).click()
      await page.getByRole('status').filter({ hasText: 'Absence removed' }).waitFor()
      await dialog.getByText('No absences coming up').waitFor()
      expect(
        (await api<{ absences: unknown[] }>('GET', `/team/users/${acme.worker.id}/absences`)).absences,
      ).toEqual([])
    })

    it('tells the worker in My day that they are off, with the reason', async () => {
      const date = isoDate(Date.now() + 20 * DAY)
      const { absence } = await api<{ absence: { id: string } }>(
        'POST',
        `/team/users/${acme.worker.id}/absences`,
        {
          startDate: date,
          endDate: date,
          reason: 'SICK',
          note: 'Back <i>soon</i>',
        },
      )
      await signIn(page, acme.worker, `/my?date=${date}`)
      await page.getByText('You are off this day: sick leave — Back <i>soon</i>').waitFor()
      await page.getByText('No jobs on this day').waitFor()
      await page.screenshot({ path: join(tmpdir(), `absences-my-day-${dialect}.png`) })
      await api('DELETE', `/team/users/${acme.worker.id}/absences/${absence.id}`)
    })

    it('shows part of a day away on the board row and in the Assign dialog, which still offers the row', async () => {
      const monday = mondayAfterNextWeek()
      const { absence } = await api<{ absence: { id: string } }>(
        'POST',
        `/team/users/${acme.worker.id}/absences`,
        {
          startDate: monday,
          endDate: monday,
          reason: 'TRAINING',
          startTime: '13:00',
          endTime: '15:00',
          note: 'Gas <b>safe</b>',
        },
      )
      const { job } = await api<{ job: { id: string } }>('POST', '/jobs', {
        title: 'Part-day visit',
        serviceDuration: 3600,
        jobLatitude: 53.47,
        jobLongitude: -2.25,
      })
      const away = 'Away 13:00–15:00 (Training: Gas <b>safe</b>)'
      const { locations } = await api<{ locations: { id: string; name: string }[] }>('GET', '/locations')
      const salford = locations.find((l) => l.name === 'Salford')?.id ?? ''
      await signIn(page, acme.dispatcher, `/?date=${monday}&location=${salford}`)
      const row = page.getByRole('group', { name: new RegExp(`^${acme.worker.name},`) })
      expect(await row.getAttribute('aria-label')).toContain(away)
      await row.locator('.timeline-away').getByText(away).waitFor()
      await row.locator('.timeline-label').getByText(away).waitFor()
      expect(await row.locator('b').count()).toBe(0)
      await page.screenshot({ path: join(tmpdir(), `absences-board-part-day-${dialect}.png`) })

      await page
        .getByRole('region', { name: /^Unassigned/ })
        .getByRole('button', { name: 'Assign Part-day visit' })
        .click()
      const dialog = page.getByRole('dialog', { name: 'Assign Part-day visit' })
      const option = dialog.getByRole('option', {
        name: `${acme.worker.name} · Salford van (08:00–16:00) — ${away}`,
      })
      expect(await option.isDisabled()).toBe(false)
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      await api('DELETE', `/jobs/${job.id}`)
      await api('DELETE', `/team/users/${acme.worker.id}/absences/${absence.id}`)
    })

    it('changes one Monday’s hours from the Shifts page, lists the date, and restores the pattern', async () => {
      const monday = mondayAfterNextWeek()
      await signIn(page, acme.dispatcher, '/shifts')
      await page
        .getByRole('table', { name: 'Week of shifts at Salford' })
        .getByRole('button', { name: new RegExp(`^${acme.worker.name}, Monday: 08:00–16:00`) })
        .click()
      await page.getByRole('button', { name: 'Change hours on a date…' }).click()
      const dialog = page.getByRole('dialog', { name: `Change ${acme.worker.name}’s Monday hours on a date` })
      await dialog.getByText('Every coming date follows the pattern').waitFor()
      // A Tuesday is refused beside the date before anything is sent.
      await dialog.getByLabel('Date', { exact: true }).fill(isoDate(Date.parse(monday) + DAY))
      await dialog.getByRole('button', { name: 'Save change' }).click()
      await dialog.getByText('Date must be a Monday: this shift is on Mondays').waitFor()

      await dialog.getByLabel('Date', { exact: true }).fill(monday)
      await dialog.getByLabel('Start', { exact: true }).fill('10:00')
      await dialog.getByLabel('End', { exact: true }).fill('14:00')
      await dialog.getByRole('button', { name: 'Save change' }).click()
      await page.getByRole('status').filter({ hasText: '10:00–14:00' }).waitFor()
      const list = dialog.getByRole('list', { name: 'Changed dates' })
      await list.getByText('10:00–14:00').waitFor()
      await page.screenshot({ path: join(tmpdir(), `absences-shift-date-${dialect}.png`) })
      await expectAccessible(page, 'the change-hours dialog')
      const { changes } = await api<{ changes: { date: string; startTime: string; off: boolean }[] }>(
        'GET',
        `/shifts/${shiftId}/dates`,
      )
      expect(changes).toEqual([
        expect.objectContaining({ date: monday, startTime: '10:00', endTime: '14:00', off: false }),
      ])

      await list.getByRole('button', { name: /^Restore the pattern on / }).click()
      await page
        .getByRole('dialog', { name: /^Restore the pattern on / })
        .getByRole('button', { name: 'Restore pattern' })
        .click()
      await dialog.getByText('Every coming date follows the pattern').waitFor()
      expect((await api<{ changes: unknown[] }>('GET', `/shifts/${shiftId}/dates`)).changes).toEqual([])
    })
  })
}
