// Screenshots of the Jobs, Customers, Fleet and Shifts pages: `npx tsx test/browser/screenshots-pages.ts`
// writes docs/screenshots/{jobs,job-detail,job-edit,customers,customer-edit,fleet,vehicle-edit,shifts,
// shift-edit}.png from the demo organisation (SQLite in memory), signed in as a dispatcher. Not a
// test: run it after changing how these pages look, and look at them.
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { seedDemoOrganisation } from '../../src/cli/demo-seed.js'
import { createUser, setUserPassword } from '../../src/modules/organisations/users-service.js'
import { launchBrowser } from './browser.js'
import { signIn, startDashboard } from './harness.js'

const out = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url))
mkdirSync(out, { recursive: true })

const server = await startDashboard('sqlite')
const db = server.database.db
const { organisationId } = await seedDemoOrganisation(db)
const dispatcher = {
  email: 'dana.dispatch@demo-plumbing.example',
  password: 'screenshots only, not a real password',
}
const user = await createUser(db, organisationId, {
  name: 'Dana Lewis',
  email: dispatcher.email,
  role: 'DISPATCHER',
})
await setUserPassword(db, organisationId, user.id, dispatcher.password, { ln: 4, r: 8, p: 1 })

const browser = await launchBrowser()
const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, deviceScaleFactor: 1 })
const page = await context.newPage()
const shot = (name: string) => page.screenshot({ path: `${out}${name}.png` })

await signIn(page, dispatcher, `${server.url}/jobs`)
await page.getByRole('table', { name: 'Jobs' }).getByRole('link').first().waitFor()
await shot('jobs')

await page.getByLabel('Status').selectOption('ASSIGNED')
await page.getByRole('table', { name: 'Jobs' }).getByRole('link').first().click()
await page.getByRole('button', { name: 'Unassign' }).waitFor()
await shot('job-detail')
await page.getByRole('button', { name: 'Edit' }).click()
await page.getByRole('dialog').getByLabel('Title').waitFor()
await shot('job-edit')

await page.goto(`${server.url}/customers`)
await page.getByRole('table', { name: 'Customers' }).getByRole('button').first().waitFor()
await shot('customers')
await page
  .getByRole('table', { name: 'Customers' })
  .getByRole('button', { name: /^Edit / })
  .first()
  .click()
await page.getByRole('dialog').getByLabel('Latitude').waitFor()
await page.waitForTimeout(300)
await shot('customer-edit')

await page.goto(`${server.url}/fleet`)
await page.getByRole('table', { name: 'Vehicles' }).getByRole('button').first().waitFor()
// Tall enough for the tags and capacity dimensions under the vehicles.
await page.setViewportSize({ width: 1360, height: 1480 })
await shot('fleet')
await page.setViewportSize({ width: 1360, height: 900 })
await page
  .getByRole('table', { name: 'Vehicles' })
  .getByRole('button', { name: /^Edit vehicle/ })
  .first()
  .click()
await page.getByRole('dialog').getByLabel('Cost per km').waitFor()
await shot('vehicle-edit')

await page.goto(`${server.url}/shifts`)
await page.getByRole('table', { name: /^Week of shifts/ }).waitFor()
await shot('shifts')
await page
  .getByRole('table', { name: /^Week of shifts/ })
  .getByRole('button', { name: /breaks/ })
  .first()
  .click()
await page.getByRole('dialog').getByLabel('Starts', { exact: true }).waitFor()
await shot('shift-edit')

await browser.close()
await server.close()
process.stdout.write(`screenshots written to ${out}\n`)
