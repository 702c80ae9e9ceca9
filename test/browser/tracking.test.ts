// "On my way" and the customer's tracking page (issue 29 §3) in a real browser: the worker taps On
// my way on the next job in My day; the customer opens the link on a Pixel 7 and sees the organisation,
// the technician's first name, the job, the status, the arrival window and the technician as a dot
// around their address — and nothing else about the customer, the worker or other jobs.
import { mkdir } from 'node:fs/promises'
import { type Browser, devices } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BROWSER_DIALECTS } from '../helpers.js'
import { type Receiver, startReceiver } from '../webhook-receiver.js'
import { expectAccessible, launchBrowser, openPage, PHONE } from './browser.js'
import {
  callApi,
  createOrganisationWithTeam,
  type DashboardServer,
  type Organisation,
  signIn,
  startDashboard,
} from './harness.js'
import { type SeededDay, seedDay } from './my-seed.js'

const SCREENSHOTS = 'docs/screenshots/'
const PLAN = [
  { title: 'Leaking tap', at: '09:00', minutes: 45, customer: 1 },
  { title: 'Radiator bleed', at: '11:00', minutes: 30, customer: 2 },
]
// Between the first stop (Corner Café) and the next (Hill Dental, 51.571,-0.146).
const POSITION = { latitude: 51.563, longitude: -0.131, recordedAt: new Date().toISOString() }

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: On my way and the tracking page`, () => {
    let server: DashboardServer
    let acme: Organisation
    let receiver: Receiver
    let day: SeededDay
    beforeAll(async () => {
      server = await startDashboard(dialect, { positions: async () => POSITION })
      acme = await createOrganisationWithTeam(server)
      receiver = await startReceiver({ status: 200, body: 'ok' })
      day = await seedDay(server, acme, receiver.url, PLAN)
      const first = day.jobs['Leaking tap']
      for (const action of ['start', 'complete']) {
        const done = await callApi(server, day.adminKey, 'POST', `/v1/admin/jobs/${first}/${action}`)
        expect(done.status).toBe(200)
      }
    })
    afterAll(async () => {
      await receiver?.close()
      await server?.close()
    })

    it('the worker taps On my way on the next job; the customer follows it on a Pixel 7', async () => {
      const phone = await openPage(browser, server.url, PHONE)
      await signIn(phone.page, acme.worker, '/')
      await phone.page.waitForURL('**/my')
      const list = phone.page.getByRole('list', { name: /in route order/ })
      const next = list.getByRole('listitem').filter({ hasText: 'Radiator bleed' })
      await next.getByRole('button', { name: 'On my way' }).click()
      await next
        .getByRole('status')
        .filter({ hasText: /On your way since \d\d:\d\d/ })
        .waitFor()
      expect(await list.getByRole('button', { name: 'On my way' }).count()).toBe(0)
      // The card says so at a glance, beside its status.
      await next.getByText('On the way', { exact: true }).waitFor()
      await mkdir(SCREENSHOTS, { recursive: true })
      await phone.page.screenshot({ path: `${SCREENSHOTS}my-day-on-my-way.png` })
      expect(phone.problems).toEqual([])
      await phone.page.context().close()

      const event = await server.database.db
        .selectFrom('outbox_events')
        .select('data')
        .where('organisation_id', '=', acme.id)
        .where('event', '=', 'JOB_EN_ROUTE')
        .execute()
      expect(event).toHaveLength(1)
      const data = JSON.parse(event[0]?.data ?? '{}') as { trackingUrl: string; eta: string }
      const token = data.trackingUrl.split('/t/')[1]
      expect(data.eta).not.toBeNull()

      // A phone set to another zone than the depot's (UTC): the page still says the depot's time, as
      // the customer's email does.
      const customer = await openPage(browser, server.url, {
        ...devices['Pixel 7'],
        timezoneId: 'America/Los_Angeles',
      })
      const page = customer.page
      const response = await page.goto(`/t/${token}`)
      expect(response?.headers()['x-robots-tag']).toBe('noindex')
      expect(await page.locator('meta[name="robots"]').getAttribute('content')).toContain('noindex')
      await page.getByRole('heading', { name: 'Radiator bleed' }).waitFor()
      await page.getByText('On the way').waitFor()
      await page.getByText('Your technician: Wes').waitFor()
      const eta = Date.parse(data.eta)
      // The window on the depot's clock (UTC) with the zone said, each end on 5 minutes; dated only
      // when it is not today there.
      const utc = (at: number) => new Date(Math.round(at / 300_000) * 300_000).toISOString().slice(11, 16)
      const window = `${utc(eta - 900_000)}–${utc(eta + 900_000)} (UTC)`
      await page.locator('#window').filter({ hasText: window }).waitFor()
      expect(await page.locator('#window').textContent()).toMatch(
        new RegExp(`^(\\w{3} \\d+ \\w{3}, )?${window.replace(/[()]/g, '\\$&')}$`),
      )
      const dot = page.locator('#technician-dot')
      await dot.waitFor()
      expect(Number(await dot.getAttribute('cx'))).toBeGreaterThan(0)
      await page.getByText(/km away \(as the crow flies\)/).waitFor()
      const text = await page.locator('body').innerText()
      for (const hidden of [
        'Hill Dental',
        '40 Hill Road',
        'Corner Café',
        'Leaking tap',
        'Mrs Patel',
        'Worker',
        'Other',
        '51.57',
      ]) {
        expect(text, hidden).not.toContain(hidden)
      }
      const width = await page.evaluate('document.documentElement.scrollWidth')
      expect(Number(width)).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0)
      await expectAccessible(page, 'tracking page')
      await page.screenshot({ path: `${SCREENSHOTS}tracking-page.png`, fullPage: true })
      expect(customer.problems).toEqual([])
      await page.context().close()

      // An unknown link says so, plainly.
      const stranger = await openPage(browser, server.url, PHONE)
      await stranger.page.goto('/t/not-a-real-token')
      await stranger.page.getByText('This link is not valid').waitFor()
      await stranger.page.context().close()
    })
  })
}
