import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, createTestDatabase, DIALECTS, type TestContext } from '../../test/helpers.js'
import type { Database } from '../db/types.js'
import { createApiKey } from '../modules/api-keys/service.js'
import { DEMO_ORGANISATION } from './demo-data.js'
import { type DemoSeedResult, seedDemoOrganisation } from './demo-seed.js'

/** A Wednesday in British Summer Time: depot times are an hour ahead of UTC. */
const NOW = new Date('2026-07-15T10:30:00.000Z')
const DAY = 86_400_000
const STATUSES = ['CREATED', 'ASSIGNED', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED']
const SCHEDULED = ['ASSIGNED', 'IN_PROGRESS', 'COMPLETED']

/** Day of the week and HH:MM of an instant in a time zone. */
function localClock(iso: string, timeZone: string): { day: string; time: string } {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'long',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
  const parts = format.formatToParts(new Date(iso))
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return { day: part('weekday').toUpperCase(), time: `${part('hour')}:${part('minute')}` }
}

/** Monday 00:00 UTC of the week containing `at`, and the Monday after. */
function weekOf(at: Date): [string, string] {
  const monday =
    Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()) - ((at.getUTCDay() + 6) % 7) * DAY
  return [new Date(monday).toISOString(), new Date(monday + 7 * DAY).toISOString()]
}

/** Assigned jobs: a shift of their own worker, on the shift's day, inside its hours (local time). */
async function expectJobsInsideShifts(db: Kysely<Database>, organisationId: string, now: Date) {
  const [weekStart, weekEnd] = weekOf(now)
  const rows = await db
    .selectFrom('jobs')
    .leftJoin('shifts', 'shifts.id', 'jobs.shift_id')
    .leftJoin('locations', 'locations.id', 'shifts.location_id')
    .select(['jobs.status', 'jobs.assigned_user_id', 'jobs.scheduled_start', 'jobs.scheduled_end'])
    .select(['shifts.user_id', 'shifts.day', 'shifts.start_time', 'shifts.end_time', 'locations.timezone'])
    .where('jobs.organisation_id', '=', organisationId)
    .execute()
  const scheduled = rows.filter((r) => SCHEDULED.includes(r.status))
  expect(scheduled.length).toBeGreaterThan(80)
  for (const job of scheduled) {
    expect(job.assigned_user_id).not.toBeNull()
    expect(job.user_id).toBe(job.assigned_user_id)
    const start = localClock(job.scheduled_start!, job.timezone!)
    const end = localClock(job.scheduled_end!, job.timezone!)
    expect(start.day).toBe(job.day)
    expect(start.time >= job.start_time! && end.time <= job.end_time! && start.time < end.time).toBe(true)
    expect(job.scheduled_start! >= weekStart && job.scheduled_end! < weekEnd).toBe(true)
  }
  for (const job of rows.filter((r) => !SCHEDULED.includes(r.status))) {
    expect([job.assigned_user_id, job.scheduled_start, job.user_id]).toEqual([null, null, null])
  }
}

async function statusesOf(db: Kysely<Database>, organisationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('jobs')
    .select('status')
    .distinct()
    .where('organisation_id', '=', organisationId)
    .execute()
  return rows.map((r) => r.status).sort()
}

async function customersOf(db: Kysely<Database>, organisationId: string) {
  return db
    .selectFrom('customers')
    .select(['name', 'address', 'latitude', 'longitude', 'priority', 'operational_start', 'operational_end'])
    .where('organisation_id', '=', organisationId)
    .orderBy('created_at')
    .execute()
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: demo seed`, () => {
    let t: TestContext
    let db: Kysely<Database>
    let seeded: DemoSeedResult

    beforeAll(async () => {
      t = await createTestApp(dialect)
      db = t.database.db
      seeded = await seedDemoOrganisation(db, NOW)
    })
    afterAll(() => t?.close())

    it('creates the demo organisation with everything in the documented amounts', async () => {
      expect(seeded.created).toBe(true)
      expect(seeded.counts).toEqual({
        locations: 2,
        vehicles: 6,
        users: 7,
        shifts: 33,
        customers: 40,
        jobs: 150,
      })
      const org = await db
        .selectFrom('organisations')
        .selectAll()
        .where('id', '=', seeded.organisationId)
        .executeTakeFirstOrThrow()
      expect(org).toMatchObject(DEMO_ORGANISATION)
      const workers = await db
        .selectFrom('users')
        .select('id')
        .where('organisation_id', '=', seeded.organisationId)
        .where('role', '=', 'WORKER')
        .execute()
      expect(workers).toHaveLength(6)
      expect(await statusesOf(db, seeded.organisationId)).toEqual([...STATUSES].sort())
    })

    it('is idempotent: a second run finds the organisation and inserts nothing', async () => {
      const again = await seedDemoOrganisation(db, new Date(NOW.getTime() + DAY))
      expect(again).toEqual({ organisationId: seeded.organisationId, created: false, counts: seeded.counts })
      const named = await db
        .selectFrom('organisations')
        .select('id')
        .where('name', '=', DEMO_ORGANISATION.name)
        .execute()
      expect(named).toHaveLength(1)
    })

    it('schedules every assigned job inside a shift of its own worker, on that shift’s day', async () => {
      await expectJobsInsideShifts(db, seeded.organisationId, NOW)
    })

    it('keeps lifecycle times consistent with the status and with now', async () => {
      const jobs = await db
        .selectFrom('jobs')
        .selectAll()
        .where('organisation_id', '=', seeded.organisationId)
        .execute()
      const now = NOW.toISOString()
      for (const job of jobs) {
        expect(job.created_at <= now && job.created_at <= job.updated_at && job.updated_at <= now).toBe(true)
        if (job.earliest_start && job.latest_end) expect(job.earliest_start < job.latest_end).toBe(true)
        expect(job.earliest_start ?? job.latest_end).not.toBeNull()
        expect(job.customer_id === null).toBe(job.location_id !== null)
        // Work at a depot names the depot's address; a customer's job is at the customer's.
        expect(job.address === null).toBe(job.customer_id !== null)
        expect([job.job_latitude, job.job_longitude]).not.toContain(null)
        if (job.status === 'COMPLETED') {
          expect(job.completed_at! <= now).toBe(true)
          expect(job.actual_duration).toBe(
            (Date.parse(job.completed_at!) - Date.parse(job.started_at!)) / 1000,
          )
        } else {
          expect([job.completed_at, job.actual_duration]).toEqual([null, null])
        }
        if (job.status === 'IN_PROGRESS') expect(job.started_at! <= now).toBe(true)
        if (!['IN_PROGRESS', 'COMPLETED'].includes(job.status)) expect(job.started_at).toBeNull()
      }
      const customerJob = jobs.find((j) => j.customer_id)!
      const customer = await db
        .selectFrom('customers')
        .select(['latitude', 'longitude'])
        .where('id', '=', customerJob.customer_id)
        .executeTakeFirstOrThrow()
      expect([customerJob.job_latitude, customerJob.job_longitude]).toEqual([
        customer.latitude,
        customer.longitude,
      ])
    })

    it('puts the customers around Manchester and the shift breaks inside the shifts', async () => {
      for (const c of await customersOf(db, seeded.organisationId)) {
        expect(Number(c.latitude)).toBeGreaterThanOrEqual(53.4)
        expect(Number(c.latitude)).toBeLessThanOrEqual(53.55)
        expect(Number(c.longitude)).toBeGreaterThanOrEqual(-2.35)
        expect(Number(c.longitude)).toBeLessThanOrEqual(-2.1)
        expect(c.address).toMatch(/^\d+ .+, (Manchester|Sale|Stockport) (M|SK)\d+ \d[A-Z]{2}$/)
      }
      const breaks = await db
        .selectFrom('shift_breaks')
        .innerJoin('shifts', 'shifts.id', 'shift_breaks.shift_id')
        .select(['shifts.id', 'shifts.start_time', 'shifts.end_time'])
        .select(['shift_breaks.start_time as break_start', 'shift_breaks.end_time as break_end'])
        .where('shifts.organisation_id', '=', seeded.organisationId)
        .execute()
      expect(new Set(breaks.map((b) => b.id)).size).toBe(seeded.counts.shifts)
      for (const b of breaks) {
        expect(b.start_time < b.break_start && b.break_start < b.break_end && b.break_end < b.end_time).toBe(
          true,
        )
      }
    })

    describe('through the public API', () => {
      let headers: { authorization: string }
      beforeAll(async () => {
        const { key } = await createApiKey(db, {
          organisationId: seeded.organisationId,
          name: 'demo test',
          scopes: ['read'],
          rateLimitPerMinute: 100_000,
        })
        headers = { authorization: `Bearer ${key}` }
      })
      const get = (url: string) => t.app.inject({ method: 'GET', url: `/v1/public${url}`, headers })

      it('lists the jobs of a weekday and shows a job with its tags and demands', async () => {
        const listed = await get('/jobs?targetDate=2026-07-15&limit=100')
        expect(listed.statusCode).toBe(200)
        const { jobs, pagination } = listed.json().data
        expect(jobs.length).toBeGreaterThan(10)
        expect(pagination.total).toBe(jobs.length)

        const tagged = await db
          .selectFrom('job_demands')
          .innerJoin('job_tags', 'job_tags.job_id', 'job_demands.job_id')
          .select('job_demands.job_id')
          .where('job_demands.organisation_id', '=', seeded.organisationId)
          .executeTakeFirstOrThrow()
        const single = await get(`/jobs/${tagged.job_id}`)
        expect(single.statusCode).toBe(200)
        expect(single.json().data.job.tags.length).toBeGreaterThan(0)
        expect(single.json().data.job.demands[0].capacityDimension.key).toMatch(
          /^(shelf_units|pipe_m|large_items)$/,
        )

        const locations = (await get('/locations')).json().data.locations
        expect(locations.map((l: { isPrimary: boolean }) => l.isPrimary).sort()).toEqual([false, true])
      })

      it('gives customers a phone, most an email, some notes; the header search finds a job by the phone', async () => {
        const customers = (await get('/customers?limit=100')).json().data.customers as {
          name: string
          phone: string | null
          email: string | null
          notes: string | null
        }[]
        expect(customers).toHaveLength(40)
        expect(customers.every((c) => /^\+44(7700900|1614960)\d{3}$/.test(c.phone ?? ''))).toBe(true)
        expect(customers.filter((c) => c.email !== null).length).toBeGreaterThan(20)
        expect(customers.filter((c) => c.notes !== null).length).toBeGreaterThan(10)

        const { key } = await createApiKey(db, {
          organisationId: seeded.organisationId,
          name: 'demo search',
          scopes: ['admin'],
          rateLimitPerMinute: 100_000,
        })
        const holloway = customers.find((c) => c.name === 'Mrs Janet Holloway')
        expect(holloway?.phone).toBe('+447700900100')
        // As a dispatcher types it from a caller's number.
        const found = await t.app.inject({
          method: 'GET',
          url: `/v1/admin/search?q=${encodeURIComponent('07700 900100')}`,
          headers: { authorization: `Bearer ${key}` },
        })
        expect(found.statusCode).toBe(200)
        const { jobs, customers: people } = found.json().data
        expect(people.map((c: { name: string }) => c.name)).toEqual(['Mrs Janet Holloway'])
        expect(jobs.length).toBeGreaterThan(0)
      })

      it('shows a vehicle with its tags and capacities', async () => {
        const vehicle = await db
          .selectFrom('vehicles')
          .select('id')
          .where('organisation_id', '=', seeded.organisationId)
          .where('name', 'like', 'Ford Transit Custom%')
          .executeTakeFirstOrThrow()
        const response = await get(`/vehicles/${vehicle.id}`)
        expect(response.statusCode).toBe(200)
        const shown = response.json().data.vehicle
        expect(shown.tags.map((t: { tag: { name: string } }) => t.tag.name).sort()).toEqual([
          'gas-safe',
          'ladder-rack',
        ])
        expect(shown.capacities).toContainEqual({
          capacityDimension: expect.objectContaining({
            key: 'shelf_units',
            label: 'Van shelf space (units)',
          }),
          maxValue: 24,
        })
      })
    })

    // Time alone would leave statuses out (nothing done yet early on Monday, nothing under way at
    // night or on Sunday); the seeder still shows all five. The DST week checks local-time shifts.
    for (const at of ['2026-03-23T00:00:00.000Z', '2026-03-29T23:59:59.999Z', '2026-01-07T22:30:00.000Z']) {
      it(`has every status and the same customers when seeded at ${at}`, async () => {
        const other = await createTestDatabase(dialect)
        try {
          const result = await seedDemoOrganisation(other.db, new Date(at))
          expect(result.counts).toEqual(seeded.counts)
          expect(await statusesOf(other.db, result.organisationId)).toEqual([...STATUSES].sort())
          await expectJobsInsideShifts(other.db, result.organisationId, new Date(at))
          expect(await customersOf(other.db, result.organisationId)).toEqual(
            await customersOf(db, seeded.organisationId),
          )
        } finally {
          await other.cleanup()
        }
      })
    }
  })
}
