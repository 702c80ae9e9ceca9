// A technician's day for the /my browser tests, made through the admin API with an admin key, as an
// office would: a depot (UTC, so the day is the same for the server, the browser and the test), a
// van, the worker's shift today, customers, jobs assigned to the worker at set times (created out of
// route order), a "Gas" tag whose jobs need a safety-check form, another worker with a job of their
// own, and automations for JOB_COMPLETED and FORM_SUBMITTED to a local receiver.

import type { Page } from 'playwright-core'
import { createApiKey } from '../../src/modules/api-keys/service.js'
import { callApi, type DashboardServer, type Organisation } from './harness.js'

const WEEKDAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY']

export interface SeededDay {
  adminKey: string
  /** Today, YYYY-MM-DD (UTC, the depot's zone). */
  date: string
  jobs: Record<string, string>
  otherWorkerJob: string
  templateId: string
  tagId: string
  userIds: { worker: string; other: string }
  shiftId: string
}

export async function seedDay(
  server: DashboardServer,
  acme: Organisation,
  receiverUrl: string,
  plan: { title: string; at: string; minutes: number; gas?: boolean; customer?: number }[],
): Promise<SeededDay> {
  const { key: adminKey } = await createApiKey(server.database.db, {
    organisationId: acme.id,
    name: 'office',
    scopes: ['admin'],
    rateLimitPerMinute: 10_000,
    expiresAt: null,
  })
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await callApi(server, adminKey, method, `/v1/admin${path}`, body)
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`)
    return (response.body as { data: Record<string, { id: string }> }).data
  }
  const now = new Date()
  const date = now.toISOString().slice(0, 10)
  const depot = await call('POST', '/locations', {
    name: 'North depot',
    code: 'NTH',
    latitude: 51.55,
    longitude: -0.1,
    timezone: 'UTC',
    isPrimary: true,
  })
  const vehicle = await call('POST', '/vehicles', { name: 'Van 1', locationId: depot.location?.id })
  const shift = await call('POST', '/shifts', {
    userId: acme.worker.id,
    locationId: depot.location?.id,
    vehicleId: vehicle.vehicle?.id,
    day: WEEKDAYS[now.getUTCDay()],
    startTime: '07:00',
    endTime: '18:00',
  })
  const tag = await call('POST', '/tags', { name: 'Gas' })
  // The van carries the gas kit its gas jobs need (assignment refuses a missing skill).
  await call('PATCH', `/vehicles/${vehicle.vehicle?.id}`, { tagIds: [tag.tag?.id] })
  const customers = [
    { name: 'Mrs Patel', address: '12 High Street, London N1', latitude: 51.538, longitude: -0.102 },
    { name: 'Corner Café', address: '3 Market Row, London N7', latitude: 51.556, longitude: -0.118 },
    { name: 'Hill Dental', address: '40 Hill Road, London N6', latitude: 51.571, longitude: -0.146 },
  ]
  const customerIds: string[] = []
  for (const customer of customers)
    customerIds.push((await call('POST', '/customers', customer)).customer?.id ?? '')

  const jobs: Record<string, string> = {}
  // Created latest first: route order must come from the schedule, not creation order.
  for (const stop of [...plan].reverse()) {
    const customerId = customerIds[stop.customer ?? 0]
    const job = await call('POST', '/jobs', {
      title: stop.title,
      customerId,
      description: `Notes for ${stop.title.toLowerCase()}: ring the bell twice.`,
      serviceDuration: stop.minutes * 60,
      priority: stop.gas ? 'HIGH' : 'NORMAL',
    })
    const id = job.job?.id ?? ''
    jobs[stop.title] = id
    if (stop.gas) await call('PUT', `/jobs/${id}/tags`, { tagIds: [tag.tag?.id] })
    const start = new Date(`${date}T${stop.at}:00Z`)
    await call('POST', `/jobs/${id}/assign`, {
      userId: acme.worker.id,
      shiftId: shift.shift?.id,
      scheduledStart: start.toISOString(),
      scheduledEnd: new Date(start.getTime() + stop.minutes * 60_000).toISOString(),
    })
  }

  const other = await call('POST', '/team/users', {
    name: 'Olly Other',
    email: `other.${acme.id.slice(-6)}@example.com`,
    role: 'WORKER',
  })
  const otherJob = await call('POST', '/jobs', { title: 'Someone else’s job' })
  await call('POST', `/jobs/${otherJob.job?.id}/assign`, {
    userId: other.user?.id,
    scheduledStart: `${date}T10:00:00Z`,
    scheduledEnd: `${date}T11:00:00Z`,
  })

  const template = await call('POST', '/form-templates', {
    name: 'Gas safety check',
    description: 'Required on every gas appliance visit.',
    appliesTo: 'TAGGED_JOBS',
    tagId: tag.tag?.id,
    fields: [
      { key: 'pressureBar', label: 'Pressure (bar)', type: 'NUMBER', required: true, min: 0, max: 4 },
      { key: 'leaks', label: 'Any leaks found', type: 'YES_NO', required: true },
      {
        key: 'flue',
        label: 'Flue condition',
        type: 'CHOICE',
        required: false,
        options: ['Good', 'Worn', 'Unsafe'],
      },
      { key: 'notes', label: 'Notes', type: 'LONG_TEXT' },
    ],
  })
  for (const event of ['JOB_COMPLETED', 'FORM_SUBMITTED']) {
    await call('POST', '/automations', { name: event, event, url: `${receiverUrl}/${event}`, isActive: true })
  }
  return {
    adminKey,
    date,
    jobs,
    otherWorkerJob: otherJob.job?.id ?? '',
    templateId: template.formTemplate?.id ?? '',
    tagId: tag.tag?.id ?? '',
    userIds: { worker: acme.worker.id, other: other.user?.id ?? '' },
    shiftId: shift.shift?.id ?? '',
  }
}

/** Until the /my service worker controls the page (a function, not a string: the CSP forbids eval). */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const scope = globalThis as unknown as { navigator: { serviceWorker?: { controller: unknown } } }
    return Boolean(scope.navigator.serviceWorker?.controller)
  })
}
