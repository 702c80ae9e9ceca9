import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  addJobDemand,
  makeCapacityDimension,
  makeTag,
  outboxEvents,
  setJobState,
  tagJob,
} from '../../../test/factories.js'
import {
  adminClient,
  client,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'

const pause = () => new Promise((resolve) => setTimeout(resolve, 5))

for (const dialect of DIALECTS) {
  describe(`${dialect}: admin job tags and demands`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    async function setup() {
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      const db = t.database.db
      const org = tenant.organisationId
      const api = client(t, tenant.headers)
      const job = (await api.post('/jobs', { title: 'Fit new radiator' })).body.data.job
      return {
        tenant,
        job,
        api,
        admin: adminClient(t, tenant.headers),
        tags: {
          urgent: await makeTag(db, org, 'Urgent'),
          gas: await makeTag(db, org, 'Gas safe'),
          ladder: await makeTag(db, org, 'Ladder'),
        },
        dims: {
          weight: await makeCapacityDimension(db, org, 'weight', 'Weight (kg)'),
          volume: await makeCapacityDimension(db, org, 'volume', 'Volume (m³)'),
        },
      }
    }

    describe('PUT /jobs/:id/tags', () => {
      it('replaces the set, answers the public single-job shape, and the public API shows the tags', async () => {
        const { job, api, admin, tags } = await setup()
        await pause()
        const res = await admin.put(`/jobs/${job.id}/tags`, { tagIds: [tags.urgent.id, tags.gas.id] })
        expect(res.status).toBe(200)
        const updated = res.body.data.job
        expect(res.body).toEqual({
          data: {
            job: {
              ...job,
              // Sorted by name, as the public API lists them.
              tags: [
                { tag: { id: tags.gas.id, name: 'Gas safe' } },
                { tag: { id: tags.urgent.id, name: 'Urgent' } },
              ],
              updatedAt: expect.any(String),
            },
          },
          message: 'Success',
        })
        expect(updated.updatedAt > job.updatedAt).toBe(true)
        expect((await api.get(`/jobs/${job.id}`)).body.data.job).toEqual(updated)

        const replaced = await admin.put(`/jobs/${job.id}/tags`, { tagIds: [tags.ladder.id] })
        expect(replaced.body.data.job.tags).toEqual([{ tag: { id: tags.ladder.id, name: 'Ladder' } }])
        const cleared = await admin.put(`/jobs/${job.id}/tags`, { tagIds: [] })
        expect(cleared.status).toBe(200)
        expect((await api.get(`/jobs/${job.id}`)).body.data.job.tags).toEqual([])
      })

      it('leaves updatedAt alone when the set does not change, and writes no event', async () => {
        const { tenant, job, admin, tags } = await setup()
        const first = (await admin.put(`/jobs/${job.id}/tags`, { tagIds: [tags.urgent.id, tags.gas.id] }))
          .body
        const recorded = await outboxEvents(t.database.db, tenant.organisationId)
        expect(recorded.at(-1)?.event).toBe('JOB_UPDATED')
        await pause()
        const again = await admin.put(`/jobs/${job.id}/tags`, { tagIds: [tags.gas.id, tags.urgent.id] })
        expect(again.body).toEqual(first)
        expect(await outboxEvents(t.database.db, tenant.organisationId)).toEqual(recorded)
      })

      it.each([
        ['duplicate ids', (ids: string[]) => ({ tagIds: [ids[0], ids[0]] }), '/body/tagIds'],
        [
          'more than 50 ids',
          () => ({ tagIds: Array.from({ length: 51 }, (_, i) => `t${i}`) }),
          '/body/tagIds',
        ],
        ['a missing tagIds', () => ({}), '/body/tagIds'],
        ['a wrong type', () => ({ tagIds: 'urgent' }), '/body/tagIds'],
        ['a non-string id', () => ({ tagIds: [7] }), '/body/tagIds/0'],
        ['an unknown field', (ids: string[]) => ({ tagIds: ids, replace: true }), '/body/replace'],
      ])('refuses %s with 400', async (_case, body, path) => {
        const { job, api, admin, tags } = await setup()
        const res = await admin.put(`/jobs/${job.id}/tags`, body([tags.urgent.id, tags.gas.id]))
        expect(res.status).toBe(400)
        expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path)
        expect((await api.get(`/jobs/${job.id}`)).body.data.job).toEqual(job)
      })

      it("refuses unknown and another organisation's tags with 400 at /body/tagIds/N", async () => {
        const { job, api, admin, tags } = await setup()
        const other = await setup()
        for (const id of [other.tags.urgent.id, 'no-such-tag']) {
          const res = await admin.put(`/jobs/${job.id}/tags`, { tagIds: [tags.urgent.id, id] })
          expect(res.status).toBe(400)
          expect(res.body).toEqual({
            error: `tagIds.1: tag ${id} does not exist in your organisation`,
            code: 'VALIDATION_ERROR',
            details: [{ path: '/body/tagIds/1', message: `tag ${id} does not exist in your organisation` }],
          })
        }
        expect((await api.get(`/jobs/${job.id}`)).body.data.job).toEqual(job)
      })
    })

    describe('PUT /jobs/:id/demands', () => {
      it('replaces the set, answers the public single-job shape, and the public API shows the demands', async () => {
        const { job, api, admin, dims } = await setup()
        await pause()
        const res = await admin.put(`/jobs/${job.id}/demands`, {
          demands: [
            { capacityDimensionId: dims.weight.id, requiredValue: 12.5 },
            { capacityDimensionId: dims.volume.id, requiredValue: 0 },
          ],
        })
        expect(res.status).toBe(200)
        const updated = res.body.data.job
        expect(updated).toEqual({
          ...job,
          // Sorted by dimension key.
          demands: [
            {
              capacityDimension: { id: dims.volume.id, key: 'volume', label: 'Volume (m³)' },
              requiredValue: 0,
            },
            {
              capacityDimension: { id: dims.weight.id, key: 'weight', label: 'Weight (kg)' },
              requiredValue: 12.5,
            },
          ],
          updatedAt: expect.any(String),
        })
        expect(updated.updatedAt > job.updatedAt).toBe(true)
        expect((await api.get(`/jobs/${job.id}`)).body.data.job).toEqual(updated)

        await pause()
        const changed = await admin.put(`/jobs/${job.id}/demands`, {
          demands: [{ capacityDimensionId: dims.weight.id, requiredValue: 3 }],
        })
        expect(changed.body.data.job.demands).toEqual([
          {
            capacityDimension: { id: dims.weight.id, key: 'weight', label: 'Weight (kg)' },
            requiredValue: 3,
          },
        ])
        expect(changed.body.data.job.updatedAt > updated.updatedAt).toBe(true)

        // Same set again: nothing moves.
        await pause()
        const same = await admin.put(`/jobs/${job.id}/demands`, {
          demands: [{ capacityDimensionId: dims.weight.id, requiredValue: 3 }],
        })
        expect(same.body).toEqual(changed.body)

        const cleared = await admin.put(`/jobs/${job.id}/demands`, { demands: [] })
        expect(cleared.body.data.job.demands).toEqual([])
        expect((await api.get(`/jobs/${job.id}`)).body.data.job.demands).toEqual([])
      })

      it.each([
        [
          'a repeated dimension',
          (a: string, b: string) => ({
            demands: [
              { capacityDimensionId: a, requiredValue: 1 },
              { capacityDimensionId: b, requiredValue: 1 },
              { capacityDimensionId: a, requiredValue: 2 },
            ],
          }),
          '/body/demands/2/capacityDimensionId',
        ],
        [
          'a negative value',
          (a: string) => ({ demands: [{ capacityDimensionId: a, requiredValue: -1 }] }),
          '/body/demands/0/requiredValue',
        ],
        [
          'a string value',
          (a: string) => ({ demands: [{ capacityDimensionId: a, requiredValue: '2' }] }),
          '/body/demands/0/requiredValue',
        ],
        [
          'a missing value',
          (a: string) => ({ demands: [{ capacityDimensionId: a }] }),
          '/body/demands/0/requiredValue',
        ],
        [
          'an unknown demand field',
          (a: string) => ({ demands: [{ capacityDimensionId: a, requiredValue: 1, unit: 'kg' }] }),
          '/body/demands/0/unit',
        ],
        [
          'more than 50 demands',
          () => ({
            demands: Array.from({ length: 51 }, (_, i) => ({
              capacityDimensionId: `d${i}`,
              requiredValue: 1,
            })),
          }),
          '/body/demands',
        ],
        ['a missing demands', () => ({}), '/body/demands'],
      ])('refuses %s with 400', async (_case, body, path) => {
        const { job, api, admin, dims } = await setup()
        const res = await admin.put(`/jobs/${job.id}/demands`, body(dims.weight.id, dims.volume.id))
        expect(res.status).toBe(400)
        expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path)
        expect((await api.get(`/jobs/${job.id}`)).body.data.job).toEqual(job)
      })

      it("refuses unknown and another organisation's dimensions with 400 naming the entry", async () => {
        const { job, api, admin, dims } = await setup()
        const other = await setup()
        for (const id of [other.dims.weight.id, 'no-such-dimension']) {
          const res = await admin.put(`/jobs/${job.id}/demands`, {
            demands: [
              { capacityDimensionId: dims.weight.id, requiredValue: 1 },
              { capacityDimensionId: id, requiredValue: 1 },
            ],
          })
          expect(res.status).toBe(400)
          expect(res.body.details).toEqual([
            {
              path: '/body/demands/1/capacityDimensionId',
              message: `capacity dimension ${id} does not exist in your organisation`,
            },
          ])
        }
        expect((await api.get(`/jobs/${job.id}`)).body.data.job).toEqual(job)
      })
    })

    it("answers 404 for unknown, deleted and another organisation's jobs, leaving them unchanged", async () => {
      const { api, admin, tags, dims } = await setup()
      const other = await setup()
      await tagJob(t.database.db, other.tenant.organisationId, other.job.id, other.tags.gas.id)
      await addJobDemand(t.database.db, other.tenant.organisationId, other.job.id, other.dims.weight.id, 4)
      const theirs = (await other.api.get(`/jobs/${other.job.id}`)).body.data.job
      const deleted = (await api.post('/jobs', { title: 'Gone' })).body.data.job
      expect((await api.delete(`/jobs/${deleted.id}`)).status).toBe(200)
      for (const id of ['no-such-job', deleted.id, other.job.id]) {
        for (const res of [
          await admin.put(`/jobs/${id}/tags`, { tagIds: [tags.urgent.id] }),
          await admin.put(`/jobs/${id}/demands`, {
            demands: [{ capacityDimensionId: dims.weight.id, requiredValue: 1 }],
          }),
        ]) {
          expect(res.status).toBe(404)
          expect(res.body).toEqual({ error: 'Job not found', code: 'NOT_FOUND' })
        }
      }
      expect((await other.api.get(`/jobs/${other.job.id}`)).body.data.job).toEqual(theirs)
      const rows = await t.database.db
        .selectFrom('job_tags')
        .select('tag_id')
        .where('job_id', '=', deleted.id)
        .execute()
      expect(rows).toEqual([])
    })

    it.each(['COMPLETED', 'CANCELLED'] as const)(
      'refuses changes to a %s job with 422 TERMINAL_STATE',
      async (status) => {
        const { tenant, job, api, admin, tags, dims } = await setup()
        await setJobState(t.database.db, tenant.organisationId, job.id, { status })
        const before = (await api.get(`/jobs/${job.id}`)).body.data.job
        for (const res of [
          await admin.put(`/jobs/${job.id}/tags`, { tagIds: [tags.urgent.id] }),
          await admin.put(`/jobs/${job.id}/demands`, {
            demands: [{ capacityDimensionId: dims.weight.id, requiredValue: 1 }],
          }),
        ]) {
          expect(res.status).toBe(422)
          expect(res.body).toEqual({
            error: `Job is ${status} and can no longer be modified`,
            code: 'TERMINAL_STATE',
          })
        }
        expect((await api.get(`/jobs/${job.id}`)).body.data.job).toEqual(before)
      },
    )

    it.each(['ASSIGNED', 'IN_PROGRESS'] as const)('changes the tags of a %s job', async (status) => {
      const { tenant, job, admin, tags } = await setup()
      await setJobState(t.database.db, tenant.organisationId, job.id, { status })
      const res = await admin.put(`/jobs/${job.id}/tags`, { tagIds: [tags.urgent.id] })
      expect(res.status).toBe(200)
      expect(res.body.data.job.tags).toEqual([{ tag: { id: tags.urgent.id, name: 'Urgent' } }])
    })

    it('refuses keys without the admin scope with 403 FORBIDDEN', async () => {
      const { job, tags } = await setup()
      for (const scopes of [['read'], ['write'], ['read', 'write']] as const) {
        const tenant = await createTenant(t, { scopes: [...scopes] })
        const admin = adminClient(t, tenant.headers)
        for (const res of [
          await admin.put(`/jobs/${job.id}/tags`, { tagIds: [tags.urgent.id] }),
          await admin.put(`/jobs/${job.id}/demands`, { demands: [] }),
        ]) {
          expect(res.status).toBe(403)
          expect(res.body.code).toBe('FORBIDDEN')
        }
      }
    })
  })
}
