// Jobs in a real browser, signed in as a dispatcher: a job created through the form (the API's field
// error next to its field; customer, depot, a window typed on the depot's New York wall clock, tags
// and demands), checked through the API; assign, start and complete, each confirmed, cancel with a
// reason and delete; filters, the title search and paging answered by the server with the state in
// the URL; a job's form submissions and their answers; another organisation's job is not found.
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

interface Job {
  id: string
  title: string
  status: string
  priority: string
  customerId: string | null
  locationId: string | null
  earliestStart: string | null
  latestEnd: string | null
  timeWindowType: string
  serviceDuration: number
  scheduledStart: string | null
  scheduledEnd: string | null
  assignedUserId: string | null
  tags: { tag: { name: string } }[]
  demands: { capacityDimension: { key: string }; requiredValue: number }[]
}

const depot = (name: string, code: string, timezone: string) => ({
  name,
  code,
  latitude: 53.48,
  longitude: -2.24,
  timezone,
})

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: Jobs`, () => {
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

    it('creates a job with a window on its depot’s clock, tags and demands, after a field error', async () => {
      const other = await createOrganisationWithTeam(server)
      const otherApi = await adminApi(server, other.id)
      const { location } = await otherApi<{ location: { id: string } }>(
        'POST',
        '/locations',
        depot('Brooklyn Yard', 'BKN', 'America/New_York'),
      )
      const { customer } = await otherApi<{ customer: { id: string } }>('POST', '/customers', {
        name: 'Harbour Café',
        latitude: 40.7,
        longitude: -74,
      })
      await otherApi('POST', '/tags', { name: 'gas-safe' })
      await otherApi('POST', '/capacity-dimensions', { key: 'weight_kg', label: 'Weight (kg)' })

      await signIn(page, other.dispatcher, '/jobs')
      await page.getByText('No jobs yet').waitFor()
      await expectAccessible(page, 'the empty jobs page')
      await page.getByRole('button', { name: 'Create job' }).first().click()
      const dialog = page.getByRole('dialog', { name: 'Create job' })
      await dialog.getByRole('button', { name: 'Create job' }).click()
      await dialog.getByText(/^Title must/).waitFor()
      expect(await dialog.getByLabel('Title').getAttribute('aria-invalid')).toBe('true')
      // No geocoder on this server and no map in the dialog: the address is text, the coordinates typed.
      await dialog
        .getByText(
          'Leave blank to use the customer’s. No address lookup on this service: type the coordinates.',
          {
            exact: false,
          },
        )
        .waitFor()
      await expectAccessible(page, 'the job form with an error')

      await dialog.getByLabel('Title').fill('Boiler service')
      await dialog.getByLabel('Find customer').fill('harb')
      await expect
        .poll(() => dialog.getByLabel('Customer', { exact: true }).locator('option').count())
        .toBe(2)
      await dialog.getByLabel('Customer', { exact: true }).selectOption({ label: 'Harbour Café' })
      await dialog.getByLabel('Depot').selectOption({ label: 'Brooklyn Yard' })
      await dialog.getByText('Times are in America/New_York, the depot’s time zone.').waitFor()
      await dialog.getByLabel('Priority').selectOption('HIGH')
      await dialog.getByLabel('Earliest start').fill('2026-12-01T09:00')
      await dialog.getByLabel('Latest end').fill('2026-12-01T12:00')
      await dialog.getByLabel('Time window').selectOption('HARD')
      await dialog.getByLabel('Service time (minutes)').fill('90')
      await dialog.getByLabel('gas-safe').check()
      await dialog.getByLabel(/Weight \(kg\)/).fill('30')
      await dialog.getByRole('button', { name: 'Create job' }).click()

      await page.getByRole('heading', { name: /^Boiler service/ }).waitFor()
      const id = new URL(page.url()).pathname.split('/').pop() as string
      await page.getByText('1 Dec 2026, 09:00 GMT-5 – 1 Dec 2026, 12:00 GMT-5').waitFor()
      await expectAccessible(page, 'a job')
      const { job } = await otherApi<{ job: Job }>('GET', `/jobs/${id}`)
      expect(job).toMatchObject({
        title: 'Boiler service',
        status: 'CREATED',
        priority: 'HIGH',
        customerId: customer.id,
        locationId: location.id,
        earliestStart: '2026-12-01T14:00:00.000Z',
        latestEnd: '2026-12-01T17:00:00.000Z',
        timeWindowType: 'HARD',
        serviceDuration: 5400,
        tags: [{ tag: { name: 'gas-safe' } }],
        demands: [{ capacityDimension: { key: 'weight_kg' }, requiredValue: 30 }],
      })

      await page.getByRole('button', { name: 'Edit' }).click()
      const edit = page.getByRole('dialog', { name: 'Edit Boiler service' })
      expect(await edit.getByLabel('Earliest start').inputValue()).toBe('2026-12-01T09:00')
      await edit.getByLabel('gas-safe').uncheck()
      await edit.getByLabel('Title').fill('Boiler service and flue check')
      await edit.getByRole('button', { name: 'Save job' }).click()
      await page.getByRole('heading', { name: /^Boiler service and flue check/ }).waitFor()
      const { job: edited } = await otherApi<{ job: Job }>('GET', `/jobs/${id}`)
      expect(edited).toMatchObject({
        title: 'Boiler service and flue check',
        tags: [],
        earliestStart: job.earliestStart,
      })
    })

    it('assigns, starts and completes a job, each confirmed; cancels another with a reason, then deletes it', async () => {
      const { location } = await api<{ location: { id: string } }>(
        'POST',
        '/locations',
        depot('Salford', 'SAL', 'Europe/London'),
      )
      const { job } = await api<{ job: Job }>('POST', '/jobs', {
        title: 'Radiator bleed',
        locationId: location.id,
        serviceDuration: 1800,
      })
      const { job: spare } = await api<{ job: Job }>('POST', '/jobs', { title: 'Quote visit' })
      // The worker's Wednesday shift is chosen for a Wednesday visit; Monday's is offered under "Other days".
      const { vehicle } = await api<{ vehicle: { id: string } }>('POST', '/vehicles', {
        name: 'Van 7',
        locationId: location.id,
      })
      const shiftOn = (day: string) =>
        api<{ shift: { id: string } }>('POST', '/shifts', {
          userId: acme.worker.id,
          locationId: location.id,
          vehicleId: vehicle.id,
          day,
          startTime: '08:00',
          endTime: '16:00',
        })
      const { shift: wednesday } = await shiftOn('WEDNESDAY')
      await shiftOn('MONDAY')

      await signIn(page, acme.dispatcher, `/jobs/${job.id}`)
      await page.getByRole('button', { name: 'Assign' }).click()
      const assign = page.getByRole('dialog', { name: 'Assign Radiator bleed' })
      await assign.getByLabel('Worker').selectOption({ label: acme.worker.name })
      await assign.getByLabel('Day').fill('2026-12-02')
      await assign.getByLabel('Starts').fill('10:00')
      expect(await assign.getByLabel('Ends').inputValue()).toBe('10:30')
      // Chosen once the worker's shifts have loaded.
      await expect.poll(() => assign.getByLabel('Shift').inputValue()).toBe(wednesday.id)
      expect(await assign.locator('optgroup[label="Other days"] option').allTextContents()).toEqual([
        'Monday 08:00–16:00 · Van 7 · Salford',
      ])
      await expectAccessible(page, 'the assign dialog')
      await assign.getByRole('button', { name: 'Assign job' }).click()
      await page.getByRole('heading', { name: /Assigned$/ }).waitFor()
      expect(await api<{ job: Job }>('GET', `/jobs/${job.id}`)).toMatchObject({
        job: {
          status: 'ASSIGNED',
          assignedUserId: acme.worker.id,
          shiftId: wednesday.id,
          scheduledStart: '2026-12-02T10:00:00.000Z',
          scheduledEnd: '2026-12-02T10:30:00.000Z',
        },
      })

      await page.getByRole('button', { name: 'Start' }).click()
      const start = page.getByRole('dialog', { name: 'Start this job?' })
      await expectAccessible(page, 'a lifecycle confirmation')
      await start.getByRole('button', { name: 'Start job' }).click()
      await page.getByRole('heading', { name: /In progress$/ }).waitFor()
      await page.getByRole('button', { name: 'Complete' }).click()
      await page
        .getByRole('dialog', { name: 'Complete this job?' })
        .getByRole('button', { name: 'Complete job' })
        .click()
      await page.getByRole('heading', { name: /Completed$/ }).waitFor()
      expect(await page.getByRole('button', { name: 'Cancel job' }).count()).toBe(0)
      expect((await api<{ job: Job }>('GET', `/jobs/${job.id}`)).job.status).toBe('COMPLETED')

      await page.goto(`/jobs/${spare.id}`)
      await page.getByRole('button', { name: 'Cancel job' }).click()
      const cancel = page.getByRole('dialog', { name: 'Cancel this job?' })
      await cancel.getByLabel('Reason').fill('Customer moved house')
      // Closing without confirming changes nothing.
      await cancel.getByRole('button', { name: 'Cancel', exact: true }).click()
      expect((await api<{ job: Job }>('GET', `/jobs/${spare.id}`)).job.status).toBe('CREATED')
      await page.getByRole('button', { name: 'Cancel job' }).click()
      await page
        .getByRole('dialog', { name: 'Cancel this job?' })
        .getByRole('button', { name: 'Cancel job' })
        .click()
      await page.getByRole('heading', { name: /Cancelled$/ }).waitFor()
      expect((await api<{ job: Job }>('GET', `/jobs/${spare.id}`)).job.status).toBe('CANCELLED')

      await page.getByRole('button', { name: 'Delete', exact: true }).click()
      await page
        .getByRole('dialog', { name: 'Delete Quote visit?' })
        .getByRole('button', { name: 'Delete job' })
        .click()
      await page.getByRole('heading', { name: 'Jobs', level: 1 }).waitFor()
      await page.getByRole('status').filter({ hasText: 'Job deleted' }).waitFor()
      expect((await api.raw('GET', `/jobs/${spare.id}`)).status).toBe(404)
    })

    it('filters and pages on the server, keeping the state in the URL', async () => {
      const other = await createOrganisationWithTeam(server)
      const otherApi = await adminApi(server, other.id)
      const { customer } = await otherApi<{ customer: { id: string } }>('POST', '/customers', {
        name: 'Northern Fish Bar',
        latitude: 53.5,
        longitude: -2.2,
      })
      for (let i = 1; i <= 27; i++) {
        await otherApi('POST', '/jobs', {
          title: `Job ${String(i).padStart(2, '0')}`,
          priority: i % 9 === 0 ? 'HIGH' : 'NORMAL',
          ...(i <= 2 ? { customerId: customer.id } : {}),
        })
      }
      await signIn(page, other.dispatcher, '/jobs')
      await page.getByText('1–25 of 27 jobs').waitFor()
      await expectAccessible(page, 'the jobs list')

      const second = page.waitForRequest((r) => /\/v1\/admin\/jobs\?.*page=2/.test(r.url()))
      await page.getByRole('button', { name: 'Next' }).click()
      await second
      await page.getByText('26–27 of 27 jobs').waitFor()
      expect(new URL(page.url()).searchParams.get('page')).toBe('2')

      const high = page.waitForRequest((r) => /\/v1\/admin\/jobs\?.*priority=HIGH/.test(r.url()))
      await page.getByLabel('Priority').selectOption('HIGH')
      await high
      await page.getByText('1–3 of 3 jobs').waitFor()
      const url = new URL(page.url())
      expect(url.searchParams.get('priority')).toBe('HIGH')
      expect(url.searchParams.get('page')).toBeNull()

      const searched = page.waitForRequest((r) => /\/v1\/admin\/jobs\?.*search=Job(\+|%20)09/.test(r.url()))
      await page.getByLabel('Search', { exact: true }).fill('Job 09')
      await searched
      await page.getByText('1–1 of 1 jobs').waitFor()
      expect(new URL(page.url()).searchParams.get('q')).toBe('Job 09')
      expect(new URL(page.url()).searchParams.get('priority')).toBe('HIGH')

      await page.getByLabel('Status').selectOption('CANCELLED')
      await page.getByText('No job matches these filters').waitFor()
      await page.getByRole('button', { name: 'Clear filters' }).first().click()
      await page.getByText('1–25 of 27 jobs').waitFor()
      expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('')

      // A customer's jobs, from the URL alone (the Customers page links here).
      const ofCustomer = page.waitForRequest((r) => r.url().includes(`customerId=${customer.id}`))
      await page.goto(`/jobs?customer=${customer.id}`)
      await ofCustomer
      await page.getByText('1–2 of 2 jobs').waitFor()
      expect(await page.getByLabel('Customer', { exact: true }).inputValue()).toBe(customer.id)
      await page.getByRole('link', { name: 'Job 02' }).click()
      await page.getByRole('heading', { name: /^Job 02/ }).waitFor()
    })

    it('lists a job’s form submissions and shows their answers', async () => {
      const { job } = await api<{ job: Job }>('POST', '/jobs', { title: 'Annual gas check' })
      await api('POST', `/jobs/${job.id}/form-submissions`, {
        form: 'Boiler checklist',
        answers: {
          pressureBar: 1.5,
          leaks: false,
          notes: 'Replaced valve',
          photos: ['front.jpg', 'flue.jpg'],
        },
        submittedByUserId: acme.worker.id,
      })
      await signIn(page, acme.dispatcher, `/jobs/${job.id}`)
      const row = page
        .getByRole('table', { name: 'Form submissions' })
        .getByRole('row')
        .filter({ hasText: 'Boiler checklist' })
      await row.getByText(acme.worker.name).waitFor()
      await row.getByRole('button', { name: 'View answers of Boiler checklist' }).click()
      const sheet = page.getByRole('dialog', { name: 'Boiler checklist' })
      await sheet.getByText('pressure Bar').waitFor()
      await sheet.getByText('1.5', { exact: true }).waitFor()
      await sheet.getByText('No', { exact: true }).waitFor()
      await sheet.getByText('front.jpg, flue.jpg').waitFor()
      await expectAccessible(page, 'a form submission')
    })

    it('treats another organisation’s job as not found', async () => {
      const other = await createOrganisationWithTeam(server)
      const otherApi = await adminApi(server, other.id)
      const { job } = await otherApi<{ job: Job }>('POST', '/jobs', { title: 'Not yours' })
      await signIn(page, acme.dispatcher, `/jobs/${job.id}`)
      await page.getByRole('alert').getByText('Job not found').waitFor()
      expect(await page.getByText('Not yours').count()).toBe(0)
      await expectAccessible(page, 'a job that is not found')
    })
  })
}
