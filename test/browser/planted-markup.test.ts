// Strings users typed never become markup (issue 27): every name and text the dashboard and My day
// show is set, through the admin API, to markup that would make elements if a page parsed it — a
// <meta> refresh to /planted, bold text, an image and a "Session expired" link — and every page that
// shows them is opened. On each: no planted element and no <meta http-equiv> in the document, no
// navigation to /planted, and the text itself on the page (so the page really drew the name). The
// map labels are included: the pin picker's permanent depot labels (where a depot name once drew a
// fake sign-in link over the map), the board map's tooltips and My day's map.
import type { Browser, Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createApiKey } from '../../src/modules/api-keys/service.js'
import { setOff } from '../../src/modules/tracking/service.js'
import { BROWSER_DIALECTS } from '../helpers.js'
import { type Receiver, startReceiver } from '../webhook-receiver.js'
import { type AdminApi, adminApi } from './admin-api.js'
import { launchBrowser, openPage, PHONE, type WatchedPage } from './browser.js'
import {
  createOrganisationWithTeam,
  type DashboardServer,
  type Organisation,
  signIn,
  startDashboard,
} from './harness.js'

const WEEKDAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']

/** A refresh 30 s away: a navigation it caused would be seen, and cannot race the test. */
const MARKUP = '<meta http-equiv="refresh" content="30;url=/planted"><b data-planted="1">b</b>'
const PHISHING =
  '<img data-planted="2" src="x"><a data-planted="3" href="/x">Session expired: sign in again</a>'

/** `label` and the markup, as much of it as the field's `room` takes (both parts when it can). */
function planted(label: string, room = 255): string {
  const whole = `${label}${MARKUP}${PHISHING}`
  return whole.length <= room ? whole : `${label}${MARKUP}`
}

const TEXT = {
  organisation: planted('Org'),
  admin: planted('Admin'),
  // Markup without a space in the first word too: the tracking page shows the first name.
  worker: planted('<b/data-planted="w">W</b>orker'),
  depot: planted('Depot'),
  depotCode: 'N<b data-planted="c">c</b>',
  depotAddress: planted('Depot address'),
  depotDescription: planted('Depot notes'),
  tag: planted('Tag', 100),
  capacity: planted('Load', 100),
  vehicle: planted('Van'),
  customer: planted('Customer'),
  customerAddress: planted('Customer address'),
  assigned: planted('Assigned job'),
  jobAddress: planted('Job address'),
  description: planted('Job notes'),
  unassigned: planted('Tray job'),
  form: planted('Form'),
  formDescription: planted('Form notes'),
  field: planted('Field', 200),
  option: planted('Option', 200),
  answer: planted('Answer'),
  apiKey: planted('Key', 100),
  automation: planted('Hook', 200),
  response: planted('Response'),
  signer: planted('Signer', 200),
}

/** A signature on the job, its signer's name planted (uploads are raw bytes, not JSON). */
async function plantSignature(server: DashboardServer, organisationId: string, jobId: string): Promise<void> {
  const { key } = await createApiKey(server.database.db, {
    organisationId,
    name: 'signature upload',
    scopes: ['admin'],
    rateLimitPerMinute: 10_000,
    expiresAt: null,
  })
  const png = await sharp({ create: { width: 64, height: 32, channels: 4, background: '#ffffff' } })
    .png()
    .toBuffer()
  const query = new URLSearchParams({ kind: 'SIGNATURE', signerName: TEXT.signer })
  const answer = await fetch(`${server.url}/v1/admin/jobs/${jobId}/attachments?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'image/png' },
    body: new Uint8Array(png),
  })
  expect(answer.status).toBe(201)
}

interface Seeded {
  date: string
  depotId: string
  customerId: string
  assignedId: string
  templateId: string
  automationId: string
}

/** Today (UTC, the depot's zone) with every editable name planted: a day on the board and on /my. */
async function seed(api: AdminApi, acme: Organisation, receiver: Receiver): Promise<Seeded> {
  const now = new Date()
  const date = now.toISOString().slice(0, 10)
  await api('PATCH', '/organisation', { name: TEXT.organisation })
  await api('PATCH', `/team/users/${acme.admin.id}`, { name: TEXT.admin })
  await api('PATCH', `/team/users/${acme.worker.id}`, { name: TEXT.worker })
  const { automation } = await api<{ automation: { id: string } }>('POST', '/automations', {
    name: TEXT.automation,
    event: 'JOB_CREATED',
    url: `${receiver.url}/created`,
  })
  const { location } = await api<{ location: { id: string } }>('POST', '/locations', {
    name: TEXT.depot,
    code: TEXT.depotCode,
    address: TEXT.depotAddress,
    description: TEXT.depotDescription,
    latitude: 51.55,
    longitude: -0.1,
    timezone: 'UTC',
    isPrimary: true,
  })
  const { tag } = await api<{ tag: { id: string } }>('POST', '/tags', { name: TEXT.tag })
  const { capacityDimension } = await api<{ capacityDimension: { id: string } }>(
    'POST',
    '/capacity-dimensions',
    { key: 'load', label: TEXT.capacity },
  )
  const { vehicle } = await api<{ vehicle: { id: string } }>('POST', '/vehicles', {
    name: TEXT.vehicle,
    locationId: location.id,
    tagIds: [tag.id],
    capacities: [{ capacityDimensionId: capacityDimension.id, maxValue: 100 }],
  })
  const { shift } = await api<{ shift: { id: string } }>('POST', '/shifts', {
    userId: acme.worker.id,
    locationId: location.id,
    vehicleId: vehicle.id,
    day: WEEKDAYS[now.getUTCDay()],
    startTime: '00:00',
    endTime: '23:59',
  })
  const { customer } = await api<{ customer: { id: string } }>('POST', '/customers', {
    name: TEXT.customer,
    address: TEXT.customerAddress,
    latitude: 51.538,
    longitude: -0.102,
  })
  const { formTemplate } = await api<{ formTemplate: { id: string } }>('POST', '/form-templates', {
    name: TEXT.form,
    description: TEXT.formDescription,
    appliesTo: 'ALL_JOBS',
    fields: [
      { key: 'notes', label: TEXT.field, type: 'LONG_TEXT' },
      { key: 'choice', label: 'Choice', type: 'CHOICE', options: [TEXT.option, 'Plain'] },
    ],
  })
  const { job: assigned } = await api<{ job: { id: string } }>('POST', '/jobs', {
    title: TEXT.assigned,
    description: TEXT.description,
    customerId: customer.id,
    serviceDuration: 3600,
  })
  await api('PUT', `/jobs/${assigned.id}/tags`, { tagIds: [tag.id] })
  await api('POST', `/jobs/${assigned.id}/assign`, {
    userId: acme.worker.id,
    shiftId: shift.id,
    scheduledStart: `${date}T09:00:00.000Z`,
    scheduledEnd: `${date}T10:00:00.000Z`,
  })
  await api('POST', `/jobs/${assigned.id}/form-submissions`, {
    templateId: formTemplate.id,
    answers: { notes: TEXT.answer, choice: TEXT.option },
    submittedByUserId: acme.worker.id,
  })
  // A visit at a place of its own: My day names the job's address rather than a customer's.
  const { job: elsewhere } = await api<{ job: { id: string } }>('POST', '/jobs', {
    title: 'Delivery',
    address: TEXT.jobAddress,
    jobLatitude: 51.55,
    jobLongitude: -0.11,
    serviceDuration: 1800,
  })
  await api('POST', `/jobs/${elsewhere.id}/assign`, {
    userId: acme.worker.id,
    shiftId: shift.id,
    scheduledStart: `${date}T13:00:00.000Z`,
    scheduledEnd: `${date}T13:30:00.000Z`,
  })
  await api('POST', '/jobs', {
    title: TEXT.unassigned,
    jobLatitude: 51.56,
    jobLongitude: -0.12,
    serviceDuration: 1800,
    earliestStart: `${date}T08:00:00.000Z`,
    latestEnd: `${date}T16:00:00.000Z`,
  })
  await api('POST', '/api-keys', { name: TEXT.apiKey, scopes: ['read'] })
  // The two JOB_CREATED deliveries, answered with planted markup (shown in the delivery's detail).
  await receiver.waitFor(2)
  return {
    date,
    depotId: location.id,
    customerId: customer.id,
    assignedId: assigned.id,
    templateId: formTemplate.id,
    automationId: automation.id,
  }
}

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: names with markup in them stay text`, () => {
    let server: DashboardServer
    let acme: Organisation
    let receiver: Receiver
    let day: Seeded
    let watched: WatchedPage
    let navigations: string[]

    beforeAll(async () => {
      server = await startDashboard(dialect)
      acme = await createOrganisationWithTeam(server)
      receiver = await startReceiver({ status: 200, body: TEXT.response })
      day = await seed(await adminApi(server, acme.id), acme, receiver)
      await plantSignature(server, acme.id, day.assignedId)
    })
    afterAll(async () => {
      await receiver?.close()
      await server?.close()
    })
    afterEach(async () => {
      await watched.page.context().close()
      expect(navigations.filter((url) => url.includes('/planted'))).toEqual([])
      expect(watched.problems).toEqual([])
    })

    const open = async (options = {}) => {
      watched = await openPage(browser, server.url, options)
      navigations = []
      watched.page.on('framenavigated', (frame) => navigations.push(frame.url()))
      return watched.page
    }

    /** Each text is on the page, drawn as text: no element of the markup made it into the document. */
    const expectText = async (page: Page, where: string, texts: string[]) => {
      const made = () =>
        page.evaluate(() => {
          const scope = globalThis as unknown as {
            document: { querySelectorAll(selector: string): { length: number } }
          }
          return {
            planted: scope.document.querySelectorAll('[data-planted]').length,
            refresh: scope.document.querySelectorAll('meta[http-equiv]').length,
          }
        })
      // Before the texts are looked for too: parsed markup would not read as the text.
      expect(await made(), where).toEqual({ planted: 0, refresh: 0 })
      for (const text of texts) await page.getByText(text).filter({ visible: true }).first().waitFor()
      expect(await made(), where).toEqual({ planted: 0, refresh: 0 })
      expect(new URL(page.url()).pathname, where).not.toBe('/planted')
    }

    describe('on the dashboard, signed in as an admin', () => {
      let page: Page
      beforeEach(async () => {
        page = await open()
        await signIn(page, acme.admin, `/?date=${day.date}&location=${day.depotId}`)
      })

      it('the board, its tray and its map', async () => {
        await expectText(page, 'the board', [
          TEXT.organisation,
          TEXT.admin,
          TEXT.worker,
          TEXT.assigned,
          TEXT.unassigned,
        ])
        // The map's tooltips are made when a marker is hovered.
        await page.getByTitle(TEXT.unassigned).first().hover()
        await page.getByRole('tooltip').first().waitFor()
        await expectText(page, 'a tooltip of the board map', [`${TEXT.unassigned} · Unassigned`])
        // The week view's blocks (their title attribute too: written as the text, never parsed).
        await page.goto(`/board/week?location=${day.depotId}`)
        await expectText(page, 'the week view', [TEXT.worker, TEXT.assigned])
        expect(await page.getByTitle(TEXT.assigned, { exact: false }).count()).toBeGreaterThan(0)
        await page.goto('/plan')
        await expectText(page, 'the plan page', [TEXT.organisation])
      })

      it('the jobs list, a job and its form answers', async () => {
        await page.goto('/jobs')
        await expectText(page, 'the jobs list', [TEXT.assigned, TEXT.unassigned, TEXT.customer])
        await page.goto(`/jobs/${day.assignedId}`)
        await expectText(page, 'a job', [
          TEXT.assigned,
          TEXT.description,
          TEXT.customer,
          TEXT.tag,
          TEXT.worker,
          TEXT.signer,
        ])
        await page.getByRole('button', { name: `View answers of ${TEXT.form}` }).click()
        await expectText(page, 'a form submission', [TEXT.answer, TEXT.option])
      })

      it('the customers, and the customer dialog with the depots on its pin picker', async () => {
        // From the board, as in the report: the depots are already loaded when the dialog opens.
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Customers' }).click()
        await expectText(page, 'the customers list', [TEXT.customer, TEXT.customerAddress])
        await page.getByRole('button', { name: 'Add customer' }).first().click()
        const map = page.getByRole('dialog', { name: 'Add customer' }).getByRole('group', {
          name: 'Customer location map',
        })
        // The depots' permanent labels: counted before their text is looked for.
        await map.getByRole('tooltip').first().waitFor()
        await expectText(page, 'the Add customer dialog', [TEXT.depot])
        // A fresh load: the depots arrive after the map is made.
        await page.goto(`/customers?customer=${day.customerId}`)
        const edit = page.getByRole('dialog', { name: `Edit ${TEXT.customer}` })
        await edit.getByRole('group', { name: 'Customer location map' }).getByRole('tooltip').waitFor()
        await expectText(page, 'the Edit customer dialog', [TEXT.depot])
      })

      it("the import page: a file's column names and cells", async () => {
        const header = planted('Column')
        const cell = planted('Cell')
        const quoted = (row: string[]) => row.map((text) => `"${text.replace(/"/g, '""')}"`).join(',')
        const text = [
          quoted(['externalId', 'name', 'latitude', 'longitude', header]),
          quoted(['P-1', cell, '53.5', '-2.2', 'x']),
        ]
        await page.goto('/import?kind=customers')
        await page.getByLabel('CSV file').setInputFiles({
          name: 'planted.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(`${text.join('\r\n')}\r\n`),
        })
        await expectText(page, 'the import mapping', [`Not imported: ${header}.`])
        await page.getByRole('button', { name: 'Check the file' }).click()
        await page.getByRole('table', { name: 'First rows as read' }).waitFor()
        await expectText(page, 'the import check', [cell])
      })

      it('the fleet, shifts and team', async () => {
        await page.goto('/fleet')
        await expectText(page, 'the fleet page', [
          TEXT.depot,
          TEXT.depotCode,
          TEXT.depotAddress,
          TEXT.vehicle,
          TEXT.tag,
          TEXT.capacity,
        ])
        await page.goto(`/fleet?depot-edit=${day.depotId}`)
        await page.getByRole('group', { name: 'Depot location map' }).waitFor()
        await expectText(page, 'the depot dialog', [TEXT.depot])
        await page.goto(`/shifts?depot=${day.depotId}`)
        await expectText(page, 'the shifts week', [TEXT.worker, TEXT.vehicle])
        await page.goto('/team')
        await expectText(page, 'the team page', [TEXT.admin, TEXT.worker])
      })

      it('the settings: organisation, form templates, API keys, automations and deliveries', async () => {
        await page.goto('/settings/organisation')
        await expectText(page, 'the organisation page', [TEXT.organisation])
        await page.goto('/settings/form-templates')
        await expectText(page, 'the form templates', [TEXT.form])
        await page.goto('/settings/api-keys')
        await expectText(page, 'the API keys', [TEXT.apiKey])
        await page.goto('/settings/automations')
        await expectText(page, 'the automations', [TEXT.automation])
        await page.goto(`/settings/automations/${day.automationId}`)
        await expectText(page, 'an automation', [TEXT.automation])
        await page.goto('/settings/webhook-logs')
        await expectText(page, 'the webhook logs', [TEXT.automation])
        await page
          .getByRole('table', { name: 'Webhook deliveries' })
          .getByRole('button', { name: 'JOB_CREATED' })
          .first()
          .click()
        await expectText(page, 'a delivery', [TEXT.response])
      })
    })

    it("the customer's tracking page: the organisation, the technician's first name and the job title", async () => {
      await setOff(
        server.database.db,
        acme.id,
        acme.worker.id,
        day.assignedId,
        server.url,
        new Date().toISOString(),
      )
      const [event] = await server.database.db
        .selectFrom('outbox_events')
        .select('data')
        .where('organisation_id', '=', acme.id)
        .where('event', '=', 'JOB_EN_ROUTE')
        .execute()
      const token = (JSON.parse(event?.data ?? '{}') as { trackingUrl: string }).trackingUrl.split('/t/')[1]
      const page = await open(PHONE)
      await page.goto(`/t/${token}`)
      await page.getByText('On the way').waitFor()
      const firstName = TEXT.worker.split(' ')[0] as string
      expect(firstName).toContain('data-planted')
      await expectText(page, 'the tracking page', [
        TEXT.organisation,
        TEXT.assigned,
        `Your technician: ${firstName}`,
      ])
    })

    it('My day on a phone: the cards, the map, a job and its form', async () => {
      const page = await open(PHONE)
      await signIn(page, acme.worker, '/my')
      await expectText(page, 'My day', [
        TEXT.assigned,
        TEXT.customer,
        TEXT.customerAddress,
        TEXT.tag,
        TEXT.jobAddress,
      ])
      const map = page.getByRole('region', { name: 'Map of the day’s route' })
      await map.getByTitle(`Depot: ${TEXT.depot}`).waitFor()
      await expectText(page, 'the map of My day', [`The route leaves ${TEXT.depot}`])
      await page.goto(`/my/jobs/${day.assignedId}`)
      await expectText(page, 'a job on /my', [TEXT.assigned, TEXT.description, TEXT.form, TEXT.signer])
      await page.goto(`/my/jobs/${day.assignedId}/forms/${day.templateId}`)
      await expectText(page, 'a form on /my', [TEXT.form, TEXT.field, TEXT.option])
    })
  })
}
