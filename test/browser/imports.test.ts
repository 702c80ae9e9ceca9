// Importing from a spreadsheet in a real browser, as a dispatcher: a customers file whose columns
// have the office's own names (guessed, one corrected by hand), checked first — what would be created,
// each refused row with its row number and field, the first rows as read — then imported with its
// progress; the same file again changes nothing; a jobs file names its customers by their reference.
// The lists download what their filters show.
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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

// The pictures in docs/screenshots are retaken with SCREENSHOT_DIR=docs/screenshots; a plain run
// writes them to the temporary folder and leaves the repository as it was.
const SCREENSHOTS = `${process.env.SCREENSHOT_DIR ?? tmpdir()}/`

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

const quote = (cell: string) => (/[",\n\r]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)
const csv = (rows: string[][]) => `${rows.map((row) => row.map(quote).join(',')).join('\r\n')}\r\n`

/** 300 customers as an office keeps them; rows 51, 102 and 203 of the file (the header is row 1) are bad. */
function customersFile(): string {
  const rows = [['Account No', 'Company', 'Street', 'Lat', 'Lng', 'Town', 'Access']]
  for (let i = 1; i <= 300; i++) {
    const name = i === 101 ? '' : `Customer ${i}, Ltd`
    const lat = i === 50 ? 'north' : (53.4 + i / 10_000).toFixed(5)
    const lng = i === 202 ? '200' : (-2.2 - i / 10_000).toFixed(5)
    rows.push([`ACC-${i}`, name, `${i} High Street`, lat, lng, 'Manchester', i % 2 ? 'Ring twice' : ''])
  }
  return csv(rows)
}

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: Import from a spreadsheet`, () => {
    let server: DashboardServer
    let acme: Organisation
    let api: AdminApi
    let watched: WatchedPage
    let page: Page
    const file = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) })

    beforeAll(async () => {
      server = await startDashboard(dialect)
      acme = await createOrganisationWithTeam(server)
      api = await adminApi(server, acme.id)
      watched = await openPage(browser, server.url)
      page = watched.page
      page.setDefaultTimeout(20_000)
      await signIn(page, acme.dispatcher, '/customers')
    })
    afterAll(async () => {
      await watched?.page.context().close()
      await server?.close()
    })

    it('checks a customers file, shows each refused row, imports it, and importing it again changes nothing', async () => {
      await page.getByRole('link', { name: 'Import CSV' }).click()
      await page.getByRole('heading', { name: 'Import from a spreadsheet' }).waitFor()
      expect(await page.getByRole('radio', { name: /^Customers/ }).isChecked()).toBe(true)
      await page.getByLabel('CSV file').setInputFiles(file('customers.csv', customersFile()))
      await page.getByText('customers.csv · ').waitFor()
      // The columns are guessed from their names; Town is no field, Access is mapped by hand to notes.
      const column = (label: string) => page.getByLabel(`Column for ${label}`)
      expect(await column('External reference').inputValue()).toBe('Account No')
      expect(await column('Name').inputValue()).toBe('Company')
      expect(await column('Address').inputValue()).toBe('Street')
      expect(await column('Latitude').inputValue()).toBe('Lat')
      expect(await column('Longitude').inputValue()).toBe('Lng')
      expect(await column('Notes').inputValue()).toBe('')
      await column('Notes').selectOption('Access')
      await page.getByText('Not imported: Town.').waitFor()
      await expectAccessible(page, 'the import page, columns mapped')
      await page.screenshot({ path: `${SCREENSHOTS}import-mapping.png`, fullPage: true })

      // Without a reference column nothing can be sent.
      await column('External reference').selectOption('')
      await page.getByText('Choose the column of external reference.').waitFor()
      expect(await page.getByRole('button', { name: 'Check the file' }).isDisabled()).toBe(true)
      await column('External reference').selectOption('Account No')

      await page.getByRole('button', { name: 'Check the file' }).click()
      const outcome = page.getByRole('region', { name: 'The check' })
      await outcome.waitFor()
      const counts = outcome.getByRole('definition')
      expect(await counts.allTextContents()).toEqual(['297', '0', '0', '3'])
      const refused = outcome.getByRole('table', { name: 'Refused rows' }).getByRole('row')
      expect(await refused.count()).toBe(4)
      expect(await refused.nth(1).getByRole('cell').allTextContents()).toEqual([
        '51',
        'Latitude',
        expect.stringMatching(/latitude/i),
      ])
      expect((await refused.nth(2).getByRole('cell').allTextContents()).slice(0, 2)).toEqual(['102', 'Name'])
      expect((await refused.nth(3).getByRole('cell').allTextContents()).slice(0, 2)).toEqual([
        '203',
        'Longitude',
      ])
      const sample = outcome.getByRole('table', { name: 'First rows as read' })
      await sample.getByRole('cell', { name: 'Customer 1, Ltd' }).waitFor()
      await sample.getByRole('cell', { name: 'Ring twice' }).first().waitFor()
      await expectAccessible(page, 'the check of a file')
      await page.screenshot({ path: `${SCREENSHOTS}import-preview.png`, fullPage: true })
      // A check writes nothing.
      expect((await api<{ customers: unknown[] }>('GET', '/customers?limit=1')).customers).toEqual([])

      await page.getByRole('button', { name: 'Import customers' }).click()
      const imported = page.getByRole('region', { name: 'Imported' })
      await imported.waitFor()
      expect(await imported.getByRole('definition').allTextContents()).toEqual(['297', '0', '0', '3'])
      await page.screenshot({ path: `${SCREENSHOTS}import-result.png`, fullPage: true })
      const listed = await api<{
        customers: { name: string; notes: string | null }[]
        pagination: { total: number }
      }>('GET', '/customers?search=Customer 7, Ltd')
      expect(listed.customers).toMatchObject([{ name: 'Customer 7, Ltd', notes: 'Ring twice' }])
      expect(
        (await api<{ pagination: { total: number } }>('GET', '/customers?limit=1')).pagination.total,
      ).toBe(297)

      // The same file again: nothing created, nothing changed.
      await page.getByRole('button', { name: 'Import customers' }).click()
      await page.getByRole('progressbar', { name: 'Importing the file' }).waitFor({ state: 'detached' })
      await imported.waitFor()
      expect(await imported.getByRole('definition').allTextContents()).toEqual(['0', '0', '297', '3'])
      expect(
        (await api<{ pagination: { total: number } }>('GET', '/customers?limit=1')).pagination.total,
      ).toBe(297)

      await imported.getByRole('link', { name: 'Open Customers' }).click()
      await page
        .getByRole('table', { name: 'Customers' })
        .getByText(/^Customer \d+, Ltd$/)
        .first()
        .waitFor()
      await page.getByText(/ of 297 customers$/).waitFor()
    }, 60_000)

    it('imports jobs for the customers by their reference, and shows a file it cannot read', async () => {
      await page.goto('/jobs')
      await page.getByRole('link', { name: 'Import CSV' }).click()
      expect(await page.getByRole('radio', { name: /^Jobs/ }).isChecked()).toBe(true)
      const jobs = csv([
        ['Job No', 'Job title', 'Account No', 'Priority'],
        ['W-1', 'Annual boiler service', 'ACC-1', 'HIGH'],
        ['W-2', 'Filter change', 'ACC-2', 'NORMAL'],
        ['W-3', 'Unknown customer', 'ACC-999', 'NORMAL'],
      ])
      await page.getByLabel('CSV file').setInputFiles(file('jobs.csv', jobs))
      expect(await page.getByLabel('Column for External reference').inputValue()).toBe('Job No')
      expect(await page.getByLabel('Column for Customer (external reference)').inputValue()).toBe(
        'Account No',
      )
      await page.getByRole('button', { name: 'Import jobs' }).click()
      const imported = page.getByRole('region', { name: 'Imported' })
      await imported.waitFor()
      expect(await imported.getByRole('definition').allTextContents()).toEqual(['2', '0', '0', '1'])
      await imported.getByRole('cell', { name: /ACC-999/ }).waitFor()
      const { jobs: made } = await api<{ jobs: { title: string; customer: { name: string } | null }[] }>(
        'GET',
        '/jobs?search=Annual',
      )
      expect(made).toMatchObject([{ title: 'Annual boiler service', customer: { name: 'Customer 1, Ltd' } }])

      // A file the server cannot read as the kind: no reference column at all.
      await page.getByLabel('CSV file').setInputFiles(file('empty.csv', ''))
      await page.getByText('This file is empty').waitFor()
    })

    it('downloads the Jobs list as its filters show it', async () => {
      await page.goto('/jobs?q=filter')
      await page.getByRole('table', { name: 'Jobs' }).getByText('Filter change').waitFor()
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download CSV' }).click(),
      ])
      const text = await readFile((await download.path()) as string, 'utf8')
      const lines = text.trim().split('\n')
      expect(lines).toHaveLength(2)
      expect(lines[1]).toContain('Filter change')
      expect(download.suggestedFilename()).toBe('jobs.csv')

      await page.goto('/customers?q=Customer 29')
      const [customers] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download CSV' }).click(),
      ])
      const rows = (await readFile((await customers.path()) as string, 'utf8')).trim().split('\n')
      // Customer 29, 290–299 (the refused 202 is not among them).
      expect(rows).toHaveLength(12)
      expect(watched.problems).toEqual([])
    })

    it('downloads the team, fleet, shifts and series lists as CSV, as filtered', async () => {
      const { location } = await api<{ location: { id: string } }>('POST', '/locations', {
        name: 'North, depot',
        code: 'NTH',
        latitude: 53.5,
        longitude: -2.2,
        timezone: 'Europe/London',
      })
      const { vehicle } = await api<{ vehicle: { id: string } }>('POST', '/vehicles', {
        name: '=Van 1',
        locationId: location.id,
      })
      await api('POST', '/shifts', {
        userId: acme.worker.id,
        locationId: location.id,
        vehicleId: vehicle.id,
        day: 'MONDAY',
        startTime: '08:00',
        endTime: '16:00',
      })
      await api('POST', '/job-series', {
        job: { title: 'Weekly clean' },
        rrule: 'FREQ=WEEKLY',
        startDate: '2027-01-04',
      })
      const download = async (path: string, name = 'Download CSV') => {
        await page.goto(path)
        const [file] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name }).first().click(),
        ])
        return {
          name: file.suggestedFilename(),
          lines: (await readFile((await file.path()) as string, 'utf8')).trim().split('\r\n'),
        }
      }
      const team = await download('/team?role=WORKER')
      expect(team.name).toBe('team.csv')
      expect(team.lines).toHaveLength(2)
      expect(team.lines[1]).toContain(acme.worker.email)
      const vehicles = await download('/fleet', 'Download CSV')
      expect(vehicles.name).toBe('depots.csv')
      expect(vehicles.lines[1]).toContain('"North, depot",NTH')
      await page.goto('/fleet')
      const [van] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('region', { name: 'Vehicles' }).getByRole('button', { name: 'Download CSV' }).click(),
      ])
      const vans = (await readFile((await van.path()) as string, 'utf8')).trim().split('\r\n')
      expect(vans[1]).toContain(',\'=Van 1,"North, depot",')
      const shifts = await download(`/shifts?depot=${location.id}`)
      expect(shifts.name).toBe('shifts-NTH.csv')
      expect(shifts.lines[1]).toContain(`${acme.worker.name},MONDAY,08:00,16:00`)
      const series = await download('/series')
      expect(series.lines[1]).toContain('Weekly clean,,FREQ=WEEKLY,2027-01-04')
      expect(watched.problems).toEqual([])
    })

    it("downloads the admin's settings lists (API keys without key material, automations, form templates)", async () => {
      const created = await api<{ apiKey: { id: string }; secret?: string; key?: string }>(
        'POST',
        '/api-keys',
        {
          name: '@Nightly sync',
          scopes: ['read'],
        },
      )
      await api('POST', '/automations', {
        name: 'Tell the ERP',
        event: 'JOB_CREATED',
        url: 'https://erp.example.com/hooks/T0K3N?sig=abc',
      })
      await api('POST', '/form-templates', {
        name: 'Boiler check',
        description: 'Every visit',
        appliesTo: 'ALL_JOBS',
        fields: [{ key: 'notes', label: 'Notes', type: 'LONG_TEXT' }],
      })
      const admin = await openPage(browser, server.url)
      try {
        await signIn(admin.page, acme.admin, '/settings/api-keys')
        const download = async (path: string) => {
          await admin.page.goto(path)
          const [file] = await Promise.all([
            admin.page.waitForEvent('download'),
            admin.page.getByRole('button', { name: 'Download CSV' }).click(),
          ])
          return {
            name: file.suggestedFilename(),
            text: await readFile((await file.path()) as string, 'utf8'),
          }
        }
        const keys = await download('/settings/api-keys')
        expect(keys.name).toBe('api-keys.csv')
        expect(keys.text).toContain(`${created.apiKey.id},'@Nightly sync,read,`)
        // Whatever the create answer called the secret, none of it is in the file.
        const secret = JSON.stringify(created).match(/"(?:secret|key|token)":"([^"]+)"/)?.[1]
        expect(secret).toBeTruthy()
        expect(keys.text).not.toContain(secret as string)
        const automations = await download('/settings/automations?event=JOB_CREATED')
        expect(automations.name).toBe('automations.csv')
        expect(automations.text).toContain('Tell the ERP,JOB_CREATED,SEND_WEBHOOK,erp.example.com,true,')
        expect(automations.text).not.toContain('T0K3N')
        const none = await download('/settings/automations?event=JOB_COMPLETED')
        expect(none.text.trim().split('\r\n')).toHaveLength(1)
        const templates = await download('/settings/form-templates')
        expect(templates.name).toBe('form-templates.csv')
        expect(templates.text).toContain('Boiler check,Every visit,ALL_JOBS,,Notes,true,')
        expect(admin.problems).toEqual([])
      } finally {
        await admin.page.context().close()
      }
    })
  })
}
