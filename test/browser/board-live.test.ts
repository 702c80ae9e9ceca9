// The dispatcher's live view of today on the board, in a real browser on both databases, the
// server's clock (its Clock) and the browser's (page.clock) both fixed at 12:45 on a Monday:
// - a worker whose phone sent a position 2 minutes ago is on the map with its age, one of 45 minutes
//   ago faded;
// - Ben's job in progress since 10:30 has overrun: his next stop's HARD window can no longer be kept
//   ("Late") and the one after will start near the end of its window ("At risk"), on their blocks
//   with the ETA, and in the banner over the board;
// - a worker's name reaches Leaflet as text, never as markup;
// - Re-plan rest of day from the banner lists the changes and applying them changes the board.
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { recordPositions } from '../../src/modules/live/service.js'
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
// docs/screenshots/board-live.png is retaken with SCREENSHOT_DIR=docs/screenshots (a plain run leaves
// the checkout as it is).
const SCREENSHOT = `${process.env.SCREENSHOT_DIR ?? '/tmp'}/board-live.png`

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: the live board`, () => {
    let server: DashboardServer
    let acme: Organisation
    let watched: WatchedPage
    let page: Page
    let depot: { id: string }

    beforeAll(async () => {
      server = await startDashboard(dialect, { planWorkers: 1, clock: () => NOW })
      acme = await createOrganisationWithTeam(server)
      const db = server.database.db
      depot = await makeLocation(db, acme.id, {
        name: 'Salford Depot',
        timezone: 'Europe/London',
        isPrimary: true,
      })
      const workers: Record<string, { userId: string; shiftId: string }> = {}
      for (const name of ['Ana Lopez', 'Ben Carter']) {
        const user = await makeUser(db, acme.id, { name })
        const van = await makeVehicle(db, acme.id, depot.id, { name: `${name.split(' ')[0]}'s van` })
        const shift = await makeShift(
          db,
          acme.id,
          { userId: user.id, locationId: depot.id, vehicleId: van.id },
          { day: 'MONDAY', startTime: '08:00', endTime: '17:00', breaks: [] },
        )
        workers[name] = { userId: user.id, shiftId: shift.id }
      }
      const ana = workers['Ana Lopez']!
      const ben = workers['Ben Carter']!
      // A few hundred metres apart: travel is minutes, the overrun is what makes stops late.
      const job = async (title: string, i: number, window: { from: string; to: string }, minutes = 30) => {
        const created = await callApi(server, acme.key, 'POST', '/v1/public/jobs', {
          title,
          serviceDuration: minutes * 60,
          jobLatitude: 53.47 + i * 0.004,
          jobLongitude: -2.29 + i * 0.004,
          earliestStart: at(window.from),
          latestEnd: at(window.to),
        })
        expect(created.status).toBe(201)
        return (created.body as { data: { job: { id: string } } }).data.job.id
      }
      const assign = (id: string, worker: { userId: string; shiftId: string }, from: string, to: string) =>
        setJobState(db, acme.id, id, {
          status: 'ASSIGNED',
          assignedUserId: worker.userId,
          shiftId: worker.shiftId,
          scheduledStart: at(from),
          scheduledEnd: at(to),
        })
      // Ben's boiler job was to take an hour from 10:30; at 12:45 it is still under way.
      const boiler = await job('Boiler breakdown', 0, { from: '08:00', to: '17:00' }, 60)
      await setJobState(db, acme.id, boiler, {
        status: 'IN_PROGRESS',
        assignedUserId: ben.userId,
        shiftId: ben.shiftId,
        scheduledStart: at('10:30'),
        scheduledEnd: at('11:30'),
        startedAt: at('10:30'),
      })
      // Must end by 13:10: starting after 12:45, 45 minutes on site cannot → Late.
      await assign(await job('Gas leak check', 1, { from: '08:00', to: '13:10' }, 45), ben, '11:30', '12:30')
      // Must end by 14:45 (start by 13:45): after the gas leak it starts around 13:35 → At risk.
      await assign(await job('Tap repair', 2, { from: '08:00', to: '14:45' }, 60), ben, '12:45', '13:45')
      await assign(await job('Radiator bleed', 3, { from: '08:00', to: '17:00' }, 60), ana, '14:00', '15:00')
      await recordPositions(
        db,
        acme.id,
        ana.userId,
        [{ latitude: 53.472, longitude: -2.286, recordedAt: at('12:43') }],
        NOW,
      )
      await recordPositions(
        db,
        acme.id,
        ben.userId,
        [{ latitude: 53.479, longitude: -2.272, recordedAt: at('12:00') }],
        NOW,
      )
    })
    afterAll(async () => {
      await server?.close()
    })
    beforeEach(async () => {
      watched = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 } })
      page = watched.page
      await page.clock.setFixedTime(NOW)
    })
    afterEach(async () => {
      await page.context().close()
      expect(watched.problems).toEqual([])
    })

    const openBoard = async () => {
      await signIn(page, acme.dispatcher, `/?location=${depot.id}`)
      await page.getByRole('heading', { name: 'Dispatch board', level: 1 }).waitFor()
      await page.getByRole('region', { name: 'Shifts and their jobs' }).waitFor()
    }
    const row = (name: string) => page.getByRole('group', { name: new RegExp(`^${name},`) })
    const banner = () => page.getByRole('region', { name: 'Stops at risk' })

    it('shows where each worker was last seen, the forecast on the blocks and the stops at risk', async () => {
      await openBoard()
      await banner().getByText('1 stop at risk, 1 late').waitFor()

      const ben = row('Ben Carter')
      const late = ben.getByRole('button', { name: /^Late: Gas leak check, ETA \d\d:\d\d, Assigned, / })
      await late.getByText('Late', { exact: true }).waitFor()
      const atRisk = ben.getByRole('button', { name: /^At risk: Tap repair, ETA \d\d:\d\d, Assigned, / })
      await atRisk.getByText('At risk', { exact: true }).waitFor()
      // After the gas leak (12:45 + travel + 45 min), within 15 minutes of its latest start, 13:45.
      expect(await atRisk.getAttribute('aria-label')).toMatch(/^At risk: Tap repair, ETA 13:(3\d|4[0-5]),/)
      // On time: the ETA, no badge.
      const onTime = row('Ana Lopez').getByRole('button', {
        name: /^Radiator bleed, ETA \d\d:\d\d, Assigned, /,
      })
      await onTime.getByText(/ETA \d\d:\d\d/).waitFor()
      // The row header: the route's forecast end (within the shift: no overtime).
      await ben.getByText(/^Ends ~\d\d:\d\d$/).waitFor()

      // The map: a fresh position with its age, a stale one faded.
      const map = page.getByRole('region', { name: 'Map' })
      const fresh = map.getByTitle('Ana Lopez: last seen 2 min ago')
      await fresh.waitFor()
      expect(await fresh.textContent()).toBe('Ana Lopez · 2 min ago')
      const stale = map.getByTitle('Ben Carter: last seen 45 min ago (not recent)')
      expect(
        await stale.evaluate(
          (element) => (element as unknown as { style: { opacity: string } }).style.opacity,
        ),
      ).toBe('0.55')

      // The job sheet: the forecast in words.
      await atRisk.click()
      const sheet = page.getByRole('dialog', { name: 'Tap repair' })
      await sheet.getByText('Expected start').waitFor()
      await sheet.getByText('At risk', { exact: true }).waitFor()
      await expectAccessible(page, 'the job sheet with its forecast')
      await page.screenshot({
        path: `${process.env.SCREENSHOT_DIR ?? '/tmp'}/board-live-sheet-${dialect}.png`,
      })
      await page.keyboard.press('Escape')
      await sheet.waitFor({ state: 'detached' })

      await expectAccessible(page, 'the live board')
      if (dialect === BROWSER_DIALECTS[0]) await page.screenshot({ path: SCREENSHOT })
    })

    it('draws a worker named with markup as text on the map', async () => {
      const db = server.database.db
      const name = '<img data-planted="1" src="x"><b data-planted="2">Cy</b>'
      const user = await makeUser(db, acme.id, { name })
      const van = await makeVehicle(db, acme.id, depot.id, { name: 'Spare van' })
      const shift = await makeShift(
        db,
        acme.id,
        { userId: user.id, locationId: depot.id, vehicleId: van.id },
        { day: 'MONDAY', startTime: '12:00', endTime: '13:00', breaks: [] },
      )
      await recordPositions(
        db,
        acme.id,
        user.id,
        [{ latitude: 53.475, longitude: -2.28, recordedAt: at('12:40') }],
        NOW,
      )
      try {
        await openBoard()
        const marker = page.getByRole('region', { name: 'Map' }).getByTitle(`${name}: last seen 5 min ago`)
        expect(await marker.textContent()).toBe(`${name} · 5 min ago`)
        expect(await page.locator('[data-planted]').count()).toBe(0)
      } finally {
        // The other tests' day stays as it was.
        await db.deleteFrom('shifts').where('id', '=', shift.id).execute()
      }
    })

    it('re-plans the rest of the day from the banner: the changes, then the board after them', async () => {
      await openBoard()
      const open = banner().getByRole('button', { name: 'Re-plan rest of day' })
      await open.click()
      const dialog = page.getByRole('dialog', { name: 'Re-plan rest of day' })
      await dialog.getByLabel('Changes to the day').waitFor()
      // Escape closes it, focus goes back to the banner's button.
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })
      const focused = () => open.evaluate((element) => element === element.ownerDocument.activeElement)
      await expect.poll(focused).toBe(true)

      await page.keyboard.press('Enter')
      await dialog.getByLabel('Changes to the day').selectOption({ label: 'Re-plan freely' })
      await dialog.getByLabel('Time limit').selectOption('1')
      await expectAccessible(page, 'the re-plan dialog')
      await dialog.getByRole('button', { name: 'Re-plan' }).click()
      const heading = dialog.getByRole('heading', { name: /^Changes \((\d+)/ })
      await heading.waitFor(PLAN_TIMEOUT)
      const changes = dialog.getByRole('list', { name: 'What the plan changes' }).getByRole('listitem')
      const lines = await changes.allTextContents()
      expect(lines.length).toBeGreaterThan(0)
      await expectAccessible(page, 'the re-plan preview')
      await page.screenshot({ path: `${process.env.SCREENSHOT_DIR ?? '/tmp'}/board-replan-${dialect}.png` })

      await dialog.getByRole('button', { name: 'Apply changes' }).click()
      await page.getByRole('status').filter({ hasText: 'Rest of day re-planned' }).waitFor()
      await dialog.waitFor({ state: 'detached' })
      // Each change is on the board now: the job on its new worker's row at its new time, or waiting.
      for (const line of lines) {
        const [, title, to] = line.match(/^(.+?): .* → (.+)$/) ?? []
        expect(title, line).toBeTruthy()
        const moved = to?.match(/^(Ana Lopez|Ben Carter) (\d\d:\d\d)$/)
        if (moved) {
          await row(moved[1]!)
            .getByRole('button', { name: new RegExp(`^(.*: )?${title}, (ETA .*, )?Assigned, ${moved[2]}–`) })
            .waitFor()
        } else {
          expect(to, line).toBe('back to waiting')
          await page
            .getByRole('region', { name: /Unassigned/ })
            .getByText(title!)
            .waitFor()
        }
      }
    })
  })
}
