// Screenshots of job series: `npx tsx test/browser/screenshots-series.ts` writes
// docs/screenshots/series.png (a quarterly series' page: its rule in words, next visits with one
// skipped and one moved, the job made) and series-repeat.png ("Repeat…" on a job: the rule editor with
// its words and next dates), signed in as a dispatcher. The server's clock stands ten days before the
// first visit, so the first visit's job is made. Not a test: run it after changing how these pages
// look, and look at them.
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { zonedToUtc } from '../../web/src/lib/time.js'
import { adminApi } from './admin-api.js'
import { launchBrowser } from './browser.js'
import { createOrganisationWithTeam, signIn, startDashboard } from './harness.js'

const out = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url))
mkdirSync(out, { recursive: true })

/** The 2nd Tuesday of the month `offset` months after this one. */
function secondTuesday(offset: number): string {
  const now = new Date()
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1))
  const firstTuesday = 1 + ((2 - first.getUTCDay() + 7) % 7)
  return new Date(first.getTime() + (firstTuesday + 6) * 86_400_000).toISOString().slice(0, 10)
}

const jobDate = secondTuesday(2)
const [first = '', second = ''] = [secondTuesday(5), secondTuesday(8)]
const server = await startDashboard('sqlite', {
  clock: () => Date.parse(`${first}T08:00:00Z`) - 10 * 86_400_000,
})
const acme = await createOrganisationWithTeam(server, { name: 'Demo Plumbing' })
const api = await adminApi(server, acme.id)
const { location } = await api<{ location: { id: string } }>('POST', '/locations', {
  name: 'Salford depot',
  code: 'SAL',
  latitude: 53.48,
  longitude: -2.29,
  timezone: 'Europe/London',
  isPrimary: true,
})
const { customer } = await api<{ customer: { id: string } }>('POST', '/customers', {
  name: 'Harbour Café',
  address: '1 Quay Street, Salford M3 3JE',
  latitude: 53.47,
  longitude: -2.25,
})
const { job } = await api<{ job: { id: string } }>('POST', '/jobs', {
  title: 'Quarterly boiler check',
  customerId: customer.id,
  locationId: location.id,
  serviceDuration: 3600,
  priority: 'HIGH',
  earliestStart: zonedToUtc(jobDate, '09:00', 'Europe/London').toISOString(),
  latestEnd: zonedToUtc(jobDate, '12:00', 'Europe/London').toISOString(),
  timeWindowType: 'HARD',
})

const browser = await launchBrowser()
const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, deviceScaleFactor: 1 })
const page = await context.newPage()
await signIn(page, acme.dispatcher, `${server.url}/jobs/${job.id}`)
await page.getByRole('button', { name: 'Repeat…' }).click()
const dialog = page.getByRole('dialog', { name: 'Repeat Quarterly boiler check' })
const choose = (name: string) =>
  dialog.locator('label', { has: page.getByRole('radio', { name, exact: true }) }).click()
await choose('Monthly')
await dialog.getByLabel('Every', { exact: true }).fill('3')
await dialog.getByRole('radio', { name: /^on the/ }).check()
await dialog.getByText('Every 3 months on the 2nd Tuesday, 09:00–12:00 (must be kept)').waitFor()
await page.setViewportSize({ width: 1360, height: 1300 })
await page.screenshot({ path: `${out}series-repeat.png` })
await dialog.getByRole('button', { name: 'Create series' }).click()
await page.getByRole('table', { name: 'Next visits' }).waitFor()
const seriesId = new URL(page.url()).pathname.split('/').pop() as string
await api('POST', `/job-series/${seriesId}/occurrences/${second}/skip`)
const third = secondTuesday(11)
const moved = new Date(Date.parse(`${third}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
await api('POST', `/job-series/${seriesId}/occurrences/${third}/move`, { date: moved })
await page.reload()
await page.getByRole('table', { name: 'Jobs made' }).getByRole('link').first().waitFor()
await page.setViewportSize({ width: 1360, height: 1000 })
await page.screenshot({ path: `${out}series.png`, fullPage: true })

await browser.close()
await server.close()
process.stdout.write(`screenshots written to ${out}\n`)
