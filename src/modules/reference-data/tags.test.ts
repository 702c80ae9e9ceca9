import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeLocation, makeTag, makeVehicle, tagJob } from '../../../test/factories.js'
import {
  adminClient,
  client,
  createKey,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import {
  BAD_PAGE_QUERIES,
  expectPagesNewestFirst,
  expectQueryRefused,
  listAt,
} from '../../../test/list-pages.js'
import { findTagsByIds } from './service.js'

const pause = () => new Promise((resolve) => setTimeout(resolve, 5))

for (const dialect of DIALECTS) {
  describe(`${dialect}: admin tags`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    async function setup() {
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      return { tenant, admin: adminClient(t, tenant.headers), pub: client(t, tenant.headers) }
    }

    async function createJob(pub: ReturnType<typeof client>, title = 'Fix boiler') {
      const res = await pub.post('/jobs', { title })
      expect(res.status).toBe(201)
      return res.body.data.job.id as string
    }

    it('creates a tag with a trimmed name, gets it and lists it', async () => {
      const { admin } = await setup()
      const created = await admin.post('/tags', { name: '  Gas Safe ' })
      expect(created.status).toBe(201)
      const tag = created.body.data.tag
      expect(created.body).toEqual({
        data: {
          tag: {
            id: expect.any(String),
            name: 'Gas Safe',
            createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
            updatedAt: tag.createdAt,
          },
        },
        message: 'Success',
      })
      expect((await admin.get(`/tags/${tag.id}`)).body).toEqual({ data: { tag }, message: 'Success' })
      expect((await admin.get('/tags')).body).toEqual({
        data: { tags: [tag], pagination: { page: 1, limit: 50, total: 1, totalPages: 1 } },
        message: 'Success',
      })
    })

    it('lists newest first and pages', async () => {
      const { tenant, admin } = await setup()
      const ids: string[] = []
      for (const name of ['a', 'b', 'c', 'd', 'e'])
        ids.push((await makeTag(t.database.db, tenant.organisationId, name)).id)
      await expectPagesNewestFirst(listAt(admin, '/tags', 'tags'), [...ids].reverse(), {
        defaultLimit: 50,
        pageSize: 2,
      })
    })

    it.each([...BAD_PAGE_QUERIES, 'page=x', 'search=gas'])('rejects ?%s with 400', async (query) => {
      const { admin } = await setup()
      await expectQueryRefused(listAt(admin, '/tags', 'tags'), query)
    })

    it.each([
      ['a missing name', {}, '/body/name'],
      ['an empty name', { name: '' }, '/body/name'],
      ['a blank name', { name: '   ' }, '/body/name'],
      ['a name of the wrong type', { name: 7 }, '/body/name'],
      ['a name that is too long', { name: 'x'.repeat(101) }, '/body/name'],
      ['an unknown field', { name: 'ok', colour: 'red' }, '/body/colour'],
    ])('refuses a create or rename with %s', async (_case, payload, path) => {
      const { tenant, admin } = await setup()
      const res = await admin.post('/tags', payload)
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
      expect(res.body.details).toContainEqual(expect.objectContaining({ path }))
      const existing = await makeTag(t.database.db, tenant.organisationId, 'existing')
      if (path !== '/body/name' || 'name' in payload) {
        const patch = await admin.patch(`/tags/${existing.id}`, payload)
        expect(patch.status).toBe(400)
        expect(patch.body.code).toBe('VALIDATION_ERROR')
      }
      expect((await admin.get('/tags')).body.data.tags.map((tag: { name: string }) => tag.name)).toEqual([
        'existing',
      ])
    })

    it('refuses a name the organisation already has, ignoring case, with 409', async () => {
      const { admin } = await setup()
      const other = await setup()
      const gas = (await admin.post('/tags', { name: 'Gas Safe' })).body.data.tag
      const dup = await admin.post('/tags', { name: 'gas safe ' })
      expect(dup.status).toBe(409)
      expect(dup.body).toEqual({
        error: 'Your organisation already has a tag named "Gas Safe"',
        code: 'CONFLICT',
        details: [{ path: '/body/name', message: 'is already taken' }],
      })
      expect((await other.admin.post('/tags', { name: 'Gas Safe' })).status).toBe(201)

      const ladder = (await admin.post('/tags', { name: 'Ladder' })).body.data.tag
      const clash = await admin.patch(`/tags/${ladder.id}`, { name: 'GAS SAFE' })
      expect(clash.status).toBe(409)
      expect(clash.body.code).toBe('CONFLICT')
      expect((await admin.get(`/tags/${ladder.id}`)).body.data.tag).toEqual(ladder)
      // A change of case of its own name is a rename.
      await pause()
      const recased = await admin.patch(`/tags/${gas.id}`, { name: 'GAS SAFE' })
      expect(recased.status).toBe(200)
      expect(recased.body.data.tag).toEqual({ ...gas, name: 'GAS SAFE', updatedAt: expect.any(String) })
      expect(recased.body.data.tag.updatedAt > gas.updatedAt).toBe(true)
    })

    it('answers concurrent creates of one name with one 201 and 409s, never a 500', async () => {
      const { admin } = await setup()
      const responses = await Promise.all(
        Array.from({ length: 6 }, () => admin.post('/tags', { name: 'race' })),
      )
      expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409])
    })

    it('renames, changing updatedAt only on a real change; the public API shows the new name', async () => {
      const { tenant, admin, pub } = await setup()
      const tag = (await admin.post('/tags', { name: 'fridge' })).body.data.tag
      const location = await makeLocation(t.database.db, tenant.organisationId)
      const vehicle = await makeVehicle(t.database.db, tenant.organisationId, location.id, {
        tagIds: [tag.id],
      })
      const job = await createJob(pub)
      await tagJob(t.database.db, tenant.organisationId, job, tag.id)
      await pause()

      expect((await admin.patch(`/tags/${tag.id}`, { name: 'fridge' })).body.data.tag).toEqual(tag)
      expect((await admin.patch(`/tags/${tag.id}`, {})).body.data.tag).toEqual(tag)
      const res = await admin.patch(`/tags/${tag.id}`, { name: 'refrigerated' })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        data: { tag: { ...tag, name: 'refrigerated', updatedAt: expect.any(String) } },
        message: 'Success',
      })
      expect(res.body.data.tag.updatedAt > tag.updatedAt).toBe(true)
      expect((await pub.get(`/vehicles/${vehicle.id}`)).body.data.vehicle.tags).toEqual([
        { tag: { id: tag.id, name: 'refrigerated' } },
      ])
      expect((await pub.get(`/jobs/${job}`)).body.data.job.tags).toEqual([
        { tag: { id: tag.id, name: 'refrigerated' } },
      ])
    })

    it('deletes an unused tag', async () => {
      const { admin } = await setup()
      const keep = (await admin.post('/tags', { name: 'keep' })).body.data.tag
      const tag = (await admin.post('/tags', { name: 'spare' })).body.data.tag
      const res = await admin.delete(`/tags/${tag.id}`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        data: { tag: { id: tag.id, deletedAt: expect.stringMatching(/Z$/) } },
        message: 'Success',
      })
      expect(res.body.data.tag.deletedAt >= tag.createdAt).toBe(true)
      expect((await admin.get(`/tags/${tag.id}`)).status).toBe(404)
      expect((await admin.delete(`/tags/${tag.id}`)).status).toBe(404)
      expect((await admin.get('/tags')).body.data.tags).toEqual([keep])
      // The name is free again.
      expect((await admin.post('/tags', { name: 'spare' })).status).toBe(201)
    })

    it('refuses to delete a tag that vehicles or live jobs carry, saying how many', async () => {
      const { tenant, admin, pub } = await setup()
      const db = t.database.db
      const tag = (await admin.post('/tags', { name: 'ladder' })).body.data.tag
      const location = await makeLocation(db, tenant.organisationId)
      const van1 = await makeVehicle(db, tenant.organisationId, location.id, { tagIds: [tag.id] })
      await makeVehicle(db, tenant.organisationId, location.id, { tagIds: [tag.id] })
      const job = await createJob(pub)
      await tagJob(db, tenant.organisationId, job, tag.id)

      const refused = await admin.delete(`/tags/${tag.id}`)
      expect(refused.status).toBe(409)
      expect(refused.body).toEqual({
        error: 'Tag "ladder" is used by 2 vehicles and 1 job; remove it from them first',
        code: 'IN_USE',
      })
      await db.deleteFrom('vehicle_tags').where('tag_id', '=', tag.id).execute()
      expect((await admin.delete(`/tags/${tag.id}`)).body).toEqual({
        error: 'Tag "ladder" is used by 1 job; remove it from them first',
        code: 'IN_USE',
      })
      await db.deleteFrom('job_tags').where('tag_id', '=', tag.id).execute()
      await makeVehicle(db, tenant.organisationId, location.id, { tagIds: [tag.id] })
      expect((await admin.delete(`/tags/${tag.id}`)).body.error).toBe(
        'Tag "ladder" is used by 1 vehicle; remove it from them first',
      )
      expect((await admin.get(`/tags/${tag.id}`)).body.data.tag).toEqual(tag)
      expect((await pub.get(`/vehicles/${van1.id}`)).body.data.vehicle.tags).toEqual([])
    })

    it('deletes a tag that only deleted jobs carry', async () => {
      const { tenant, admin, pub } = await setup()
      const tag = (await admin.post('/tags', { name: 'old' })).body.data.tag
      const job = await createJob(pub)
      await tagJob(t.database.db, tenant.organisationId, job, tag.id)
      expect((await pub.delete(`/jobs/${job}`)).status).toBe(200)
      const res = await admin.delete(`/tags/${tag.id}`)
      expect(res.status).toBe(200)
      expect(res.body.data.tag.id).toBe(tag.id)
      const left = await t.database.db.selectFrom('job_tags').selectAll().where('job_id', '=', job).execute()
      expect(left).toEqual([])
    })

    it("answers 404 for unknown ids and another organisation's tags, which stay unchanged", async () => {
      const { admin } = await setup()
      const other = await setup()
      const theirs = (await other.admin.post('/tags', { name: 'theirs' })).body.data.tag
      for (const id of ['no-such-tag', theirs.id]) {
        for (const res of [
          await admin.get(`/tags/${id}`),
          await admin.patch(`/tags/${id}`, { name: 'mine now' }),
          await admin.delete(`/tags/${id}`),
        ]) {
          expect(res.status).toBe(404)
          expect(res.body).toEqual({ error: 'Tag not found', code: 'NOT_FOUND' })
        }
      }
      expect((await other.admin.get(`/tags/${theirs.id}`)).body.data.tag).toEqual(theirs)
      expect((await admin.get('/tags')).body.data.tags).toEqual([])
    })

    it('finds tags by id in bulk, within the organisation only', async () => {
      const { tenant, admin } = await setup()
      const other = await setup()
      const a = (await admin.post('/tags', { name: 'b-tag' })).body.data.tag
      const b = (await admin.post('/tags', { name: 'a-tag' })).body.data.tag
      const theirs = (await other.admin.post('/tags', { name: 'theirs' })).body.data.tag
      const db = t.database.db
      const found = await findTagsByIds(db, tenant.organisationId, [a.id, theirs.id, b.id, a.id, 'nope'])
      expect(found.map((row) => row.id)).toEqual([b.id, a.id])
      expect(found[0]).toEqual({
        id: b.id,
        organisation_id: tenant.organisationId,
        name: 'a-tag',
        created_at: b.createdAt,
        updated_at: b.updatedAt,
      })
      expect(await findTagsByIds(db, tenant.organisationId, [])).toEqual([])
    })

    it('refuses read and write keys with 403 FORBIDDEN', async () => {
      const { tenant, admin } = await setup()
      const tag = (await admin.post('/tags', { name: 'x' })).body.data.tag
      const readWrite = await createKey(t, tenant.organisationId, { scopes: ['read', 'write'] })
      const denied = adminClient(t, readWrite.headers)
      for (const res of [
        await denied.get('/tags'),
        await denied.post('/tags', { name: 'y' }),
        await denied.get(`/tags/${tag.id}`),
        await denied.patch(`/tags/${tag.id}`, { name: 'y' }),
        await denied.delete(`/tags/${tag.id}`),
      ]) {
        expect(res.status).toBe(403)
        expect(res.body.code).toBe('FORBIDDEN')
      }
      expect((await admin.get('/tags')).body.data.tags).toEqual([tag])
    })
  })
}
