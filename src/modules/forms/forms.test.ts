import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeUser, outboxEvents, setUserActive } from '../../../test/factories.js'
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

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
const pause = () => new Promise((resolve) => setTimeout(resolve, 5))

/** `{ a: { a: … { a: 1 } } }`, `levels` objects deep (the outermost counts as 1). */
function nested(levels: number): Record<string, unknown> {
  let value: unknown = 1
  for (let i = 0; i < levels; i++) value = { a: value }
  return value as Record<string, unknown>
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: admin form submissions`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    async function setup() {
      const tenant = await createTenant(t, { scopes: ['admin', 'read', 'write'] })
      const api = client(t, tenant.headers)
      const admin = adminClient(t, tenant.headers)
      const job = (await api.post('/jobs', { title: 'Gas check' })).body.data.job
      const worker = await makeUser(t.database.db, tenant.organisationId, { name: 'Ana' })
      const url = `/jobs/${job.id}/form-submissions`
      return { tenant, api, admin, job, worker, url }
    }

    it('creates a submission, returns it as stored and lists it', async () => {
      const { admin, job, worker, url } = await setup()
      const answers = {
        pressureBar: 1.5,
        leaks: false,
        notes: 'Zeichen: é ✓ 😀',
        readings: [
          { at: '09:10', value: 1.4 },
          { at: '09:20', value: null },
        ],
        empty: {},
        deep: { a: { b: { c: [[1, 2], []] } } },
      }
      const res = await admin.post(url, { form: 'gas-safety', answers, submittedByUserId: worker.id })
      expect(res.status).toBe(201)
      const formSubmission = res.body.data.formSubmission
      expect(res.body).toEqual({
        data: {
          formSubmission: {
            id: expect.any(String),
            jobId: job.id,
            form: 'gas-safety',
            answers,
            submittedByUserId: worker.id,
            templateId: null,
            createdAt: expect.stringMatching(ISO_MS),
          },
        },
        message: 'Success',
      })
      expect((await admin.get(url)).body).toEqual({
        data: {
          formSubmissions: [formSubmission],
          pagination: { page: 1, limit: 20, total: 1, totalPages: 1 },
        },
        message: 'Success',
      })
    })

    it('takes submissions in any status, without a user, and from inactive users', async () => {
      const { tenant, admin, job, worker, url } = await setup()
      await setUserActive(t.database.db, tenant.organisationId, worker.id, false)
      expect((await admin.post(`/jobs/${job.id}/cancel`)).status).toBe(200)
      const res = await admin.post(url, { form: 'site-photos', answers: {} })
      expect(res.status).toBe(201)
      expect(res.body.data.formSubmission).toMatchObject({ answers: {}, submittedByUserId: null })
      const byInactive = await admin.post(url, { form: 'x', answers: {}, submittedByUserId: worker.id })
      expect(byInactive.status).toBe(201)
    })

    it('lists newest first and pages', async () => {
      const { admin, url } = await setup()
      const ids: string[] = []
      for (const form of ['a', 'b', 'c', 'd', 'e']) {
        ids.push((await admin.post(url, { form, answers: { form } })).body.data.formSubmission.id)
        await pause()
      }
      await expectPagesNewestFirst(listAt(admin, url, 'formSubmissions'), [...ids].reverse(), {
        defaultLimit: 20,
        pageSize: 2,
      })
    })

    it.each([...BAD_PAGE_QUERIES, 'limit=21', 'page=x', 'form=a'])('refuses ?%s with 400', async (query) => {
      const { admin, url } = await setup()
      await expectQueryRefused(listAt(admin, url, 'formSubmissions'), query)
    })

    it('shows only the submissions of that job', async () => {
      const { api, admin, url } = await setup()
      const second = (await api.post('/jobs', { title: 'Second' })).body.data.job
      await admin.post(url, { form: 'first', answers: {} })
      await admin.post(`/jobs/${second.id}/form-submissions`, { form: 'second', answers: {} })
      const listed = (await admin.get(url)).body.data.formSubmissions
      expect(listed.map((s: { form: string }) => s.form)).toEqual(['first'])
    })

    it("answers 404 for unknown, deleted and another organisation's jobs, writing nothing", async () => {
      const s = await setup()
      const other = await setup()
      await other.admin.post(other.url, { form: 'theirs', answers: {} })
      const deleted = (await s.api.post('/jobs', { title: 'Gone' })).body.data.job
      await s.admin.post(`/jobs/${deleted.id}/form-submissions`, { form: 'before', answers: {} })
      expect((await s.api.delete(`/jobs/${deleted.id}`)).status).toBe(200)
      const before = await outboxEvents(t.database.db, s.tenant.organisationId)
      for (const id of ['no-such-job', deleted.id, other.job.id]) {
        const url = `/jobs/${id}/form-submissions`
        for (const res of [await s.admin.post(url, { form: 'x', answers: {} }), await s.admin.get(url)]) {
          expect(res.status, id).toBe(404)
          expect(res.body).toEqual({ error: 'Job not found', code: 'NOT_FOUND' })
        }
      }
      expect(await outboxEvents(t.database.db, s.tenant.organisationId)).toEqual(before)
      expect((await other.admin.get(other.url)).body.data.formSubmissions).toHaveLength(1)
    })

    it.each([
      ['answers as an array', { form: 'f', answers: [] }, '/body/answers'],
      ['answers as a string', { form: 'f', answers: '{}' }, '/body/answers'],
      ['answers as null', { form: 'f', answers: null }, '/body/answers'],
      ['answers as a number', { form: 'f', answers: 1 }, '/body/answers'],
      ['no answers', { form: 'f' }, '/body/answers'],
      ['no form', { answers: {} }, '/body/form'],
      ['an empty form', { form: '', answers: {} }, '/body/form'],
      ['a blank form', { form: '   ', answers: {} }, '/body/form'],
      ['a form of 201 characters', { form: 'x'.repeat(201), answers: {} }, '/body/form'],
      ['a form that is not a string', { form: 7, answers: {} }, '/body/form'],
      ['an unknown field', { form: 'f', answers: {}, job: 'x' }, '/body/job'],
      ['a non-string user', { form: 'f', answers: {}, submittedByUserId: 7 }, '/body/submittedByUserId'],
      ['a null user', { form: 'f', answers: {}, submittedByUserId: null }, '/body/submittedByUserId'],
      ['an empty user', { form: 'f', answers: {}, submittedByUserId: '' }, '/body/submittedByUserId'],
      ['an unknown user', { form: 'f', answers: {}, submittedByUserId: 'nobody' }, '/body/submittedByUserId'],
      ['answers nested 33 levels', { form: 'f', answers: nested(33) }, '/body/answers'],
    ])('refuses %s with 400, writing nothing', async (_case, body, path) => {
      const { tenant, admin, url } = await setup()
      const before = await outboxEvents(t.database.db, tenant.organisationId)
      const res = await admin.post(url, body)
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path)
      expect((await admin.get(url)).body.data.formSubmissions).toEqual([])
      expect(await outboxEvents(t.database.db, tenant.organisationId)).toEqual(before)
    })

    it('keeps answers up to 64 KiB of JSON, measured in bytes, and refuses more with 413, storing nothing', async () => {
      const { tenant, admin, url } = await setup()
      const before = await outboxEvents(t.database.db, tenant.organisationId)
      // {"notes":"…"} is 12 bytes around the text; é is 2 bytes in UTF-8.
      const atLimit = { notes: 'x'.repeat(64 * 1024 - 12) }
      const overInBytes = { notes: 'é'.repeat(32 * 1024) }
      for (const answers of [{ notes: 'x'.repeat(64 * 1024 - 11) }, overInBytes]) {
        const bytes = Buffer.byteLength(JSON.stringify(answers))
        const res = await admin.post(url, { form: 'f', answers })
        expect(res.status).toBe(413)
        const message = `must be at most 64 KiB as JSON (these are ${bytes} bytes)`
        expect(res.body).toEqual({
          error: `answers ${message}`,
          code: 'PAYLOAD_TOO_LARGE',
          details: [{ path: '/body/answers', message }],
        })
      }
      expect((await admin.get(url)).body.data.pagination.total).toBe(0)
      expect(await outboxEvents(t.database.db, tenant.organisationId)).toEqual(before)
      const ok = await admin.post(url, { form: 'f', answers: atLimit })
      expect(ok.status).toBe(201)
      expect(ok.body.data.formSubmission.answers).toEqual(atLimit)
    })

    it('lists at most 20 submissions a page, so a page of the largest answers stays under 1.5 MB', async () => {
      const { admin, url } = await setup()
      const answers = { notes: 'x'.repeat(64 * 1024 - 12) }
      for (let i = 0; i < 21; i++)
        expect((await admin.post(url, { form: `f${i}`, answers })).status).toBe(201)
      const first = await admin.get(url)
      expect(first.body.data.formSubmissions).toHaveLength(20)
      expect(first.body.data.pagination).toEqual({ page: 1, limit: 20, total: 21, totalPages: 2 })
      const size = Buffer.byteLength(JSON.stringify(first.body))
      expect(size).toBeGreaterThan(20 * 64 * 1024)
      expect(size).toBeLessThan(1.5 * 1024 * 1024)
      expect((await admin.get(`${url}?limit=21`)).body).toMatchObject({
        error: 'limit must be at most 20',
        code: 'VALIDATION_ERROR',
      })
    })

    it('refuses numbers JSON cannot keep (1e400) anywhere in the answers, naming where', async () => {
      const { tenant, url } = await setup()
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/admin${url}`,
        headers: { ...tenant.headers, 'content-type': 'application/json' },
        payload: '{"form":"f","answers":{"readings":[{"at":"09:10","value":-1e400}]}}',
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({
        error: 'answers.readings.0.value must be a finite number',
        code: 'VALIDATION_ERROR',
        details: [{ path: '/body/answers/readings/0/value', message: 'must be a finite number' }],
      })
      expect((await adminClient(t, tenant.headers).get(url)).body.data.pagination.total).toBe(0)
    })

    it("refuses another organisation's user with 400 at /body/submittedByUserId", async () => {
      const { admin, url } = await setup()
      const other = await setup()
      const res = await admin.post(url, { form: 'f', answers: {}, submittedByUserId: other.worker.id })
      expect(res.status).toBe(400)
      expect(res.body.details).toEqual([
        {
          path: '/body/submittedByUserId',
          message: `user ${other.worker.id} does not exist in your organisation`,
        },
      ])
    })

    it('accepts answers nested 32 levels, and refuses a pathologically deep document with a 4xx', async () => {
      const { tenant, admin, url } = await setup()
      const ok = await admin.post(url, { form: 'f', answers: nested(32) })
      expect(ok.status).toBe(201)
      expect(ok.body.data.formSubmission.answers).toEqual(nested(32))
      const depth = 200_000
      const payload = `{"form":"f","answers":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`
      const deep = await t.app.inject({
        method: 'POST',
        url: `/v1/admin${url}`,
        headers: { ...tenant.headers, 'content-type': 'application/json' },
        payload,
      })
      expect(deep.statusCode).toBe(400)
      expect((await admin.get(url)).body.data.pagination.total).toBe(1)
    })

    it('refuses keys without the admin scope with 403 FORBIDDEN', async () => {
      const { tenant, url } = await setup()
      for (const scopes of [['read'], ['write'], ['read', 'write']] as const) {
        const key = await createKey(t, tenant.organisationId, { scopes: [...scopes] })
        const other = adminClient(t, key.headers)
        for (const res of [await other.post(url, { form: 'f', answers: {} }), await other.get(url)]) {
          expect(res.status).toBe(403)
          expect(res.body.code).toBe('FORBIDDEN')
        }
      }
    })
  })
}
