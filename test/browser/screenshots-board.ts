// Screenshots of the dispatch board as a dispatcher reads it mid-morning: `npx tsx
// test/browser/screenshots-board.ts` writes docs/screenshots/board.png (1440 px wide, 10:40 on the
// page's clock, the demo organisation's day) and board-job-panel.png (a job's panel open). Not a
// test: run it after changing how the board looks, and look at them.
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { seedDemoOrganisation } from '../../src/cli/demo-seed.js'
import { createUser, setUserPassword } from '../../src/modules/organisations/users-service.js'
import { launchBrowser } from './browser.js'
import { signIn, startDashboard } from './harness.js'

const out = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url))
mkdirSync(out, { recursive: true })
const zoom = process.argv[2] ?? '1'

const server = await startDashboard('sqlite')
const db = server.database.db
const { organisationId } = await seedDemoOrganisation(db)
const dispatcher = { email: 'dana.dispatch@demo-plumbing.example', password: 'screenshots only' }
const user = await createUser(db, organisationId, {
  name: 'Dana Lewis',
  email: dispatcher.email,
  role: 'DISPATCHER',
})
await setUserPassword(db, organisationId, user.id, dispatcher.password, { ln: 4, r: 8, p: 1 })

const browser = await launchBrowser()
const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, deviceScaleFactor: 1 })
const page = await context.newPage()
// Mid-morning of today (the demo's week contains it), on the page's clock.
const today = new Date().toISOString().slice(0, 10)
await page.clock.setFixedTime(new Date(`${today}T10:40:00Z`))
await signIn(page, dispatcher, `${server.url}/${zoom === '1' ? '' : `?zoom=${zoom}`}`)
await page
  .getByRole('region', { name: 'Map' })
  .getByTitle(/^Depot: /)
  .first()
  .waitFor()
await page.waitForTimeout(500)
await page.screenshot({ path: `${out}board.png` })

await page.locator('.timeline-track .block').nth(2).click()
await page.getByRole('dialog').getByText('Address', { exact: true }).waitFor()
await page.waitForTimeout(300)
await page.screenshot({ path: `${out}board-job-panel.png` })

await browser.close()
await server.close()
process.stdout.write(`screenshots written to ${out}\n`)
