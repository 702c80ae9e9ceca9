// My day shares the phone's position while its worker is on shift (issue 29 §1), in a real browser
// (Pixel 7 profile) on both databases, with Chromium's geolocation override and a page clock the test
// moves: asked first, then one fix kept at most every 30 s and only when it moved over 50 m; fixes
// taken offline wait on the phone and arrive together, in order; once the shift is over nothing is sent.
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page, Request } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { BROWSER_DIALECTS } from '../helpers.js'
import { type Receiver, startReceiver } from '../webhook-receiver.js'
import { expectAccessible, launchBrowser, openPage, PHONE, type WatchedPage } from './browser.js'
import {
  callApi,
  createOrganisationWithTeam,
  type DashboardServer,
  type Organisation,
  signIn,
  startDashboard,
} from './harness.js'
import { type SeededDay, seedDay } from './my-seed.js'

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

const PLAN = [{ title: 'Boiler service', at: '08:00', minutes: 60, customer: 0 }]
const HOME = { latitude: 51.55, longitude: -0.1 }
/** `metres` due north of HOME (1° of latitude ≈ 111,195 m). */
const north = (metres: number) => ({ latitude: 51.55 + metres / 111_195, longitude: -0.1 })
const offlineNoise = (problem: string) => /ERR_INTERNET_DISCONNECTED|Failed to fetch|ERR_FAILED/.test(problem)
const hhmm = (at: number) => new Date(Math.min(Math.max(at, 0), 86_340_000)).toISOString().slice(11, 16)

/**
 * A shift of today that is not under way at `now` (ms after midnight UTC), grace included: one that
 * ended three hours ago — or, in the small hours, when no shift of today can have ended yet (shifts
 * do not cross midnight), one that starts in three hours. The suite runs at any hour.
 */
const offShiftSpan = (now: number): [number, number] =>
  now >= 5 * 3_600_000
    ? [now - 4 * 3_600_000, now - 3 * 3_600_000]
    : [now + 3 * 3_600_000, now + 4 * 3_600_000]

/**
 * Where the page's clock starts: now, but no later than 23:50 UTC — each test moves it on by a few
 * minutes, and a page clock past midnight would show tomorrow's My day, without this shift (the banner
 * then never appears). Fixes still carry the device's real time, which the server checks.
 */
const pageClockStart = (now: number): Date =>
  new Date(Math.min(now, now - (now % 86_400_000) + 86_400_000 - 10 * 60_000))

interface Sent {
  positions: { latitude: number; longitude: number; recordedAt: string }[]
  status: number | null
}

for (const dialect of BROWSER_DIALECTS) {
  describe(`${dialect}: My day shares the position while on shift`, () => {
    let server: DashboardServer
    let acme: Organisation
    let receiver: Receiver
    let day: SeededDay
    let watched: WatchedPage
    let page: Page
    let sent: Sent[]

    /** The worker's shift today, from `from` to `to` ms after midnight UTC (on the server's clock). */
    const setShift = async (from: number, to: number) => {
      const answer = await callApi(server, day.adminKey, 'PATCH', `/v1/admin/shifts/${day.shiftId}`, {
        startTime: hhmm(from),
        endTime: hhmm(to),
      })
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    }
    const sinceMidnight = () => Date.now() % 86_400_000

    beforeAll(async () => {
      server = await startDashboard(dialect)
      acme = await createOrganisationWithTeam(server)
      receiver = await startReceiver({ status: 200, body: 'ok' })
      day = await seedDay(server, acme, receiver.url, PLAN)
    })
    afterAll(async () => {
      await receiver?.close()
      await server?.close()
    })
    beforeEach(async () => {
      // On shift now: an hour either side (within today).
      await setShift(sinceMidnight() - 3_600_000, sinceMidnight() + 3_600_000)
      watched = await openPage(browser, server.url, {
        ...PHONE,
        permissions: ['geolocation'],
        geolocation: HOME,
      })
      page = watched.page
      await page.clock.install({ time: pageClockStart(Date.now()) })
      sent = []
      const requests = new Map<Request, Sent>()
      page.on('request', (request) => {
        if (request.method() !== 'POST' || !request.url().endsWith('/v1/admin/my/positions')) return
        const entry = { positions: request.postDataJSON().positions, status: null }
        requests.set(request, entry)
        sent.push(entry)
      })
      page.on('requestfinished', async (request) => {
        const entry = requests.get(request)
        if (entry) entry.status = (await request.response())?.status() ?? null
      })
    })
    afterEach(async () => {
      await page.context().close()
      expect(watched.problems.filter((problem) => !offlineNoise(problem))).toEqual([])
    })

    /** Moves the phone after `seconds` of its clock. */
    const moveTo = async (seconds: number, place: { latitude: number; longitude: number }) => {
      await page.clock.runFor(seconds * 1000)
      await page.context().setGeolocation(place)
    }
    const answered = async (count: number) =>
      expect.poll(() => sent.filter((s) => s.status !== null).length, { timeout: 10_000 }).toBe(count)

    it('asks first, then sends a fix at most every 30 s when moved over 50 m, and says so', async () => {
      await signIn(page, acme.worker, '/my')
      const ask = page.getByRole('region', { name: 'Share your location' })
      await ask.waitFor()
      await expectAccessible(page, 'the location question')
      expect(sent).toHaveLength(0)
      await ask.getByRole('button', { name: 'Share location' }).click()
      await page.getByText(/Your location is shared with the office until your shift ends/).waitFor()
      await answered(1)
      expect(sent[0]?.positions).toEqual([expect.objectContaining(HOME)])
      expect(sent[0]?.status).toBe(201)

      await moveTo(5, north(200)) // far, but too soon
      await moveTo(30, north(40)) // 35 s after, but only 40 m from the last kept
      await page.waitForTimeout(500)
      expect(sent).toHaveLength(1)
      await moveTo(1, north(300)) // 36 s after, 300 m: kept
      await answered(2)
      expect(sent[1]?.positions).toEqual([expect.objectContaining(north(300))])
      await page.screenshot({ path: join(tmpdir(), `my-location-${dialect}.png`) })

      // Declined: remembered on this phone, nothing more sent, the app goes on.
      await page.getByRole('button', { name: 'Stop sharing' }).click()
      await page.getByText('Your location is not shared with the office.').waitFor()
      await moveTo(150, north(900))
      await page.reload()
      await page.getByText('Your location is not shared with the office.').waitFor()
      await page.getByRole('list', { name: /in route order/ }).waitFor()
      expect(sent).toHaveLength(2)
    })

    it('keeps the fixes taken offline and sends them in order; sends nothing once the shift is over', async () => {
      await signIn(page, acme.worker, '/my')
      await page.getByRole('button', { name: 'Share location' }).click()
      await answered(1)

      await page.context().setOffline(true)
      // Each fix kept on the phone before the clock moves on (the device reports it asynchronously).
      const buffered = () =>
        page.evaluate(() => {
          // The tests' tsconfig has no DOM: the page's storage through globalThis.
          const storage = (
            globalThis as unknown as {
              localStorage: Record<string, string> & { getItem(key: string): string | null }
            }
          ).localStorage
          const key = Object.keys(storage).find((k) => k.startsWith('fieldservice.my.positions.'))
          return key ? (JSON.parse(storage.getItem(key) ?? '[]') as unknown[]).length : 0
        })
      for (const [i, metres] of [400, 800, 1200].entries()) {
        await moveTo(31, north(metres))
        await expect.poll(buffered, { timeout: 5000 }).toBe(i + 1)
      }
      expect(sent.filter((s) => s.status === 201)).toHaveLength(1)
      await page.context().setOffline(false)
      await expect
        .poll(() => sent.find((s) => s.status === 201 && s.positions.length === 3), { timeout: 10_000 })
        .toBeTruthy()
      const batch = sent.find((s) => s.positions.length === 3) as Sent
      expect(batch.positions.map((p) => p.latitude)).toEqual([400, 800, 1200].map((m) => north(m).latitude))
      const times = batch.positions.map((p) => Date.parse(p.recordedAt))
      expect([...times].sort((a, b) => a - b)).toEqual(times)
      const live = await callApi(server, day.adminKey, 'GET', `/v1/admin/live?date=${day.date}`)
      const shift = (
        live.body as { data: { shifts: { shiftId: string; lastPosition: { latitude: string } }[] } }
      ).data.shifts.find((s) => s.shiftId === day.shiftId)
      expect(Number(shift?.lastPosition.latitude)).toBeCloseTo(north(1200).latitude, 6)

      // Off shift (the office moved it): whatever is tried is refused, then nothing is sent.
      await setShift(...offShiftSpan(sinceMidnight()))
      const before = sent.length
      await moveTo(31, north(1600))
      await moveTo(31, north(2000))
      await moveTo(61, north(2400))
      await moveTo(31, north(2800))
      await page.waitForTimeout(500)
      const after = sent.slice(before)
      expect(after.length).toBeLessThanOrEqual(1)
      expect(after.every((s) => s.status === 409)).toBe(true)
    })
  })
}
