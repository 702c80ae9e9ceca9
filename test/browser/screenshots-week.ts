// A screenshot of the board's week view: `npx tsx test/browser/screenshots-week.ts` writes
// docs/screenshots/board-week.png from the demo organisation (SQLite in memory) as of a Wednesday
// morning, signed in as a dispatcher, with Megan Rhodes on holiday Thursday and Friday (her jobs of
// those days handed back first). Not a test: run it after changing how the week looks, and look at it.
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { seedDemoOrganisation } from '../../src/cli/demo-seed.js'
import { createUser, setUserPassword } from '../../src/modules/organisations/users-service.js'
import { adminApi } from './admin-api.js'
import { launchBrowser } from './browser.js'
import { signIn, startDashboard } from './harness.js'

const out = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url))
mkdirSync(out, { recursive: true })

// A Wednesday, 10:40 in Manchester (UTC in winter).
const NOW = new Date('2026-12-09T10:40:00Z')
const MONDAY = '2026-12-07'

const server = await startDashboard('sqlite')
const db = server.database.db
const { organisationId } = await seedDemoOrganisation(db, NOW)
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

const api = await adminApi(server, organisationId)
const megan = await db
  .selectFrom('users')
  .select('id')
  .where('organisation_id', '=', organisationId)
  .where('name', '=', 'Megan Rhodes')
  .executeTakeFirstOrThrow()
const hers = await db
  .selectFrom('jobs')
  .select('id')
  .where('organisation_id', '=', organisationId)
  .where('assigned_user_id', '=', megan.id)
  .where('status', '=', 'ASSIGNED')
  .where('scheduled_start', '>=', '2026-12-10T00:00:00.000Z')
  .where('scheduled_start', '<', '2026-12-12T00:00:00.000Z')
  .execute()
for (const job of hers) await api('POST', `/jobs/${job.id}/unassign`)
await api('POST', `/team/users/${megan.id}/absences`, {
  startDate: '2026-12-10',
  endDate: '2026-12-11',
  reason: 'HOLIDAY',
  note: 'Long weekend away',
})

const browser = await launchBrowser()
const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 })
const page = await context.newPage()
await page.clock.install({ time: NOW })
await signIn(page, dispatcher, `${server.url}/board/week?start=${MONDAY}`)
await page.getByRole('group', { name: /^Megan Rhodes, Thursday 10 December: Holiday/ }).waitFor()
await page.waitForTimeout(300)
await page.screenshot({ path: `${out}board-week.png`, fullPage: true })

await browser.close()
await server.close()
