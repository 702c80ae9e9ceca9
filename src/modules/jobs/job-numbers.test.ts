// Job numbers (issue 30 §4): J-<n> per organisation from 1001, given at creation in the create's
// transaction, read-only (a write naming it is a 400), carried by JOB_CREATED; existing jobs numbered
// by migration 0026 in createdAt order per organisation; concurrent creates on PostgreSQL never share
// or skip a number.
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminPostgresUrl, postgresUrlFor } from '../../../test/dialects.js'
import { outboxEvents } from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.js'
import { createDatabase, type Dialect } from '../../db/database.js'
import { MIGRATIONS, migrateToLatest } from '../../db/migrator.js'
import { createOrganisation } from '../organisations/service.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: job numbers`, () => {
    let t: TestContext
    let tenant: TestTenant
    let other: TestTenant
    beforeAll(async () => {
      t = await createTestApp(dialect)
      tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      other = await createTenant(t)
    })
    afterAll(() => t.close())

    it('numbers each organisation’s jobs from J-1001, shown by every read and JOB_CREATED', async () => {
      const api = client(t, tenant.headers)
      const numbers: string[] = []
      for (const title of ['First', 'Second', 'Third']) {
        const created = await api.post('/jobs', { title })
        expect(created.status).toBe(201)
        numbers.push(created.body.data.job.number)
      }
      expect(numbers).toEqual(['J-1001', 'J-1002', 'J-1003'])
      // Another organisation has its own sequence.
      expect((await client(t, other.headers).post('/jobs', { title: 'Theirs' })).body.data.job.number).toBe(
        'J-1001',
      )
      const listed = (await api.get('/jobs?limit=100')).body.data.jobs
      expect(listed.map((job: { number: string }) => job.number)).toEqual(['J-1003', 'J-1002', 'J-1001'])
      const first = listed[2]
      expect((await api.get(`/jobs/${first.id}`)).body.data.job.number).toBe('J-1001')
      expect((await adminClient(t, tenant.headers).get(`/jobs/${first.id}`)).body.data.job.number).toBe(
        'J-1001',
      )
      const events = await outboxEvents(t.database.db, tenant.organisationId)
      const created = events.filter((event) => event.event === 'JOB_CREATED')
      expect(created.map((event) => event.data.number)).toEqual(['J-1001', 'J-1002', 'J-1003'])
    })

    it('never takes a number from a write: 400 naming the field, on both APIs', async () => {
      for (const api of [client(t, tenant.headers), adminClient(t, tenant.headers)]) {
        const refused = await api.post('/jobs', { title: 'Numbered', number: 'J-5000' })
        expect(refused.status).toBe(400)
        expect(refused.body.code).toBe('VALIDATION_ERROR')
        expect(JSON.stringify(refused.body)).toContain('number')
        const job = (await api.post('/jobs', { title: 'Plain' })).body.data.job
        const patched = await api.patch(`/jobs/${job.id}`, { number: 'J-1' })
        expect(patched.status).toBe(400)
        expect(JSON.stringify(patched.body)).toContain('number')
        expect((await api.get(`/jobs/${job.id}`)).body.data.job.number).toBe(job.number)
      }
    })

    if (dialect === 'postgres') {
      it('50 concurrent creates get 50 distinct consecutive numbers', async () => {
        const fresh = await createTenant(t)
        const api = client(t, fresh.headers)
        const created = await Promise.all(
          Array.from({ length: 50 }, (_, i) => api.post('/jobs', { title: `Parallel ${i}` })),
        )
        expect(created.map((response) => response.status)).toEqual(Array(50).fill(201))
        const numbers = created.map((response) => Number(response.body.data.job.number.slice(2)))
        expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => 1001 + i))
      })
    }

    it('migration 0026 numbers existing jobs in createdAt order per organisation, deleted ones too', async () => {
      const database = await emptyDatabase(dialect)
      try {
        const before = Object.fromEntries(
          Object.entries(MIGRATIONS).filter(([name]) => name < '0026-job-numbers-and-search'),
        )
        await migrateToLatest(database.db, dialect, before)
        const acme = await createOrganisation(database.db, { name: 'Acme', plan: 'PRO' })
        const beta = await createOrganisation(database.db, { name: 'Beta', plan: 'PRO' })
        const rows = [
          [acme.id, 'a-late', '2026-03-01T00:00:00.000Z', null],
          [beta.id, 'b-only', '2026-01-01T00:00:00.000Z', null],
          [acme.id, 'a-early', '2026-01-01T00:00:00.000Z', null],
          [acme.id, 'a-deleted', '2026-02-01T00:00:00.000Z', '2026-02-02T00:00:00.000Z'],
        ] as const
        for (const [organisationId, id, createdAt, deletedAt] of rows) {
          await (database.db as any)
            .insertInto('jobs')
            .values({
              id,
              organisation_id: organisationId,
              title: id,
              status: 'CREATED',
              priority: 'NORMAL',
              service_duration: 900,
              time_window_type: 'HARD',
              created_at: createdAt,
              updated_at: createdAt,
              deleted_at: deletedAt,
            })
            .execute()
        }
        expect(await migrateToLatest(database.db, dialect)).toContain('0026-job-numbers-and-search')
        const numbered = await database.db.selectFrom('jobs').select(['id', 'number']).orderBy('id').execute()
        expect(numbered).toEqual([
          { id: 'a-deleted', number: 1002 },
          { id: 'a-early', number: 1001 },
          { id: 'a-late', number: 1003 },
          { id: 'b-only', number: 1001 },
        ])
        const counters = await database.db
          .selectFrom('job_number_counters')
          .select(['organisation_id', 'last_number'])
          .execute()
        expect(Object.fromEntries(counters.map((c) => [c.organisation_id, c.last_number]))).toEqual({
          [acme.id]: 1003,
          [beta.id]: 1001,
        })
      } finally {
        await database.cleanup()
      }
    })
  })
}

async function emptyDatabase(dialect: Dialect) {
  if (dialect === 'sqlite') {
    const handle = createDatabase(':memory:')
    return { ...handle, cleanup: () => handle.destroy() }
  }
  const name = `fs_test_numbers_${process.pid}_${randomBytes(4).toString('hex')}`
  await adminQuery(`CREATE DATABASE ${name}`)
  const handle = createDatabase(postgresUrlFor(name), { pgPoolSize: 2 })
  return {
    ...handle,
    async cleanup() {
      await handle.destroy()
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}

async function adminQuery(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminPostgresUrl() })
  await admin.connect()
  try {
    await admin.query(statement)
  } finally {
    await admin.end()
  }
}
