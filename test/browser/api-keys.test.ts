// Settings › API keys in a real browser: a key is shown once and works on the public API, errors
// appear next to their fields, revoking needs a confirmation and ends the key, rotating shows the
// new key once and keeps the old one for its grace period.
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

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: Settings › API keys`, () => {
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
      await signIn(page, acme.admin, '/settings/api-keys')
      await page.getByRole('table', { name: 'API keys' }).waitFor()
    })
    afterEach(async () => {
      await page.context().close()
      expect(watched.problems).toEqual([])
    })

    const row = (name: string) => page.getByRole('row').filter({ hasText: name })

    it('creates a key, shows it once, and the key works on the public API until revoked', async () => {
      await expectAccessible(page, 'the API keys page')
      await page.getByRole('button', { name: 'Create API key' }).click()
      const dialog = page.getByRole('dialog', { name: 'Create API key' })
      await dialog.waitFor()
      await expectAccessible(page, 'the create-key dialog')

      // The server's field errors appear next to their fields.
      await dialog.getByLabel('Name').fill('   ')
      await dialog.getByLabel('Read').uncheck()
      await dialog.getByRole('button', { name: 'Create key' }).click()
      await dialog.getByText(/^Name must/).waitFor()
      expect(await dialog.getByLabel('Name').getAttribute('aria-invalid')).toBe('true')

      await dialog.getByLabel('Name').fill('ERP sync')
      await dialog.getByLabel('Read').check()
      await dialog.getByLabel('Write').check()
      await dialog.getByText('30 days').click()
      await dialog.getByLabel(/Rate limit/).fill('600')
      await dialog.getByRole('button', { name: 'Create key' }).click()

      const created = page.getByRole('dialog', { name: 'API key created' })
      await created.getByText('Copy it now: it will not be shown again').waitFor()
      const key = await created.getByLabel('Secret key').inputValue()
      expect(key).toMatch(/^svc_live_[0-9A-Za-z]{32,}$/)
      await created.getByRole('button', { name: 'Copy' }).click()
      await created.getByRole('button', { name: /Copied|Selected/ }).waitFor()

      const used = await callApi(server, key, 'GET', '/v1/public/jobs')
      expect(used.status).toBe(200)
      const limited = await fetch(`${server.url}/v1/public/jobs`, {
        headers: { authorization: `Bearer ${key}` },
      })
      expect(limited.headers.get('x-ratelimit-limit')).toBe('600')

      await created.getByRole('button', { name: 'Done' }).click()
      await row('ERP sync').getByText('Active').waitFor()
      expect(await row('ERP sync').textContent()).toMatch(/read\s*write/)
      // Never shown again: not in the page, not after a reload.
      expect(await page.content()).not.toContain(key)
      await page.reload()
      await row('ERP sync').waitFor()
      expect(await page.content()).not.toContain(key)

      await row('ERP sync').getByRole('button', { name: 'Revoke ERP sync' }).click()
      const confirm = page.getByRole('dialog', { name: 'Revoke “ERP sync”?' })
      await confirm.waitFor()
      await expectAccessible(page, 'the revoke confirmation')
      await confirm.getByRole('button', { name: 'Revoke key' }).click()
      await page.getByRole('status').filter({ hasText: 'API key “ERP sync” revoked' }).waitFor()
      await row('ERP sync').getByText('Revoked').waitFor()
      expect(await row('ERP sync').getByRole('button', { name: 'Revoke ERP sync' }).count()).toBe(0)

      const refused = await callApi(server, key, 'GET', '/v1/public/jobs')
      expect(refused.status).toBe(401)
      expect(refused.body).toMatchObject({ code: 'UNAUTHORIZED' })
    })

    it('rotates a key: the new one is shown once, the old one works for its grace period', async () => {
      await row('integration').getByRole('button', { name: 'Rotate integration' }).click()
      const dialog = page.getByRole('dialog', { name: 'Rotate “integration”' })
      await dialog.getByLabel('In 1 hour').check()
      await dialog.getByRole('button', { name: 'Rotate key' }).click()
      const rotated = page.getByRole('dialog', { name: 'API key rotated' })
      const fresh = await rotated.getByLabel('New secret key').inputValue()
      expect(fresh).toMatch(/^svc_live_/)
      expect(fresh).not.toBe(acme.key)
      await rotated.getByText(/keeps working until/).waitFor()
      await rotated.getByRole('button', { name: 'Done' }).click()

      expect((await callApi(server, fresh, 'GET', '/v1/public/jobs')).status).toBe(200)
      expect((await callApi(server, acme.key, 'GET', '/v1/public/jobs')).status).toBe(200)
      await expect.poll(() => row('integration').count()).toBe(2)
      await row('integration').getByText('Expiring soon').waitFor()
      expect(await page.content()).not.toContain(fresh)
    })

    it('pages on the server', async () => {
      for (let i = 0; i < 21; i++) {
        await createApiKey(server.database.db, {
          organisationId: acme.id,
          name: `bulk ${String(i).padStart(2, '0')}`,
          scopes: ['read'],
          rateLimitPerMinute: 100,
          expiresAt: null,
        })
      }
      await page.reload()
      const pager = page.getByRole('navigation', { name: 'Pages of keys' })
      await pager.getByText(/^1–20 of \d+ keys$/).waitFor()
      await pager.getByRole('button', { name: 'Next' }).click()
      await page.waitForURL('**/settings/api-keys?page=2')
      await pager.getByText(/^21–\d+ of \d+ keys$/).waitFor()
    })
  })
}
