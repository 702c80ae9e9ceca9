// What a dispatcher reads on the board (issue 30 §2), in a real browser on a real server: blocks
// labelled with their title then their customer (whole when zoomed in), the drive between two
// stops as a bar with the minutes the API's legs give, the row's totals with its overtime, a
// worker's colour the same with all depots and with one depot, and the job panel giving the
// customer's address (coordinates only in a details line) and a link to the job's page.
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { makeLocation, makeShift, makeUser, makeVehicle } from '../factories.js'
import { BROWSER_DIALECTS } from '../helpers.js'
import { type AdminApi, adminApi } from './admin-api.js'
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

interface Leg {
  fromJobId: string | null
  toJobId: string | null
  distanceMeters: number
  durationSeconds: number
}
interface Row {
  shiftId: string
  user: { id: string }
  legs: Leg[]
  totals: { distanceMeters: number; driveSeconds: number; overtimeSeconds: number }
}

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: reading the board`, () => {
    let server: DashboardServer
    let acme: Organisation
    let admin: AdminApi
    let watched: WatchedPage
    let page: Page
    let north: { id: string }
    const jobs: Record<string, string> = {}

    beforeAll(async () => {
      server = await startDashboard(dialect)
      acme = await createOrganisationWithTeam(server)
      admin = await adminApi(server, acme.id)
      const db = server.database.db
      north = await makeLocation(db, acme.id, { name: 'North', timezone: 'Europe/London', isPrimary: true })
      const south = await makeLocation(db, acme.id, { name: 'South', timezone: 'Europe/London' })
      // Ana starts earlier: with all depots she is the first row and Wes the second; with North
      // alone Wes is the first. A colour by row order would differ.
      const ana = await makeUser(db, acme.id, { name: 'Ana South' })
      const wesVan = await makeVehicle(db, acme.id, north.id, { name: 'Van 7' })
      const anaVan = await makeVehicle(db, acme.id, south.id, { name: 'Van 9' })
      const wes = await makeShift(
        db,
        acme.id,
        { userId: acme.worker.id, locationId: north.id, vehicleId: wesVan.id },
        { day: 'MONDAY', startTime: '08:00', endTime: '12:00' },
      )
      await makeShift(
        db,
        acme.id,
        { userId: ana.id, locationId: south.id, vehicleId: anaVan.id },
        { day: 'MONDAY', startTime: '07:00', endTime: '15:00' },
      )
      const customer = await callApi(server, acme.key, 'POST', '/v1/public/customers', {
        name: 'Mill Lane Bakery',
        address: '4 Mill Lane, Stockport SK1 3AA',
        latitude: 53.41,
        longitude: -2.15,
      })
      expect(customer.status).toBe(201)
      const customerId = (customer.body as { data: { customer: { id: string } } }).data.customer.id
      const place = async (title: string, body: Record<string, unknown>, from: string, to: string) => {
        const created = await callApi(server, acme.key, 'POST', '/v1/public/jobs', {
          title,
          serviceDuration: 1800,
          ...body,
        })
        expect(created.status).toBe(201)
        const id = (created.body as { data: { job: { id: string } } }).data.job.id
        jobs[title] = id
        await admin('POST', `/jobs/${id}/assign`, {
          userId: acme.worker.id,
          shiftId: wes.id,
          scheduledStart: at(from),
          scheduledEnd: at(to),
        })
      }
      await place('Annual boiler service', { customerId }, '09:00', '10:00')
      await place('Radiator bleed', { jobLatitude: 53.52, jobLongitude: -2.24 }, '11:00', '11:55')
    })
    afterAll(async () => {
      await server?.close()
    })
    beforeEach(async () => {
      watched = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 } })
      page = watched.page
    })
    afterEach(async () => {
      await page.context().close()
      expect(watched.problems).toEqual([])
    })

    const wesRow = () => page.getByRole('group', { name: /^Wes Worker, Van 7/ })
    const rowOfWes = async () => {
      const board = await admin<{ board: { rows: Row[] } }>('GET', `/board?date=${DATE}`)
      const row = board.board.rows.find((r) => r.user.id === acme.worker.id)
      if (!row) throw new Error('no row for Wes')
      return row
    }
    /** "12 min", "1 h 5 min": as the board words a duration. */
    const words = (seconds: number) => {
      const minutes = Math.round(seconds / 60)
      const h = Math.floor(minutes / 60)
      const m = minutes % 60
      return h === 0 ? `${m} min` : m === 0 ? `${h} h` : `${h} h ${m} min`
    }
    const km = (metres: number) => {
      const value = metres / 1000
      return `${value < 10 ? Math.round(value * 10) / 10 : Math.round(value)} km`
    }
    const swatchColour = async (row: Locator) =>
      (await row.locator('.route-swatch').getAttribute('class'))?.match(/route-(\d)/)?.[1]

    it('labels blocks with their title then their customer, whole when zoomed in', async () => {
      await signIn(page, acme.dispatcher, `/?date=${DATE}`)
      const boiler = wesRow().getByRole('button', {
        name: /^Annual boiler service, Mill Lane Bakery, Assigned, 09:00–10:00/,
      })
      await boiler.waitFor()
      const text = (await boiler.textContent()) ?? ''
      expect(text).toContain('Annual boiler service')
      expect(text).toContain('Mill Lane Bakery')
      expect(text.indexOf('Annual boiler service')).toBeLessThan(text.indexOf('Mill Lane Bakery'))
      // Hovering tells the rest: number, address, times.
      const tooltip = (await boiler.getAttribute('title')) ?? ''
      expect(tooltip).toMatch(/^J-\d+ · Annual boiler service\n/)
      expect(tooltip).toContain('4 Mill Lane, Stockport SK1 3AA')
      expect(tooltip).toContain('Assigned · 09:00–10:00')

      // The whole title and customer fit at 4×, and the names stay in view while the hours scroll.
      const fits = (locator: Locator) =>
        locator.evaluate((element) => {
          const e = element as unknown as { scrollWidth: number; clientWidth: number }
          return e.scrollWidth <= e.clientWidth
        })
      // The axis labels what fits without touching: at least the hours at fit, quarter hours at 4×.
      const axis = () =>
        page.locator('.timeline-hour').evaluateAll((labels) =>
          labels.map((label) => {
            const box = (
              label as unknown as { getBoundingClientRect(): { left: number; right: number } }
            ).getBoundingClientRect()
            return { text: label.textContent, left: box.left, right: box.right }
          }),
        )
      const apart = (labels: { left: number; right: number }[]) =>
        labels.every((label, i) => i === 0 || label.left > (labels[i - 1]?.right ?? 0))
      const fit = await axis()
      expect(fit.map((label) => label.text)).toEqual(expect.arrayContaining(['09:00', '10:00']))
      expect(apart(fit)).toBe(true)
      await page.getByText('4×', { exact: true }).click()
      await page.waitForURL(/zoom=4/)
      await expect.poll(async () => (await axis()).map((label) => label.text)).toContain('09:15')
      expect(apart(await axis())).toBe(true)
      await expect.poll(() => fits(boiler.locator('.block-title'))).toBe(true)
      expect(await fits(boiler.locator('.block-meta'))).toBe(true)
      await wesRow().getByText('Wes Worker').waitFor()
      expect(await wesRow().getByText('Wes Worker').isVisible()).toBe(true)
      await expectAccessible(page, 'the board zoomed in')
      // Zoomed, the grid scrolls sideways: its box is a tab stop, so a keyboard can scroll it too.
      const scroller = page.locator('.timeline-scroll').first()
      await expect.poll(() => scroller.getAttribute('tabindex')).toBe('0')
      expect(await scroller.getAttribute('aria-label')).toMatch(/scrolls sideways$/)
      await page.getByText('Fit day', { exact: true }).click()
      await page.waitForURL((url) => !url.searchParams.has('zoom'))
      await expect.poll(() => scroller.getAttribute('tabindex')).toBeNull()
    })

    it('draws the drive between two stops with the minutes of the API’s legs, and the row’s totals', async () => {
      const row = await rowOfWes()
      expect(row.legs.map((l) => [l.fromJobId, l.toJobId])).toEqual([
        [null, jobs['Annual boiler service']],
        [jobs['Annual boiler service'], jobs['Radiator bleed']],
        [jobs['Radiator bleed'], null],
      ])
      const between = row.legs[1] as Leg
      expect(between.durationSeconds).toBeGreaterThan(60)
      await signIn(page, acme.dispatcher, `/?date=${DATE}`)
      const bar = wesRow().getByRole('img', {
        name: `${words(between.durationSeconds)} drive, ${km(between.distanceMeters)}, Annual boiler service to Radiator bleed`,
      })
      await bar.waitFor()
      expect(await bar.textContent()).toBe(words(between.durationSeconds))
      // The bar ends where the visit starts.
      const [barBox, radiatorBox] = await Promise.all([
        bar.boundingBox(),
        wesRow()
          .getByRole('button', { name: /^Radiator bleed/ })
          .boundingBox(),
      ])
      expect(Math.abs((barBox?.x ?? 0) + (barBox?.width ?? 0) - (radiatorBox?.x ?? -99))).toBeLessThan(2)

      // The row's totals under the name: distance, drive and overtime (the last visit ends 11:55,
      // the drive back takes longer than the 5 minutes left).
      expect(row.totals.overtimeSeconds).toBeGreaterThan(60)
      const totals = `${km(row.totals.distanceMeters)} · ${words(row.totals.driveSeconds)} drive · ${words(row.totals.overtimeSeconds)} overtime`
      await wesRow().getByText(totals).waitFor()
      await expectAccessible(page, 'the board with travel bars')
    })

    it('gives a worker the same colour with all depots and with one depot', async () => {
      await signIn(page, acme.dispatcher, `/?date=${DATE}`)
      await wesRow().waitFor()
      const rows = page.getByRole('group', { name: /, Van \d/ })
      // Wes is the second row with all depots.
      expect(await rows.first().getAttribute('aria-label')).toMatch(/^Ana South/)
      const everywhere = await swatchColour(wesRow())
      expect(everywhere).toMatch(/^[1-8]$/)
      await page.goto(`/?date=${DATE}&location=${north.id}`)
      await page.getByRole('group', { name: /^Wes Worker/ }).waitFor()
      expect(await page.getByRole('group', { name: /^Ana South/ }).count()).toBe(0)
      expect(await swatchColour(wesRow())).toBe(everywhere)
      // The map draws Wes's route in it too (his is the only route of North).
      const route = page.getByRole('region', { name: 'Map' }).locator('path.map-route').first()
      await route.waitFor({ state: 'attached' })
      expect(await route.getAttribute('class')).toContain(`route-${everywhere}`)
    })

    it('shows the customer’s address in the job panel, coordinates in a details line, and links to the job', async () => {
      await signIn(page, acme.dispatcher, `/?date=${DATE}`)
      await wesRow()
        .getByRole('button', { name: /^Annual boiler service/ })
        .click()
      const sheet = page.getByRole('dialog', { name: 'Annual boiler service' })
      await sheet.getByText('4 Mill Lane, Stockport SK1 3AA', { exact: true }).waitFor()
      await sheet.getByText('Details: 53.41, -2.15', { exact: true }).waitFor()
      // No bare coordinates anywhere else in the panel.
      expect(await sheet.getByText(/^53\.41, -2\.15$/).count()).toBe(0)
      await expectAccessible(page, 'the job panel')
      const link = sheet.getByRole('link', { name: 'Open the job page' })
      expect(await link.getAttribute('href')).toBe(`/jobs/${jobs['Annual boiler service']}`)
      await link.click()
      await page.waitForURL(new RegExp(`/jobs/${jobs['Annual boiler service']}$`))
      await page.getByRole('heading', { name: /Annual boiler service/, level: 1 }).waitFor()
      const where = page.locator('.job-place')
      await where.getByText('4 Mill Lane, Stockport SK1 3AA').waitFor()
      await where.getByText('Details: 53.41, -2.15', { exact: true }).waitFor()

      // A job at a place of its own: said so, the customer's address (if any) for reference.
      await page.goto(`/?date=${DATE}`)
      await wesRow()
        .getByRole('button', { name: /^Radiator bleed/ })
        .click()
      const own = page.getByRole('dialog', { name: 'Radiator bleed' })
      await own.getByText('A place of its own (no address recorded)').waitFor()
      await own.getByText('Details: 53.52, -2.24 (the job’s own)').waitFor()
    })
  })
}
