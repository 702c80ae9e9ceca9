// The dispatch board in a real browser on a real server: a depot with a worker's shift on a Monday,
// jobs with windows and coordinates. Rows, tray, blocks and map; assigning by mouse drag, by the
// keyboard (dnd-kit's keyboard sensor) and through the Assign dialog, with JOB_ASSIGNED delivered to
// a local webhook receiver; unassigning back to the tray; API errors shown as they are; filters;
// the organisation's map background set by an admin and used on a dispatcher's board; a dispatcher's board; another organisation's ids not found.
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createApiKey } from '../../src/modules/api-keys/service.js'
import { makeLocation, makeShift, makeTag, makeVehicle, tagJob } from '../factories.js'
import { BROWSER_DIALECTS } from '../helpers.js'
import { type Receiver, startReceiver } from '../webhook-receiver.js'
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
/** A 1×1 transparent PNG: what the fake tile server answers. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: the dispatch board`, () => {
    let server: DashboardServer
    let acme: Organisation
    let receiver: Receiver
    let watched: WatchedPage
    let page: Page
    let depot: { id: string; name: string }
    let adminKey = ''
    const jobs: Record<string, string> = {}
    const boardPath = () => `/?date=${DATE}&location=${depot.id}`

    const job = async (title: string, body: Record<string, unknown> = {}) => {
      const created = await callApi(server, acme.key, 'POST', '/v1/public/jobs', {
        title,
        serviceDuration: 3600,
        jobLatitude: 53.47,
        jobLongitude: -2.25,
        earliestStart: at('08:00'),
        latestEnd: at('16:00'),
        ...body,
      })
      expect(created.status).toBe(201)
      const id = (created.body as { data: { job: { id: string } } }).data.job.id
      jobs[title] = id
      return id
    }
    const readJob = async (title: string) =>
      (
        (await callApi(server, acme.key, 'GET', `/v1/public/jobs/${jobs[title]}`)).body as {
          data: { job: Record<string, unknown> }
        }
      ).data.job

    beforeAll(async () => {
      server = await startDashboard(dialect)
      acme = await createOrganisationWithTeam(server)
      receiver = await startReceiver()
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
      adminKey = (
        await createApiKey(db, {
          organisationId: acme.id,
          name: 'ops',
          scopes: ['admin'],
          rateLimitPerMinute: 10_000,
          expiresAt: null,
        })
      ).key
      const automation = await callApi(server, adminKey, 'POST', '/v1/admin/automations', {
        name: 'ERP: assignments',
        event: 'JOB_ASSIGNED',
        url: `${receiver.url}/assigned`,
      })
      expect(automation.status).toBe(201)
      await job('Boiler service', { priority: 'HIGH' })
      await job('Leaking tap', { serviceDuration: 1800 })
      await job('Gas safety check', {
        serviceDuration: 1800,
        earliestStart: at('08:00'),
        latestEnd: at('11:00'),
        timeWindowType: 'HARD',
      })
      await job('Fence repair')
      const tag = await makeTag(db, acme.id, 'gas-safe')
      await tagJob(db, acme.id, jobs['Gas safety check'] ?? '', tag.id)
      // Van 7 carries the gas-safe kit: the gas job may go on its shift (assignment checks SKILL_MISSING).
      const kitted = await callApi(server, adminKey, 'PATCH', `/v1/admin/vehicles/${van.id}`, {
        tagIds: [tag.id],
      })
      expect(kitted.status).toBe(200)
      const assigned = await callApi(
        server,
        adminKey,
        'POST',
        `/v1/admin/jobs/${jobs['Fence repair']}/assign`,
        {
          userId: acme.worker.id,
          scheduledStart: at('09:00'),
          scheduledEnd: at('10:00'),
          shiftId: (
            await db
              .selectFrom('shifts')
              .select('id')
              .where('organisation_id', '=', acme.id)
              .executeTakeFirstOrThrow()
          ).id,
        },
      )
      expect(assigned.status).toBe(200)
      await receiver.waitFor(1)
    })
    afterAll(async () => {
      await receiver?.close()
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

    const row = () =>
      page.getByRole('group', { name: /^Wes Worker, Van 7 · 08:00–16:00, break 12:00–12:30$/ })
    const tray = () => page.getByRole('region', { name: /^Unassigned/ })
    const assignedAt = async (title: string, hhmm: string) => {
      await row()
        .getByRole('button', { name: new RegExp(`^${title}, Assigned, ${hhmm}–`) })
        .waitFor()
      const read = await readJob(title)
      expect(read).toMatchObject({
        status: 'ASSIGNED',
        assignedUserId: acme.worker.id,
        scheduledStart: at(hhmm),
      })
    }
    const deliveredFor = async (title: string, count: number) => {
      await server.app.webhooks.dispatcher.drain()
      await expect
        .poll(
          () =>
            receiver.received.filter(
              (r) => r.json?.event === 'JOB_ASSIGNED' && r.json.data.jobId === jobs[title],
            ).length,
        )
        .toBe(count)
    }

    /** Two animation frames: dnd-kit and React have drawn what the last key press did. */
    const settle = () =>
      page.evaluate(() => {
        // The page's requestAnimationFrame (this file is type-checked without the DOM library).
        const frame = (globalThis as unknown as { requestAnimationFrame(callback: () => void): number })
          .requestAnimationFrame
        return new Promise<void>((done) => frame(() => frame(done)))
      })
    const press = async (key: string, times = 1) => {
      for (let i = 0; i < times; i++) {
        await page.keyboard.press(key)
        await settle()
      }
    }

    /** Drags with the mouse, in small steps (dnd-kit starts a drag after 6 px), the item's left edge to `hhmm`. */
    async function dragTo(item: ReturnType<Page['getByRole']>, hhmm: string) {
      const box = await item.boundingBox()
      const hour = await page.getByText(hhmm, { exact: true }).first().boundingBox()
      const target = await row().boundingBox()
      if (!box || !hour || !target) throw new Error('not on the page')
      const grab = { x: box.x + 10, y: box.y + box.height / 2 }
      await page.mouse.move(grab.x, grab.y)
      await page.mouse.down()
      // The hour label is centred on its hour; the item keeps the 10 px offset it was grabbed at.
      await page.mouse.move(hour.x + hour.width / 2 + 12, target.y + target.height / 2, { steps: 20 })
      await page.mouse.up()
    }

    it('shows the rows, breaks, blocks, tray and map, and assigns a job by dragging it onto a row', async () => {
      await signIn(page, acme.admin, boardPath())
      await page.getByRole('heading', { name: 'Dispatch board', level: 1 }).waitFor()
      await page.getByText('Salford Depot · Monday, 7 December 2026 · times in Europe/London').waitFor()
      await row()
        .getByRole('button', { name: /^Fence repair, Assigned, 09:00–10:00/ })
        .waitFor()
      for (const title of ['Boiler service', 'Leaking tap', 'Gas safety check'])
        await tray()
          .getByRole('button', { name: new RegExp(`^${title}`) })
          .waitFor()
      expect(await tray().getByRole('heading').textContent()).toBe('Unassigned (3)')
      // Not today: no current-time line.
      expect(await page.getByText(/^Now \d\d:\d\d$/).count()).toBe(0)
      const map = page.getByRole('region', { name: 'Map' })
      await map.getByTitle('Depot: Salford Depot').waitFor()
      await map.getByTitle('Boiler service (Unassigned)').waitFor()
      await map.getByTitle('Fence repair (Assigned)').waitFor()
      // Zoomed to the depot and its jobs, not the whole world.
      await expect
        .poll(() => map.getByRole('button', { name: 'Zoom out' }).getAttribute('aria-disabled'))
        .toBe('false')
      await expectAccessible(page, 'the dispatch board')

      await dragTo(tray().getByRole('button', { name: /^Boiler service/ }), '11:00')
      await page
        .getByRole('status')
        .filter({ hasText: 'Boiler service assigned to Wes Worker at 11:00' })
        .waitFor()
      await assignedAt('Boiler service', '11:00')
      expect(await readJob('Boiler service')).toMatchObject({ scheduledEnd: at('12:00') })
      await tray().getByRole('heading', { name: 'Unassigned (2)' }).waitFor()
      await map.getByTitle('Boiler service (Assigned)').waitFor()
      await deliveredFor('Boiler service', 1)

      // Dragged along its row: re-scheduled, and delivered again.
      await dragTo(row().getByRole('button', { name: /^Boiler service, Assigned/ }), '13:00')
      await assignedAt('Boiler service', '13:00')
      await deliveredFor('Boiler service', 2)
    })

    it('assigns with the keyboard (the Assign dialog and Space + arrows), shows API errors, and unassigns', async () => {
      await signIn(page, acme.admin, boardPath())
      // The dialog: a HARD window the API refuses (422), said plainly, then a time inside it.
      await tray().getByRole('button', { name: 'Assign Gas safety check' }).click()
      const dialog = page.getByRole('dialog', { name: 'Assign Gas safety check' })
      await dialog
        .getByLabel('Worker and vehicle')
        .selectOption({ label: 'Wes Worker · Van 7 (08:00–16:00)' })
      await dialog.getByLabel('Start time').fill('14:00')
      await dialog.getByRole('button', { name: 'Assign', exact: true }).click()
      await dialog
        .getByRole('alert')
        .filter({ hasText: /HARD time window/ })
        .waitFor()
      await expectAccessible(page, 'the assign dialog with an error')
      await dialog.getByLabel('Start time').fill('08:30')
      await dialog.getByRole('button', { name: 'Assign', exact: true }).click()
      await dialog.waitFor({ state: 'detached' })
      await assignedAt('Gas safety check', '08:30')
      await deliveredFor('Gas safety check', 1)

      // dnd-kit's keyboard sensor: Space picks up, an arrow moves a quarter hour, Space drops.
      const block = row().getByRole('button', { name: /^Gas safety check, Assigned/ })
      await block.focus()
      await press('Space')
      await press('ArrowRight', 6)
      await page.getByText('Drop at 10:00').waitFor()
      await page.keyboard.press('Space')
      await assignedAt('Gas safety check', '10:00')
      await deliveredFor('Gas safety check', 2)

      // From the tray with the keyboard: up into the row, right to the time.
      const tap = tray().getByRole('button', { name: /^Leaking tap/ })
      await tap.focus()
      await page.keyboard.press('Space')
      // Right into the hours first (the tray starts under the names), then up onto the row.
      await press('ArrowRight', 14)
      for (let i = 0; i < 12 && (await page.getByText(/^Drop at /).count()) === 0; i++) await press('ArrowUp')
      for (let i = 0; i < 64 && (await page.getByText('Drop at 14:00').count()) === 0; i++)
        await press('ArrowRight')
      await press('Space')
      await assignedAt('Leaking tap', '14:00')

      // Enter opens the job; Unassign takes it back to the tray.
      await row()
        .getByRole('button', { name: /^Leaking tap, Assigned/ })
        .focus()
      await page.keyboard.press('Enter')
      const sheet = page.getByRole('dialog', { name: 'Leaking tap' })
      await sheet.getByText('Wes Worker · Van 7').waitFor()
      await expectAccessible(page, 'the job sheet')
      await sheet.getByRole('button', { name: 'Unassign' }).click()
      await page.getByRole('status').filter({ hasText: 'Leaking tap unassigned' }).waitFor()
      await tray()
        .getByRole('button', { name: /^Leaking tap/ })
        .waitFor()
      expect(await readJob('Leaking tap')).toMatchObject({ status: 'CREATED', scheduledStart: null })
    })

    it('unassigns a job dragged back to the tray, and filters by status, priority and tag', async () => {
      await signIn(page, acme.admin, boardPath())
      const fence = row().getByRole('button', { name: /^Fence repair, Assigned/ })
      const box = await fence.boundingBox()
      const target = await tray().boundingBox()
      if (!box || !target) throw new Error('not on the page')
      await page.mouse.move(box.x + 5, box.y + box.height / 2)
      await page.mouse.down()
      await page.mouse.move(target.x + 40, target.y + 60, { steps: 20 })
      await page.mouse.up()
      await page.getByRole('status').filter({ hasText: 'Fence repair unassigned' }).waitFor()
      await tray()
        .getByRole('button', { name: /^Fence repair/ })
        .waitFor()
      expect(await readJob('Fence repair')).toMatchObject({ status: 'CREATED', assignedUserId: null })

      await page.getByLabel('Priority', { exact: true }).selectOption('HIGH')
      await page.waitForURL(/priority=HIGH/)
      await tray()
        .getByRole('heading', { name: /Unassigned \(0 of/ })
        .waitFor()
      await row()
        .getByRole('button', { name: /^Boiler service/ })
        .waitFor()
      await expect.poll(() => row().getByRole('button').count()).toBe(1)
      // Two changes before React renders again (one task: a quick user, a loaded machine): both apply.
      const clear = await page.getByRole('button', { name: 'Clear filters' }).elementHandle()
      const tag = await page.getByLabel('Tag', { exact: true }).elementHandle()
      await page.evaluate(
        ([button, select]) => {
          // The page's own elements and Event (this file is type-checked without the DOM library).
          type Select = { options: ArrayLike<{ text: string; value: string }>; value: string }
          const events = globalThis as unknown as { Event: new (type: string, init: object) => object }
          ;(button as unknown as { click(): void }).click()
          const tags = select as unknown as Select & { dispatchEvent(event: object): boolean }
          tags.value = Array.from(tags.options).find((option) => option.text === 'gas-safe')?.value ?? ''
          tags.dispatchEvent(new events.Event('change', { bubbles: true }))
        },
        [clear, tag] as const,
      )
      await page.waitForURL((url) => url.searchParams.has('tag') && !url.searchParams.has('priority'))
      await row()
        .getByRole('button', { name: /^Gas safety check/ })
        .waitFor()
      await expect.poll(() => row().getByRole('button').count()).toBe(1)
      await page.getByLabel('Tag', { exact: true }).selectOption('')
      await page.getByLabel('Status', { exact: true }).selectOption('CREATED')
      await expect.poll(() => row().getByRole('button').count()).toBe(0)
      await tray()
        .getByRole('button', { name: /^Fence repair/ })
        .waitFor()

      // The day picker: the next day (a Tuesday) has no shift.
      await page.getByRole('button', { name: 'Next day' }).click()
      await page.waitForURL(/date=2026-12-08/)
      await page.getByText('Nobody works on Tuesday').waitFor()
    })

    it('draws on the tile server an admin set once for the organisation, for every user of it', async () => {
      const otherOrigin = (p: string) => p.startsWith('request to another origin: https://tiles.example.com/')
      // Without tiles: depots, jobs with their names, a scale bar, and nothing from elsewhere.
      await signIn(page, acme.dispatcher, boardPath())
      const map = page.getByRole('region', { name: 'Map' })
      await map.getByText('No background map', { exact: false }).waitFor()
      await map.locator('.leaflet-control-scale-line').first().waitFor()
      await map.locator('.map-label > span', { hasText: 'Boiler service' }).waitFor()
      await map.locator('.map-label > span', { hasText: 'Salford Depot' }).waitFor()
      expect(await map.locator('img.leaflet-tile').count()).toBe(0)

      // The admin sets it once, on the Organisation page (an http address is refused there).
      const admin = await openPage(browser, server.url)
      await admin.page.route('https://tiles.example.com/**', (route) =>
        route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL }),
      )
      try {
        await signIn(admin.page, acme.admin, '/settings/organisation')
        const section = admin.page.getByRole('region', { name: 'Map background' })
        await section.getByLabel(/^Tile server URL/).fill('http://tiles.example.com/{z}/{x}/{y}.png')
        await section.getByRole('button', { name: 'Save map background' }).click()
        await section.getByText(/^Tile server URL must be an https:\/\/ address/).waitFor()
        await expectAccessible(admin.page, 'the map background with an error')
        await section.getByLabel(/^Tile server URL/).fill('https://tiles.example.com/{z}/{x}/{y}.png')
        await section.getByLabel(/^Attribution/).fill('© Example Tiles')
        await section.getByRole('button', { name: 'Save map background' }).click()
        await admin.page.getByText('Map background saved').waitFor()
      } finally {
        await admin.page.context().close()
      }
      expect(admin.problems.filter((p) => !otherOrigin(p))).toEqual([])

      // The dispatcher's board (another user, another browser) draws on it.
      await page.route('https://tiles.example.com/**', (route) =>
        route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL }),
      )
      await page.reload()
      const tiled = page.getByRole('region', { name: 'Map' })
      await tiled.getByText('© Example Tiles').waitFor()
      await tiled.locator('img.leaflet-tile').first().waitFor({ state: 'attached' })
      const sources = await tiled
        .locator('img.leaflet-tile')
        .evaluateAll((images) => images.map((image) => (image as unknown as { src: string }).src))
      expect(sources.length).toBeGreaterThan(0)
      for (const src of sources) expect(src).toMatch(/^https:\/\/tiles\.example\.com\/\d+\/\d+\/\d+\.png$/)
      expect(await tiled.getByText('No background map', { exact: false }).count()).toBe(0)
      await expect.poll(() => watched.problems.some(otherOrigin)).toBe(true)

      // Cleared, the board is plain again; the only requests elsewhere were the organisation's tiles.
      const cleared = await callApi(server, adminKey, 'PATCH', '/v1/admin/organisation', {
        map: { tileUrl: null, attribution: null },
      })
      expect(cleared.status).toBe(200)
      await page.reload()
      await page
        .getByRole('region', { name: 'Map' })
        .getByText('No background map', { exact: false })
        .waitFor()
      watched.problems.splice(0, watched.problems.length, ...watched.problems.filter((p) => !otherOrigin(p)))
    })

    it('is a dispatcher’s home page too, and another organisation’s depot or job is not found', async () => {
      const other = await createOrganisationWithTeam(server)
      const theirDepot = await makeLocation(server.database.db, other.id, { name: 'Elsewhere' })
      const theirJob = await callApi(server, other.key, 'POST', '/v1/public/jobs', { title: 'Not yours' })
      const theirJobId = (theirJob.body as { data: { job: { id: string } } }).data.job.id
      await signIn(page, acme.dispatcher, boardPath())
      await row().getByRole('button').first().waitFor()
      await expectAccessible(page, 'the board as a dispatcher')
      await page.goto(`/?date=${DATE}&location=${theirDepot.id}`)
      await page.getByRole('alert').filter({ hasText: 'Location not found' }).waitFor()
      const answers = await page.evaluate(async (id) => {
        const read = await fetch(`/v1/admin/jobs/${id}`)
        return { status: read.status, body: await read.json() }
      }, theirJobId)
      expect(answers).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })
    })
  })
}
