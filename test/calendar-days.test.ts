// Days at the ends of the calendar. The board, My day and route plans take a day (`YYYY-MM-DD`) and
// place shifts on it in each depot's time zone; a day whose bounds the databases cannot store, or that
// JavaScript's Date reads as another century (Date.UTC takes years 0–99 as 1900–1999), once gave
// PostgreSQL 500s and a board of year −3800. Days from 1970-01-01 to 9998-12-31 are taken; any other is
// a 400 naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeLocation, makeShift, makeUser, makeVehicle } from './factories.js'
import { adminClient, createTenant, createTestApp, DIALECTS, type TestContext } from './helpers.js'

const REFUSED = ['0001-01-01', '0099-12-31', '1969-12-31', '9999-01-01', '9999-12-31']
const TAKEN = ['1970-01-01', '2026-11-27', '9998-12-31']

for (const dialect of DIALECTS) {
  describe(`${dialect}: days at the ends of the calendar`, () => {
    let t: TestContext
    let admin: ReturnType<typeof adminClient>
    beforeAll(async () => {
      t = await createTestApp(dialect)
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const db = t.database.db
      const org = tenant.organisationId
      const depot = await makeLocation(db, org, {
        name: 'Auckland',
        timezone: 'Pacific/Auckland',
        isPrimary: true,
      })
      const user = await makeUser(db, org, { name: 'Ana' })
      const van = await makeVehicle(db, org, depot.id, { name: 'Van' })
      for (const day of ['WEDNESDAY', 'THURSDAY', 'FRIDAY'] as const) {
        await makeShift(db, org, { userId: user.id, locationId: depot.id, vehicleId: van.id }, { day })
      }
      admin = adminClient(t, tenant.headers)
    })
    afterAll(() => t.close())

    it('refuses a day outside 1970–9998 with 400 naming the field, on the board and route plans', async () => {
      for (const date of REFUSED) {
        const board = await admin.get(`/board?date=${date}`)
        expect([date, board.status, board.body.code]).toEqual([date, 400, 'VALIDATION_ERROR'])
        expect(board.body.error).toContain('date')
        const plans = await admin.get(`/route-plans?date=${date}`)
        expect([date, plans.status]).toEqual([date, 400])
        const plan = await admin.post('/route-plans', { date, mode: 'REPLAN_ALL', timeLimitSeconds: 1 })
        expect([date, plan.status, plan.body.code]).toEqual([date, 400, 'VALIDATION_ERROR'])
      }
    })

    it('answers the first and last days it takes with the day itself', async () => {
      for (const date of TAKEN) {
        const board = await admin.get(`/board?date=${date}`)
        expect([date, board.status]).toEqual([date, 200])
        // The day starts at the depot's midnight (UTC+12 or +13) and its shift rows are on it.
        const { dayStart, rows } = board.body.data.board
        const utcMidnight = Date.parse(`${date}T00:00:00Z`)
        expect([date, (utcMidnight - Date.parse(dayStart)) / 3600_000]).toSatisfy(
          ([, hours]: [string, number]) => hours === 12 || hours === 13,
        )
        for (const row of rows) expect(Date.parse(row.start) - Date.parse(dayStart)).toBe(8 * 3600_000)
        expect((await admin.get(`/route-plans?date=${date}`)).status).toBe(200)
      }
    })
  })
}
