// Proof of completion from the phone through a dead zone (issue 31 §2), in a real browser on both
// databases: a job needing 2 photos and a signature; offline, the worker adds two photos (real JPEG
// and PNG files, downscaled and re-encoded on the phone), draws a signature and completes. All four
// wait on the phone (the pictures' bytes in IndexedDB), shown as "Waiting to send" and counted by the
// checklist; back online they are sent in order — the photos and signature before the completion,
// which the server's requirements then let through — exactly once each. The dashboard's job page then
// shows the thumbnails, and an original opens.

import type { Browser, Page } from 'playwright-core'
import sharp from 'sharp'
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

/** SCREENSHOT_DIR=docs/screenshots retakes the pictures of the phone and the dashboard (as the other browser tests). */
const SCREENSHOTS = process.env.SCREENSHOT_DIR

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

const offlineNoise = (problem: string) => /ERR_INTERNET_DISCONNECTED|Failed to fetch|ERR_FAILED/.test(problem)

/** A camera-sized photo (taller than 2048 px, so the phone must shrink it). */
const cameraJpeg = () =>
  sharp({ create: { width: 1600, height: 2400, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .jpeg()
    .toBuffer()
const smallPng = () =>
  sharp({ create: { width: 640, height: 480, channels: 4, background: { r: 220, g: 90, b: 40, alpha: 1 } } })
    .png()
    .toBuffer()

/** How many pictures' bytes the phone keeps (IndexedDB), run in the page. No DOM types here. */
function countKeptBlobs(userId: string): Promise<number> {
  interface Request<T> {
    result: T
    error: unknown
    onsuccess: (() => void) | null
    onerror: (() => void) | null
  }
  interface Database {
    transaction(store: string): { objectStore(name: string): { count(): Request<number> } }
  }
  const { indexedDB } = globalThis as unknown as { indexedDB: { open(name: string): Request<Database> } }
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(`fieldservice-my-blobs.${userId}`)
    opening.onerror = () => reject(opening.error)
    opening.onsuccess = () => {
      const count = opening.result.transaction('blobs').objectStore('blobs').count()
      count.onsuccess = () => resolve(count.result)
    }
  })
}

interface AttachmentJson {
  kind: string
  contentType: string
  signerName: string | null
  contentUrl: string
}

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: photos and signature from the phone, offline`, () => {
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
      day = await seedDay(server, acme, receiver.url, [
        { title: 'Boiler service', at: '08:00', minutes: 60, customer: 0 },
      ])
      const jobId = day.jobs['Boiler service'] as string
      const requires = { signature: true, photos: 2, notes: false }
      const set = await callApi(server, day.adminKey, 'PUT', `/v1/admin/jobs/${jobId}/requirements`, {
        requires,
      })
      expect(set.status).toBe(200)
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

    const attachmentsOnServer = async (jobId: string) => {
      const answer = await callApi(server, day.adminKey, 'GET', `/v1/admin/jobs/${jobId}/attachments`)
      return (answer.body as { data: { attachments: AttachmentJson[] } }).data.attachments
    }

    it('keeps photos and a signature made offline, sends them before the completion, once each', async () => {
      const jobId = day.jobs['Boiler service'] as string
      await signIn(page, acme.worker, '/my')
      await waitForServiceWorker(page)
      await page.reload()
      await page.getByRole('link', { name: 'Open job: Boiler service' }).click()
      await page.getByRole('heading', { name: 'Boiler service', level: 1 }).waitFor()
      await page.getByText('None yet.').waitFor() // the attachments list, kept for offline use
      // Started in the dead zone: the checklist read before the start is still there at Complete.
      await page.context().setOffline(true)
      await page.getByText(/^Offline\./).waitFor()
      await page.getByRole('button', { name: 'Start job' }).click()
      await page.getByRole('dialog').getByRole('button', { name: 'Start job' }).click()
      await page.getByText('In progress', { exact: true }).waitFor()

      const uploads: { key: string; query: string }[] = []
      page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().includes(`/my/jobs/${jobId}/attachments`)) {
          uploads.push({
            key: request.headers()['idempotency-key'] ?? '',
            query: new URL(request.url()).search,
          })
        }
      })

      const addPhoto = page.getByRole('region', { name: 'Photos and signature' }).getByLabel('Add photo')
      await addPhoto.setInputFiles({ name: 'boiler.jpg', mimeType: 'image/jpeg', buffer: await cameraJpeg() })
      await page.getByRole('img', { name: 'Photo, waiting to send' }).waitFor()
      await addPhoto.setInputFiles({ name: 'meter.png', mimeType: 'image/png', buffer: await smallPng() })
      await expect.poll(() => page.getByRole('img', { name: 'Photo, waiting to send' }).count()).toBe(2)

      // The Complete dialog asks for what is missing and reaches the signature pad.
      await page.getByRole('button', { name: 'Complete job' }).click()
      const completing = page.getByRole('dialog', { name: 'Complete this job?' })
      await completing.getByText('2 of 2, 2 waiting to send').waitFor()
      await completing.getByRole('button', { name: 'Signature' }).click()
      const signing = page.getByRole('dialog', { name: "Customer's signature" })
      const pad = signing.getByRole('img', { name: 'Signature pad: sign here' })
      const box = await pad.boundingBox()
      if (!box) throw new Error('no signature pad')
      await page.mouse.move(box.x + 20, box.y + 120)
      await page.mouse.down()
      for (let step = 1; step <= 12; step++) {
        await page.mouse.move(box.x + 20 + step * 22, box.y + 120 + Math.sin(step) * 50, { steps: 2 })
      }
      await page.mouse.up()
      await signing.getByRole('button', { name: 'Save signature' }).click()
      await signing.getByText("Write the signer's name.").waitFor() // required, checked on the phone
      await signing.getByLabel("Signer's name").fill('Priya Patel')
      await signing.getByRole('button', { name: 'Save signature' }).click()
      await signing.waitFor({ state: 'detached' })
      await completing.getByText("Customer's signature · waiting to send").waitFor()
      expect(await completing.getByText('Still needed').count()).toBe(0)
      await completing.getByRole('button', { name: 'Complete job' }).click()
      await completing.waitFor({ state: 'detached' })

      await page.getByRole('button', { name: '5 pending' }).waitFor()
      await page.getByRole('img', { name: 'Signature of Priya Patel, waiting to send' }).waitFor()
      await page.getByText('Saved on this phone, not sent yet').waitFor()
      await expectAccessible(page, 'a job with pictures waiting to send')
      if (SCREENSHOTS) {
        await page.waitForTimeout(5500) // the toasts fade
        await page.getByRole('region', { name: 'Photos and signature' }).scrollIntoViewIfNeeded()
        await page.screenshot({ path: `${SCREENSHOTS}/my-complete-offline.png` })
      }

      // A reload in the dead zone: the actions and the pictures' bytes are still on the phone.
      await page.reload()
      await page.getByRole('heading', { name: 'Boiler service', level: 1 }).waitFor()
      await expect.poll(() => page.getByRole('img', { name: /waiting to send$/ }).count()).toBe(3)
      // Tried meanwhile (the browser fails them at once), never reaching the server.
      expect(await attachmentsOnServer(jobId)).toEqual([])

      await page.context().setOffline(false)
      await expect
        .poll(() => page.getByRole('button', { name: /pending/ }).count(), { timeout: 15_000 })
        .toBe(0)
      const stored = await attachmentsOnServer(jobId)
      expect(stored.filter((a) => a.kind === 'PHOTO')).toHaveLength(2)
      expect(stored.filter((a) => a.kind === 'SIGNATURE')).toHaveLength(1)
      expect(stored).toHaveLength(3)
      // Re-encoded on the phone: every photo arrives as a JPEG, the signature as a PNG.
      expect(stored.filter((a) => a.kind === 'PHOTO').map((a) => a.contentType)).toEqual([
        'image/jpeg',
        'image/jpeg',
      ])
      expect(stored.find((a) => a.kind === 'SIGNATURE')).toMatchObject({
        contentType: 'image/png',
        signerName: 'Priya Patel',
      })
      const job = await callApi(server, day.adminKey, 'GET', `/v1/admin/jobs/${jobId}`)
      expect((job.body as { data: { job: { status: string } } }).data.job.status).toBe('COMPLETED')
      expect(new Set(uploads.map((u) => u.key)).size).toBe(3)
      // The bytes kept on the phone are gone once sent.
      const kept = await page.evaluate(countKeptBlobs, acme.worker.id)
      expect(kept).toBe(0)

      await page.reload()
      const pictures = page.getByRole('list', { name: 'Photos and signatures' })
      await expect.poll(() => pictures.getByRole('img', { name: 'Photo' }).count()).toBe(2)
      await pictures.getByRole('img', { name: 'Signature of Priya Patel' }).waitFor()
      await expect
        .poll(() =>
          pictures
            .getByRole('img')
            .evaluateAll((imgs) =>
              imgs.every((img) => (img as unknown as { naturalWidth: number }).naturalWidth > 0),
            ),
        )
        .toBe(true)
      const original = await pictures
        .getByRole('link', { name: 'Open Signature of Priya Patel' })
        .getAttribute('href')
      const opened = await page.request.get(original ?? '')
      expect(opened.status()).toBe(200)
      expect(opened.headers()['content-type']).toBe('image/png')
      if (SCREENSHOTS) {
        await page.getByRole('region', { name: 'Photos and signature' }).scrollIntoViewIfNeeded()
        await page.screenshot({ path: `${SCREENSHOTS}/my-job-attachments.png` })
      }
      // My day's card: the count and the first thumbnails, small.
      await page.getByRole('link', { name: '‹ My day' }).click()
      const card = page.getByRole('article', { name: /Boiler service/ })
      await expect
        .poll(() => card.getByRole('list', { name: 'Pictures of Boiler service' }).getByRole('img').count())
        .toBe(3)
    }, 60_000)

    it('shows the thumbnails on the dashboard job page; the original opens; an admin attaches and deletes a file', async () => {
      const jobId = day.jobs['Boiler service'] as string
      const desk = await openPage(browser, server.url)
      const office = desk.page
      try {
        await signIn(office, acme.admin, `/jobs/${jobId}`)
        const section = office.getByRole('region', { name: 'Attachments' })
        const grid = section.getByRole('list', { name: 'Photos and signatures' })
        await expect.poll(() => grid.getByRole('img').count()).toBe(3)
        await grid.getByRole('img', { name: 'Signature of Priya Patel' }).waitFor()
        await expect
          .poll(() =>
            grid
              .getByRole('img')
              .evaluateAll((imgs) =>
                imgs.every((img) => (img as unknown as { naturalWidth: number }).naturalWidth > 0),
              ),
          )
          .toBe(true)
        const link = grid.getByRole('link', { name: 'Open Signature of Priya Patel' })
        const href = (await link.getAttribute('href')) ?? ''
        expect(href).toMatch(new RegExp(`^/v1/admin/jobs/${jobId}/attachments/[^/]+/content$`))
        const [popup] = await Promise.all([office.waitForEvent('popup'), link.click()])
        await popup.waitForLoadState()
        expect(new URL(popup.url()).pathname).toBe(href)
        await popup.close()
        // The original itself, with the office's session cookie.
        const original = await office.request.get(href)
        expect(original.status()).toBe(200)
        expect(original.headers()['content-type']).toBe('image/png')

        await section.getByLabel('File to attach').setInputFiles({
          name: 'gas-certificate.pdf',
          mimeType: 'application/pdf',
          buffer: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
        })
        await section
          .getByRole('list', { name: 'Files' })
          .getByRole('link', { name: 'gas-certificate.pdf' })
          .waitFor()
        await expectAccessible(office, 'the dashboard job page with attachments')
        if (SCREENSHOTS) {
          await office.waitForTimeout(5500)
          await office
            .getByRole('region', { name: 'Proof of completion' })
            .evaluate((proof) => proof.scrollIntoView())
          await office.screenshot({ path: `${SCREENSHOTS}/job-proof.png` })
        }
        await section.getByRole('button', { name: 'Delete gas-certificate.pdf' }).click()
        await office
          .getByRole('dialog', { name: 'Delete this attachment?' })
          .getByRole('button', { name: 'Delete' })
          .click()
        await expect.poll(() => section.getByRole('list', { name: 'Files' }).count()).toBe(0)
        expect(await attachmentsOnServer(jobId)).toHaveLength(3)
      } finally {
        await office.context().close()
      }
      expect(desk.problems).toEqual([])
    }, 60_000)
  })
}
