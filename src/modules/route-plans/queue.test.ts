// The plan queue shared by every organisation: served in turn (round-robin across organisations,
// oldest first within one), and capped per organisation (429 TOO_MANY_PLANS with Retry-After). The
// runners' claim is called directly, as each instance's runner does, so the order is the test's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  adminClient,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { nowIso } from '../../db/ids.js'
import * as repository from './repository.js'
import { CLAIMED_PROGRESS } from './runner.js'

const DATE = '2026-12-07'

for (const dialect of DIALECTS) {
  describe(`${dialect}: the route plan queue`, () => {
    let fair: TestContext
    let capped: TestContext
    beforeAll(async () => {
      fair = await createTestApp(dialect, { routePlanQueueMax: 0 })
      capped = await createTestApp(dialect, { routePlanQueueMax: 3 })
    })
    afterAll(async () => {
      await fair?.close()
      await capped?.close()
    })

    async function organisation(t: TestContext) {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const admin = adminClient(t, tenant.headers)
      const queue = async (count: number, body: Record<string, unknown> = {}) => {
        const ids: string[] = []
        for (let i = 0; i < count; i++) {
          const queued = await admin.post('/route-plans', { date: DATE, mode: 'REPLAN_ALL', ...body })
          expect(queued.status).toBe(202)
          ids.push(queued.body.data.routePlan.id)
        }
        return ids
      }
      return { tenant, admin, queue }
    }

    const claim = async (t: TestContext) =>
      (await repository.claimQueuedPlan(t.database.db, 'test-runner', nowIso(), CLAIMED_PROGRESS))?.id
    /** Ends every plan still waiting, so the next test starts from an empty queue. */
    const drain = (t: TestContext) =>
      t.database.db
        .updateTable('route_plans')
        .set({ status: 'CANCELLED' })
        .where('status', 'in', ['QUEUED', 'RUNNING'])
        .execute()

    it('claims a plan queued after another organisation’s many no later than second', async () => {
      const a = await organisation(fair)
      const b = await organisation(fair)
      await a.queue(12)
      const [late] = await b.queue(1)
      const claimed = [await claim(fair), await claim(fair)]
      expect(claimed).toContain(late)
      await drain(fair)
    })

    it('alternates between two organisations with many plans, oldest first within each', async () => {
      const a = await organisation(fair)
      const b = await organisation(fair)
      const ofA = await a.queue(4)
      const ofB = await b.queue(4)
      const claimed = []
      for (let i = 0; i < 8; i++) claimed.push(await claim(fair))
      expect(claimed).toEqual([ofA[0], ofB[0], ofA[1], ofB[1], ofA[2], ofB[2], ofA[3], ofB[3]])
      expect(await claim(fair)).toBeUndefined()
    })

    it('serves an organisation that has waited before the next plan of one being served', async () => {
      const a = await organisation(fair)
      const b = await organisation(fair)
      const ofA = await a.queue(3)
      expect(await claim(fair)).toBe(ofA[0])
      const [ofB] = await b.queue(1)
      expect(await claim(fair)).toBe(ofB)
      expect(await claim(fair)).toBe(ofA[1])
      await drain(fair)
    })

    it('refuses the plan over the cap with 429 TOO_MANY_PLANS and Retry-After; cancelling frees a place', async () => {
      const c = await organisation(capped)
      const [first, second] = await c.queue(3, { timeLimitSeconds: 60 })
      const refused = await c.admin.post('/route-plans', { date: DATE, mode: 'REPLAN_ALL' })
      expect(refused.status).toBe(429)
      expect(refused.body.code).toBe('TOO_MANY_PLANS')
      expect(refused.body.error).toContain('3 route plans queued or running (3 queued, 0 running)')
      expect(refused.body.error).toMatch(/at most 3 .* cancel one/)
      // None has started: a place frees no sooner than the shortest limit once one starts.
      expect(refused.headers['retry-after']).toBe('60')
      // The cap is the organisation's: another one queues as usual.
      await (await organisation(capped)).queue(1)

      // One running with 60 s to go: Retry-After is the time left of its limit.
      expect(await claim(capped)).toBe(first)
      const running = await c.admin.post('/route-plans', { date: DATE, mode: 'REPLAN_ALL' })
      expect(running.status).toBe(429)
      expect(Number(running.headers['retry-after'])).toBeGreaterThanOrEqual(50)
      expect(Number(running.headers['retry-after'])).toBeLessThanOrEqual(60)

      expect((await c.admin.post(`/route-plans/${second}/cancel`)).status).toBe(200)
      expect((await c.admin.post('/route-plans', { date: DATE, mode: 'REPLAN_ALL' })).status).toBe(202)
      await drain(capped)
    })

    it('lets only the cap through when many plans are queued at once', async () => {
      const d = await organisation(capped)
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => d.admin.post('/route-plans', { date: DATE, mode: 'REPLAN_ALL' })),
      )
      expect(answers.map((a) => a.status).sort()).toEqual([202, 202, 202, 429, 429, 429, 429, 429])
      const waiting = await capped.database.db
        .selectFrom('route_plans')
        .select('id')
        .where('organisation_id', '=', d.tenant.organisationId)
        .where('status', '=', 'QUEUED')
        .execute()
      expect(waiting).toHaveLength(3)
      await drain(capped)
    })

    it('keeps no 429 under an Idempotency-Key: the same request is queued once a place is free', async () => {
      const e = await organisation(capped)
      const [first] = await e.queue(3)
      const body = { date: DATE, mode: 'REPLAN_ALL', timeLimitSeconds: 5 }
      const send = () =>
        capped.app.inject({
          method: 'POST',
          url: '/v1/admin/route-plans',
          headers: { ...e.tenant.headers, 'idempotency-key': 'plan-monday-once' },
          payload: body,
        })
      const refused = await send()
      expect(refused.statusCode).toBe(429)
      expect((await e.admin.post(`/route-plans/${first}/cancel`)).status).toBe(200)
      const retried = await send()
      expect(retried.statusCode).toBe(202)
      expect(retried.headers['idempotent-replayed']).toBeUndefined()
      // From now on the key answers with the queued plan.
      const replayed = await send()
      expect(replayed.headers['idempotent-replayed']).toBe('true')
      expect(replayed.json().data.routePlan.id).toBe(retried.json().data.routePlan.id)
      await drain(capped)
    })
  })
}
