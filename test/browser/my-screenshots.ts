// Takes the README's screenshots of the technician app on a phone (390×844): `npx tsx
// test/browser/my-screenshots.ts` writes docs/screenshots/my-*.png — My day, a job, a form, and the
// offline queue. Not a test: run it after changing how /my looks, and look at them.
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { startReceiver } from '../webhook-receiver.js'
import { launchBrowser, PHONE } from './browser.js'
import { createOrganisationWithTeam, signIn, startDashboard } from './harness.js'
import { seedDay, waitForServiceWorker } from './my-seed.js'

const out = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url))
mkdirSync(out, { recursive: true })

const server = await startDashboard('sqlite')
const receiver = await startReceiver({ status: 200, body: 'ok' })
const acme = await createOrganisationWithTeam(server, { name: 'Demo Plumbing & Heating' })
await seedDay(server, acme, receiver.url, [
  { title: 'Annual boiler service', at: '08:30', minutes: 60, gas: true, customer: 0 },
  { title: 'Leaking kitchen tap', at: '10:15', minutes: 45, customer: 1 },
  { title: 'Radiator bleed, 3 rooms', at: '13:00', minutes: 30, customer: 2 },
])

const browser = await launchBrowser()
const context = await browser.newContext({ ...PHONE, baseURL: server.url })
const page = await context.newPage()
await signIn(page, acme.worker, '/my')
await waitForServiceWorker(page)
await page.getByRole('region', { name: 'Map of the day’s route' }).waitFor()
await page.screenshot({ path: `${out}my-day.png` })

await page.getByRole('link', { name: 'Open job: Annual boiler service' }).click()
await page.getByRole('button', { name: 'Start job' }).click()
await page.getByRole('dialog').getByRole('button', { name: 'Start job' }).click()
await page.getByText('In progress', { exact: true }).waitFor()
await page.waitForTimeout(5500) // the toast fades
await page.screenshot({ path: `${out}my-job.png`, fullPage: true })

await page.getByRole('link', { name: 'Fill in Gas safety check' }).click()
await page.getByLabel('Pressure (bar)').fill('7')
await page.getByRole('button', { name: 'Submit form' }).click()
await page.getByText(/^Pressure \(bar\) must be/).waitFor()
await page
  .getByRole('group', { name: /Flue condition/ })
  .getByLabel('Good')
  .check()
await page.screenshot({ path: `${out}my-form.png`, fullPage: true })

await context.setOffline(true)
await page.getByLabel('Pressure (bar)').fill('1.9')
await page
  .getByRole('group', { name: /Any leaks found/ })
  .getByLabel('No')
  .check()
await page.getByRole('button', { name: 'Submit form' }).click()
await page.getByRole('button', { name: 'Complete job' }).click()
await page.getByRole('dialog').getByRole('button', { name: 'Complete job' }).click()
await page.waitForTimeout(5500) // the toasts fade
await page.getByRole('link', { name: '‹ My day' }).scrollIntoViewIfNeeded()
await page.getByRole('button', { name: '2 pending' }).click()
await page.getByRole('dialog', { name: 'Waiting to be sent' }).waitFor()
await page.screenshot({ path: `${out}my-offline-queue.png` })

await browser.close()
await receiver.close()
await server.close()
process.stdout.write(`screenshots written to ${out}\n`)
