// Customer emails over SMTP (issue 29 §3), against a real SMTP server on loopback: off by default;
// turned on (PATCH /organisation notifications), a customer with an email gets exactly one message when
// the job is en route (the tracking link and the window) and one when it is completed, listed with
// the outcome beside the webhook deliveries; without SMTP_URL nothing is made and GET /organisation
// says so; a crash mid-send, or a second claim, never sends one twice.

import type { AddressInfo } from 'node:net'
import { createServer, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebhookSender } from '../src/modules/automations/delivery.js'
import { WebhookDispatcher } from '../src/modules/automations/dispatcher.js'
import { SmtpMailer } from '../src/modules/customer-messages/mailer.js'
import { CustomerMail, INTERRUPTED_MESSAGE_ERROR } from '../src/modules/customer-messages/service.js'
import { makeLocation, outboxEvents, setJobState } from './factories.js'
import { adminClient, client, createTenant, createTestApp, DIALECTS, type TestContext } from './helpers.js'
import { makeDashboardUser, sessionClient, signIn } from './sessions.js'
import { type SmtpReceiver, startSmtpReceiver } from './smtp-receiver.js'

const BASE = 'https://visits.example.com'
const ON = { notifications: { customerEmails: { enRoute: true, completed: true } } }

interface Names {
  worker: string
  customer: string
  title: string
  /** The clock "now" is read from (ms): the earlier job was completed a minute before it. */
  now: number
}

async function workday(
  t: TestContext,
  email: string | null = 'ada@home.example',
  names: Partial<Names> = {},
) {
  const tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
  const org = tenant.organisationId
  const db = t.database.db
  const api = client(t, tenant.headers)
  const admin = adminClient(t, tenant.headers)
  const depot = await makeLocation(db, org, { name: 'Depot', timezone: 'Europe/London' })
  const worker = await makeDashboardUser(t, org, { role: 'WORKER', name: names.worker ?? 'Wendy Worker' })
  const customer = (
    await api.post('/customers', {
      name: names.customer ?? 'Ada Lovelace',
      latitude: 53.5,
      longitude: -2.2,
      email,
    })
  ).body.data.customer
  const job = async (title: string, place: Record<string, unknown>) => {
    const created = (await api.post('/jobs', { title, locationId: depot.id, ...place })).body.data.job
    await setJobState(db, org, created.id, { status: 'ASSIGNED', assignedUserId: worker.id })
    return created.id as string
  }
  const before = await job('Earlier', { jobLatitude: 53.4, jobLongitude: -2.2 })
  await setJobState(db, org, before, {
    status: 'COMPLETED',
    completedAt: new Date((names.now ?? Date.now()) - 60_000).toISOString(),
  })
  const visit = await job(names.title ?? 'Boiler <service> & check', { customerId: customer.id })
  const me = sessionClient(t, await signIn(t, worker))
  return { org, db, api, admin, me, visit }
}

const HOUR = 3_600_000
const london = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
})
/** The window around `eta` on a London clock, as the email says it today: "14:05–14:35 (BST)". */
function londonWindow(eta: number): string {
  const at = (ms: number) => london.format(Math.round(ms / 300_000) * 300_000).split(' ')
  const [from, zone] = at(eta - 900_000)
  const [to] = at(eta + 900_000)
  return `${from}–${to} (${zone})`
}

// Names that would make elements if a mail client parsed the text as HTML, and a subject that would
// add a header (Bcc) if a newline reached it.
const MARKUP = '<meta http-equiv="refresh" content="30;url=/planted"><b data-planted="1">b</b>'
const PHISHING = '<img data-planted="2" src="x"><a href="/x">Session expired: sign in again</a>'
const PLANTED = {
  organisation: `Org${MARKUP}\r\nBcc: evil@attacker.example\r\nX-Planted: 1`,
  worker: `<b/data-planted="w">W</b>es${MARKUP}`,
  customer: `Ada${PHISHING}`,
  title: `Boiler${MARKUP}${PHISHING}`,
}

/** A header value with its RFC 2047 encoded words (=?UTF-8?Q?…?= / ?B?) decoded. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_all, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_hex, code: string) =>
                String.fromCharCode(Number.parseInt(code, 16)),
              ),
            'latin1',
          ).toString('utf8'),
    )
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: customer emails over SMTP`, () => {
    let smtp: SmtpReceiver
    let t: TestContext
    beforeAll(async () => {
      smtp = await startSmtpReceiver()
      t = await createTestApp(dialect, {
        publicBaseUrl: BASE,
        smtpUrl: smtp.url,
        smtpFrom: 'Acme <visits@acme.example>',
      })
    })
    afterAll(async () => {
      await t.close()
      await smtp.close()
    })

    it('is off by default, and refuses a setting that is not a boolean, naming it', async () => {
      const s = await workday(t)
      const organisation = (await s.admin.get('/organisation')).body.data.organisation
      expect(organisation.notifications).toEqual({
        customerEmails: { enRoute: false, completed: false, smtpConfigured: true },
      })
      const bad = await s.admin.patch('/organisation', {
        notifications: { customerEmails: { enRoute: 'yes' } },
      })
      expect([bad.status, bad.body.details?.[0]?.path]).toEqual([
        400,
        '/body/notifications/customerEmails/enRoute',
      ])
      const unknown = await s.admin.patch('/organisation', { notifications: { sms: true } })
      expect(unknown.status).toBe(400)
      const start = smtp.received.length
      await s.me.post(`/my/jobs/${s.visit}/en-route`)
      await t.app.webhooks.dispatcher.drain()
      expect(smtp.received.length).toBe(start)
      expect((await s.admin.get('/customer-messages')).body.data.customerMessages).toEqual([])
    })

    it('sends one email en route (link, window) and one on completion, each once, listed with the outcome', async () => {
      const s = await workday(t)
      const on = await s.admin.patch('/organisation', ON)
      expect(on.body.data.organisation.notifications.customerEmails).toEqual({
        enRoute: true,
        completed: true,
        smtpConfigured: true,
      })
      const start = smtp.received.length
      await s.me.post(`/my/jobs/${s.visit}/en-route`)
      await s.me.post(`/my/jobs/${s.visit}/en-route`)
      await t.app.webhooks.dispatcher.drain()
      await t.app.webhooks.dispatcher.drain()
      const [enRoute, ...more] = smtp.received.slice(start)
      expect(more).toEqual([])
      const event = (await outboxEvents(s.db, s.org)).find((e) => e.event === 'JOB_EN_ROUTE')
      const link = String(event?.data.trackingUrl)
      const eta = Date.parse(String(event?.data.eta))
      expect(enRoute?.to).toEqual(['ada@home.example'])
      expect(enRoute?.from).toBe('visits@acme.example')
      expect(enRoute?.headers).toMatch(/^Subject: .*your technician is on the way$/m)
      expect(enRoute?.text).toContain(link)
      // In the depot's zone (Europe/London), with its abbreviation.
      expect(enRoute?.text).toContain(`Expected arrival: ${londonWindow(eta)}.`)
      expect(enRoute?.text).toContain('Wendy from')
      expect(enRoute?.text).toContain('"Boiler <service> & check"')
      expect(enRoute?.headers).toMatch(/^Content-Type: text\/plain/im)

      await s.me.post(`/my/jobs/${s.visit}/start`)
      await s.me.post(`/my/jobs/${s.visit}/complete`)
      await t.app.webhooks.dispatcher.drain()
      await t.app.webhooks.dispatcher.drain()
      const [completed, ...after] = smtp.received.slice(start + 1)
      expect(after).toEqual([])
      expect(completed?.headers).toMatch(/^Subject: .*your visit is complete$/m)
      // The job's proof of completion goes with it, as a PDF named by the job's number.
      expect(completed?.raw).toMatch(/Content-Type: application\/pdf/i)
      expect(completed?.raw).toMatch(/filename="?J-\d+-proof\.pdf/)

      const listed = (await s.admin.get('/customer-messages')).body.data
      expect(listed.pagination.total).toBe(2)
      expect(
        listed.customerMessages.map((m: { kind: string; status: string }) => [m.kind, m.status]),
      ).toEqual([
        ['COMPLETED', 'SENT'],
        ['EN_ROUTE', 'SENT'],
      ])
      expect(listed.customerMessages[1]).toMatchObject({
        recipient: 'ada@home.example',
        jobId: s.visit,
        error: null,
      })
      // Another organisation sees none of them.
      const other = adminClient(t, (await createTenant(t, { scopes: ['admin'] })).headers)
      expect((await other.get('/customer-messages')).body.data.customerMessages).toEqual([])
    })

    it('sends nothing for a customer without an email, or a kind switched off', async () => {
      const s = await workday(t, null)
      await s.admin.patch('/organisation', ON)
      const start = smtp.received.length
      await s.me.post(`/my/jobs/${s.visit}/en-route`)
      await t.app.webhooks.dispatcher.drain()
      expect(smtp.received.length).toBe(start)

      const u = await workday(t)
      await u.admin.patch('/organisation', {
        notifications: { customerEmails: { enRoute: false, completed: true } },
      })
      await u.me.post(`/my/jobs/${u.visit}/en-route`)
      await t.app.webhooks.dispatcher.drain()
      expect(smtp.received.length).toBe(start)
    })

    it('planted markup stays text: one plain-text part, no HTML part, a one-line subject, no added header', async () => {
      const s = await workday(t, 'ada@home.example', PLANTED)
      const renamed = await s.admin.patch('/organisation', { name: PLANTED.organisation })
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200)
      await s.admin.patch('/organisation', ON)
      const start = smtp.received.length
      await s.me.post(`/my/jobs/${s.visit}/en-route`)
      await t.app.webhooks.dispatcher.drain()
      const [mail, ...more] = await smtp.waitFor(start + 1).then((all) => all.slice(start))
      expect(more).toEqual([])
      // Only the customer: the planted Bcc did not become a recipient, nor a header.
      expect(mail?.to).toEqual(['ada@home.example'])
      expect(mail?.headers).not.toMatch(/^(bcc|x-planted):/im)
      const subject = mail?.headers.match(/^Subject: (.*)$/m)?.[1] ?? ''
      expect(decodeWords(subject)).toBe(
        `Org${MARKUP} Bcc: evil@attacker.example X-Planted: 1: your technician is on the way`,
      )
      // One text/plain part: nothing a mail client renders as HTML.
      expect(mail?.headers).toMatch(/^Content-Type: text\/plain; charset=utf-8$/im)
      expect(mail?.raw).not.toMatch(/text\/html|multipart\//i)
      // The typed strings as they were typed, as text.
      expect(mail?.text).toContain(`Hello Ada${PHISHING},`)
      expect(mail?.text).toContain(`<b/data-planted="w">W</b>es<meta from`)
      expect(mail?.text).toContain(`"Boiler${MARKUP}${PHISHING}"`)
      const listed = (await s.admin.get('/customer-messages')).body.data.customerMessages[0]
      expect(listed.subject).not.toMatch(/[\r\n]/)
    })

    it('a crash mid-send, then a restart and even a second claim of the event, never sends it twice', async () => {
      // The first process talks to an SMTP server that accepts the connection and never answers:
      // the message is PENDING when the process "dies".
      const sockets = new Set<Socket>()
      const silent = createServer((socket) => sockets.add(socket))
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
      const silentUrl = `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`
      const crashing = await createTestApp(dialect, { publicBaseUrl: BASE, smtpUrl: silentUrl })
      try {
        const s = await workday(crashing)
        await s.admin.patch('/organisation', ON)
        await s.me.post(`/my/jobs/${s.visit}/en-route`)
        const draining = crashing.app.webhooks.dispatcher.drain()
        const messages = () =>
          s.db.selectFrom('customer_messages').selectAll().where('organisation_id', '=', s.org).execute()
        for (let i = 0; i < 200 && (await messages()).length === 0; i++)
          await new Promise((r) => setTimeout(r, 20))
        expect((await messages()).map((m) => m.status)).toEqual(['PENDING'])

        // The restarted process (another dispatcher on the same database, a working SMTP server).
        const start = smtp.received.length
        const restarted = new WebhookDispatcher(
          s.db,
          new WebhookSender({ timeoutMs: 2000, allowPrivate: true }),
          {
            pollIntervalMs: 1000,
            concurrency: 4,
            retentionDays: 30,
            followers: [
              new CustomerMail(s.db, new SmtpMailer(smtp.url, 'visits@acme.example'), {
                retentionDays: 30,
                interruptedAfterMs: 0,
              }),
            ],
          },
        )
        await restarted.drain()
        expect(smtp.received.length).toBe(start)
        const [failed] = await messages()
        expect([failed?.status, failed?.error]).toEqual(['FAILED', INTERRUPTED_MESSAGE_ERROR])

        // Even if the event were claimed again, its message exists: nothing is sent.
        await s.db
          .updateTable('outbox_events')
          .set({ dispatched_at: null })
          .where('organisation_id', '=', s.org)
          .execute()
        await restarted.drain()
        expect(smtp.received.length).toBe(start)
        expect(await messages()).toHaveLength(1)

        // The first process's stuck send ends (the server goes away); it does not overwrite the outcome.
        const closed = new Promise((resolve) => silent.close(resolve))
        for (const socket of sockets) socket.destroy()
        await closed
        await draining
        expect((await messages()).map((m) => m.status)).toEqual(['FAILED'])
        await restarted.stop()
      } finally {
        for (const socket of sockets) socket.destroy()
        await crashing.close()
        if (silent.listening) await new Promise((resolve) => silent.close(resolve))
      }
    })
  })

  describe(`${dialect}: customer emails on a summer day`, () => {
    let smtp: SmtpReceiver
    let t: TestContext
    let now = Date.parse('2026-07-16T10:00:00Z')
    beforeAll(async () => {
      smtp = await startSmtpReceiver()
      t = await createTestApp(dialect, { publicBaseUrl: BASE, smtpUrl: smtp.url }, { clock: () => now })
    })
    afterAll(async () => {
      await t.close()
      await smtp.close()
    })

    it("says the window in the depot's zone: BST (+01:00) in July, dated when not today there", async () => {
      now = Date.parse('2026-07-16T10:00:00Z')
      const s = await workday(t, 'ada@home.example', { now })
      await s.admin.patch('/organisation', ON)
      const start = smtp.received.length
      await s.me.post(`/my/jobs/${s.visit}/en-route`)
      await t.app.webhooks.dispatcher.drain()
      const [mail] = (await smtp.waitFor(start + 1)).slice(start)
      const event = (await outboxEvents(s.db, s.org)).find((e) => e.event === 'JOB_EN_ROUTE')
      const eta = Date.parse(String(event?.data.eta))
      expect(eta - now).toBeLessThan(HOUR)
      const window = londonWindow(eta)
      expect(window).toMatch(/^1[01]:\d\d–1[01]:\d\d \(BST\)$/)
      expect(mail?.text).toContain(`Expected arrival: ${window}.`)
      expect(mail?.text).not.toContain('UTC')

      // At 23:58 in London the window falls after midnight: the email gives the date.
      now = Date.parse('2026-07-16T22:58:00Z')
      const late = await workday(t, 'ada@home.example', { now })
      await late.admin.patch('/organisation', ON)
      await late.me.post(`/my/jobs/${late.visit}/en-route`)
      await t.app.webhooks.dispatcher.drain()
      const [next] = (await smtp.waitFor(start + 2)).slice(start + 1)
      const lateEvent = (await outboxEvents(late.db, late.org)).find((e) => e.event === 'JOB_EN_ROUTE')
      const lateEta = Date.parse(String(lateEvent?.data.eta))
      expect(next?.text).toContain(`Expected arrival: Fri 17 Jul, ${londonWindow(lateEta)}.`)
    })
  })

  describe(`${dialect}: customer emails without SMTP_URL`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    it('says so, and makes no message even with the switches on', async () => {
      const s = await workday(t)
      const on = await s.admin.patch('/organisation', ON)
      expect(on.body.data.organisation.notifications.customerEmails).toEqual({
        enRoute: true,
        completed: true,
        smtpConfigured: false,
      })
      await s.me.post(`/my/jobs/${s.visit}/en-route`)
      await t.app.webhooks.dispatcher.drain()
      expect(await s.db.selectFrom('customer_messages').selectAll().execute()).toEqual([])
      expect((await s.admin.get('/customer-messages')).body.data.customerMessages).toEqual([])
    })
  })
}
