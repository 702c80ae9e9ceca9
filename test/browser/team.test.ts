// Team and Organisation in a real browser: add a dispatcher and give them a password (they can then
// sign in), change a role, deactivate with confirmation; change a worker's colour (by pointer and by
// keyboard); rename the organisation, with the server's field error next to the field; the not-found
// page.
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { BROWSER_DIALECTS } from '../helpers.js'
import { type AdminApi, adminApi } from './admin-api.js'
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
    let api: AdminApi
    let watched: WatchedPage
    let page: Page

    beforeAll(async () => {
      server = await startDashboard(dialect)
      acme = await createOrganisationWithTeam(server)
      api = await adminApi(server, acme.id)
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
        .getByRole('button', { name: `Edit ${acme.worker.name}` })
        .click()
      const role = page.getByRole('dialog', { name: `Edit ${acme.worker.name}` })
      await role.getByLabel('Dispatcher').check()
      await role.getByRole('button', { name: 'Save' }).click()
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

    it('changes a worker’s colour, shown beside their name and kept; the choice works by keyboard', async () => {
      type User = { id: string; name: string; email: string; colour: number }
      const { user } = await api<{ user: User }>('POST', '/team/users', {
        name: 'Cora Colour',
        email: `cora.${acme.id.slice(-6)}@example.com`,
      })
      expect(user.colour).not.toBe(5)
      const swatch = () => row(user.email).locator('.colour-swatch')
      const edit = page.getByRole('dialog', { name: `Edit ${user.name}` })
      const colours = edit.getByRole('radiogroup', { name: 'Colour' })
      const openEdit = async () => {
        await row(user.email)
          .getByRole('button', { name: `Edit ${user.name}` })
          .click()
        await colours.waitFor()
      }

      await signIn(page, acme.admin, '/team')
      expect(await swatch().getAttribute('data-colour')).toBe(String(user.colour))
      await openEdit()
      expect(await colours.getByRole('radio').count()).toBe(8)
      expect(await colours.getByRole('radio', { name: `Colour ${user.colour}` }).isChecked()).toBe(true)
      // The radio is visually hidden: a person clicks its swatch.
      const five = colours.getByRole('radio', { name: 'Colour 5' })
      await colours.locator('label', { has: page.getByRole('radio', { name: 'Colour 5' }) }).click()
      expect(await five.isChecked()).toBe(true)
      await expectAccessible(page, 'the edit-member dialog')
      await page.screenshot({ path: join(tmpdir(), `team-colour-edit-${dialect}.png`) })
      await page.setViewportSize({ width: 390, height: 844 })
      await page.screenshot({ path: join(tmpdir(), `team-colour-edit-390-${dialect}.png`) })
      await page.setViewportSize({ width: 1360, height: 900 })
      const patch = page.waitForRequest((request) => request.method() === 'PATCH')
      await edit.getByRole('button', { name: 'Save' }).click()
      // Only what changed is sent: the role stays out of the request.
      expect((await patch).postDataJSON()).toEqual({ colour: 5 })
      await edit.waitFor({ state: 'detached' })

      await expect.poll(() => swatch().getAttribute('data-colour')).toBe('5')
      // Painted in the palette's fifth colour, as the board and the maps draw the worker now.
      const [painted, route5] = await swatch().evaluate((swatch) => {
        const probe = swatch.ownerDocument.body.appendChild(swatch.ownerDocument.createElement('span'))
        probe.style.background = 'var(--route-5)'
        const view = swatch.ownerDocument.defaultView
        const colours = [
          view?.getComputedStyle(swatch).backgroundColor,
          view?.getComputedStyle(probe).backgroundColor,
        ]
        probe.remove()
        return colours
      })
      expect(painted).toBe(route5)
      expect(painted).toMatch(/^rgb\(/)
      await page.reload()
      await swatch().waitFor()
      expect(await swatch().getAttribute('data-colour')).toBe('5')
      const { users } = await api<{ users: User[] }>(
        'GET',
        `/team/users?search=${encodeURIComponent(user.email)}`,
      )
      expect(users.map((u) => [u.id, u.colour])).toEqual([[user.id, 5]])

      // Native radios: the checked one takes the focus, ArrowRight moves the choice to the next.
      await openEdit()
      expect(await five.isChecked()).toBe(true)
      await five.focus()
      await page.keyboard.press('ArrowRight')
      const six = colours.getByRole('radio', { name: 'Colour 6' })
      expect(await six.isChecked()).toBe(true)
      expect(await six.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true)
      expect(await five.isChecked()).toBe(false)
      // The focus ring is drawn round the focused swatch (the radio itself is visually hidden).
      const ring = await colours
        .locator('label', { has: page.getByRole('radio', { name: 'Colour 6' }) })
        .evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).outlineStyle)
      expect(ring).toBe('solid')
      await edit.screenshot({ path: join(tmpdir(), `team-colour-focus-${dialect}.png`) })
      await edit.getByRole('button', { name: 'Cancel' }).click()
      await edit.waitFor({ state: 'detached' })
      expect(await swatch().getAttribute('data-colour')).toBe('5')
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

    it("downloads the organisation's whole data as its archive", async () => {
      await api('POST', '/customers', { name: 'Archived customer', latitude: 53.48, longitude: -2.24 })
      await signIn(page, acme.admin, '/settings/organisation')
      const data = page.getByRole('region', { name: 'Your data' })
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        data.getByRole('link', { name: 'Download all your data' }).click(),
      ])
      expect(download.suggestedFilename()).toMatch(/^fieldservice-archive-\d{4}-\d{2}-\d{2}\.ndjson\.gz$/)
      const lines = gunzipSync(await readFile((await download.path()) as string))
        .toString('utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
      expect(lines[0]).toMatchObject({ format: 'fieldservice-archive', version: 1 })
      expect(lines.some((line) => line.data?.name === 'Archived customer')).toBe(true)
    })

    it('says so when a page does not exist', async () => {
      await signIn(page, acme.admin, '/no/such/page')
      await page.getByRole('heading', { name: 'Page not found' }).waitFor()
      await expectAccessible(page, 'the not-found page')
    })
  })
}
