// The technician's day through a dead zone (issue 17), in a real browser on both databases: with the
// connection gone (context.setOffline), a start, a form and a completion are kept on the phone, shown
// as pending, survive a reload (the service worker serves the app and the day), and are sent in order
// when the connection returns — each event reaching the integrator exactly once. A response lost
// after the server ran the request is replayed with its Idempotency-Key and emits nothing twice. An
// action the office made impossible meanwhile (job cancelled, reassigned) is said plainly.
import type { Browser, Page, Request } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
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
import { type SeededDay, seedDay, waitForServiceWorker } from './my-seed.js'

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

const PLAN = [
  { title: 'Boiler service', at: '08:00', minutes: 60, gas: true, customer: 0 },
  { title: 'Leaking tap', at: '10:00', minutes: 45, customer: 1 },
  { title: 'Radiator bleed', at: '12:00', minutes: 30, customer: 2 },
  { title: 'Gutter clearing', at: '15:00', minutes: 30, customer: 1 },
]

/** The browser's own offline messages for requests it could not send are expected here. */
const offlineNoise = (problem: string) => /ERR_INTERNET_DISCONNECTED|Failed to fetch|ERR_FAILED/.test(problem)

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: My day offline`, () => {
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
      expect(watched.problems.filter((problem) => !offlineNoise(problem))).toEqual([])
    })

    const events = async (event: string, jobId: string) => {
      await server.app.webhooks.dispatcher.drain()
      return receiver.received.filter((r) => r.json?.event === event && r.json?.data?.jobId === jobId)
    }
    /**
     * Signed in on My day, the service worker installed and in control of the page, and the page
     * loaded once through it (so it holds the session and the day).
     */
    const openMyDay = async () => {
      await signIn(page, acme.worker, '/my')
      await waitForServiceWorker(page)
      await page.reload()
      await page.getByRole('list', { name: /in route order/ }).waitFor()
    }
    const confirm = async (action: 'Start job' | 'Complete job') => {
      await page.getByRole('button', { name: action }).click()
      await page.getByRole('dialog').getByRole('button', { name: action }).click()
    }

    it('queues a start, a form and a completion offline, keeps them through a reload, sends each once', async () => {
      const jobId = day.jobs['Boiler service'] as string
      await openMyDay()
      await page.getByRole('link', { name: 'Open job: Boiler service' }).click()
      await page.getByRole('heading', { name: 'Boiler service', level: 1 }).waitFor()

      await page.context().setOffline(true)
      await page.getByText(/^Offline\./).waitFor()
      await confirm('Start job')
      await page.getByRole('status').filter({ hasText: 'Saved on this phone' }).first().waitFor()
      await page.getByText('In progress', { exact: true }).waitFor()
      await page.getByRole('button', { name: '1 pending' }).waitFor()

      await page.getByRole('link', { name: 'Fill in Gas safety check' }).click()
      await page.getByRole('button', { name: 'Submit form' }).click()
      await page.getByText('Pressure (bar) is required').waitFor() // checked on the phone while offline
      await page.getByLabel('Pressure (bar)').fill('2.1')
      await page
        .getByRole('group', { name: /Any leaks found/ })
        .getByLabel('No')
        .check()
      await page.getByRole('button', { name: 'Submit form' }).click()
      await page.getByRole('heading', { name: 'Boiler service', level: 1 }).waitFor()
      await page.getByText('Filled in, pending').waitFor()

      await confirm('Complete job')
      await page.getByRole('button', { name: '3 pending' }).waitFor()
      // Not "Completed" until the office has it (issue 29).
      await page.getByText('Completing… waiting to send').first().waitFor()
      await page.getByText('Saved on this phone, not sent yet').waitFor()
      await expectAccessible(page, 'a job with pending actions')

      // A reload in the dead zone: the service worker serves the app, the session and the job.
      await page.reload()
      await page.getByRole('heading', { name: 'Boiler service', level: 1 }).waitFor()
      await page.getByRole('button', { name: '3 pending' }).click()
      const panel = page.getByRole('dialog', { name: 'Waiting to be sent' })
      expect(
        await panel.getByRole('list', { name: 'Pending actions' }).getByRole('listitem').allInnerTexts(),
      ).toEqual([
        expect.stringMatching(/^Start job/),
        expect.stringMatching(/^Form “Gas safety check”/),
        expect.stringMatching(/^Complete job/),
      ])
      await expectAccessible(page, 'the offline queue')
      await panel.getByRole('button', { name: 'Close' }).first().click()
      await page.getByRole('button', { name: 'Sign out' }).click()
      const leaving = page.getByRole('dialog', { name: 'Sign out with actions not sent?' })
      await leaving.getByText('3 actions have not reached the office yet.', { exact: false }).waitFor()
      await leaving.getByRole('button', { name: 'Cancel' }).click()
      await page.getByRole('link', { name: '‹ My day' }).click()
      await page
        .getByRole('article', { name: /Boiler service/ })
        .getByText('Completing… waiting to send')
        .waitFor()
      await page.getByText('4 jobs · 0 done').waitFor()
      expect(await events('FORM_SUBMITTED', jobId)).toHaveLength(0)
      expect(await events('JOB_COMPLETED', jobId)).toHaveLength(0)

      await page.context().setOffline(false)
      await expect
        .poll(() => page.getByRole('button', { name: /pending/ }).count(), { timeout: 10_000 })
        .toBe(0)
      await page.getByText('4 jobs · 1 done · 2 h 45 min on site').waitFor()
      await receiver.waitFor(2)
      const submitted = await events('FORM_SUBMITTED', jobId)
      expect(submitted).toHaveLength(1)
      expect(submitted[0]?.json.data).toMatchObject({ submittedByUserId: acme.worker.id })
      expect(await events('JOB_COMPLETED', jobId)).toHaveLength(1)
      const job = await callApi(server, day.adminKey, 'GET', `/v1/admin/jobs/${jobId}`)
      expect((job.body as { data: { job: { status: string } } }).data.job.status).toBe('COMPLETED')
    })

    it('replays a completion whose answer was lost with the same Idempotency-Key: one event', async () => {
      const jobId = day.jobs['Leaking tap'] as string
      await openMyDay()
      await page.getByRole('link', { name: 'Open job: Leaking tap' }).click()
      await confirm('Start job')
      await page.getByText('In progress', { exact: true }).waitFor()

      const keys: string[] = []
      page.on('request', (request: Request) => {
        if (request.method() === 'POST' && request.url().endsWith(`/my/jobs/${jobId}/complete`)) {
          keys.push(request.headers()['idempotency-key'] ?? '')
        }
      })
      // The server runs the completion; its answer never reaches the phone.
      await page.route(`**/v1/admin/my/jobs/${jobId}/complete`, async (route) => {
        const answer = await route.fetch()
        expect(answer.status()).toBe(200)
        await route.abort('internetdisconnected')
      })
      await confirm('Complete job')
      await page.getByRole('button', { name: '1 pending' }).waitFor()
      await page.unroute(`**/v1/admin/my/jobs/${jobId}/complete`)

      await page.getByRole('button', { name: '1 pending' }).click()
      await page
        .getByRole('dialog', { name: 'Waiting to be sent' })
        .getByRole('button', { name: 'Send now' })
        .click()
      await page.getByText('Nothing is waiting: everything you did has reached the office.').waitFor()
      expect(keys).toHaveLength(2)
      expect(keys[1]).toBe(keys[0])
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
      expect(await events('JOB_COMPLETED', jobId)).toHaveLength(1)
    })

    it('says plainly when the office cancelled or reassigned a job before the queued action was sent', async () => {
      const cancelled = day.jobs['Radiator bleed'] as string
      const reassigned = day.jobs['Gutter clearing'] as string
      await openMyDay()
      for (const title of ['Radiator bleed', 'Gutter clearing']) {
        await page.getByRole('link', { name: `Open job: ${title}` }).click()
        await page.getByRole('heading', { name: title, level: 1 }).waitFor()
        await page.getByRole('link', { name: '‹ My day' }).click()
      }
      await page.context().setOffline(true)
      for (const title of ['Radiator bleed', 'Gutter clearing']) {
        await page.getByRole('link', { name: `Open job: ${title}` }).click()
        await confirm('Start job')
        await page.getByText('In progress', { exact: true }).waitFor()
        await page.getByRole('link', { name: '‹ My day' }).click()
      }
      await page.getByRole('button', { name: '2 pending' }).waitFor()

      const office = (method: string, path: string, body?: unknown) =>
        callApi(server, day.adminKey, method, `/v1/admin${path}`, body)
      expect(
        (await office('POST', `/jobs/${cancelled}/cancel`, { reason: 'Customer called off' })).status,
      ).toBe(200)
      expect((await office('POST', `/jobs/${reassigned}/unassign`)).status).toBe(200)
      const at = `${day.date}T16:00:00Z`
      const assign = await office('POST', `/jobs/${reassigned}/assign`, {
        userId: day.userIds.other,
        scheduledStart: at,
        scheduledEnd: `${day.date}T16:30:00Z`,
      })
      expect(assign.status).toBe(200)

      await page.context().setOffline(false)
      await page.getByRole('button', { name: '2 not recorded' }).waitFor({ timeout: 10_000 })
      const notices = page.getByRole('alert')
      await notices
        .filter({ hasText: 'Your start was not recorded — Radiator bleed' })
        .getByText('This job was cancelled by the office.')
        .waitFor()
      await notices
        .filter({ hasText: 'Your start was not recorded — Gutter clearing' })
        .getByText('This job was reassigned to someone else or removed.')
        .waitFor()
      await expectAccessible(page, 'My day with refusals')
      expect(await page.getByRole('article', { name: /Gutter clearing/ }).count()).toBe(0)

      await page.goto(`/my/jobs/${reassigned}`)
      await page.getByRole('heading', { name: 'Job not found' }).waitFor()
      await page.getByText('This job was reassigned to someone else or removed.').waitFor()
      await page.getByRole('button', { name: 'Dismiss' }).click()
      await expect.poll(() => page.getByRole('alert').count()).toBe(0)
      await page.goto(`/my/jobs/${cancelled}`)
      await page.getByText('Cancelled', { exact: true }).waitFor()
      expect(await page.getByRole('button', { name: /Start job|Complete job/ }).count()).toBe(0)
    })
  })
}
