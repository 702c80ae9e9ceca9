// The board's week view in a real browser on a real server: Wes works Monday to Friday, Megan too but
// is on holiday Tuesday and Wednesday. The week shows the holiday greyed with its reason, each day's
// jobs and capacity, and the unassigned jobs due; a job dragged from Monday to Tuesday (and on with
// the keyboard) is re-assigned a day later at the same time; a move the server refuses is said in a
// toast and put back; a day header opens the day board, where Megan's row is greyed and takes no drop.
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { makeUser } from '../factories.js'
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

// A Monday; Europe/London is on UTC in December, so local times read as UTC.
const MONDAY = '2026-12-07'
const TUESDAY = '2026-12-08'
const WEDNESDAY = '2026-12-09'
const at = (date: string, hhmm: string) => `${date}T${hhmm}:00.000Z`
const WEEKDAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'] as const

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

interface Job {
  id: string
  status: string
  assignedUserId: string | null
  shiftId: string | null
  scheduledStart: string | null
  scheduledEnd: string | null
}

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: the board's week`, () => {
    let server: DashboardServer
    let acme: Organisation
    let api: AdminApi
    let watched: WatchedPage
    let page: Page
    let depotId = ''
    const wesShifts: Record<string, string> = {}
    const jobs: Record<string, string> = {}
    const weekPath = () => `/board/week?start=${MONDAY}&location=${depotId}`
    const readJob = async (title: string) => (await api<{ job: Job }>('GET', `/jobs/${jobs[title]}`)).job

    beforeAll(async () => {
      server = await startDashboard(dialect)
      acme = await createOrganisationWithTeam(server)
      api = await adminApi(server, acme.id)
      const megan = await makeUser(server.database.db, acme.id, { name: 'Megan Price' })
      const { location } = await api<{ location: { id: string } }>('POST', '/locations', {
        name: 'Salford',
        code: 'SAL',
        latitude: 53.48,
        longitude: -2.24,
        timezone: 'Europe/London',
        isPrimary: true,
      })
      depotId = location.id
      for (const [userId, van] of [
        [acme.worker.id, 'Van 7'],
        [megan.id, 'Van 2'],
      ] as const) {
        const { vehicle } = await api<{ vehicle: { id: string } }>('POST', '/vehicles', {
          name: van,
          locationId: depotId,
        })
        for (const day of WEEKDAYS) {
          const { shift } = await api<{ shift: { id: string } }>('POST', '/shifts', {
            userId,
            locationId: depotId,
            vehicleId: vehicle.id,
            day,
            startTime: '08:00',
            endTime: '16:00',
          })
          if (userId === acme.worker.id) wesShifts[day] = shift.id
        }
      }
      await api('POST', `/team/users/${megan.id}/absences`, {
        startDate: TUESDAY,
        endDate: WEDNESDAY,
        reason: 'HOLIDAY',
        note: 'Family holiday',
      })
      const job = async (title: string, body: Record<string, unknown> = {}) => {
        const { job: created } = await api<{ job: { id: string } }>('POST', '/jobs', {
          title,
          serviceDuration: 3600,
          locationId: depotId,
          ...body,
        })
        jobs[title] = created.id
      }
      await job('Boiler service')
      await api('POST', `/jobs/${jobs['Boiler service']}/assign`, {
        userId: acme.worker.id,
        shiftId: wesShifts.MONDAY,
        scheduledStart: at(MONDAY, '09:00'),
        scheduledEnd: at(MONDAY, '10:00'),
      })
      // Due Monday, inside a HARD window: anywhere else that week is refused.
      await job('Gas safety check', {
        earliestStart: at(MONDAY, '08:00'),
        latestEnd: at(MONDAY, '12:00'),
        timeWindowType: 'HARD',
      })
      await job('Fence repair', { latestEnd: at('2026-12-11', '16:00') })
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

    const day = (worker: string, longDate: string) =>
      page.getByRole('group', { name: new RegExp(`^${worker}, ${longDate}:`) })
    const due = () => page.getByRole('region', { name: /^Due this week/ })

    /** Drags with the mouse, in small steps (dnd-kit starts a drag after 6 px), onto the middle of `target`. */
    async function dragOnto(item: Locator, target: Locator) {
      const box = await item.boundingBox()
      const goal = await target.boundingBox()
      if (!box || !goal) throw new Error('not on the page')
      await page.mouse.move(box.x + 10, box.y + box.height / 2)
      await page.mouse.down()
      await page.mouse.move(goal.x + goal.width / 2, goal.y + goal.height / 2, { steps: 20 })
      await page.mouse.up()
    }

    it('shows workers × days: jobs, capacity, the holiday greyed with its reason, and the jobs due', async () => {
      await signIn(page, acme.dispatcher, weekPath())
      await page.getByRole('heading', { name: 'Dispatch board', level: 1 }).waitFor()
      await page
        .getByText('Salford · Monday 7 December – Sunday 13 December · times in Europe/London')
        .waitFor()
      expect(
        await page
          .getByRole('navigation', { name: 'Board view' })
          .getByRole('link', { name: 'Week' })
          .getAttribute('aria-current'),
      ).toBe('page')
      // The sidebar's board link stays current on the week view (it is the same board).
      expect(
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Dispatch board' })
          .getAttribute('aria-current'),
      ).toBe('page')
      await day('Wes Worker', 'Monday 7 December')
        .getByRole('button', { name: /^09:00 Boiler service, Assigned until 10:00/ })
        .waitFor()
      await day('Wes Worker', 'Monday 7 December').getByText('1 h of 8 h').waitFor()
      await day('Megan Price', 'Tuesday 8 December').getByText('Holiday', { exact: true }).waitFor()
      expect(await day('Megan Price', 'Tuesday 8 December').getAttribute('aria-label')).toBe(
        'Megan Price, Tuesday 8 December: Holiday (Family holiday)',
      )
      await day('Megan Price', 'Wednesday 9 December').getByText('Holiday', { exact: true }).waitFor()
      await day('Megan Price', 'Thursday 10 December').getByText('0 h of 8 h').waitFor()
      await day('Wes Worker', 'Saturday 12 December').getByText('No shift').waitFor()
      for (const title of ['Gas safety check', 'Fence repair'])
        await due()
          .getByRole('button', { name: new RegExp(`^${title} `) })
          .waitFor()
      await expectAccessible(page, 'the week view')
      // That day's Assign dialog shows Megan away, with the reason, and does not offer her.
      await page.goto(`/?date=${TUESDAY}&location=${depotId}`)
      await page.getByRole('button', { name: 'Assign Fence repair' }).click()
      const away = page
        .getByRole('dialog', { name: 'Assign Fence repair' })
        .getByRole('option', { name: 'Megan Price · Van 2 — Away all day (Holiday: Family holiday)' })
      expect(await away.isDisabled()).toBe(true)
    })

    it('moves a job from Monday to Tuesday by dragging it, then on to Wednesday with the keyboard', async () => {
      await signIn(page, acme.dispatcher, weekPath())
      const boiler = () => page.getByRole('button', { name: /^\d\d:\d\d Boiler service, Assigned/ })
      await dragOnto(boiler(), day('Wes Worker', 'Tuesday 8 December'))
      await page
        .getByRole('status')
        .filter({ hasText: 'Boiler service moved to Wes Worker, Tuesday 8 December at 09:00' })
        .waitFor()
      await day('Wes Worker', 'Tuesday 8 December')
        .getByRole('button', { name: /^09:00 Boiler service, Assigned until 10:00/ })
        .waitFor()
      expect(await readJob('Boiler service')).toMatchObject({
        status: 'ASSIGNED',
        assignedUserId: acme.worker.id,
        shiftId: wesShifts.TUESDAY,
        scheduledStart: at(TUESDAY, '09:00'),
        scheduledEnd: at(TUESDAY, '10:00'),
      })
      expect(await day('Wes Worker', 'Monday 7 December').getByRole('button').count()).toBe(0)

      // Space picks it up, the right arrow moves a day, Space drops.
      await boiler().focus()
      await page.keyboard.press('Space')
      // Picked up (the overlay is drawn) before the arrow: under load the key could come first.
      await page.locator('.week-job-overlay').waitFor()
      await page.keyboard.press('ArrowRight')
      await page.getByText(`Wes Worker · Wed 9 Dec · 09:00`).waitFor()
      await page.keyboard.press('Space')
      await page
        .getByRole('status')
        .filter({ hasText: 'Boiler service moved to Wes Worker, Wednesday 9 December at 09:00' })
        .waitFor()
      await expect
        .poll(async () => (await readJob('Boiler service')).scheduledStart)
        .toBe(at(WEDNESDAY, '09:00'))
    })

    it('checks a move while dragging, refuses a HARD problem unsent, and undoes a move; a day away takes no drop', async () => {
      await signIn(page, acme.dispatcher, weekPath())
      const gas = () => due().getByRole('button', { name: /^Gas safety check / })
      // Thursday is outside the job's HARD window: while dragging the card turns red with the reason
      // (the server's check), and the drop is not sent.
      const item = await gas().boundingBox()
      const thursday = await day('Wes Worker', 'Thursday 10 December').boundingBox()
      if (!item || !thursday) throw new Error('not on the page')
      await page.mouse.move(item.x + 10, item.y + item.height / 2)
      await page.mouse.down()
      await page.mouse.move(thursday.x + thursday.width / 2, thursday.y + thursday.height / 2, { steps: 20 })
      await page
        .locator('.week-job-overlay[data-verdict="hard"]')
        .filter({ hasText: 'The window 2026-12-07 08:00–12:00 must be kept' })
        .waitFor()
      await page.mouse.up()
      await page
        .getByRole('status')
        .filter({
          hasText: /^Gas safety check was not moved: The window 2026-12-07 08:00–12:00 must be kept/,
        })
        .waitFor()
      await gas().waitFor()
      expect(
        await page
          .getByRole('status')
          .filter({ hasText: /Gas safety check (moved|assigned)/ })
          .count(),
      ).toBe(0)
      expect(await readJob('Gas safety check')).toMatchObject({ status: 'CREATED', scheduledStart: null })

      // Megan's holiday is no drop target: nothing is sent.
      await dragOnto(
        due().getByRole('button', { name: /^Fence repair / }),
        day('Megan Price', 'Tuesday 8 December'),
      )
      await due()
        .getByRole('button', { name: /^Fence repair / })
        .waitFor()
      expect(await readJob('Fence repair')).toMatchObject({ status: 'CREATED', assignedUserId: null })

      // Dropped on Wes's Monday: inside the window at the shift's start.
      await dragOnto(gas(), day('Wes Worker', 'Monday 7 December'))
      await page
        .getByRole('status')
        .filter({ hasText: 'Gas safety check assigned to Wes Worker, Monday 7 December at 08:00' })
        .waitFor()
      expect(await readJob('Gas safety check')).toMatchObject({
        status: 'ASSIGNED',
        scheduledStart: at(MONDAY, '08:00'),
      })
      // The toast's Undo makes the inverse call: the job is waiting again, in the list.
      await page
        .getByRole('status')
        .filter({ hasText: 'Gas safety check assigned' })
        .getByRole('button', { name: 'Undo' })
        .click()
      await page
        .getByRole('status')
        .filter({ hasText: 'Undone: Gas safety check is back in the jobs due this week' })
        .waitFor()
      await gas().waitFor()
      expect(await readJob('Gas safety check')).toMatchObject({ status: 'CREATED', scheduledStart: null })
    })

    it('opens the day board from a day’s header, where the absent worker’s row is greyed and takes no drop', async () => {
      await signIn(page, acme.dispatcher, weekPath())
      await page.getByRole('link', { name: 'Tue 8 Dec — open the day board' }).click()
      await page.waitForURL(new RegExp(`date=${TUESDAY}`))
      const megan = page.getByRole('group', {
        name: /^Megan Price, Van 2 · 08:00–16:00, away: Holiday — Megan Price$/,
      })
      await megan.getByText('Holiday — Megan Price').waitFor()
      await page.getByRole('group', { name: /^Wes Worker, Van 7 · 08:00–16:00$/ }).waitFor()
      // Only Wes's row is a drop target.
      expect(await page.locator('[data-drop-track]').count()).toBe(1)
      expect(await megan.locator('[data-drop-track]').count()).toBe(0)
      await expectAccessible(page, 'the day board with an absent row')
      // And back to the week.
      await page.getByRole('navigation', { name: 'Board view' }).getByRole('link', { name: 'Week' }).click()
      await page.waitForURL(new RegExp(`/board/week\\?start=${MONDAY}`))
      await day('Megan Price', 'Tuesday 8 December').waitFor()
    })
  })
}
