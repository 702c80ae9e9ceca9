// A job's dueBy (migration 0037, issue 32 §3): the last date it should be done on, optional and
// nullable on POST, set and cleared (null) by PATCH, a calendar date or a 400 naming /body/dueBy that
// changes nothing, carried in JOB_CREATED and in JOB_UPDATED's changes, shown in lists and by the
// single-job shape. Route plans over several days keep the job to the days up to it (week-plan.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outboxEvents } from '../../../test/factories.js'
import { client, createTenant, createTestApp, DIALECTS, type TestContext } from '../../../test/helpers.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: job dueBy`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    it('round-trips through create, read, update and clear, with the events', async () => {
      const tenant = await createTenant(t, { scopes: ['read', 'write'] })
      const api = client(t, tenant.headers)
      const created = await api.post('/jobs', { title: 'Annual gas safety check', dueBy: '2026-12-11' })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const job = created.body.data.job
      expect(job.dueBy).toBe('2026-12-11')
      expect((await api.get(`/jobs/${job.id}`)).body.data.job.dueBy).toBe('2026-12-11')
      expect((await api.get('/jobs')).body.data.jobs.map((j: { dueBy: string }) => j.dueBy)).toEqual([
        '2026-12-11',
      ])
      const moved = await api.patch(`/jobs/${job.id}`, { dueBy: '2026-12-18' })
      expect(moved.status).toBe(200)
      expect(moved.body.data.job.dueBy).toBe('2026-12-18')
      const cleared = await api.patch(`/jobs/${job.id}`, { dueBy: null })
      expect(cleared.body.data.job.dueBy).toBeNull()

      const events = await outboxEvents(t.database.db, tenant.organisationId)
      expect(events.map((e) => e.event)).toEqual(['JOB_CREATED', 'JOB_UPDATED', 'JOB_UPDATED'])
      expect(events[0]!.data.dueBy).toBe('2026-12-11')
      expect(events[1]!.data.changes).toEqual({ dueBy: { previous: '2026-12-11', current: '2026-12-18' } })
      expect(events[2]!.data.changes).toEqual({ dueBy: { previous: '2026-12-18', current: null } })
      // Omitted, it is null.
      expect((await api.post('/jobs', { title: 'Bare' })).body.data.job.dueBy).toBeNull()
    })

    it('refuses what is not a calendar date with 400 naming dueBy, changing nothing', async () => {
      const tenant = await createTenant(t, { scopes: ['read', 'write'] })
      const api = client(t, tenant.headers)
      for (const dueBy of ['2026-13-01', '2026-02-30', '11/12/2026', '2026-12-11T10:00:00Z', 20261211, '']) {
        const refused = await api.post('/jobs', { title: 'Check', dueBy })
        expect(refused.status, String(dueBy)).toBe(400)
        expect(refused.body.code).toBe('VALIDATION_ERROR')
        expect(refused.body.details.map((d: { path: string }) => d.path)).toContain('/body/dueBy')
      }
      expect((await api.get('/jobs')).body.data.jobs).toEqual([])
      const job = (await api.post('/jobs', { title: 'Check', dueBy: '2026-12-11' })).body.data.job
      const patched = await api.patch(`/jobs/${job.id}`, { dueBy: '2026-12-32' })
      expect(patched.status).toBe(400)
      expect(patched.body.details.map((d: { path: string }) => d.path)).toContain('/body/dueBy')
      expect((await api.get(`/jobs/${job.id}`)).body.data.job.dueBy).toBe('2026-12-11')
    })
  })
}
