// My day as a worker lives it mid-day (issue 29 §5), in a real browser (Pixel 7 sized) on both
// databases, with the clock fixed at a time of day — the server's (Date only, in this process) and
// the page's (page.clock) — rather than whatever hour the suite runs at:
// - a job of the day never opened online opens offline, with its forms (from the day's list);
// - a start and a completion made offline at 16:30 and sent at 16:32 are recorded at 16:30, and the
//   phone keeps showing 16:30;
//   (one made after the shift, whose time the server refuses, is recorded when received, not lost);
// - a completion not yet sent is "Completing… waiting to send", not "Completed", and not counted done;
// - back on My day after completing a job, the next stop is in view and focused;
// - jobs past their time and not started are flagged late;
// - the stop after an overrunning job shows the forecast's expected arrival and "At risk".
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { BROWSER_DIALECTS } from '../helpers.js'
import { type Receiver, startReceiver } from '../webhook-receiver.js'
import { launchBrowser, openPage, PHONE, type WatchedPage } from './browser.js'
import {
  callApi,
  createOrganisationWithTeam,
  type DashboardServer,
  type Organisation,
  signIn,
  startDashboard,
} from './harness.js'
import { type SeededDay, seedDay, waitForServiceWorker } from './my-seed.js'

const HOUR = 3_600_000
/**
 * The day the clocks are set to: today, or tomorrow once the real clock is past mid-day, so the fixed
 * time is never hours behind the real one (the browser's cookie jar runs on the real clock).
 */
const DAY = (() => {
  const now = new Date()
  const day = now.getUTCHours() < 11 ? now : new Date(now.getTime() + 24 * HOUR)
  return day.toISOString().slice(0, 10)
})()
const at = (time: string) => new Date(`${DAY}T${time}Z`)

const PLAN = [
  { title: 'Boiler service', at: '08:00', minutes: 60, gas: true, customer: 0 },
  { title: 'Gas fire check', at: '10:00', minutes: 45, gas: true, customer: 1 },
  { title: 'Leaking tap', at: '13:00', minutes: 30, customer: 2 },
  { title: 'Radiator bleed', at: '14:00', minutes: 30, customer: 1 },
  { title: 'Gutter clearing', at: '15:00', minutes: 30, customer: 0 },
  { title: 'Smoke alarm', at: '16:00', minutes: 20, customer: 2 },
]

interface LiveStop {
  title: string
  eta: string
  risk: 'ON_TIME' | 'AT_RISK' | 'LATE'
}

const offlineNoise = (problem: string) => /ERR_INTERNET_DISCONNECTED|Failed to fetch|ERR_FAILED/.test(problem)

/** In the page (functions, not strings: the CSP forbids eval). */
interface PageScope {
  document: { activeElement: { textContent: string | null } | null }
  scrollY: number
}
const focusedText = () => (globalThis as unknown as PageScope).document.activeElement?.textContent ?? ''
const scrolledBy = () => (globalThis as unknown as PageScope).scrollY

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: My day mid-day`, () => {
    let server: DashboardServer
    let receiver: Receiver
    let watched: WatchedPage
    let page: Page

    /** The server's clock (this process's Date), running on from `time`. */
    const setServerTime = (time: Date) => {
      vi.useFakeTimers({ toFake: ['Date'], now: time, shouldAdvanceTime: true })
    }

    beforeAll(async () => {
      server = await startDashboard(dialect)
      receiver = await startReceiver({ status: 200, body: 'ok' })
    })
    afterAll(async () => {
      await receiver?.close()
      await server?.close()
    })
    beforeEach(async () => {
      setServerTime(at('12:00:00'))
      watched = await openPage(browser, server.url, PHONE)
      page = watched.page
    })
    afterEach(async () => {
      vi.useRealTimers()
      await page.context().close()
      expect(watched.problems.filter((problem) => !offlineNoise(problem))).toEqual([])
    })

    /** A new organisation with the day seeded (the clocks at mid-day). */
    const seed = async (): Promise<{ acme: Organisation; day: SeededDay }> => {
      const acme = await createOrganisationWithTeam(server)
      const day = await seedDay(server, acme, receiver.url, PLAN)
      expect(day.date).toBe(DAY)
      return { acme, day }
    }
    /** The worker signed in on My day at `time`, the service worker holding the day. */
    const openMyDay = async (time: string, seeded?: { acme: Organisation; day: SeededDay }) => {
      const { acme, day } = seeded ?? (await seed())
      setServerTime(at(time))
      await page.clock.install({ time: at(time) })
      await signIn(page, acme.worker, '/my')
      await waitForServiceWorker(page)
      await page.reload()
      await page.getByRole('list', { name: /in route order/ }).waitFor()
      return { acme, day }
    }
    const confirm = async (action: 'Start job' | 'Complete job') => {
      await page.getByRole('button', { name: action }).click()
      await page.getByRole('dialog').getByRole('button', { name: action }).click()
    }
    const card = (title: string) => page.getByRole('article', { name: new RegExp(title) })
    const office = async (day: SeededDay, method: string, path: string, body?: unknown) => {
      const response = await callApi(server, day.adminKey, method, `/v1/admin${path}`, body)
      expect(response.status, JSON.stringify(response.body)).toBe(200)
      return (response.body as { data: { job: Record<string, unknown> } }).data.job
    }

    it('opens offline a job never opened online, with its forms, and again after a reload', async () => {
      await openMyDay('12:00:00')
      await page.context().setOffline(true)
      await page.getByText(/^Offline\./).waitFor()
      await page.getByRole('link', { name: 'Open job: Gas fire check' }).click()
      await page.getByRole('heading', { name: 'Gas fire check', level: 1 }).waitFor()
      await page.getByRole('region', { name: 'Forms' }).getByText('Gas safety check').waitFor()
      await page.getByRole('button', { name: 'Start job' }).waitFor()
      await page.getByRole('link', { name: 'Fill in Gas safety check' }).click()
      await page.getByLabel('Pressure (bar)').waitFor()

      // A reload in the dead zone: the service worker answers the job from the day it kept.
      await page.getByRole('link', { name: /‹ Gas fire check/ }).click()
      await page.reload()
      await page.getByRole('heading', { name: 'Gas fire check', level: 1 }).waitFor()
      await page.getByRole('link', { name: 'Fill in Gas safety check' }).waitFor()
      expect(await page.getByText('Loading the job…').count()).toBe(0)
    })

    it('records work done offline at 16:30 and sent at 16:32 at 16:30, and shows it pending until sent', async () => {
      const { day } = await openMyDay('16:30:00')
      const jobId = day.jobs['Smoke alarm'] as string
      await page.getByRole('link', { name: 'Open job: Smoke alarm' }).click()
      await page.getByRole('heading', { name: 'Smoke alarm', level: 1 }).waitFor()
      await page.context().setOffline(true)
      await page.getByText(/^Offline\./).waitFor()
      await confirm('Start job')
      await page.getByRole('button', { name: '1 pending' }).waitFor()
      await confirm('Complete job')
      await page.getByRole('button', { name: '2 pending' }).waitFor()
      await page.getByText('Completing… waiting to send').first().waitFor()

      await page.getByRole('link', { name: '‹ My day' }).click()
      await card('Smoke alarm').getByText('Completing… waiting to send').waitFor()
      expect(await card('Smoke alarm').getByText('Completed', { exact: true }).count()).toBe(0)
      await page.getByText('6 jobs · 0 done').waitFor()
      await page.getByRole('region', { name: 'Map of the day’s route' }).waitFor()
      expect(await page.locator('.my-map-completed').count()).toBe(0) // not a green stop on the map

      // Two minutes later the connection is back and the queue is sent.
      setServerTime(at('16:32:24'))
      await page.clock.runFor(2 * 60_000)
      await page.context().setOffline(false)
      await card('Smoke alarm').getByText('Completed', { exact: true }).waitFor()
      await page.getByText('6 jobs · 1 done').waitFor()
      await page.locator('.my-map-completed').waitFor()
      const job = await office(day, 'GET', `/jobs/${jobId}`)
      const startedAt = Date.parse(job.startedAt as string)
      const completedAt = Date.parse(job.completedAt as string)
      expect(startedAt).toBeGreaterThanOrEqual(at('16:30:00').getTime())
      expect(completedAt).toBeLessThan(at('16:31:00').getTime())
      expect(completedAt).toBeGreaterThanOrEqual(startedAt)
      expect(Date.parse(job.startRecordedAt as string)).toBeGreaterThanOrEqual(at('16:32:24').getTime())
      expect(Date.parse(job.completeRecordedAt as string)).toBeGreaterThanOrEqual(at('16:32:24').getTime())
      await page.getByRole('link', { name: 'Open job: Smoke alarm' }).click()
      await page
        .getByRole('definition')
        .filter({ hasText: /^16:30$/ })
        .first()
        .waitFor()
    })

    it('keeps a start made offline after the shift: recorded when received rather than refused', async () => {
      const { day } = await openMyDay('19:00:00') // the shift ends at 18:00 (± 30 min)
      await page.getByRole('link', { name: 'Open job: Smoke alarm' }).click()
      await page.context().setOffline(true)
      await page.getByText(/^Offline\./).waitFor()
      await confirm('Start job')
      await page.getByRole('button', { name: '1 pending' }).waitFor()
      setServerTime(at('19:05:00'))
      await page.clock.runFor(5 * 60_000)
      await page.context().setOffline(false)
      await expect.poll(() => page.getByRole('button', { name: /pending/ }).count()).toBe(0)
      expect(await page.getByText(/was not recorded/).count()).toBe(0)
      const job = await office(day, 'GET', `/jobs/${day.jobs['Smoke alarm']}`)
      expect(job.status).toBe('IN_PROGRESS')
      expect(Date.parse(job.startedAt as string)).toBeGreaterThanOrEqual(at('19:05:00').getTime())
    })

    it('lands on the next stop after completing one, and flags the stops past their time as late', async () => {
      const seeded = await seed()
      const { day } = seeded
      setServerTime(at('13:45:00'))
      await office(day, 'POST', `/jobs/${day.jobs['Leaking tap']}/start`, { startedAt: at('13:05:00') })
      await office(day, 'POST', `/jobs/${day.jobs['Leaking tap']}/complete`, { completedAt: at('13:40:00') })
      await openMyDay('13:50:00', seeded)
      // Late: due at 08:00 and 10:00, not started; the 13:00 one was done, the 14:00 one is not due yet.
      await card('Boiler service').getByText('Late · due 08:00').waitFor()
      await card('Gas fire check').getByText('Late · due 10:00').waitFor()
      expect(await card('Radiator bleed').getByText(/^Late/).count()).toBe(0)

      await page.getByRole('link', { name: 'Open job: Radiator bleed' }).click()
      await confirm('Start job')
      await page.getByText('In progress', { exact: true }).first().waitFor()
      await confirm('Complete job')
      await page.getByText('Completed', { exact: true }).first().waitFor()
      await page.getByRole('link', { name: '‹ My day' }).click()
      await page.getByText('6 jobs · 2 done').waitFor()
      // The next stop (after the last finished one, not the late ones at the top) is in view, focused.
      const next = card('Gutter clearing')
      await expect.poll(() => page.evaluate(focusedText)).toContain('Gutter clearing')
      const box = await next.boundingBox()
      const bar = await page.locator('header.my-bar').boundingBox()
      expect(box?.y).toBeGreaterThanOrEqual((bar?.y ?? 0) + (bar?.height ?? 0)) // not under the bar
      expect(box?.y).toBeLessThan(844 / 2)
      expect(await page.evaluate(scrolledBy)).toBeGreaterThan(0)
      // Time moves on: at 16:30 the 15:00 and 16:00 stops are late too.
      await page.clock.runFor(2 * HOUR + 40 * 60_000)
      await card('Smoke alarm').getByText('Late · due 16:00').waitFor()
    })

    it('shows the forecast on the card after an overrunning job: its expected arrival, and "At risk"', async () => {
      const seeded = await seed()
      const { day } = seeded
      setServerTime(at('13:50:00'))
      // The morning's stops are off the route; the 13:00 one (30 min) started at 13:05 and is still
      // going at 13:50: the forecast has the worker free now, so the next stop (a few minutes away) is
      // reached at about 13:55 — within 15 min of 14:05, the last start that fits its fixed window.
      for (const title of ['Boiler service', 'Gas fire check'])
        await office(day, 'POST', `/jobs/${day.jobs[title]}/cancel`, { reason: 'Moved to another day' })
      await office(day, 'POST', `/jobs/${day.jobs['Leaking tap']}/start`, { startedAt: at('13:05:00') })
      await office(day, 'PATCH', `/jobs/${day.jobs['Radiator bleed']}`, {
        earliestStart: at('13:30:00').toISOString(),
        latestEnd: at('14:35:00').toISOString(),
        timeWindowType: 'HARD',
      })
      const live = await callApi(server, day.adminKey, 'GET', `/v1/admin/live?date=${day.date}`)
      const stops = (live.body as { data: { shifts: { stops: LiveStop[] }[] } }).data.shifts[0]?.stops ?? []
      const next = stops.find((stop) => stop.title === 'Radiator bleed')
      expect(next?.risk).toBe('AT_RISK')
      const eta = Date.parse(next?.eta ?? '')
      expect(eta).toBeGreaterThan(at('13:50:00').getTime())
      expect(eta).toBeLessThan(at('14:05:00').getTime())
      // The stop after it is on time.
      expect(stops.find((stop) => stop.title === 'Gutter clearing')?.risk).toBe('ON_TIME')

      await openMyDay('13:50:00', seeded)
      const radiator = card('Radiator bleed')
      await radiator.getByText('At risk', { exact: true }).waitFor()
      // The depot is on UTC: the card's clock reads the forecast's eta as HH:MM — within a minute of
      // the one asked above (the server's clock runs on between the two reads).
      const expected = radiator
        .locator('.my-facts > div')
        .filter({ has: page.getByRole('term').filter({ hasText: /^Expected$/ }) })
        .getByRole('definition')
      await expected.waitFor()
      const shown = Date.parse(`${day.date}T${await expected.textContent()}:00Z`)
      expect(Math.abs(shown - Math.floor(eta / 60_000) * 60_000)).toBeLessThanOrEqual(60_000)
      expect(await radiator.getByText(/^Late/).count()).toBe(0)
      // The job in progress has no expected arrival; a stop on time has no warning.
      expect(
        await card('Leaking tap')
          .getByRole('term')
          .filter({ hasText: /^Expected$/ })
          .count(),
      ).toBe(0)
      await card('Gutter clearing')
        .getByRole('term')
        .filter({ hasText: /^Expected$/ })
        .waitFor()
      expect(
        await card('Gutter clearing')
          .getByText(/At risk|Will miss its window/)
          .count(),
      ).toBe(0)
    })
  })
}
