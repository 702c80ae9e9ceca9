// A worker's colour (issue 30 §2): the least used among the organisation's active users when they are
// created, so the first eight never share one; an admin changes it; the board, the week, the live
// day and the team all show the stored one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeShift, makeShiftReferences } from '../../../test/factories.js'
import {
  adminClient,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'

const MONDAY = '2026-12-07'

for (const dialect of DIALECTS) {
  describe(`${dialect}: a worker's colour`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    async function team() {
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      const admin = adminClient(t, tenant.headers)
      const add = async (name: string) => {
        const created = await admin.post('/team/users', { name, email: `${name.toLowerCase()}@example.com` })
        expect(created.status).toBe(201)
        return created.body.data.user as { id: string; colour: number }
      }
      return { tenant, admin, add }
    }

    it('gives the first eight people eight colours, then the least used, lowest first', async () => {
      const { admin, add } = await team()
      const eight = []
      for (const name of ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8']) eight.push(await add(name))
      expect(eight.map((u) => u.colour)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
      // All used once: the ninth takes the lowest.
      expect((await add('A9')).colour).toBe(1)
      // Someone leaving frees their colour (only active users count).
      expect((await admin.post(`/team/users/${eight[4]?.id}/deactivate`)).status).toBe(200)
      expect((await add('A10')).colour).toBe(5)
      expect((await add('A11')).colour).toBe(2)
    })

    it("does not count another organisation's users", async () => {
      const first = await team()
      for (const name of ['B1', 'B2', 'B3']) await first.add(name)
      const second = await team()
      expect((await second.add('C1')).colour).toBe(1)
    })

    it('is changed by PATCH, 1 to 8 only', async () => {
      const { admin, add } = await team()
      const user = await add('Dana')
      const changed = await admin.patch(`/team/users/${user.id}`, { colour: 6 })
      expect(changed.status).toBe(200)
      expect(changed.body.data.user.colour).toBe(6)
      expect((await admin.get(`/team/users/${user.id}`)).body.data.user.colour).toBe(6)
      for (const colour of [0, 9, 'red', 2.5]) {
        const refused = await admin.patch(`/team/users/${user.id}`, { colour })
        expect(refused.status).toBe(400)
        expect(refused.body.code).toBe('VALIDATION_ERROR')
        expect(JSON.stringify(refused.body)).toContain('colour')
      }
      expect((await admin.get(`/team/users/${user.id}`)).body.data.user.colour).toBe(6)
      // The next new user counts the changed colour, not the one given at first.
      expect((await add('Eli')).colour).toBe(1)
    })

    it('is on the board, the week and the live day', async () => {
      const { tenant, admin } = await team()
      const { user, refs } = await makeShiftReferences(t.database.db, tenant.organisationId)
      await makeShift(t.database.db, tenant.organisationId, refs, { day: 'MONDAY' })
      expect((await admin.patch(`/team/users/${user.id}`, { colour: 7 })).status).toBe(200)
      const worker = { id: user.id, name: 'Sam Worker', colour: 7 }
      const board = await admin.get(`/board?date=${MONDAY}`)
      expect(board.status).toBe(200)
      expect(board.body.data.board.rows.map((r: { user: unknown }) => r.user)).toEqual([worker])
      const week = await admin.get(`/board/week?start=${MONDAY}`)
      expect(week.status).toBe(200)
      expect(week.body.data.week.workers.map((w: { user: unknown }) => w.user)).toEqual([worker])
      const live = await admin.get(`/live?date=${MONDAY}`)
      expect(live.status).toBe(200)
      expect(live.body.data.shifts.map((s: { worker: unknown }) => s.worker)).toEqual([worker])
    })
  })
}
