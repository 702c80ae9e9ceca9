// The dashboard's Jobs list (admin API): sort=date orders by the job's date — scheduled start, else
// window start, jobs with neither last — and targetDate with timeZone is that zone's day, not the UTC
// day. The public API keeps createdAt descending and knows neither parameter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeUser, setJobState } from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: the Jobs list's date order and day`, () => {
    let t: TestContext
    let tenant: TestTenant
    let other: TestTenant

    beforeAll(async () => {
      t = await createTestApp(dialect)
      tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      other = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      const api = client(t, tenant.headers)
      const windowed = async (title: string, earliestStart?: string, latestEnd?: string) =>
        (
          await api.post('/jobs', {
            title,
            ...(earliestStart ? { earliestStart } : {}),
            ...(latestEnd ? { latestEnd } : {}),
          })
        ).body.data.job
      await windowed('undated')
      await windowed('late window', '2026-06-02T15:00:00Z', '2026-06-02T17:00:00Z')
      // 23:30 UTC on 1 June is 00:30 on 2 June in London (BST).
      await windowed('london midnight', '2026-06-01T23:30:00Z', '2026-06-01T23:45:00Z')
      await windowed('early window', '2026-06-01T08:00:00Z', '2026-06-01T09:00:00Z')
      const scheduled = await windowed('scheduled first', '2026-06-03T08:00:00Z', '2026-06-03T18:00:00Z')
      // Scheduled on 1 June at 07:00: its scheduled start wins over its window's start.
      const worker = await makeUser(t.database.db, tenant.organisationId)
      await setJobState(t.database.db, tenant.organisationId, scheduled.id, {
        status: 'ASSIGNED',
        assignedUserId: worker.id,
        scheduledStart: '2026-06-01T07:00:00.000Z',
        scheduledEnd: '2026-06-01T08:00:00.000Z',
      })
      await client(t, other.headers).post('/jobs', { title: 'theirs', earliestStart: '2026-06-01T06:00:00Z' })
    })
    afterAll(() => t.close())

    const titles = async (query: string, api = adminClient(t, tenant.headers)) => {
      const response = await api.get(`/jobs?${query}`)
      expect(response.status, JSON.stringify(response.body)).toBe(200)
      return response.body.data.jobs.map((job: { title: string }) => job.title)
    }

    it('sort=date: scheduled start, else window start, earliest first, undated last', async () => {
      expect(await titles('sort=date')).toEqual([
        'scheduled first',
        'early window',
        'london midnight',
        'late window',
        'undated',
      ])
      const paged = await adminClient(t, tenant.headers).get('/jobs?sort=date&limit=2&page=2')
      expect(paged.body.data.jobs.map((job: { title: string }) => job.title)).toEqual([
        'london midnight',
        'late window',
      ])
      expect(paged.body.data.pagination).toMatchObject({ page: 2, total: 5, nextCursor: null })
      expect(await titles('sort=date&search=window')).toEqual(['early window', 'late window'])
    })

    it('the default stays newest first, and the public API knows no sort or timeZone', async () => {
      expect((await titles('')).at(0)).toBe('scheduled first')
      expect((await titles('')).at(-1)).toBe('undated')
      expect((await client(t, tenant.headers).get('/jobs?sort=date')).status).toBe(400)
      expect(
        (await client(t, tenant.headers).get('/jobs?targetDate=2026-06-02&timeZone=Europe/London')).status,
      ).toBe(400)
    })

    it("targetDate with timeZone is that zone's day", async () => {
      expect(await titles('sort=date&targetDate=2026-06-01')).toEqual(['early window', 'london midnight'])
      expect(await titles('sort=date&targetDate=2026-06-01&timeZone=Europe/London')).toEqual(['early window'])
      expect(await titles('sort=date&targetDate=2026-06-02&timeZone=Europe/London')).toEqual([
        'london midnight',
        'late window',
      ])
      // The default order reads the same days (its UTC day tables are not asked for a London day).
      expect(await titles('targetDate=2026-06-01&timeZone=Europe/London')).toEqual(['early window'])
      expect((await titles('targetDate=2026-06-02&timeZone=Europe/London')).sort()).toEqual([
        'late window',
        'london midnight',
      ])
      const page = await adminClient(t, tenant.headers).get(
        '/jobs?targetDate=2026-06-02&timeZone=Europe/London',
      )
      expect(page.body.data.pagination.total).toBe(2)
      expect((await titles('targetDate=2026-06-01&timeZone=UTC')).sort()).toEqual([
        'early window',
        'london midnight',
      ])
      const bad = await adminClient(t, tenant.headers).get('/jobs?targetDate=2026-06-02&timeZone=Mars/Base')
      expect(bad.status).toBe(400)
      expect(JSON.stringify(bad.body)).toContain('timeZone')
    })

    it('sort=date refuses a cursor or updatedSince', async () => {
      const api = adminClient(t, tenant.headers)
      expect((await api.get('/jobs?sort=date&cursor=abc')).status).toBe(400)
      expect((await api.get('/jobs?sort=date&updatedSince=2026-01-01T00:00:00Z')).status).toBe(400)
    })
  })
}
