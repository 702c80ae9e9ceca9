// Team and Organisation in a real browser: add a dispatcher and give them a password (they can then
// sign in), change a role, deactivate with confirmation; rename the organisation, with the server's
// field error next to the field; the not-found page.
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { BROWSER_DIALECTS } from '../helpers.js'
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

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: Team and Organisation`, () => {
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

    const row = (text: string) => page.getByRole('row').filter({ hasText: text })

    it('adds a dispatcher with a password, who can then sign in; changes a role; deactivates', async () => {
      await signIn(page, acme.admin, '/team')
      await page.getByRole('button', { name: 'Add member' }).click()
      const add = page.getByRole('dialog', { name: 'Add team member' })
      await add.getByLabel('Name').fill('Priya Patel')
      await add.getByLabel('Email').fill(acme.worker.email)
      await add.getByLabel('Dispatcher').check()
      await add.getByRole('button', { name: 'Add member' }).click()
      // The email is taken: the server's 409 names the field, so it shows next to it.
      await add.getByText('Email is already taken').waitFor()
      expect(await add.getByLabel('Email').getAttribute('aria-invalid')).toBe('true')
      await expectAccessible(page, 'the add-member dialog with an error')
      await add.getByLabel('Email').fill(`priya.${acme.id.slice(-6)}@example.com`)
      await add.getByRole('button', { name: 'Add member' }).click()

      const password = page.getByRole('dialog', { name: 'Set Priya Patel’s password' })
      await password.getByLabel('New password').fill('too short')
      await password.getByLabel('Repeat the password').fill('too short')
      await password.getByRole('button', { name: 'Save password' }).click()
      await password.getByText('New password must be at least 12 characters').waitFor()
      await password.getByLabel('New password').fill('plum tree bicycle harbour')
      await password.getByLabel('Repeat the password').fill('plum tree bicycle harbour')
      await password.getByRole('button', { name: 'Save password' }).click()
      await row('Priya Patel').getByText('Can sign in').waitFor()

      await row(acme.worker.email)
        .getByRole('button', { name: `Change role of ${acme.worker.name}` })
        .click()
      const role = page.getByRole('dialog', { name: `Change ${acme.worker.name}’s role` })
      await role.getByLabel('Dispatcher').check()
      await role.getByRole('button', { name: 'Save role' }).click()
      await row(acme.worker.email).getByText('Dispatcher').waitFor()

      await row(acme.dispatcher.email)
        .getByRole('button', { name: `Deactivate ${acme.dispatcher.name}` })
        .click()
      const confirm = page.getByRole('dialog', { name: `Deactivate ${acme.dispatcher.name}?` })
      await confirm.getByRole('button', { name: 'Deactivate' }).click()
      await row(acme.dispatcher.email).getByText('Deactivated').waitFor()
      await expectAccessible(page, 'the team page with actions')

      await page.getByRole('button', { name: 'Sign out' }).click()
      await signIn(page, {
        email: `priya.${acme.id.slice(-6)}@example.com`,
        password: 'plum tree bicycle harbour',
      })
      expect(await page.getByText('Dispatcher', { exact: false }).first().isVisible()).toBe(true)
      await page.getByRole('button', { name: 'Sign out' }).click()
      // The deactivated dispatcher cannot sign in any more: the one generic answer.
      await page.getByLabel('Email').fill(acme.dispatcher.email)
      await page.getByLabel('Password').fill(acme.dispatcher.password)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('Email or password is incorrect.')
    })

    it('renames the organisation, showing a refused name next to the field', async () => {
      await signIn(page, acme.admin, '/settings/organisation')
      const name = page.getByLabel('Organisation name')
      await name.fill('   ')
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await page.getByText(/^Organisation name must/).waitFor()
      expect(await name.getAttribute('aria-invalid')).toBe('true')
      await name.fill('Acme Plumbing & Heating')
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await page.getByRole('status').filter({ hasText: 'Organisation name saved' }).waitFor()
      await page.getByRole('complementary').getByText('Acme Plumbing & Heating').waitFor()
      expect(await page.getByLabel('API base URL').inputValue()).toBe(`${server.url}/v1/public`)
      expect(await page.getByRole('link', { name: 'Public API playground' }).getAttribute('href')).toBe(
        '/v1/public/docs',
      )
      expect(await page.getByRole('link', { name: 'Admin API playground' }).getAttribute('href')).toBe(
        '/v1/admin/docs',
      )
    })

    it('says so when a page does not exist', async () => {
      await signIn(page, acme.admin, '/no/such/page')
      await page.getByRole('heading', { name: 'Page not found' }).waitFor()
      await expectAccessible(page, 'the not-found page')
    })
  })
}
