// Proof of completion on the dashboard, in a real browser: an admin makes a form template whose jobs
// also need the customer's signature and two photos; a dispatcher opens a job, sees what completing it
// needs (the template's part named), adds notes to what the job itself needs and sees what is still
// missing; completing without them is refused naming each; once the photos, the signature and the
// notes are in, the card says so, shows the notes as typed (markup as text) and downloads the proof PDF.
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import type { Browser, Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiKey } from '../../src/modules/api-keys/service.js'
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

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

// The pictures in docs/screenshots are retaken with SCREENSHOT_DIR=docs/screenshots; a plain run
// writes them to the temporary folder and leaves the repository as it was.
const SCREENSHOTS = `${process.env.SCREENSHOT_DIR ?? tmpdir()}/`
const NOTES = 'Replaced the <b>flue</b> seal; pressure 1.5 bar.'

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: Proof of completion on the dashboard`, () => {
    let server: DashboardServer
    let acme: Organisation
    let api: AdminApi
    let adminKey: string
    let jobId: string
    let watched: WatchedPage
    let page: Page

    /** Uploads through the admin API as an office would (raw body, metadata in the query). */
    const upload = async (query: Record<string, string>, body: Buffer, type: string) => {
      const response = await fetch(
        `${server.url}/v1/admin/jobs/${jobId}/attachments?${new URLSearchParams(query)}`,
        { method: 'POST', headers: { authorization: `Bearer ${adminKey}`, 'content-type': type }, body },
      )
      expect(response.status, await response.clone().text()).toBe(201)
    }

    beforeAll(async () => {
      server = await startDashboard(dialect)
      acme = await createOrganisationWithTeam(server)
      api = await adminApi(server, acme.id)
      adminKey = (
        await createApiKey(server.database.db, {
          organisationId: acme.id,
          name: 'uploads',
          scopes: ['admin'],
          rateLimitPerMinute: 10_000,
          expiresAt: null,
        })
      ).key
      const { customer } = await api<{ customer: { id: string } }>('POST', '/customers', {
        name: 'Mrs Patel',
        address: '12 High Street, London N1',
        latitude: 51.538,
        longitude: -0.102,
      })
      const { job } = await api<{ job: { id: string } }>('POST', '/jobs', {
        title: 'Boiler service',
        customerId: customer.id,
        serviceDuration: 3600,
      })
      jobId = job.id
      const start = new Date(Date.now() + 3_600_000)
      await api('POST', `/jobs/${jobId}/assign`, {
        userId: acme.worker.id,
        scheduledStart: start.toISOString(),
        scheduledEnd: new Date(start.getTime() + 3_600_000).toISOString(),
      })
    })
    afterAll(async () => {
      await watched?.page.context().close()
      await server?.close()
    })

    it('lets an admin say what completing a job with a form template also needs', async () => {
      watched = await openPage(browser, server.url)
      page = watched.page
      await signIn(page, acme.admin, '/settings/form-templates')
      await page.getByRole('button', { name: 'Create form template' }).first().click()
      const dialog = page.getByRole('dialog', { name: 'Create form template' })
      await dialog.getByLabel('Name').fill('Boiler sign-off')
      await dialog
        .getByRole('group', { name: /^Field 1/ })
        .getByLabel('Label')
        .fill('Boiler model')
      const needs = dialog.getByRole('group', { name: 'Completing a job that needs this form also needs' })
      await needs.getByLabel("The customer's signature").check()
      await needs.getByLabel('Photos, at least').fill('2')
      await expectAccessible(page, 'the template dialog with requirements')
      await page.screenshot({ path: `${SCREENSHOTS}template-requires.png` })
      await dialog.getByRole('button', { name: 'Create form template' }).click()
      await page.getByRole('table', { name: 'Form templates' }).getByText('Boiler sign-off').waitFor()

      const { formTemplates } = await api<{ formTemplates: { name: string; requires: unknown }[] }>(
        'GET',
        '/form-templates',
      )
      expect(formTemplates.find((t) => t.name === 'Boiler sign-off')?.requires).toEqual({
        signature: true,
        photos: 2,
        notes: false,
      })
      await watched.page.context().close()
    })

    it('shows a dispatcher what completing needs, refuses what is missing, then offers the proof', async () => {
      watched = await openPage(browser, server.url)
      page = watched.page
      await signIn(page, acme.dispatcher, `/jobs/${jobId}`)
      const card = page.getByRole('region', { name: 'Proof of completion' })
      await card.getByText('Form “Boiler sign-off”: Signature and 2 photos', { exact: false }).waitFor()

      await card.getByRole('button', { name: 'Set what completing needs' }).click()
      const dialog = page.getByRole('dialog', { name: 'What completing this job needs' })
      await dialog.getByLabel('Notes on what was done').check()
      await dialog.getByRole('button', { name: 'Save' }).click()
      await dialog.waitFor({ state: 'detached' })
      const stillNeeded = card.locator('dt:has-text("Still needed") + dd')
      await expect.poll(() => stillNeeded.textContent()).toMatch(/signature.*photo.*notes/i)
      await expectAccessible(page, 'a job page with requirements')

      // Completing without them is refused, naming each.
      await api('POST', `/jobs/${jobId}/form-submissions`, {
        templateId: (
          await api<{ formTemplates: { id: string; name: string }[] }>('GET', '/form-templates')
        ).formTemplates.find((t) => t.name === 'Boiler sign-off')?.id,
        answers: { boilerModel: 'Vaillant ecoTEC' },
      })
      await api('POST', `/jobs/${jobId}/start`, {})
      const refused = await api.raw('POST', `/jobs/${jobId}/complete`, {})
      expect(refused.status).toBe(422)
      const refusal = refused.body as { code: string; details: { path: string }[] }
      expect(refusal.code).toBe('COMPLETION_REQUIREMENTS')
      expect(refusal.details.length).toBe(3)

      const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#36c' } })
        .jpeg()
        .toBuffer()
      await upload({ kind: 'PHOTO', filename: 'before.jpg' }, photo, 'image/jpeg')
      await upload({ kind: 'PHOTO', filename: 'after.jpg' }, photo, 'image/jpeg')
      const ink = await sharp({ create: { width: 300, height: 100, channels: 4, background: '#fff' } })
        .png()
        .toBuffer()
      await upload(
        { kind: 'SIGNATURE', filename: 'signature.png', signerName: 'Mrs Patel' },
        ink,
        'image/png',
      )
      await api('POST', `/jobs/${jobId}/complete`, { notes: NOTES })

      await page.reload()
      await card.getByText('Signed · 2 photos').waitFor()
      await card.getByText(NOTES, { exact: true }).waitFor()
      expect(await card.locator('b').count()).toBe(0)
      expect(await card.getByText('Still needed').count()).toBe(0)
      await expectAccessible(page, 'a completed job’s proof')
      await page.screenshot({ path: `${SCREENSHOTS}job-proof-card.png`, fullPage: true })

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        card.getByRole('link', { name: 'Download proof (PDF)' }).click(),
      ])
      expect(download.suggestedFilename()).toMatch(/^J-\d+-proof\.pdf$/)
      const pdf = await readFile((await download.path()) as string)
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-')
      expect(pdf.length).toBeGreaterThan(2_000)
    })
  })
}
