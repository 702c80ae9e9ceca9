// The dashboard in a real browser: signing in and out, a session that ends, who sees what (roles,
// plans, other organisations), and axe-core on each of those pages.
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createApiKey } from '../../src/modules/api-keys/service.js'
import { BROWSER_DIALECTS } from '../helpers.js'
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

const mainNavLinks = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: dashboard sign-in and access`, () => {
    let server: DashboardServer
    let acme: Organisation
    let watched: WatchedPage
    let page: Page

    beforeAll(async () => {
      server = await startDashboard(dialect)
      acme = await createOrganisationWithTeam(server)
    })
    afterAll(() => server?.close())
    beforeEach(async () => {
      watched = await openPage(browser, server.url)
      page = watched.page
    })
    afterEach(async () => {
      await page.context().close()
      expect(watched.problems).toEqual([])
    })

    it('signs in with email and password, back to the page asked for, and signs out', async () => {
      await page.goto('/settings/api-keys')
      await page.waitForURL('**/sign-in?next=%2Fsettings%2Fapi-keys')
      await page.getByRole('heading', { name: 'Sign in to fieldservice' }).waitFor()
      await expectAccessible(page, 'the sign-in page')

      await page.getByLabel('Email').fill(acme.admin.email.toUpperCase())
      await page.getByLabel('Password').fill('not the password at all')
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('Email or password is incorrect.')
      await page.getByLabel('Email').fill('nobody@example.com')
      await page.getByRole('button', { name: 'Sign in' }).click()
      // An unknown email reads exactly like a wrong password.
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('Email or password is incorrect.')

      await page.getByLabel('Email').fill(acme.admin.email.toUpperCase())
      await page.getByLabel('Password').fill(acme.admin.password)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL('**/settings/api-keys')
      await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor()
      expect(await mainNavLinks(page)).toEqual(
        expect.arrayContaining([
          'Dispatch board',
          'Team',
          'Organisation',
          'API keys',
          'Automations',
          'Webhook logs',
        ]),
      )

      await page.getByRole('link', { name: 'Dispatch board' }).click()
      await page.getByRole('heading', { name: 'Dispatch board', level: 1 }).waitFor()
      await expectAccessible(page, 'the home page (the dispatch board)')

      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.waitForURL('**/sign-in')
      await page.goto('/team')
      await page.waitForURL('**/sign-in?next=%2Fteam')
      const session = await page.evaluate(() => fetch('/v1/admin/session').then((r) => r.status))
      expect(session).toBe(401)
    })

    it('goes home, without a page error, when ?next= leads anywhere but a path of this app', async () => {
      // This server under another name: another origin to the browser.
      const host = new URL(server.url).host.replace('127.0.0.1', 'localhost')
      // A backslash (as typed, or percent-encoded in the link), two slashes, a tab, another scheme.
      const nexts = [
        `/%5C${host}/team`,
        `/%255C${host}/team`,
        `//${host}/team`,
        `/%09/${host}/team`,
        '/%2F%2Fevil.example/team',
        'javascript:alert(1)',
        'https://evil.example/team',
      ]
      const [first, ...others] = nexts
      await page.goto(`/sign-in?next=${first}`)
      await page.getByLabel('Email').fill(acme.admin.email)
      await page.getByLabel('Password').fill(acme.admin.password)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.getByRole('heading', { name: 'Dispatch board', level: 1 }).waitFor()
      expect(new URL(page.url()).pathname, first).toBe('/')
      // Signed in, the sign-in page sends on at once: the same check.
      for (const next of others) {
        await page.goto(`/sign-in?next=${next}`)
        await page.getByRole('heading', { name: 'Dispatch board', level: 1 }).waitFor()
        expect(new URL(page.url()).pathname, next).toBe('/')
        expect(watched.problems, next).toEqual([])
      }
    })

    it('sends a worker to My day, not the dashboard', async () => {
      await page.goto('/sign-in?next=%2Fteam')
      await page.getByLabel('Email').fill(acme.worker.email)
      await page.getByLabel('Password').fill(acme.worker.password)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL('**/my')
      await page.getByRole('link', { name: 'My day' }).waitFor()
      expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0)
    })

    it('goes back to sign-in when the session ends, then returns to the page', async () => {
      // On a page that does not poll (the board refreshes itself): every read must be answered before
      // the session goes, or one in flight would meet the 401 first and send the page to sign-in with
      // itself, not /team, as where to return.
      await signIn(page, acme.admin, '/customers')
      await page.waitForLoadState('networkidle')
      await server.database.db.deleteFrom('user_sessions').execute()
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team' }).click()
      await page.waitForURL('**/sign-in?next=%2Fteam')
      await page.getByText('Your session has ended').waitFor()
      await page.getByLabel('Email').fill(acme.admin.email)
      await page.getByLabel('Password').fill(acme.admin.password)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL('**/team')
      await page.getByRole('table', { name: 'Team members' }).getByText(acme.dispatcher.email).waitFor()
      await expectAccessible(page, 'the team page')
    })

    it('shows a dispatcher no keys, automations or organisation settings, and says so at their URLs', async () => {
      await signIn(page, acme.dispatcher)
      expect(await mainNavLinks(page)).toEqual([
        'Dispatch board',
        'Plan the day',
        'Jobs',
        'Series',
        'Customers',
        'Fleet',
        'Shifts',
        'Team',
      ])
      for (const [path, feature] of [
        ['/settings/api-keys', 'API keys'],
        ['/settings/automations', 'Automations'],
        ['/settings/webhook-logs', 'Webhook logs'],
        ['/settings/organisation', 'Organisation settings'],
      ]) {
        await page.goto(path as string)
        await page.getByRole('heading', { name: `You don’t have access to ${feature}` }).waitFor()
      }
      await expectAccessible(page, 'the no-access page')
      // And the API agrees: the session cannot reach them either.
      const status = await page.evaluate(() => fetch('/v1/admin/api-keys').then((r) => r.status))
      expect(status).toBe(403)

      await page.goto('/team')
      await page.getByRole('table', { name: 'Team members' }).getByText(acme.admin.email).waitFor()
      expect(await page.getByRole('button', { name: 'Add member' }).count()).toBe(0)
      expect(await page.getByRole('button', { name: /^Edit / }).count()).toBe(0)
    })

    it('shows a FREE organisation what Pro unlocks instead of keys and automations', async () => {
      const free = await createOrganisationWithTeam(server, { plan: 'FREE' })
      await signIn(page, free.admin)
      const apiKeysLink = page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: /API keys/ })
      expect(await apiKeysLink.textContent()).toMatch(/API keys\s*Pro/)
      await apiKeysLink.click()
      await page.getByRole('heading', { name: 'API keys are available on the Pro plan' }).waitFor()
      await expectAccessible(page, 'the upgrade page')
      await page.goto('/settings/automations')
      await page.getByRole('heading', { name: 'Automations are available on the Pro plan' }).waitFor()
      await page.getByRole('link', { name: 'See your plan' }).click()
      await page.getByRole('heading', { name: 'Organisation', level: 1 }).waitFor()
      await page.getByText('FREE', { exact: true }).waitFor()
      await expectAccessible(page, 'the organisation page')
    })

    it('treats another organisation’s automation as not found', async () => {
      const other = await createOrganisationWithTeam(server)
      const { key: otherAdminKey } = await createApiKey(server.database.db, {
        organisationId: other.id,
        name: 'admin',
        scopes: ['admin'],
        rateLimitPerMinute: 1000,
        expiresAt: null,
      })
      const created = await callApi(server, otherAdminKey, 'POST', '/v1/admin/automations', {
        event: 'JOB_CREATED',
        url: 'http://127.0.0.1:9/hook',
      })
      expect(created.status).toBe(201)
      const theirs = (created.body as { data: { automation: { id: string } } }).data.automation.id

      await signIn(page, acme.admin)
      await page.goto(`/settings/automations/${theirs}`)
      await page.getByRole('alert').getByText('Automation not found').waitFor()
      const statuses = await page.evaluate(
        (id) =>
          Promise.all([
            fetch(`/v1/admin/automations/${id}`).then((r) => r.status),
            fetch(`/v1/admin/automations/${id}/executions`).then((r) => r.status),
          ]),
        theirs,
      )
      expect(statuses).toEqual([404, 404])
    })
  })
}
