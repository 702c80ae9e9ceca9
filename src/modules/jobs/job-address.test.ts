// A job's own address (migration 0028, issue 30 §2): optional and nullable on POST, PATCH sets and
// clears it (null), stored as sent, at most 1000 characters (400 naming /body/address), carried in
// JOB_CREATED and in JOB_UPDATED's changes, shown by both APIs' single-job and list shapes. On SQLite
// the migration rebuilds the jobs' trigram table: jobs already there stay findable by title.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outboxEvents } from '../../../test/factories.js'
import { client, createTenant, createTestApp, DIALECTS, type TestContext } from '../../../test/helpers.js'
import { createDatabase } from '../../db/database.js'
import { MIGRATIONS, migrateToLatest } from '../../db/migrator.js'
import { createOrganisation } from '../organisations/service.js'
import { search } from '../search/service.js'

const DELIVERY = { title: 'Deliver boiler', jobLatitude: 53.4631, jobLongitude: -2.2913 }

for (const dialect of DIALECTS) {
  describe(`${dialect}: job address`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    it('round-trips through create, read, update and clear, with the events', async () => {
      const tenant = await createTenant(t, { scopes: ['read', 'write'] })
      const api = client(t, tenant.headers)
      const address = '  Unit 4, Westinghouse Road, Trafford Park M17 1PY'
      const created = await api.post('/jobs', { ...DELIVERY, address })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const job = created.body.data.job
      // As sent, untrimmed, as a customer's address is.
      expect(job.address).toBe(address)
      expect((await api.get(`/jobs/${job.id}`)).body.data.job.address).toBe(address)
      const listed = (await api.get('/jobs')).body.data.jobs
      expect(listed.map((j: { address: string | null }) => j.address)).toEqual([address])

      const moved = await api.patch(`/jobs/${job.id}`, { address: '9 Mill Lane, Salford M5 4WT' })
      expect(moved.status).toBe(200)
      expect(moved.body.data.job.address).toBe('9 Mill Lane, Salford M5 4WT')
      const cleared = await api.patch(`/jobs/${job.id}`, { address: null })
      expect(cleared.body.data.job.address).toBeNull()
      expect((await api.get(`/jobs/${job.id}`)).body.data.job.address).toBeNull()

      const events = await outboxEvents(t.database.db, tenant.organisationId)
      expect(events.map((e) => e.event)).toEqual(['JOB_CREATED', 'JOB_UPDATED', 'JOB_UPDATED'])
      expect(events[0]!.data.address).toBe(address)
      expect(events[1]!.data.changes).toEqual({
        address: { previous: address, current: '9 Mill Lane, Salford M5 4WT' },
      })
      expect(events[2]!.data.changes).toEqual({
        address: { previous: '9 Mill Lane, Salford M5 4WT', current: null },
      })

      // Omitted, it is null; the same value again changes nothing and records nothing.
      const bare = (await api.post('/jobs', { title: 'Bare' })).body.data.job
      expect(bare.address).toBeNull()
      await api.patch(`/jobs/${bare.id}`, { address: null })
      expect(await outboxEvents(t.database.db, tenant.organisationId)).toHaveLength(4)
    })

    it('refuses more than 1000 characters with 400 naming address, changing nothing', async () => {
      const tenant = await createTenant(t, { scopes: ['read', 'write'] })
      const api = client(t, tenant.headers)
      const long = 'x'.repeat(1001)
      const refused = await api.post('/jobs', { ...DELIVERY, address: long })
      expect(refused.status).toBe(400)
      expect(refused.body.code).toBe('VALIDATION_ERROR')
      expect(refused.body.details.map((d: { path: string }) => d.path)).toContain('/body/address')
      expect((await api.get('/jobs')).body.data.jobs).toEqual([])

      const job = (await api.post('/jobs', { ...DELIVERY, address: 'y'.repeat(1000) })).body.data.job
      expect(job.address).toHaveLength(1000)
      const patched = await api.patch(`/jobs/${job.id}`, { address: long })
      expect(patched.status).toBe(400)
      expect(patched.body.details.map((d: { path: string }) => d.path)).toContain('/body/address')
      expect((await api.get(`/jobs/${job.id}`)).body.data.job.address).toHaveLength(1000)
    })
  })
}

describe('sqlite: migration 0028', () => {
  it('rebuilds the trigram table from the jobs already there, and keeps it in step after', async () => {
    const database = createDatabase(':memory:')
    try {
      const before = Object.fromEntries(
        Object.entries(MIGRATIONS).filter(([name]) => name < '0028-job-address'),
      )
      await migrateToLatest(database.db, 'sqlite', before)
      const acme = await createOrganisation(database.db, { name: 'Acme', plan: 'PRO' })
      for (const [id, title] of [
        ['old-1', 'Service boiler'],
        ['old-2', 'Fit radiator'],
      ]) {
        await (database.db as any)
          .insertInto('jobs')
          .values({
            id,
            organisation_id: acme.id,
            title,
            status: 'CREATED',
            priority: 'NORMAL',
            service_duration: 900,
            time_window_type: 'HARD',
            created_at: '2026-01-01T00:00:00.000Z',
            updated_at: '2026-01-01T00:00:00.000Z',
          })
          .execute()
      }
      expect(await migrateToLatest(database.db, 'sqlite')).toContain('0028-job-address')
      const found = async (q: string) =>
        (await search(database.db, acme.id, { q, limit: 10 })).jobs.map((job) => job.id)
      expect(await found('boiler')).toEqual(['old-1'])
      expect(await found('radiator')).toEqual(['old-2'])
      await database.db
        .updateTable('jobs')
        .set({ address: '7 Canal Street' })
        .where('id', '=', 'old-2')
        .execute()
      expect(await found('canal st')).toEqual(['old-2'])
      await database.db.deleteFrom('jobs').where('id', '=', 'old-2').execute()
      expect(await found('canal st')).toEqual([])
    } finally {
      await database.destroy()
    }
  })
})
