// Bulk dispatch writes what job-by-job dispatch writes. Two organisations get the same day (jobs new,
// assigned, re-assigned, re-scheduled, unchanged, taken off a route, planned twice; windows of one
// day, two days, a long one and none) and the same plan; one applies it through the API (bulk), the
// other job by job through assignJobIn and unassignJobIn, as applyRoutePlan did before. With the
// clock stopped, their jobs, outbox events, counters and day tables must match row for row, once
// every id is named by its place in the day.
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  makeDonePlan,
  makeLocation,
  makeShift,
  makeUser,
  makeVehicle,
  outboxEvents,
  type PlannedRoute,
} from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { AppError } from '../../http/errors.js'
import { findRoutePlan } from '../route-plans/repository.js'
import type { RoutePlanResult } from '../route-plans/schemas.js'
import { assignJobIn, unassignJobIn } from './dispatch-service.js'

const DATE = '2026-12-07' // a Monday
const at = (hhmm: string, date = DATE) => `${date}T${hhmm}:00.000Z`
const NOW = '2026-12-01T09:00:00.000Z'

for (const dialect of DIALECTS) {
  describe(`${dialect}: dispatching a plan in bulk`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())
    afterEach(() => {
      vi.useRealTimers()
    })

    /** The day, made the same way in a new organisation each time; `names` names its ids by role. */
    async function makeDay() {
      const tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      const admin = adminClient(t, tenant.headers)
      const api = client(t, tenant.headers)
      const db = t.database.db
      const org = tenant.organisationId
      const names = new Map<string, string>([[org, 'organisation']])
      const north = await makeLocation(db, org, { name: 'North' })
      const south = await makeLocation(db, org, { name: 'South' })
      names.set(north.id, 'north').set(south.id, 'south')
      const shifts = {} as Record<'ana' | 'ben' | 'cat', PlannedRoute['shift']>
      for (const [name, depot] of [
        ['ana', north],
        ['ben', north],
        ['cat', south],
      ] as const) {
        const user = await makeUser(db, org, { name })
        const vehicle = await makeVehicle(db, org, depot.id, { name: `${name}'s van` })
        const refs = { userId: user.id, locationId: depot.id, vehicleId: vehicle.id }
        const shift = await makeShift(db, org, refs, { day: 'MONDAY', startTime: '08:00', endTime: '16:00' })
        shifts[name] = shift
        names.set(user.id, name).set(vehicle.id, `${name}'s van`).set(shift.id, `${name}'s shift`)
      }
      const customer = (await api.post('/customers', { name: 'Acme', latitude: 53.48, longitude: -2.24 }))
        .body.data.customer.id
      names.set(customer, 'customer')
      const day = { earliestStart: at('08:00'), latestEnd: at('16:00') }
      const bodies = [
        { title: 'new, to Ana', ...day, priority: 'HIGH', locationId: north.id },
        { title: 'new, SOFT, with a customer', customerId: customer, timeWindowType: 'SOFT', ...day },
        { title: 'Ben’s, moves to Ana', ...day },
        { title: 'Ana’s, re-scheduled', ...day },
        { title: 'Cat’s, unchanged', ...day, locationId: south.id },
        { title: 'Cat’s, taken off', ...day },
        {
          title: 'long window',
          earliestStart: at('08:00', '2026-11-20'),
          latestEnd: at('16:00', '2027-01-20'),
        },
        { title: 'no window' },
        { title: 'two days', earliestStart: at('20:00', '2026-12-06'), latestEnd: at('16:00') },
        { title: 'left alone', ...day },
        { title: 'planned twice', ...day, priority: 'LOW' },
      ]
      const jobs: string[] = []
      for (const [i, body] of bodies.entries()) {
        const created = await api.post('/jobs', { serviceDuration: 1800, ...body })
        expect(created.status).toBe(201)
        jobs.push(created.body.data.job.id)
        names.set(created.body.data.job.id, `job ${i}`)
      }
      const assign = async (job: number, shift: PlannedRoute['shift'], hhmm: string) => {
        const answer = await admin.post(`/jobs/${jobs[job]}/assign`, {
          userId: shift.user_id,
          shiftId: shift.id,
          scheduledStart: at(hhmm),
          scheduledEnd: at(hhmm.replace(':00', ':30')),
        })
        expect(answer.status).toBe(200)
      }
      const { ana, ben, cat } = shifts
      await assign(2, ben, '09:00')
      await assign(3, ana, '11:00')
      await assign(4, cat, '09:00')
      await assign(5, cat, '10:00')
      const stop = (job: number, hhmm: string) => ({
        jobId: jobs[job] as string,
        serviceStart: at(hhmm),
        serviceEnd: at(hhmm.replace(':00', ':30')),
      })
      const plan = (routes: (shift: typeof shifts) => PlannedRoute[]) =>
        makeDonePlan(db, org, { date: DATE, mode: 'REPLAN_ALL', routes: routes(shifts) })
      const routes = () => [
        { shift: ana, stops: [stop(0, '09:00'), stop(2, '10:00'), stop(3, '12:00'), stop(10, '14:00')] },
        {
          shift: ben,
          stops: [stop(1, '09:00'), stop(6, '10:00'), stop(7, '11:00'), stop(8, '12:00'), stop(10, '15:00')],
        },
        { shift: cat, stops: [stop(4, '09:00')] },
      ]
      return { org, admin, names, shifts, stop, plan, routes }
    }

    /** The plan applied job by job, as applyRoutePlan did before bulk dispatch. */
    async function applyJobByJob(organisationId: string, planId: string): Promise<void> {
      const plan = await findRoutePlan(t.database.db, organisationId, planId)
      const result = JSON.parse(plan?.result ?? 'null') as RoutePlanResult
      const { assignedJobIds } = JSON.parse(plan?.inputs ?? 'null') as { assignedJobIds: string[] }
      await t.database.db.transaction().execute(async (trx) => {
        const planned = new Set<string>()
        for (const route of result.routes) {
          for (const stop of route.stops) {
            planned.add(stop.jobId)
            await assignJobIn(trx, organisationId, stop.jobId, {
              userId: route.user.id,
              shiftId: route.shiftId,
              scheduledStart: stop.serviceStart,
              scheduledEnd: stop.serviceEnd,
            })
          }
        }
        for (const jobId of assignedJobIds) {
          if (!planned.has(jobId)) await unassignJobIn(trx, organisationId, jobId)
        }
      })
    }

    /** Everything a dispatch writes for the organisation, ids replaced by their names, in a stable order. */
    async function written(organisationId: string, names: Map<string, string>) {
      const db = t.database.db
      const rename = (value: unknown): unknown => {
        if (typeof value === 'string') return names.get(value) ?? value
        if (Array.isArray(value)) return value.map(rename)
        if (value !== null && typeof value === 'object') {
          return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, rename(inner)]))
        }
        return value
      }
      const sorted = (rows: unknown[]) =>
        rows.map(rename).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))
      const total = sql<number>`cast(sum(count) as integer)`.as('count')
      return {
        jobs: rename(
          await db
            .selectFrom('jobs')
            .selectAll()
            .where('organisation_id', '=', organisationId)
            .orderBy('id')
            .execute(),
        ),
        events: rename(await outboxEvents(db, organisationId)),
        counts: sorted(
          await db
            .selectFrom('job_counts')
            .select(['status', 'priority', 'location_id', total])
            .where('organisation_id', '=', organisationId)
            .groupBy(['status', 'priority', 'location_id'])
            .execute(),
        ),
        days: sorted(
          await db
            .selectFrom('job_days')
            .select(['day', 'job_id', 'status', 'created_at'])
            .where('organisation_id', '=', organisationId)
            .execute(),
        ),
        dayCounts: sorted(
          await db
            .selectFrom('job_day_counts')
            .select(['day', 'status', total])
            .where('organisation_id', '=', organisationId)
            .groupBy(['day', 'status'])
            .execute(),
        ),
        longWindows: sorted(
          await db
            .selectFrom('job_long_windows')
            .select(['job_id', 'status', 'created_at', 'earliest_start', 'latest_end'])
            .where('organisation_id', '=', organisationId)
            .execute(),
        ),
      }
    }

    it('writes the same jobs, events, counters and day rows as assigning job by job', async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: new Date(NOW) })
      const bulk = await makeDay()
      const oneByOne = await makeDay()
      const bulkPlan = await bulk.plan(bulk.routes)
      const oneByOnePlan = await oneByOne.plan(oneByOne.routes)
      const before = await written(oneByOne.org, oneByOne.names)
      expect(await written(bulk.org, bulk.names)).toEqual(before)

      const applied = await bulk.admin.post(`/route-plans/${bulkPlan}/apply`)
      expect(applied.status).toBe(200)
      await applyJobByJob(oneByOne.org, oneByOnePlan)

      const after = await written(oneByOne.org, oneByOne.names)
      expect(after).not.toEqual(before)
      expect(await written(bulk.org, bulk.names)).toEqual(after)
      // What the comparison covers: a move, a re-schedule, an unassign and a job planned twice.
      const events = after.events as { event: string; data: { jobId: string } }[]
      const of = (job: string) => events.filter((e) => e.data.jobId === job && e.event !== 'JOB_CREATED')
      expect(of('job 2').map((e) => e.event)).toEqual([
        'JOB_ASSIGNED',
        'STATUS_CHANGED',
        'JOB_UNASSIGNED',
        'JOB_ASSIGNED',
      ])
      expect(of('job 4').map((e) => e.event)).toEqual(['JOB_ASSIGNED', 'STATUS_CHANGED'])
      expect(of('job 5').map((e) => e.event)).toEqual([
        'JOB_ASSIGNED',
        'STATUS_CHANGED',
        'JOB_UNASSIGNED',
        'STATUS_CHANGED',
      ])
      expect(of('job 10').map((e) => e.event)).toEqual([
        'JOB_ASSIGNED',
        'STATUS_CHANGED',
        'JOB_UNASSIGNED',
        'JOB_ASSIGNED',
      ])
    })

    it('refuses a plan the same way, writing nothing, when a job of it cannot be assigned', async () => {
      vi.useFakeTimers({ toFake: ['Date'], now: new Date(NOW) })
      const bulk = await makeDay()
      const oneByOne = await makeDay()
      // Job 0's HARD window ends at 16:00; a visit at 17:00 is refused, after other jobs were assigned.
      const outside = (day: typeof bulk) => (shifts: typeof bulk.shifts) => [
        { shift: shifts.ana, stops: [day.stop(2, '10:00'), day.stop(0, '17:00'), day.stop(3, '12:00')] },
      ]
      const bulkPlan = await bulk.plan(outside(bulk))
      const oneByOnePlan = await oneByOne.plan(outside(oneByOne))
      const before = await written(oneByOne.org, oneByOne.names)

      const applied = await bulk.admin.post(`/route-plans/${bulkPlan}/apply`)
      const refused = await applyJobByJob(oneByOne.org, oneByOnePlan).catch((error: unknown) => error)

      expect(refused).toBeInstanceOf(AppError)
      expect(applied.status).toBe(422)
      expect({ code: applied.body.code, error: applied.body.error }).toEqual({
        code: (refused as AppError).code,
        error: (refused as AppError).message,
      })
      expect(applied.body.code).toBe('OUTSIDE_TIME_WINDOW')
      expect(await written(oneByOne.org, oneByOne.names)).toEqual(before)
      expect(await written(bulk.org, bulk.names)).toEqual(before)
      expect((await bulk.admin.get(`/route-plans/${bulkPlan}`)).body.data.routePlan.status).toBe('DONE')
    })
  })
}
