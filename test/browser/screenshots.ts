// Takes the README's screenshots of the dashboard: `npx tsx test/browser/screenshots.ts` writes
// docs/screenshots/*.png from the demo organisation (SQLite in memory, a local webhook receiver),
// signed in as its admin. Not a test: run it after changing how the pages look, and look at them.
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { seedDemoOrganisation } from '../../src/cli/demo-seed.js'
import { createApiKey } from '../../src/modules/api-keys/service.js'
import { createUser, setUserPassword } from '../../src/modules/organisations/users-service.js'
import { startReceiver } from '../webhook-receiver.js'
import { launchBrowser } from './browser.js'
import { callApi, signIn, startDashboard } from './harness.js'

const out = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url))
mkdirSync(out, { recursive: true })

const server = await startDashboard('sqlite', { planWorkers: 1 })
const receiver = await startReceiver({
  status: 200,
  body: '{"received":true,"id":"evt_7f3a"}',
  headers: { 'content-type': 'application/json', 'x-request-id': 'req_91c2d7' },
})
const db = server.database.db
const { organisationId } = await seedDemoOrganisation(db)
const admin = { email: 'sam.admin@demo-plumbing.example', password: 'screenshots only, not a real password' }
const user = await createUser(db, organisationId, { name: 'Sam Carter', email: admin.email, role: 'ADMIN' })
await setUserPassword(db, organisationId, user.id, admin.password, { ln: 4, r: 8, p: 1 })

const issue = (name: string, scopes: ('read' | 'write' | 'admin')[], days: number | null, rate: number) =>
  createApiKey(db, {
    organisationId,
    name,
    scopes,
    rateLimitPerMinute: rate,
    expiresAt: days === null ? null : new Date(Date.now() + days * 86_400_000).toISOString(),
  })
const erp = await issue('ERP sync (SAP Business One)', ['read', 'write'], 365, 600)
await issue('Website booking form', ['write'], 5, 120)
await issue('Reporting warehouse', ['read'], null, 1000)
const revoked = await issue('Old Zapier integration', ['read', 'write'], null, 100)
await db
  .updateTable('api_keys')
  .set({ revoked_at: new Date().toISOString() })
  .where('id', '=', revoked.record.id)
  .execute()
const adminKey = (await issue('Ops scripts', ['admin'], 90, 300)).key
await callApi(server, erp.key, 'GET', '/v1/public/jobs')

const automation = await callApi(server, adminKey, 'POST', '/v1/admin/automations', {
  name: 'ERP: new jobs',
  event: 'JOB_CREATED',
  url: `${receiver.url}/hooks/fieldservice`,
})
await callApi(server, adminKey, 'POST', '/v1/admin/automations', {
  name: 'Slack: cancellations',
  event: 'JOB_CANCELLED',
  url: `${receiver.url}/slack`,
  isActive: false,
})
for (const title of ['Annual boiler service', 'Radiator bleed, 3 rooms']) {
  await callApi(server, erp.key, 'POST', '/v1/public/jobs', { title, priority: 'HIGH' })
}
await receiver.waitFor(2)
receiver.respond({
  status: 502,
  body: '<html><body>Bad gateway</body></html>',
  headers: { 'content-type': 'text/html' },
})
await callApi(server, erp.key, 'POST', '/v1/public/jobs', { title: 'Leaking kitchen tap' })
await receiver.waitFor(3)
receiver.respond({
  status: 200,
  body: '{"received":true,"id":"evt_7f3a"}',
  headers: { 'content-type': 'application/json', 'x-request-id': 'req_91c2d7' },
})
await callApi(server, erp.key, 'POST', '/v1/public/jobs', { title: 'Replace thermostat, Didsbury' })
await receiver.waitFor(4)
await server.app.webhooks.dispatcher.drain()

const browser = await launchBrowser()
const context = await browser.newContext({ viewport: { width: 1360, height: 820 }, deviceScaleFactor: 1 })
const page = await context.newPage()
await page.goto(`${server.url}/sign-in`)
await page.screenshot({ path: `${out}sign-in.png` })
await signIn(page, admin, `${server.url}/settings/api-keys`)
await page.getByRole('table', { name: 'API keys' }).waitFor()
await page.screenshot({ path: `${out}api-keys.png` })

await page.getByRole('button', { name: 'Create API key' }).click()
const dialog = page.getByRole('dialog', { name: 'Create API key' })
await dialog.getByLabel('Name').fill('Xero invoicing')
await dialog.getByLabel('Write').check()
await dialog.getByText('1 year').click()
await dialog.getByLabel(/Rate limit/).fill('300')
await page.screenshot({ path: `${out}api-key-create.png` })
await dialog.getByRole('button', { name: 'Create key' }).click()
await page.getByRole('dialog', { name: 'API key created' }).waitFor()
await page.screenshot({ path: `${out}api-key-created.png` })

const automationId = (automation.body as { data: { automation: { id: string } } }).data.automation.id
await page.goto(`${server.url}/settings/automations`)
await page.getByRole('table', { name: 'Automations' }).waitFor()
await page.screenshot({ path: `${out}automations.png` })
await page.goto(`${server.url}/settings/automations/${automationId}`)
await page.getByRole('table', { name: 'Webhook deliveries' }).getByText('502 Failed').click()
await page.getByRole('dialog', { name: 'Job created' }).getByText('Bad gateway').waitFor()
await page.screenshot({ path: `${out}webhook-log-detail.png` })

// The dispatch board of today (the demo's week contains it) with its map, and a plan of the day.
await page.setViewportSize({ width: 1360, height: 1060 })
await page.goto(`${server.url}/`)
await page
  .getByRole('region', { name: 'Map' })
  .getByTitle(/^Depot: /)
  .first()
  .waitFor()
await page.waitForTimeout(500)
await page.screenshot({ path: `${out}dispatch-board.png` })
await page.goto(`${server.url}/plan`)
await page.getByLabel('Time limit').selectOption('5')
await page.getByRole('button', { name: 'Run the optimiser' }).click()
await page.getByRole('button', { name: 'Apply plan' }).waitFor({ timeout: 60_000 })
await page.setViewportSize({ width: 1360, height: 1300 })
await page
  .getByRole('heading', { name: /^Plan for / })
  .evaluate((heading) =>
    (heading as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: 'start' }),
  )
await page.waitForTimeout(500)
await page.screenshot({ path: `${out}plan-preview.png` })

await browser.close()
await receiver.close()
await server.close()
process.stdout.write(`screenshots written to ${out}\n`)
