// The board checks a drop before sending it and undoes the last change, in a real browser on a real
// server: a drag over a slot after the shift shows a red target with the server's reason and the drop
// is not sent (mouse and keyboard); an overtime slot shows amber and needs a second drop; the block
// then carries its overtime flag; the Assign dialog lists the same problems, wants "Assign anyway"
// for a soft one and shows the server's 422 for a hard one; the toast's Undo and Ctrl+Z make the
// inverse call, so the outbox (webhooks, the event feed) has both sides.
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { makeLocation, makeShift, makeVehicle } from '../factories.js'
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

// A Monday; Europe/London is on UTC in December, so local times read as UTC.
const DATE = '2026-12-07'
const at = (hhmm: string) => `${DATE}T${hhmm}:00.000Z`
/** Set to a folder to keep pictures of the red target and the undo toast. */
const SCREENSHOTS = process.env.BOARD_CHECK_SCREENSHOTS

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: the board's checks and undo`, () => {
    let server: DashboardServer
    let acme: Organisation
    let watched: WatchedPage
    let page: Page
    let depot: { id: string }
    let shiftId = ''
    const jobs: Record<string, string> = {}
    const boardPath = () => `/?date=${DATE}&location=${depot.id}`

    /** A one-hour job with no window (so only the shift decides). */
    const job = async (title: string) => {
      const created = await callApi(server, acme.key, 'POST', '/v1/public/jobs', {
        title,
        serviceDuration: 3600,
        jobLatitude: 53.47,
        jobLongitude: -2.25,
      })
      expect(created.status).toBe(201)
      jobs[title] = (created.body as { data: { job: { id: string } } }).data.job.id
    }
    const readJob = async (title: string) =>
      (
        (await callApi(server, acme.key, 'GET', `/v1/public/jobs/${jobs[title]}`)).body as {
          data: { job: Record<string, unknown> }
        }
      ).data.job
    /**
     * The job's JOB_ASSIGNED and JOB_UNASSIGNED events, oldest first, from the outbox the webhooks and
     * the event feed read (the feed holds the last few seconds back).
     */
    const eventsOf = async (title: string) => {
      const rows = await server.database.db
        .selectFrom('outbox_events')
        .select(['event', 'data'])
        .where('organisation_id', '=', acme.id)
        .where('event', 'in', ['JOB_ASSIGNED', 'JOB_UNASSIGNED'])
        .orderBy('occurred_at')
        .orderBy('id')
        .execute()
      return rows
        .map((row) => ({ event: row.event, data: JSON.parse(row.data) as Record<string, unknown> }))
        .filter((e) => e.data.jobId === jobs[title])
    }

    beforeAll(async () => {
      server = await startDashboard(dialect)
      acme = await createOrganisationWithTeam(server)
      const db = server.database.db
      depot = await makeLocation(db, acme.id, {
        name: 'Salford Depot',
        timezone: 'Europe/London',
        isPrimary: true,
      })
      const van = await makeVehicle(db, acme.id, depot.id, { name: 'Van 7' })
      await makeShift(
        db,
        acme.id,
        { userId: acme.worker.id, locationId: depot.id, vehicleId: van.id },
        {
          day: 'MONDAY',
          startTime: '08:00',
          endTime: '16:00',
          breaks: [{ startTime: '12:00', endTime: '12:30', isPaid: false }],
        },
      )
      shiftId = (
        await db
          .selectFrom('shifts')
          .select('id')
          .where('organisation_id', '=', acme.id)
          .executeTakeFirstOrThrow()
      ).id
      for (const title of ['Late call', 'Overtime visit', 'Fence repair', 'Dialog visit']) await job(title)
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

    const row = () => page.getByRole('group', { name: /^Wes Worker, Van 7 · 08:00–16:00/ })
    const tray = () => page.getByRole('region', { name: /^Unassigned/ })
    const toast = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text })
    const target = (verdict: 'hard' | 'soft') => page.locator(`.timeline-preview[data-verdict="${verdict}"]`)
    const picture = async (name: string) => {
      if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${dialect}-${name}.png` })
    }

    /** Two animation frames: dnd-kit and React have drawn what the last key press did. */
    const settle = () =>
      page.evaluate(() => {
        // The page's requestAnimationFrame (this file is type-checked without the DOM library).
        const frame = (globalThis as unknown as { requestAnimationFrame(callback: () => void): number })
          .requestAnimationFrame
        return new Promise<void>((done) => frame(() => frame(done)))
      })
    const press = async (key: string) => {
      await page.keyboard.press(key)
      await settle()
    }

    /** Where the left edge of an item grabbed 10 px in must go for it to start at `hhmm` (x, y). */
    async function spot(hhmm: string) {
      const [hours = '', minutes = ''] = hhmm.split(':')
      const label = (h: number) =>
        page
          .getByText(`${String(h).padStart(2, '0')}:00`, { exact: true })
          .first()
          .boundingBox()
      const from = await label(Number(hours))
      const to = await label(Number(hours) + 1)
      const track = await row().boundingBox()
      if (!from || !to || !track) throw new Error('not on the page')
      const x0 = from.x + from.width / 2
      const x1 = to.x + to.width / 2
      return { x: x0 + ((x1 - x0) * Number(minutes)) / 60 + 12, y: track.y + track.height / 2 }
    }
    /** Picks an item up with the mouse and holds it over the row at `hhmm` (dnd-kit starts after 6 px). */
    async function hold(item: Locator, hhmm: string) {
      const box = await item.boundingBox()
      if (!box) throw new Error('not on the page')
      const to = await spot(hhmm)
      await page.mouse.move(box.x + 10, box.y + box.height / 2)
      await page.mouse.down()
      await page.mouse.move(to.x, to.y, { steps: 20 })
    }
    const assignedAt = async (title: string, hhmm: string) => {
      await row()
        .getByRole('button', { name: new RegExp(`^${title}, Assigned, ${hhmm}–`) })
        .waitFor()
      expect(await readJob(title)).toMatchObject({ status: 'ASSIGNED', scheduledStart: at(hhmm) })
    }

    it('shows a red target with the reason over a slot after the shift, and does not send the drop', async () => {
      await signIn(page, acme.admin, boardPath())
      await hold(tray().getByRole('button', { name: /^Late call/ }), '16:15')
      await page.getByText('Drop at 16:15').waitFor()
      await target('hard').filter({ hasText: /shift/i }).waitFor()
      await picture('red-drop-target')
      await page.mouse.up()
      await toast(/^Late call was not assigned: .*shift/i).waitFor()
      await tray()
        .getByRole('button', { name: /^Late call/ })
        .waitFor()
      expect(await readJob('Late call')).toMatchObject({ status: 'CREATED', scheduledStart: null })
      expect(await eventsOf('Late call')).toEqual([])

      // With the keyboard: the same red target, and Space does not send it either.
      // Every such toast dismissed (under a loaded full run a second one has been seen arriving
      // after the first was dismissed; the board is noted to be looked at for it).
      for (let i = 0; i < 5 && (await toast(/^Late call was not assigned/).count()) > 0; i++) {
        await toast(/^Late call was not assigned/)
          .first()
          .getByRole('button', { name: 'Dismiss notification' })
          .click()
        await page.waitForTimeout(300)
      }
      await toast(/^Late call was not assigned/).waitFor({ state: 'detached' })
      await tray()
        .getByRole('button', { name: /^Late call/ })
        .focus()
      await press('Space')
      // Right into the hours first (the tray starts under the names), then up onto the row.
      await press('ArrowRight')
      for (let i = 0; i < 12 && (await page.getByText(/^Drop at /).count()) === 0; i++) await press('ArrowUp')
      for (let i = 0; i < 80 && (await page.getByText('Drop at 16:30').count()) === 0; i++) {
        await press('ArrowRight')
      }
      await target('hard').filter({ hasText: /shift/i }).waitFor()
      await press('Space')
      await toast(/^Late call was not assigned: .*shift/i).waitFor()
      expect(await readJob('Late call')).toMatchObject({ status: 'CREATED' })
    })

    it('moves the target with the pointer into a row it has only just entered', async () => {
      await signIn(page, acme.admin, boardPath())
      // Picked up and moved within the tray, then one pointer move onto the row: the target is drawn
      // there at once (seen on the demo: it stayed on the row left behind until the pointer moved again).
      const item = tray().getByRole('button', { name: /^Late call/ })
      const box = await item.boundingBox()
      if (!box) throw new Error('not on the page')
      await page.mouse.move(box.x + 10, box.y + box.height / 2)
      await page.mouse.down()
      await page.mouse.move(box.x + 30, box.y + box.height / 2, { steps: 5 })
      const to = await spot('16:15')
      await page.mouse.move(to.x, to.y, { steps: 1 })
      await target('hard').filter({ hasText: /shift/i }).waitFor()
      await page.keyboard.press('Escape')
    })

    it('asks for a second drop on an overtime slot, flags the block, and undoes with the toast’s Undo', async () => {
      await signIn(page, acme.admin, boardPath())
      await hold(tray().getByRole('button', { name: /^Overtime visit/ }), '15:30')
      // OVERTIME: the visit starts in the shift and ends after it.
      await target('soft')
        .filter({ hasText: /shift ends 16:00; this visit ends 16:30/ })
        .waitFor()
      await page.mouse.up()
      await toast(/drop again to confirm/).waitFor()
      expect(await readJob('Overtime visit')).toMatchObject({ status: 'CREATED' })

      // The second drop on the same slot: the target says so, and the drop is sent.
      await hold(tray().getByRole('button', { name: /^Overtime visit/ }), '15:30')
      await target('soft')
        .filter({ hasText: /drop again to confirm/ })
        .waitFor()
      await page.mouse.up()
      await toast('Overtime visit assigned to Wes Worker at 15:30').waitFor()
      expect(await toast(/drop again to confirm/).count()).toBe(0)
      await assignedAt('Overtime visit', '15:30')
      // The block's flag: in its name (and tooltip), an icon on it.
      await row()
        .getByRole('button', {
          name: /^Overtime visit, Assigned, 15:30–16:30.*Overtime: ends 16:30, 30 min after/,
        })
        .waitFor()
      await picture('undo-toast')
      await expectAccessible(page, 'the board with a flagged block and the undo toast')

      await toast('Overtime visit assigned').getByRole('button', { name: 'Undo' }).click()
      await toast('Undone: Overtime visit is back in the tray').waitFor()
      await tray()
        .getByRole('button', { name: /^Overtime visit/ })
        .waitFor()
      expect(await readJob('Overtime visit')).toMatchObject({ status: 'CREATED', assignedUserId: null })
      await expect
        .poll(async () => (await eventsOf('Overtime visit')).map((e) => e.event))
        .toEqual(['JOB_ASSIGNED', 'JOB_UNASSIGNED'])
      // The undo is not undoable: it has no Undo, and Ctrl+Z does nothing now.
      expect(await toast('Undone').getByRole('button', { name: 'Undo' }).count()).toBe(0)
      await page.keyboard.press('Control+z')
      await page.waitForTimeout(300)
      expect(await readJob('Overtime visit')).toMatchObject({ status: 'CREATED' })
    })

    it('undoes a move with Ctrl+Z, back to the previous worker, shift and times', async () => {
      await signIn(page, acme.admin, boardPath())
      // Assigned on the board first (from the tray), then moved along the row.
      await hold(tray().getByRole('button', { name: /^Fence repair/ }), '09:00')
      await page.mouse.up()
      await assignedAt('Fence repair', '09:00')
      await hold(row().getByRole('button', { name: /^Fence repair, Assigned/ }), '10:00')
      await page.mouse.up()
      await toast('Fence repair assigned to Wes Worker at 10:00').waitFor()
      await assignedAt('Fence repair', '10:00')

      // Not while a text field has the focus: Ctrl+Z is the field's own there.
      await page.getByRole('combobox', { name: 'Search jobs and customers' }).focus()
      await page.keyboard.press('Control+z')
      await page.waitForTimeout(300)
      expect(await readJob('Fence repair')).toMatchObject({ scheduledStart: at('10:00') })

      await page.getByRole('combobox', { name: 'Search jobs and customers' }).blur()
      await page.keyboard.press('Control+z')
      await toast('Undone: Fence repair is back at 09:00').waitFor()
      await assignedAt('Fence repair', '09:00')
      expect(await readJob('Fence repair')).toMatchObject({
        assignedUserId: acme.worker.id,
        shiftId,
        scheduledEnd: at('10:00'),
      })
      await expect
        .poll(async () => (await eventsOf('Fence repair')).map((e) => [e.event, e.data.scheduledStart]))
        .toEqual([
          ['JOB_ASSIGNED', at('09:00')],
          ['JOB_ASSIGNED', at('10:00')],
          ['JOB_ASSIGNED', at('09:00')],
        ])
    })

    it('lists the problems in the Assign dialog: a soft one needs "Assign anyway", a hard one the server refuses', async () => {
      await signIn(page, acme.admin, boardPath())
      await tray().getByRole('button', { name: 'Assign Dialog visit' }).click()
      const dialog = page.getByRole('dialog', { name: 'Assign Dialog visit' })
      await dialog.getByLabel('Start time').fill('15:30')
      const problems = dialog.getByRole('list', { name: 'Problems with this time' })
      await problems
        .getByRole('listitem')
        .filter({ hasText: /^Warning .*shift ends 16:00; this visit ends 16:30/ })
        .waitFor()
      const submit = dialog.getByRole('button', { name: 'Assign', exact: true })
      expect(await submit.isDisabled()).toBe(true)
      await expectAccessible(page, 'the assign dialog with a warning')
      await dialog.getByLabel(/^Assign anyway/).check()
      await submit.click()
      await dialog.waitFor({ state: 'detached' })
      await toast('Dialog visit assigned to Wes Worker at 15:30')
        .getByRole('button', { name: 'Undo' })
        .waitFor()
      await assignedAt('Dialog visit', '15:30')

      // A hard problem: listed, and the server's 422 is said as it is; no success toast.
      await tray().getByRole('button', { name: 'Assign Late call' }).click()
      const hard = page.getByRole('dialog', { name: 'Assign Late call' })
      await hard.getByLabel('Start time').fill('16:15')
      await hard
        .getByRole('list', { name: 'Problems with this time' })
        .getByRole('listitem')
        .filter({ hasText: /^Not allowed .*shift/i })
        .waitFor()
      await hard.getByRole('button', { name: 'Assign', exact: true }).click()
      await hard.getByRole('alert').filter({ hasText: /shift/i }).waitFor()
      expect(await toast('Late call assigned').count()).toBe(0)
      expect(await readJob('Late call')).toMatchObject({ status: 'CREATED' })
    })
  })
}
