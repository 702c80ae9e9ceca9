// Applying a plan against manual dispatch happening at the same time: a plan whose inputs change
// before it holds them is refused whole (PLAN_STALE), and a manual write that comes while it holds
// them waits and lands on top. The interleavings are made, never hoped for: a manual assign held open
// in a transaction of the test's own, the apply's beforeWrite pause, and on PostgreSQL the server's
// own report of a session waiting for a lock.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  makeDonePlan,
  makeLocation,
  makeShift,
  makeUser,
  makeVehicle,
  outboxEvents,
} from '../../../test/factories.js'
import {
  type ApiResponse,
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { assignJobIn } from '../jobs/dispatch-service.js'
import { applyRoutePlan } from './service.js'

// 2026-12-07 is a Monday; Europe/London is on UTC in December.
const DATE = '2026-12-07'
const at = (hhmm: string) => `${DATE}T${hhmm}:00.000Z`
const LIFECYCLE = new Set(['JOB_ASSIGNED', 'JOB_UNASSIGNED', 'STATUS_CHANGED'])

for (const dialect of DIALECTS) {
  describe(`${dialect}: applying a plan during manual dispatch`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    /** Two workers on Monday 08:00–16:00 and `jobs` CREATED jobs; plans put even jobs on Ana, odd on Ben. */
    async function makeDay(jobs: number) {
      const tenant = await createTenant(t, { scopes: ['admin'] })
      const admin = adminClient(t, tenant.headers)
      const api = client(t, tenant.headers)
      const db = t.database.db
      const org = tenant.organisationId
      const depot = await makeLocation(db, org, { timezone: 'Europe/London' })
      const shifts = []
      for (const name of ['Ana', 'Ben']) {
        const user = await makeUser(db, org, { name })
        const vehicle = await makeVehicle(db, org, depot.id, { name: `${name}'s van` })
        const refs = { userId: user.id, locationId: depot.id, vehicleId: vehicle.id }
        shifts.push(await makeShift(db, org, refs, { day: 'MONDAY', startTime: '08:00', endTime: '16:00' }))
      }
      const [ana, ben] = shifts as [(typeof shifts)[0], (typeof shifts)[0]]
      const jobIds: string[] = []
      for (let i = 0; i < jobs; i++) {
        const created = await api.post('/jobs', {
          title: `Boiler service ${i + 1}`,
          serviceDuration: 1800,
          earliestStart: at('08:00'),
          latestEnd: at('16:00'),
        })
        expect(created.status).toBe(201)
        jobIds.push(created.body.data.job.id)
      }
      const routes = [ana, ben].map((shift, r) => ({
        shift,
        stops: jobIds
          .filter((_, i) => i % 2 === r)
          .map((jobId, slot) => ({
            jobId,
            serviceStart: at(`${String(9 + slot).padStart(2, '0')}:00`),
            serviceEnd: at(`${String(9 + slot).padStart(2, '0')}:30`),
          })),
      }))
      const plan = (mode: 'REPLAN_ALL' | 'KEEP_ASSIGNED' = 'REPLAN_ALL', planned = routes) =>
        makeDonePlan(db, org, { date: DATE, mode, routes: planned })
      return { org, admin, api, ana, ben, jobIds, routes, plan }
    }

    /**
     * Resolves once another session waits for a row lock (PostgreSQL), or once `write` has settled:
     * the write started meanwhile has either queued behind the apply's locks or gone through. On
     * SQLite no write can start while a transaction holds the only connection, whatever the timing;
     * the request is given a few turns of the event loop to get as far as it can.
     */
    /** The job's assignment events and status changes, oldest first. */
    async function lifecycleEvents(organisationId: string, jobId: string) {
      const events = await outboxEvents(t.database.db, organisationId)
      return events.filter((e) => e.data.jobId === jobId && LIFECYCLE.has(e.event))
    }

    async function waitingOrSettled(write: Promise<unknown>): Promise<void> {
      let settled = false
      write.then(
        () => {
          settled = true
        },
        () => {
          settled = true
        },
      )
      if (t.dialect === 'sqlite') {
        for (let i = 0; i < 20 && !settled; i++) await new Promise((resolve) => setImmediate(resolve))
        return
      }
      for (let i = 0; i < 2000 && !settled; i++) {
        const { rows } = await sql<{ waiting: number }>`
          SELECT count(*)::int AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(t.database.db)
        if ((rows[0]?.waiting ?? 0) > 0) return
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      if (!settled) throw new Error('the write neither waited for a lock nor finished')
    }

    it('refuses with PLAN_STALE and changes nothing when a manual assign commits during the apply', async () => {
      const day = await makeDay(6)
      const planId = await day.plan()
      const target = day.jobIds[3] as string // on Ben's route in the plan
      const before = await outboxEvents(t.database.db, day.org)
      // A manual assign of the job to Ana, its transaction open (and, on PostgreSQL, the job locked)
      // until the apply has started and, on PostgreSQL, is waiting for that lock.
      let assigned!: () => void
      let release!: () => void
      const isAssigned = new Promise<void>((resolve) => {
        assigned = resolve
      })
      const released = new Promise<void>((resolve) => {
        release = resolve
      })
      const manual = t.database.db.transaction().execute(async (trx) => {
        await assignJobIn(trx, day.org, target, {
          userId: day.ana.user_id,
          shiftId: day.ana.id,
          scheduledStart: at('15:00'),
          scheduledEnd: at('15:30'),
        })
        assigned()
        await released
      })
      await isAssigned
      const applying = day.admin.post(`/route-plans/${planId}/apply`)
      await waitingOrSettled(applying)
      release()
      await manual
      const applied = await applying

      expect(applied.status).toBe(409)
      expect(applied.body.code).toBe('PLAN_STALE')
      expect(applied.body.error).toContain(`job ${target}`)
      expect((await day.admin.get(`/route-plans/${planId}`)).body.data.routePlan.status).toBe('STALE')
      expect((await day.api.get(`/jobs/${target}`)).body.data.job).toMatchObject({
        status: 'ASSIGNED',
        assignedUserId: day.ana.user_id,
        shiftId: day.ana.id,
        scheduledStart: at('15:00'),
      })
      for (const id of day.jobIds.filter((id) => id !== target)) {
        expect((await day.api.get(`/jobs/${id}`)).body.data.job.status).toBe('CREATED')
      }
      // The manual assign's events, and nothing from the plan after them.
      const added = (await outboxEvents(t.database.db, day.org)).slice(before.length)
      expect(added.map((e) => [e.event, e.data.jobId])).toEqual([
        ['JOB_ASSIGNED', target],
        ['STATUS_CHANGED', target],
      ])
    })

    it('makes a manual assign that comes while the apply holds its inputs wait, then land on top', async () => {
      const day = await makeDay(6)
      const planId = await day.plan()
      const target = day.jobIds[3] as string // on Ben's route in the plan
      let manual: Promise<ApiResponse> | undefined
      const applied = await applyRoutePlan(t.database.db, day.org, planId, {
        beforeWrite: async () => {
          manual = day.admin.post(`/jobs/${target}/assign`, {
            userId: day.ana.user_id,
            shiftId: day.ana.id,
            scheduledStart: at('15:00'),
            scheduledEnd: at('15:30'),
          })
          await waitingOrSettled(manual)
        },
      })
      expect(applied.status).toBe('APPLIED')
      const answer = (await manual) as ApiResponse
      expect(answer.status).toBe(200)
      expect(answer.body.data.job).toMatchObject({
        status: 'ASSIGNED',
        assignedUserId: day.ana.user_id,
        shiftId: day.ana.id,
        scheduledStart: at('15:00'),
      })
      // The plan's assignment to Ben first, then the manual one moving the job to Ana.
      const events = await lifecycleEvents(day.org, target)
      expect(events.map((e) => e.event)).toEqual([
        'JOB_ASSIGNED',
        'STATUS_CHANGED',
        'JOB_UNASSIGNED',
        'JOB_ASSIGNED',
      ])
      expect(events[0]?.data.assignedUserId).toBe(day.ben.user_id)
      expect(events[2]?.data.previousAssignedUserId).toBe(day.ben.user_id)
      expect(events[3]?.data.assignedUserId).toBe(day.ana.user_id)
    })

    it('applies once when the same plan and a rival plan for the same jobs are applied six times at once', async () => {
      const day = await makeDay(6)
      const [toAna, toBen] = day.routes as [(typeof day.routes)[0], (typeof day.routes)[0]]
      const planId = await day.plan()
      // The rival plan swaps the routes: every job it applies would move.
      const rivalId = await day.plan('REPLAN_ALL', [
        { shift: toAna.shift, stops: toBen.stops },
        { shift: toBen.shift, stops: toAna.stops },
      ])
      const answers = await Promise.all(
        [planId, rivalId, planId, rivalId, planId, rivalId].map((id) =>
          day.admin.post(`/route-plans/${id}/apply`),
        ),
      )
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
      for (const answer of answers.filter((a) => a.status !== 200)) {
        expect(answer.status).toBe(409)
        expect(['PLAN_NOT_READY', 'PLAN_STALE']).toContain(answer.body.code)
      }
      for (const id of day.jobIds) {
        expect((await lifecycleEvents(day.org, id)).map((e) => e.event)).toEqual([
          'JOB_ASSIGNED',
          'STATUS_CHANGED',
        ])
      }
    })
  })
}
