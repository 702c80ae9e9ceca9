// pagination.total for jobs comes from trigger-maintained counters: after any mix of writes, through
// the API or straight to the table, every filter's total must equal a real COUNT(*).
import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeLocation, makeUser, setJobState } from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { rebuildDerivedCounts } from '../../db/derived.js'
import type { Database } from '../../db/types.js'
import { updateJob } from './repository.js'

const STATUSES = ['CREATED', 'ASSIGNED', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED'] as const
const PRIORITIES = ['LOW', 'NORMAL', 'HIGH'] as const

/** A small deterministic pseudo-random sequence, so a failure can be replayed. */
function random(seed: number) {
  let state = seed
  return (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
    return state % n
  }
}

/**
 * Each counter's total (on PostgreSQL the sum of its slots, migration 0017), without the counters
 * that went back to zero: they stay as rows, and a rebuild does not create them.
 */
async function counterTotals(
  db: Kysely<Database>,
  table: 'job_counts' | 'job_day_counts',
  organisationId?: string,
): Promise<Record<string, unknown>[]> {
  const key =
    table === 'job_counts'
      ? (['organisation_id', 'status', 'priority', 'location_id'] as const)
      : (['organisation_id', 'day', 'status'] as const)
  let query = db
    .selectFrom(table)
    .select(key)
    .select((eb) => eb.fn.sum<number>('count').as('count'))
    .groupBy(key)
    .having((eb) => eb.fn.sum('count'), '<>', 0)
    .orderBy(key)
  if (organisationId) query = query.where('organisation_id', '=', organisationId)
  const rows = (await query.execute()) as Record<string, unknown>[]
  return rows.map((row) => ({ ...row, count: Number(row.count) }))
}

/** An organisation's rows of the derived tables, each table's sorted, to compare across a rebuild. */
async function derivedSnapshot(
  db: Kysely<Database>,
  organisationId: string,
  tables: readonly ('job_counts' | 'job_days' | 'job_long_windows' | 'job_day_counts')[],
): Promise<string[][]> {
  const rows = await Promise.all(
    tables.map((table) =>
      table === 'job_counts' || table === 'job_day_counts'
        ? counterTotals(db, table, organisationId)
        : db.selectFrom(table).selectAll().where('organisation_id', '=', organisationId).execute(),
    ),
  )
  return rows.map((table) => table.map((row) => JSON.stringify(row)).sort())
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: job totals`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    it('match COUNT(*) for every status, priority and location filter after a random mix of writes', async () => {
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      const neighbour = await createTenant(t, { scopes: ['read', 'write'] })
      const api = client(t, tenant.headers)
      const admin = adminClient(t, tenant.headers)
      const db = t.database.db
      const org = tenant.organisationId
      const locations = [
        (await makeLocation(db, org, { name: 'North' })).id,
        (await makeLocation(db, org, { name: 'South' })).id,
      ]
      const worker = (await makeUser(db, org)).id
      const pick = random(dialect === 'sqlite' ? 7 : 11)
      const jobs: string[] = []
      const window = { scheduledStart: '2026-11-23T09:00:00Z', scheduledEnd: '2026-11-23T10:00:00Z' }

      for (let i = 0; i < 60; i++) {
        const roll = pick(10)
        if (roll < 4 || jobs.length === 0) {
          const location = pick(3)
          const created = await api.post('/jobs', {
            title: `Job ${i}`,
            priority: PRIORITIES[pick(3)],
            ...(location < 2 ? { locationId: locations[location] } : {}),
          })
          expect(created.status).toBe(201)
          jobs.push(created.body.data.job.id)
          await client(t, neighbour.headers).post('/jobs', { title: 'Elsewhere' })
          continue
        }
        const id = jobs[pick(jobs.length)] as string
        if (roll === 4) await api.patch(`/jobs/${id}`, { priority: PRIORITIES[pick(3)] })
        if (roll === 5) await api.patch(`/jobs/${id}`, { locationId: pick(2) ? locations[pick(2)] : null })
        if (roll === 6) await admin.post(`/jobs/${id}/assign`, { userId: worker, ...window })
        if (roll === 7)
          await admin.post(`/jobs/${id}/${['start', 'complete', 'unassign', 'cancel'][pick(4)]}`)
        if (roll === 8) await api.delete(`/jobs/${id}`)
        // A write that bypasses the services is counted too.
        if (roll === 9) await setJobState(db, org, id, { status: STATUSES[pick(5)] })
      }

      const filters: Record<string, string>[] = []
      for (const status of [undefined, ...STATUSES]) {
        for (const priority of [undefined, ...PRIORITIES]) {
          for (const locationId of [undefined, ...locations]) {
            filters.push({
              ...(status && { status }),
              ...(priority && { priority }),
              ...(locationId && { locationId }),
            })
          }
        }
      }
      for (const filter of filters) {
        let query = db
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('organisation_id', '=', org)
          .where('deleted_at', 'is', null)
        if (filter.status) query = query.where('status', '=', filter.status as (typeof STATUSES)[number])
        if (filter.priority)
          query = query.where('priority', '=', filter.priority as (typeof PRIORITIES)[number])
        if (filter.locationId) query = query.where('location_id', '=', filter.locationId)
        const expected = Number((await query.executeTakeFirstOrThrow()).n)
        const listed = await api.get(`/jobs?${new URLSearchParams({ ...filter, limit: '1' })}`)
        expect(listed.body.data.pagination.total, JSON.stringify(filter)).toBe(expected)
      }
      // A rebuild from the base tables (after a bulk load) arrives at the same counters.
      const counters = () => counterTotals(db, 'job_counts')
      const maintained = await counters()
      await rebuildDerivedCounts(db)
      expect(await counters()).toEqual(maintained)
      // The counters' wildcard is not a location id.
      expect((await api.get('/jobs?locationId=*')).body.data.pagination.total).toBe(0)
    })

    // On PostgreSQL the counters are maintained at COMMIT (deferred triggers, migration 0008), each
    // change with its own OLD and NEW row: several changes to one job in one transaction net out.
    it('stay exact when one transaction creates, changes and deletes jobs several times', async () => {
      const tenant = await createTenant(t, { scopes: ['read', 'write'] })
      const api = client(t, tenant.headers)
      const db = t.database.db
      const org = tenant.organisationId
      const location = (await makeLocation(db, org, { name: 'East' })).id
      const window = (from: string, to: string) => ({ earliest_start: from, latest_end: to })
      const kept = (
        await api.post('/jobs', {
          title: 'Kept',
          earliestStart: '2026-11-24T09:00:00Z',
          latestEnd: '2026-11-24T11:00:00Z',
        })
      ).body.data.job.id as string
      const dropped = (await api.post('/jobs', { title: 'Dropped', locationId: location })).body.data.job
        .id as string

      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('jobs')
          .columns([
            'id',
            'organisation_id',
            'title',
            'status',
            'priority',
            'service_duration',
            'time_window_type',
            'created_at',
            'updated_at',
          ])
          .expression((eb) =>
            eb
              .selectFrom('jobs')
              .select([
                eb.val('trx-new-job').as('id'),
                'organisation_id',
                eb.val('Born in a transaction').as('title'),
                'status',
                'priority',
                'service_duration',
                'time_window_type',
                'created_at',
                'updated_at',
              ])
              .where('id', '=', kept),
          )
          .execute()
        await updateJob(trx, org, 'trx-new-job', { status: 'ASSIGNED', location_id: location })
        await updateJob(trx, org, 'trx-new-job', {
          priority: 'HIGH',
          ...window('2026-11-25T08:00:00.000Z', '2026-11-26T08:00:00.000Z'),
        })
        await updateJob(trx, org, kept, { status: 'ASSIGNED' })
        await updateJob(trx, org, kept, {
          status: 'IN_PROGRESS',
          ...window('2026-11-24T10:00:00.000Z', '2026-11-27T10:00:00.000Z'),
        })
        await updateJob(trx, org, kept, { priority: 'LOW' })
        await updateJob(trx, org, dropped, { priority: 'HIGH' })
        await updateJob(trx, org, dropped, { deleted_at: '2026-11-23T12:00:00.000Z' })
      })

      const total = async (query: string) =>
        (await api.get(`/jobs?limit=1&${query}`)).body.data.pagination.total
      expect(await total('')).toBe(2)
      expect(await total('status=ASSIGNED')).toBe(1)
      expect(await total('status=IN_PROGRESS&priority=LOW')).toBe(1)
      expect(await total('status=CREATED')).toBe(0)
      expect(await total(`locationId=${location}`)).toBe(1)
      expect(await total(`locationId=${location}&priority=HIGH&status=ASSIGNED`)).toBe(1)
      expect(await total('targetDate=2026-11-24')).toBe(1)
      expect(await total('targetDate=2026-11-26&status=ASSIGNED')).toBe(1)
      expect(await total('targetDate=2026-11-26')).toBe(2)
      // And the counters are what a rebuild from the base tables gives.
      const snapshot = () => derivedSnapshot(db, org, ['job_counts', 'job_days', 'job_day_counts'])
      const maintained = await snapshot()
      await rebuildDerivedCounts(db)
      expect(await snapshot()).toEqual(maintained)
    })

    it.runIf(dialect === 'postgres')(
      'let a writer commit while another writer of the organisation is still open',
      async () => {
        const tenant = await createTenant(t, { scopes: ['read', 'write'] })
        const api = client(t, tenant.headers)
        const first = (await api.post('/jobs', { title: 'First' })).body.data.job.id as string
        // An open transaction that has changed a job's status and priority: with counters updated at
        // the write, it would hold the organisation's counter rows until it ends.
        const open = await t.database.db.startTransaction().execute()
        try {
          await updateJob(open, tenant.organisationId, first, { status: 'ASSIGNED', priority: 'HIGH' })
          const created = await Promise.race([
            api.post('/jobs', {
              title: 'Second',
              earliestStart: '2026-11-24T09:00:00Z',
              latestEnd: '2026-11-24T10:00:00Z',
            }),
            new Promise((resolve) => setTimeout(() => resolve({ status: 'still waiting after 3 s' }), 3000)),
          ])
          expect((created as { status: unknown }).status).toBe(201)
        } finally {
          await open.rollback().execute()
        }
        const total = async (query: string) =>
          (await api.get(`/jobs?limit=1&${query}`)).body.data.pagination.total
        expect([await total(''), await total('status=CREATED'), await total('status=ASSIGNED')]).toEqual([
          2, 2, 0,
        ])
      },
    )

    // On PostgreSQL each counter is kept in slots, one per transaction-id remainder (migration 0017):
    // writers of one organisation do not queue behind each other's commit for the same counter rows.
    it.runIf(dialect === 'postgres')(
      'let a writer commit while another writer holds the same counters',
      async () => {
        const tenant = await createTenant(t, { scopes: ['read', 'write'] })
        const api = client(t, tenant.headers)
        const db = t.database.db
        const org = tenant.organisationId
        const create = async (title: string) =>
          (await api.post('/jobs', { title })).body.data.job.id as string
        const first = await create('First')
        const second = await create('Second')
        const slotOf = async (trx: Kysely<Database>) =>
          (await sql<{ slot: number }>`SELECT (txid_current() % 16)::int AS slot`.execute(trx)).rows[0]?.slot
        // The first writer changes a job and fires its counter triggers now: it holds its counter rows.
        const holding = await db.startTransaction().execute()
        try {
          await updateJob(holding, org, first, { status: 'ASSIGNED', priority: 'HIGH' })
          await sql`SET CONSTRAINTS ALL IMMEDIATE`.execute(holding)
          const held = await slotOf(holding)
          // The second makes the same change to another job, from a transaction id of another slot.
          let other = await db.startTransaction().execute()
          while ((await slotOf(other)) === held) {
            await other.rollback().execute()
            other = await db.startTransaction().execute()
          }
          await updateJob(other, org, second, { status: 'ASSIGNED', priority: 'HIGH' })
          const committed = other
            .commit()
            .execute()
            .then(() => 'committed')
          const outcome = await Promise.race([
            committed,
            new Promise((resolve) => setTimeout(() => resolve('still waiting after 3 s'), 3000)),
          ])
          expect(outcome).toBe('committed')
        } finally {
          await holding.rollback().execute()
        }
        const total = async (query: string) =>
          (await api.get(`/jobs?limit=1&${query}`)).body.data.pagination.total
        expect([await total(''), await total('status=CREATED'), await total('status=ASSIGNED')]).toEqual([
          2, 1, 1,
        ])
      },
    )

    it('match a brute-force overlap check for every targetDate, with pages, cursors and filters', async () => {
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      const api = client(t, tenant.headers)
      const admin = adminClient(t, tenant.headers)
      const db = t.database.db
      const org = tenant.organisationId
      const worker = (await makeUser(db, org)).id
      const pick = random(dialect === 'sqlite' ? 3 : 5)
      const day = (n: number) => new Date(Date.UTC(2026, 10, 20 + n)).toISOString()
      const at = (n: number, hours: number) => new Date(Date.parse(day(n)) + hours * 3_600_000).toISOString()
      const windows = [
        () => ({ earliestStart: at(pick(6), 9), latestEnd: at(pick(6), 9) }), // may be refused: unordered
        () => {
          const start = pick(6)
          return { earliestStart: at(start, 8 + pick(8)), latestEnd: at(start, 17 + pick(6)) }
        },
        () => ({ earliestStart: at(pick(3), 0), latestEnd: at(3 + pick(3), 0) }), // ends exactly at a midnight
        () => ({ earliestStart: at(-40, 0), latestEnd: at(pick(6), 12) }), // longer than a month
        () => ({ earliestStart: at(pick(6), 10) }), // open end
        () => ({ latestEnd: at(pick(6), 10) }), // open start
        () => ({}), // no window: never matched
      ]
      const jobs: string[] = []
      for (let i = 0; i < 70; i++) {
        const roll = pick(10)
        if (roll < 5 || jobs.length === 0) {
          const created = await api.post('/jobs', {
            title: `W${i}`,
            priority: PRIORITIES[pick(3)],
            ...windows[pick(7)]?.(),
          })
          if (created.status === 201) jobs.push(created.body.data.job.id)
          continue
        }
        const id = jobs[pick(jobs.length)] as string
        if (roll === 5) {
          await api.patch(`/jobs/${id}`, { earliestStart: null, latestEnd: null, ...windows[pick(7)]?.() })
        }
        if (roll === 6) {
          await admin.post(`/jobs/${id}/assign`, {
            userId: worker,
            scheduledStart: day(1),
            scheduledEnd: day(2),
          })
        }
        if (roll === 7) await admin.post(`/jobs/${id}/${['start', 'complete', 'cancel'][pick(3)]}`)
        if (roll === 8) await api.delete(`/jobs/${id}`)
        if (roll === 9) await setJobState(db, org, id, { status: STATUSES[pick(5)] })
      }

      // A rebuild from the base table (after a bulk load) arrives at the same day tables.
      const snapshot = () => derivedSnapshot(db, org, ['job_days', 'job_long_windows', 'job_day_counts'])
      const maintained = await snapshot()
      await rebuildDerivedCounts(db)
      expect(await snapshot()).toEqual(maintained)

      const live = await db
        .selectFrom('jobs')
        .select(['id', 'status', 'priority', 'earliest_start', 'latest_end', 'created_at'])
        .where('organisation_id', '=', org)
        .where('deleted_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute()
      for (let n = -2; n < 8; n++) {
        const start = day(n)
        const end = day(n + 1)
        const date = start.slice(0, 10)
        for (const status of [undefined, 'CREATED', 'ASSIGNED']) {
          for (const priority of [undefined, 'HIGH']) {
            const expected = live
              .filter((job) => job.earliest_start !== null || job.latest_end !== null)
              .filter((job) => (job.earliest_start ?? '') < end && (job.latest_end ?? '9999') >= start)
              .filter((job) => !status || job.status === status)
              .filter((job) => !priority || job.priority === priority)
              .map((job) => job.id)
            const query = new URLSearchParams({
              targetDate: date,
              ...(status && { status }),
              ...(priority && { priority }),
            })
            const label = query.toString()
            const first = (await api.get(`/jobs?${query}&limit=100`)).body.data
            expect(first.pagination.total, label).toBe(expected.length)
            expect(
              first.jobs.map((job: { id: string }) => job.id),
              label,
            ).toEqual(expected)
            const second = (await api.get(`/jobs?${query}&limit=3&page=2`)).body.data
            expect(
              second.jobs.map((job: { id: string }) => job.id),
              label,
            ).toEqual(expected.slice(3, 6))
            const walked: string[] = []
            let cursor = ''
            do {
              const { jobs: rows, pagination } = (
                await api.get(`/jobs?${query}&limit=4${cursor ? `&cursor=${cursor}` : ''}`)
              ).body.data
              walked.push(...rows.map((job: { id: string }) => job.id))
              cursor = pagination.nextCursor ?? ''
            } while (cursor)
            expect(walked, label).toEqual(expected)
          }
        }
      }
    })
  })
}
