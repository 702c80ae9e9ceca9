// The technician's day on a phone (issue 17), in a real browser on both databases: a worker signs in
// and lands on My day, sees the jobs in route order with the map, starts a job, is refused completion
// without its form, fills the form (the server's field errors next to the fields), completes the
// job, and the integrator receives FORM_SUBMITTED and JOB_COMPLETED once each with the worker's data.
// A job with an address of its own shows it, not its customer's; the customer's phone reads nationally.
// A worker cannot open another worker's job nor any dashboard page; an admin manages the templates.
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { updateOrganisation } from '../../src/modules/organisations/service.js'
import { BROWSER_DIALECTS } from '../helpers.js'
import { type Receiver, startReceiver } from '../webhook-receiver.js'
import { expectAccessible, launchBrowser, openPage, PHONE, type WatchedPage } from './browser.js'
import {
  callApi,
  createOrganisationWithTeam,
  type DashboardServer,
  type Organisation,
  signIn,
  startDashboard,
} from './harness.js'
import { type SeededDay, seedDay } from './my-seed.js'

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

/** A 1×1 transparent PNG: what the fake tile server answers. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)

const PLAN = [
  { title: 'Boiler service', at: '09:00', minutes: 60, gas: true, customer: 0 },
  { title: 'Leaking tap', at: '11:00', minutes: 45, customer: 1 },
  { title: 'Radiator bleed', at: '14:00', minutes: 30, customer: 2 },
]

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: My day on a phone`, () => {
    let server: DashboardServer
    let acme: Organisation
    let receiver: Receiver
    let day: SeededDay
    let watched: WatchedPage
    let page: Page

    beforeAll(async () => {
      server = await startDashboard(dialect)
      acme = await createOrganisationWithTeam(server)
      receiver = await startReceiver({ status: 200, body: 'ok' })
      day = await seedDay(server, acme, receiver.url, PLAN)
    })
    afterAll(async () => {
      await receiver?.close()
      await server?.close()
    })
    beforeEach(async () => {
      watched = await openPage(browser, server.url, PHONE)
      page = watched.page
    })
    afterEach(async () => {
      await page.context().close()
      expect(watched.problems).toEqual([])
    })

    const jobList = () => page.getByRole('list', { name: /in route order/ })

    it('lands a worker on My day: the jobs in route order with times, customers, forms and a map', async () => {
      await signIn(page, acme.worker, '/')
      await page.waitForURL('**/my')
      const titles = jobList().getByRole('heading', { level: 2 })
      await expect
        .poll(() => titles.allTextContents())
        .toEqual(['Stop 1: Boiler service', 'Stop 2: Leaking tap', 'Stop 3: Radiator bleed'])
      const boiler = jobList().getByRole('article', { name: /Boiler service/ })
      for (const text of [
        '09:00–10:00',
        '1 h',
        'Mrs Patel',
        '12 High Street, London N1',
        'High priority',
        'Gas',
      ]) {
        await boiler.getByText(text, { exact: true }).first().waitFor()
      }
      await boiler.getByText('0 of 1 done').waitFor()
      await boiler.getByText(/ring the bell twice/).waitFor()
      expect(await boiler.getByRole('link', { name: /Navigate/ }).getAttribute('href')).toBe(
        `geo:51.538,-0.102?q=51.538,-0.102(${encodeURIComponent('12 High Street, London N1')})`,
      )
      await page.getByText('3 jobs · 0 done · 2 h 15 min on site').waitFor()

      const map = page.getByRole('region', { name: 'Map of the day’s route' })
      await map.getByTitle('1. Boiler service').waitFor()
      await map.getByTitle('3. Radiator bleed').waitFor()
      await map.getByTitle('Depot: North depot').waitFor()
      expect(await map.locator('path.my-map-route').count()).toBe(1)
      await expectAccessible(page, 'My day')

      await page.getByRole('button', { name: 'Next day' }).click()
      await page.getByText('No jobs on this day').waitFor()
      expect(new URL(page.url()).searchParams.get('date')).not.toBe(day.date)
      await page.getByRole('button', { name: 'Back to today' }).click()
      await titles.first().waitFor()
      expect(new URL(page.url()).search).toBe('')

      // A swipe on the list: left for the next day, right for the previous one.
      const touch = await page.context().newCDPSession(page)
      const swipe = async (fromX: number, toX: number) => {
        const y = 700
        await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: fromX, y }] })
        await touch.send('Input.dispatchTouchEvent', {
          type: 'touchMove',
          touchPoints: [{ x: toX, y: y + 5 }],
        })
        await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
      }
      await swipe(330, 90)
      await page.getByText('No jobs on this day').waitFor()
      await swipe(90, 330)
      await titles.first().waitFor()
      expect(new URL(page.url()).search).toBe('')
    })

    it('draws the day on the tile server the organisation set (plain, labelled and to scale without one)', async () => {
      const tiles = (p: string) => p.startsWith('request to another origin: https://tiles.example.com/')
      await page.route('https://tiles.example.com/**', (route) =>
        route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL }),
      )
      await signIn(page, acme.worker, '/')
      await page.waitForURL('**/my')
      const map = page.getByRole('region', { name: 'Map of the day’s route' })
      await map.locator('.leaflet-control-scale-line').first().waitFor()
      await map.locator('.map-label > span', { hasText: 'Radiator bleed' }).waitFor()
      await map.locator('.map-label > span', { hasText: 'North depot' }).waitFor()
      expect(await map.locator('img.leaflet-tile').count()).toBe(0)

      // An admin sets the organisation's map background once; the worker's next visit draws on it.
      await updateOrganisation(
        server.database.db,
        acme.id,
        { map: { tileUrl: 'https://tiles.example.com/{z}/{x}/{y}.png', attribution: '© Example Tiles' } },
        false,
      )
      try {
        await page.reload()
        await map.getByText('© Example Tiles').waitFor()
        await map.locator('img.leaflet-tile').first().waitFor({ state: 'attached' })
        const sources = await map
          .locator('img.leaflet-tile')
          .evaluateAll((images) => images.map((image) => (image as unknown as { src: string }).src))
        for (const src of sources) expect(src).toMatch(/^https:\/\/tiles\.example\.com\/\d+\/\d+\/\d+\.png$/)
        expect(await map.locator('.map-label').count()).toBe(0)
      } finally {
        await updateOrganisation(
          server.database.db,
          acme.id,
          { map: { tileUrl: null, attribution: null } },
          false,
        )
      }
      expect(watched.problems.some(tiles)).toBe(true)
      watched.problems.splice(0, watched.problems.length, ...watched.problems.filter((p) => !tiles(p)))
    })

    it('keeps a worker out of the dashboard and out of another worker’s job', async () => {
      await signIn(page, acme.worker, '/my')
      for (const path of ['/settings/api-keys', '/team', '/settings/form-templates']) {
        await page.goto(path)
        await page.getByRole('heading', { name: 'Workers use the My day app' }).waitFor()
        expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0)
      }
      await expectAccessible(page, 'the workers-use-My-day page')
      await page.getByRole('link', { name: 'Open My day' }).click()
      await page.waitForURL('**/my')
      await page.goto('/')
      await page.waitForURL('**/my')

      await page.goto(`/my/jobs/${day.otherWorkerJob}`)
      await page.getByRole('heading', { name: 'Job not found' }).waitFor()
      expect(await page.getByText('Someone else’s job').count()).toBe(0)
      await expectAccessible(page, 'a job that is not mine')
    })

    it('starts a job, is refused completion without its form, fills the form and completes the job', async () => {
      await signIn(page, acme.worker, '/my')
      await jobList().getByRole('link', { name: 'Open job: Boiler service' }).click()
      await page.getByRole('heading', { name: 'Boiler service', level: 1 }).waitFor()
      expect(await page.getByRole('button', { name: 'Complete job' }).count()).toBe(0)
      await expectAccessible(page, 'a job')

      await page.getByRole('button', { name: 'Start job' }).click()
      const start = page.getByRole('dialog', { name: 'Start this job?' })
      await start.getByRole('button', { name: 'Start job' }).click()
      await page.getByText('In progress', { exact: true }).waitFor()
      await page.getByRole('status').filter({ hasText: 'Job started' }).waitFor()

      await page.getByRole('button', { name: 'Complete job' }).click()
      const complete = page.getByRole('dialog', { name: 'Complete this job?' })
      await complete.getByText('Forms still to fill in').waitFor()
      await complete.getByRole('button', { name: 'Complete job' }).click()
      await complete
        .getByRole('alert')
        .filter({ hasText: /Gas safety check/ })
        .waitFor()
      await complete.getByRole('button', { name: 'Cancel' }).click()
      await page.getByText('In progress', { exact: true }).waitFor()

      await page.getByRole('link', { name: 'Fill in Gas safety check' }).click()
      await page.getByRole('heading', { name: 'Gas safety check', level: 1 }).waitFor()
      await page.getByLabel('Pressure (bar)').fill('9')
      await page.getByRole('button', { name: 'Submit form' }).click()
      await page.getByText(/^Pressure \(bar\) must be/).waitFor()
      await page.getByText('Any leaks found is required', { exact: true }).waitFor()
      expect(await page.getByLabel('Pressure (bar)').getAttribute('aria-invalid')).toBe('true')
      await expectAccessible(page, 'a form with errors')

      await page.getByLabel('Pressure (bar)').fill('1.8')
      await page
        .getByRole('group', { name: /Any leaks found/ })
        .getByLabel('No')
        .check()
      await page
        .getByRole('group', { name: /Flue condition/ })
        .getByLabel('Good')
        .check()
      await page.getByLabel('Notes').fill('Serviced; flue clear.')
      await page.getByRole('button', { name: 'Submit form' }).click()
      await page.getByRole('heading', { name: 'Boiler service', level: 1 }).waitFor()
      await page.getByText(/^Submitted \d\d:\d\d$/).waitFor()

      await page.getByRole('button', { name: 'Complete job' }).click()
      await page
        .getByRole('dialog', { name: 'Complete this job?' })
        .getByRole('button', { name: 'Complete job' })
        .click()
      await page.getByText('Completed', { exact: true }).first().waitFor()
      expect(await page.getByRole('button', { name: /Start job|Complete job/ }).count()).toBe(0)

      await receiver.waitFor(2)
      await server.app.webhooks.dispatcher.drain()
      const byEvent = (event: string) => receiver.received.filter((r) => r.json?.event === event)
      expect(byEvent('FORM_SUBMITTED')).toHaveLength(1)
      expect(byEvent('JOB_COMPLETED')).toHaveLength(1)
      const form = byEvent('FORM_SUBMITTED')[0]?.json.data
      expect(form).toMatchObject({
        jobId: day.jobs['Boiler service'],
        submittedByUserId: acme.worker.id,
      })
      expect(JSON.stringify(form)).toContain('"pressureBar":1.8')
      expect(byEvent('JOB_COMPLETED')[0]?.json.data).toMatchObject({ jobId: day.jobs['Boiler service'] })

      await page.getByRole('link', { name: '‹ My day' }).click()
      await page.getByText('3 jobs · 1 done · 2 h 15 min on site').waitFor()
    })

    it('shows a job’s own address instead of its customer’s, and the customer’s phone as people write it', async () => {
      const office = async (method: string, path: string, body?: unknown) => {
        const response = await callApi(server, day.adminKey, method, `/v1/admin${path}`, body)
        expect(response.status, JSON.stringify(response.body)).toBe(200)
        return (response.body as { data: { job: { customerId: string } } }).data
      }
      const radiator = day.jobs['Radiator bleed']
      const own = 'Flat 3, 9 Archway Mews, London N19'
      const { job } = await office('PATCH', `/jobs/${radiator}`, { address: own })
      await office('PATCH', `/customers/${job.customerId}`, { phone: '+442079460123' })

      await signIn(page, acme.worker, '/my')
      const card = jobList().getByRole('article', { name: /Radiator bleed/ })
      await card.getByText(own, { exact: true }).waitFor()
      expect(await card.getByText('40 Hill Road, London N6').count()).toBe(0)
      expect(await card.getByRole('link', { name: /Navigate/ }).getAttribute('href')).toBe(
        `geo:51.571,-0.146?q=51.571,-0.146(${encodeURIComponent(own)})`,
      )

      await card.getByRole('link', { name: 'Open job: Radiator bleed' }).click()
      await page.getByRole('heading', { name: 'Radiator bleed', level: 1 }).waitFor()
      await page.getByText(own, { exact: true }).waitFor()
      expect(await page.getByText('40 Hill Road, London N6').count()).toBe(0)
      const call = page.getByRole('link', { name: 'Call 020 7946 0123' })
      expect(await call.getAttribute('href')).toBe('tel:+442079460123')
      await expectAccessible(page, 'a job with an address of its own')
    })

    it('lets an admin create, edit, deactivate and delete a form template', async () => {
      // The dashboard, on a desktop.
      await page.context().close()
      watched = await openPage(browser, server.url)
      page = watched.page
      await signIn(page, acme.admin, '/settings/form-templates')
      const table = page.getByRole('table', { name: 'Form templates' })
      await table.getByText('Gas safety check', { exact: true }).waitFor()
      await expectAccessible(page, 'Settings › Form templates')

      await page.getByRole('button', { name: 'Create form template' }).first().click()
      const dialog = page.getByRole('dialog', { name: 'Create form template' })
      await dialog.getByLabel('Name').fill('Customer sign-off')
      const first = dialog.getByRole('group', { name: /^Field 1/ })
      await first.getByLabel('Label').fill('Customer name')
      expect(await first.getByLabel('Key').inputValue()).toBe('customerName')
      await dialog.getByRole('button', { name: 'Add field' }).click()
      const second = dialog.getByRole('group', { name: /^Field 2/ })
      await second.getByLabel('Label').fill('Satisfaction')
      await second.getByLabel('Type').selectOption('CHOICE')
      await dialog.getByRole('button', { name: 'Create form template' }).click()
      await second.getByText(/^Answers /).waitFor() // the server: a CHOICE field needs its answers
      await expectAccessible(page, 'the template dialog with an error')
      await second.getByLabel('Answers').fill('Happy\nUnhappy')
      await dialog.getByRole('button', { name: 'Create form template' }).click()
      await table.getByText('Customer sign-off').waitFor()
      await table.getByText('Every job').waitFor()

      await table.getByRole('button', { name: 'Deactivate Customer sign-off' }).click()
      await page.getByRole('status').filter({ hasText: '“Customer sign-off” deactivated' }).waitFor()
      await table.getByRole('button', { name: 'Activate Customer sign-off' }).waitFor()

      await table.getByRole('button', { name: 'Edit Customer sign-off' }).click()
      const edit = page.getByRole('dialog', { name: 'Edit “Customer sign-off”' })
      await edit.getByLabel('Name').fill('Customer sign-off v2')
      await edit.getByRole('button', { name: 'Save changes' }).click()
      await table.getByText('Customer sign-off v2').waitFor()

      await table.getByRole('button', { name: 'Delete Customer sign-off v2' }).click()
      await page
        .getByRole('dialog', { name: 'Delete “Customer sign-off v2”?' })
        .getByRole('button', { name: 'Delete form template' })
        .click()
      await page.getByRole('status').filter({ hasText: '“Customer sign-off v2” deleted' }).waitFor()
      await expect.poll(() => table.getByText('Customer sign-off v2').count()).toBe(0)
    })
  })
}
