// "On my way" and the customer's tracking page (issue 29 §3) in a real browser: the worker taps On
// my way on the next job in My day; the customer opens the link on a Pixel 7 and sees the organisation,
// the technician's first name, the job, the status, the arrival window and the technician as a dot
// around their address — and nothing else about the customer, the worker or other jobs.
import { mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { deflateSync } from 'node:zlib'
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

// The pictures in docs/screenshots are retaken with SCREENSHOT_DIR=docs/screenshots; a plain run
// writes them to the temporary folder and leaves the repository as it was.
const SCREENSHOTS = `${process.env.SCREENSHOT_DIR ?? tmpdir()}/`
const PLAN = [
  { title: 'Leaking tap', at: '09:00', minutes: 45, customer: 1 },
  { title: 'Radiator bleed', at: '11:00', minutes: 30, customer: 2 },
]
// Between the first stop (Corner Café) and the next (Hill Dental, 51.571,-0.146).
const POSITION = { latitude: 51.563, longitude: -0.131, recordedAt: new Date().toISOString() }

/** A 256-pixel tile that looks like one: pale ground, a street every 64 pixels (a PNG made here). */
function streetTile(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff
    for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const sum = Buffer.alloc(4)
    sum.writeUInt32BE(crc(body))
    return Buffer.concat([length, body, sum])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(256, 0)
  header.writeUInt32BE(256, 4)
  header.set([8, 2, 0, 0, 0], 8)
  const rows: number[] = []
  for (let y = 0; y < 256; y++) {
    rows.push(0)
    for (let x = 0; x < 256; x++) {
      const street = (x + 24) % 64 < 6 || (y + 40) % 64 < 6
      rows.push(...(street ? [255, 255, 255] : [226, 232, 220]))
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

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

      // The organisation sets a tile server, with an attribution that looks like markup: the page
      // draws on the tiles and shows the attribution literally, as text.
      const attribution = '<img src=x onerror="window.planted=1"> © Test Tiles'
      const set = await callApi(server, day.adminKey, 'PATCH', '/v1/admin/organisation', {
        map: { tileUrl: 'https://{s}.tiles.test/{z}/{x}/{y}{r}.png', attribution },
      })
      expect(set.status).toBe(200)
      const tiled = await openPage(browser, server.url, devices['Pixel 7'])
      const tile = streetTile()
      const asked: string[] = []
      await tiled.page.route('https://*.tiles.test/**', (route) => {
        asked.push(route.request().url())
        return route.fulfill({ status: 200, contentType: 'image/png', body: tile })
      })
      const referers: (string | undefined)[] = []
      tiled.page.on('request', (request) => {
        if (request.url().includes('tiles.test')) referers.push(request.headers().referer)
      })
      await tiled.page.goto(`/t/${token}`)
      await tiled.page.locator('#technician-dot').waitFor()
      await tiled.page.locator('#tiles image').first().waitFor({ state: 'attached' })
      const hrefs = await tiled.page
        .locator('#tiles image')
        .evaluateAll((images) => images.map((image) => image.getAttribute('href')))
      expect(hrefs.length).toBeGreaterThan(0)
      for (const href of hrefs) expect(href).toMatch(/^https:\/\/[abc]\.tiles\.test\/1[1-7]\/\d+\/\d+\.png$/)
      await expect.poll(() => asked.length).toBeGreaterThan(0)
      expect(referers.every((referer) => referer === undefined)).toBe(true)
      expect(await tiled.page.locator('#attribution').textContent()).toBe(attribution)
      expect(await tiled.page.locator('#map img').count()).toBe(0)
      expect(await tiled.page.evaluate('window.planted')).toBeUndefined()
      // The pin and the dot are still there, over the tiles; the dot off the centre.
      expect(await tiled.page.locator('#map > rect').count()).toBe(1)
      expect(Number(await tiled.page.locator('#technician-dot').getAttribute('cx'))).not.toBe(0)
      // The docs' picture with an ordinary attribution.
      const plain = await callApi(server, day.adminKey, 'PATCH', '/v1/admin/organisation', {
        map: { attribution: '© Test Tiles' },
      })
      expect(plain.status).toBe(200)
      await tiled.page.reload()
      await tiled.page
        .locator('#attribution')
        .filter({ hasText: /^© Test Tiles$/ })
        .waitFor()
      await tiled.page.screenshot({ path: `${SCREENSHOTS}tracking-page-tiles.png`, fullPage: true })
      // Only the tile server was asked, besides this origin.
      expect(tiled.problems.filter((problem) => !problem.includes('.tiles.test/'))).toEqual([])
      await tiled.page.context().close()
      const cleared = await callApi(server, day.adminKey, 'PATCH', '/v1/admin/organisation', {
        map: { tileUrl: null, attribution: null },
      })
      expect(cleared.status).toBe(200)

      // An unknown link says so, plainly.
      const stranger = await openPage(browser, server.url, PHONE)
      await stranger.page.goto('/t/not-a-real-token')
      await stranger.page.getByText('This link is not valid').waitFor()
      await stranger.page.context().close()
    })
  })
}
