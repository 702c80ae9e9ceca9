// Settings › Automations and the webhook logs in a real browser, delivering to a local receiver:
// create an automation, cause its event through the public API, find the delivery in the log, open
// its detail, redeliver it; filters, a test event, edit, deactivate, rotate the secret.
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
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

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: Settings › Automations and webhook logs`, () => {
    let server: DashboardServer
    let acme: Organisation
    let receiver: Receiver
    let watched: WatchedPage
    let page: Page
    let automationPath = ''

    beforeAll(async () => {
      server = await startDashboard(dialect)
      acme = await createOrganisationWithTeam(server)
      receiver = await startReceiver({
        status: 200,
        body: '{"received":true}',
        headers: { 'content-type': 'application/json', 'x-receiver': 'erp-1' },
      })
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

    const deliveries = () => page.getByRole('table', { name: 'Webhook deliveries' })

    it('creates an automation, delivers its event, shows it in the log, and redelivers it', async () => {
      await signIn(page, acme.admin, '/settings/automations')
      await page.getByText('No automations yet').waitFor()
      await expectAccessible(page, 'the automations page (empty)')

      await page.getByRole('button', { name: 'Create automation' }).first().click()
      const dialog = page.getByRole('dialog', { name: 'Create automation' })
      await dialog.getByLabel('Trigger event').selectOption('JOB_CREATED')
      await dialog.getByLabel('Endpoint URL').fill('not a url')
      await dialog.getByRole('button', { name: 'Create automation' }).click()
      await dialog.getByText(/^Endpoint URL must/).waitFor()
      await expectAccessible(page, 'the create-automation dialog with an error')
      await dialog.getByLabel('Endpoint URL').fill(`${receiver.url}/hooks/erp`)
      await dialog.getByLabel(/^Name/).fill('ERP: new jobs')
      await dialog.getByRole('button', { name: 'Create automation' }).click()

      const created = page.getByRole('dialog', { name: 'Automation created' })
      expect(await created.getByLabel('Signing secret').inputValue()).toMatch(/^whsec_/)
      await created.getByRole('link', { name: 'Open automation' }).click()
      await page.getByRole('heading', { name: /ERP: new jobs/, level: 1 }).waitFor()
      automationPath = new URL(page.url()).pathname
      await page.getByText('No deliveries yet').waitFor()
      await expectAccessible(page, 'the automation page')

      const job = await callApi(server, acme.key, 'POST', '/v1/public/jobs', {
        title: 'Boiler service, flat 4',
      })
      expect(job.status).toBe(201)
      await receiver.waitFor(1)
      await page.getByRole('button', { name: 'Refresh' }).click()
      await deliveries().getByText('200 Succeeded').waitFor()

      await deliveries().getByRole('button', { name: 'JOB_CREATED' }).click()
      const sheet = page.getByRole('dialog', { name: 'Job created' })
      await sheet.getByText('Boiler service, flat 4').waitFor()
      await sheet.getByText('erp-1').waitFor()
      await sheet.getByText('"received": true').waitFor()
      expect(page.url()).toContain('execution=')
      await expectAccessible(page, 'the delivery detail sheet')

      await sheet.getByRole('button', { name: 'Redeliver' }).click()
      await page.getByRole('status').filter({ hasText: 'Redelivered: 200 succeeded' }).waitFor()
      await sheet.getByText('Redelivery', { exact: true }).waitFor()
      await receiver.waitFor(2)
      const [first, second] = receiver.received
      expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id'])
      expect(second?.body).toBe(first?.body)
      await sheet.getByRole('button', { name: 'Close' }).click()
      await expect.poll(() => deliveries().getByText('200 Succeeded').count()).toBe(2)
    })

    it('filters the log on the server, sends a test event, and lists every automation’s deliveries', async () => {
      await signIn(page, acme.admin, automationPath)
      receiver.respond({ status: 503, body: 'maintenance' })
      expect(
        (await callApi(server, acme.key, 'POST', '/v1/public/jobs', { title: 'Leaking tap' })).status,
      ).toBe(201)
      await receiver.waitFor(3)
      await page.getByRole('button', { name: 'Refresh' }).click()
      await deliveries().getByText('503 Failed').waitFor()

      await page.getByLabel('Status').selectOption('FAILED')
      await page.waitForURL('**status=FAILED')
      await expect.poll(() => deliveries().getByRole('row').count()).toBe(2) // header + one failure
      await page.getByLabel('Status').selectOption('')
      await page.getByLabel('Event').selectOption('JOB_CANCELLED')
      await page.getByText('No deliveries match these filters').waitFor()
      await page.getByRole('button', { name: 'Clear filters' }).click()
      await expect.poll(() => deliveries().getByRole('row').count()).toBe(4)

      receiver.respond({ status: 204 })
      await page.getByRole('button', { name: 'Send test event' }).click()
      await page.getByRole('status').filter({ hasText: 'Test event sent: answered 204' }).waitFor()
      await deliveries().getByText('Test', { exact: true }).waitFor()
      expect(receiver.received.at(-1)?.json.data.title).toBe('Test event from fieldservice')

      await page.goto('/settings/webhook-logs')
      await deliveries().getByText('ERP: new jobs').first().waitFor()
      await expect.poll(() => deliveries().getByRole('row').count()).toBe(5)
      await expectAccessible(page, 'the webhook logs page')
    })

    it('edits, deactivates and rotates the secret of an automation', async () => {
      await signIn(page, acme.admin, automationPath)
      await page.getByRole('button', { name: 'Edit' }).click()
      const edit = page.getByRole('dialog', { name: 'Edit automation' })
      await edit.getByLabel('Endpoint URL').fill(`${receiver.url}/hooks/v2`)
      await edit.getByRole('button', { name: 'Save changes' }).click()
      await page.getByText(`${receiver.url}/hooks/v2`).waitFor()

      await page.getByRole('button', { name: 'Deactivate' }).click()
      await page
        .getByRole('dialog', { name: 'Deactivate this automation?' })
        .getByRole('button', { name: 'Deactivate' })
        .click()
      await page.getByRole('button', { name: 'Activate', exact: true }).waitFor()
      const before = receiver.received.length
      expect((await callApi(server, acme.key, 'POST', '/v1/public/jobs', { title: 'Not sent' })).status).toBe(
        201,
      )
      await server.app.webhooks.dispatcher.drain()
      expect(receiver.received.length).toBe(before)

      await page.getByRole('button', { name: 'Rotate secret' }).click()
      const rotate = page.getByRole('dialog', { name: 'Rotate signing secret' })
      await rotate.getByRole('button', { name: 'Rotate secret' }).click()
      const rotated = page.getByRole('dialog', { name: 'Signing secret rotated' })
      const secret = await rotated.getByLabel('New signing secret').inputValue()
      expect(secret).toMatch(/^whsec_/)
      await rotated.getByRole('button', { name: 'Done' }).click()
      await page.getByText(/the previous secret also signs until/).waitFor()
      expect(await page.content()).not.toContain(secret)
    })
  })
}
