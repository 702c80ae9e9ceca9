// The technician's day (issue 17, server side): a WORKER signs in and reaches only /my; their own
// jobs of a day in visiting order; start, complete and forms only on their own jobs (anyone else's is
// 404); form templates checked on the server, FORM_REQUIRED before completion; events with the worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeLocation, makeShift, makeTag, makeUser, makeVehicle, outboxEvents, tagJob } from './factories.js'
import { adminClient, client, createTenant, createTestApp, DIALECTS, type TestContext } from './helpers.js'
import { makeDashboardUser, sessionClient, signIn } from './sessions.js'

const DATE = '2026-11-26'

for (const dialect of DIALECTS) {
  describe(`${dialect}: My day`, () => {
    let t: TestContext
    let now = Date.parse('2026-11-26T07:00:00Z')
    beforeAll(async () => {
      t = await createTestApp(dialect, {}, { clock: () => now })
    })
    afterAll(() => t.close())

    async function setup() {
      const tenant = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      const org = tenant.organisationId
      const db = t.database.db
      const admin = adminClient(t, tenant.headers)
      const api = client(t, tenant.headers)
      const depot = await makeLocation(db, org, { name: 'North Depot', timezone: 'Europe/London' })
      const worker = await makeDashboardUser(t, org, { role: 'WORKER', name: 'Wendy Worker' })
      const other = await makeUser(db, org, { name: 'Oscar Other' })
      const van = await makeVehicle(db, org, depot.id, { name: 'Van 1' })
      const shift = await makeShift(
        db,
        org,
        { userId: worker.id, locationId: depot.id, vehicleId: van.id },
        { day: 'THURSDAY' },
      )
      const job = async (
        title: string,
        start: string,
        userId = worker.id,
        shiftId: string | null = shift.id,
      ) => {
        const created = (
          await api.post('/jobs', { title, locationId: depot.id, jobLatitude: 53.4, jobLongitude: -2.2 })
        ).body.data.job
        const end = new Date(Date.parse(start) + 3_600_000).toISOString()
        const assigned = await admin.post(`/jobs/${created.id}/assign`, {
          userId,
          shiftId,
          scheduledStart: start,
          scheduledEnd: end,
        })
        expect(assigned.status, assigned.body.error).toBe(200)
        return created.id as string
      }
      // Out of order on purpose: the day comes back in visiting (scheduled) order.
      const second = await job('Second visit', `${DATE}T11:00:00Z`)
      const first = await job('First visit', `${DATE}T09:00:00Z`)
      // Friday: no shift of hers runs then, so it is assigned to her without one.
      const tomorrow = await job('Tomorrow', '2026-11-27T09:00:00Z', worker.id, null)
      const theirs = await job('Not mine', `${DATE}T10:00:00Z`, other.id, null)
      const signedIn = await signIn(t, worker)
      const me = sessionClient(t, signedIn)
      return { tenant, org, db, admin, api, depot, worker, me, signedIn, first, second, tomorrow, theirs }
    }

    it('signs a WORKER in to /my only: the dashboard API is 403, an API key cannot use /my', async () => {
      const s = await setup()
      expect(s.signedIn.session.user.role).toBe('WORKER')
      for (const url of ['/jobs', '/team/users', '/route-plans', '/form-templates']) {
        const refused = await s.me.get(url)
        expect(refused.status, url).toBe(403)
        expect(refused.body.code).toBe('FORBIDDEN')
      }
      expect((await s.me.get('/session')).status).toBe(200)
      expect((await s.admin.get(`/my/jobs?date=${DATE}`)).status).toBe(401)
    })

    it('lists my jobs of the day in visiting order, on the depot clock, with what the phone needs', async () => {
      const s = await setup()
      const day = await s.me.get(`/my/jobs?date=${DATE}`)
      expect(day.status).toBe(200)
      expect(day.body.data.jobs.map((j: { id: string; sequence: number }) => [j.id, j.sequence])).toEqual([
        [s.first, 1],
        [s.second, 2],
      ])
      expect(day.body.data.jobs[0]).toMatchObject({
        title: 'First visit',
        status: 'ASSIGNED',
        timeZone: 'Europe/London',
        latitude: '53.4',
        depot: { id: s.depot.id, name: 'North Depot' },
        forms: [],
      })
      const next = await s.me.get('/my/jobs?date=2026-11-27')
      expect(next.body.data.jobs.map((j: { id: string }) => j.id)).toEqual([s.tomorrow])
      expect((await s.me.get('/my/jobs?date=26-11-2026')).status).toBe(400)
      expect((await s.me.get(`/my/jobs/${s.second}`)).body.data.job.sequence).toBe(2)
    })

    it('answers the first and last days it takes with an empty day, and a day outside them with 400', async () => {
      const s = await setup()
      for (const date of ['1970-01-01', '9998-12-31']) {
        const day = await s.me.get(`/my/jobs?date=${date}`)
        expect(day.status, date).toBe(200)
        expect(day.body.data.jobs).toEqual([])
      }
      for (const date of ['0001-01-01', '9999-12-31']) {
        const day = await s.me.get(`/my/jobs?date=${date}`)
        expect([day.status, day.body.code], date).toEqual([400, 'VALIDATION_ERROR'])
      }
    })

    it("answers 404 for another worker's job and another organisation's, touching nothing", async () => {
      const s = await setup()
      const elsewhere = await setup()
      const events = await outboxEvents(s.db, s.org)
      for (const id of [s.theirs, elsewhere.first, 'no-such-job']) {
        expect((await s.me.get(`/my/jobs/${id}`)).status, id).toBe(404)
        expect((await s.me.post(`/my/jobs/${id}/start`)).status, id).toBe(404)
        expect((await s.me.post(`/my/jobs/${id}/complete`)).status, id).toBe(404)
      }
      expect(await outboxEvents(s.db, s.org)).toEqual(events)
      expect((await s.api.get(`/jobs/${s.theirs}`)).body.data.job.status).toBe('ASSIGNED')
    })

    it('starts and completes a job, a form first when one is needed, each event naming the worker', async () => {
      const s = await setup()
      const gas = await makeTag(s.db, s.org, 'Gas')
      await tagJob(s.db, s.org, s.first, gas.id)
      const template = await s.admin.post('/form-templates', {
        name: 'Boiler check',
        appliesTo: 'TAGGED_JOBS',
        tagId: gas.id,
        fields: [
          { key: 'pressureBar', label: 'Pressure (bar)', type: 'NUMBER', required: true, min: 0, max: 4 },
          { key: 'leaks', label: 'Leaks?', type: 'YES_NO', required: true },
          { key: 'result', label: 'Result', type: 'CHOICE', options: ['Pass', 'Fail'] },
        ],
      })
      expect(template.status, template.body.error).toBe(201)
      const templateId = template.body.data.formTemplate.id
      // Only the tagged job needs it.
      const day = (await s.me.get(`/my/jobs?date=${DATE}`)).body.data.jobs
      expect(day[0].forms).toEqual([{ template: template.body.data.formTemplate, submission: null }])
      expect(day[1].forms).toEqual([])

      expect((await s.me.post(`/my/jobs/${s.first}/complete`)).body.code).toBe('INVALID_TRANSITION')
      const started = await s.me.post(`/my/jobs/${s.first}/start`)
      expect(started.status).toBe(200)
      expect(started.body.data.job.status).toBe('IN_PROGRESS')
      const refused = await s.me.post(`/my/jobs/${s.first}/complete`)
      expect(refused.status).toBe(422)
      expect(refused.body.code).toBe('FORM_REQUIRED')
      expect(refused.body.error).toContain('Boiler check')
      // The admin action holds the same rule.
      expect((await s.admin.post(`/jobs/${s.first}/complete`)).body.code).toBe('FORM_REQUIRED')

      const wrong = await s.me.post(`/my/jobs/${s.first}/forms/${templateId}`, {
        answers: { pressureBar: 9, result: 'Maybe', colour: 'red' },
      })
      expect(wrong.status).toBe(400)
      expect(wrong.body.details.map((d: { path: string }) => d.path).sort()).toEqual([
        '/body/answers/colour',
        '/body/answers/leaks',
        '/body/answers/pressureBar',
        '/body/answers/result',
      ])
      const submitted = await s.me.post(`/my/jobs/${s.first}/forms/${templateId}`, {
        answers: { pressureBar: 1.5, leaks: false, result: 'Pass' },
      })
      expect(submitted.status).toBe(201)
      expect(submitted.body.data.submission).toMatchObject({
        jobId: s.first,
        templateId,
        form: 'Boiler check',
        submittedByUserId: s.worker.id,
      })
      const completed = await s.me.post(`/my/jobs/${s.first}/complete`, undefined)
      expect(completed.status).toBe(200)
      expect(completed.body.data.job).toMatchObject({
        status: 'COMPLETED',
        forms: [{ submission: { id: submitted.body.data.submission.id } }],
      })
      expect(
        (
          await s.me.post(`/my/jobs/${s.first}/forms/${templateId}`, {
            answers: { pressureBar: 1, leaks: true },
          })
        ).body.code,
      ).toBe('TERMINAL_STATE')

      const events = (await outboxEvents(s.db, s.org)).map((e) => ({
        event: e.event,
        data: e.data as Record<string, unknown>,
      }))
      const form = events.find((e) => e.event === 'FORM_SUBMITTED')
      expect(form?.data).toMatchObject({
        jobId: s.first,
        submittedByUserId: s.worker.id,
        answers: { pressureBar: 1.5, leaks: false, result: 'Pass' },
      })
      const done = events.filter((e) => e.event === 'JOB_COMPLETED')
      expect(done).toHaveLength(1)
      expect(done[0]?.data).toMatchObject({ jobId: s.first, assignedUserId: s.worker.id })
    })

    it('replays a queued action sent twice with one Idempotency-Key: one event', async () => {
      const s = await setup()
      const send = (path: string) =>
        t.app.inject({
          method: 'POST',
          url: `/v1/admin${path}`,
          headers: {
            cookie: `fs_session=${s.signedIn.cookie}`,
            'x-csrf-token': s.signedIn.csrfToken,
            'idempotency-key': `queued-${path}`,
          },
        })
      for (const action of ['start', 'complete']) {
        const first = await send(`/my/jobs/${s.second}/${action}`)
        const again = await send(`/my/jobs/${s.second}/${action}`)
        expect(first.statusCode).toBe(200)
        expect(again.statusCode).toBe(200)
        expect(again.headers['idempotent-replayed']).toBe('true')
      }
      const completed = (await outboxEvents(s.db, s.org)).filter((e) => e.event === 'JOB_COMPLETED')
      expect(completed).toHaveLength(1)
    })

    it('keeps a worker signed in for a working day, where a dispatcher’s session idles out in an hour', async () => {
      const s = await setup()
      const dispatcher = await makeDashboardUser(t, s.org, { role: 'DISPATCHER' })
      const office = sessionClient(t, await signIn(t, dispatcher))
      now += 2 * 3_600_000
      expect((await office.get('/session')).status).toBe(401)
      expect((await s.me.get(`/my/jobs?date=${DATE}`)).status).toBe(200)
      now += 13 * 3_600_000
      expect((await s.me.get(`/my/jobs?date=${DATE}`)).status).toBe(401)
    })

    it("skips optional fields keyed like an object's own methods, and refuses keys that name its prototype", async () => {
      const s = await setup()
      const template = await s.admin.post('/form-templates', {
        name: 'Odd keys',
        appliesTo: 'ALL_JOBS',
        fields: [
          { key: 'toString', label: 'To string', type: 'TEXT' },
          { key: 'valueOf', label: 'Value of', type: 'NUMBER' },
          { key: 'hasOwnProperty', label: 'Own?', type: 'YES_NO' },
          { key: 'isPrototypeOf', label: 'Pick', type: 'CHOICE', options: ['a'] },
          { key: 'notes', label: 'Notes', type: 'TEXT', required: true },
        ],
      })
      expect(template.status, template.body.error).toBe(201)
      const templateId = template.body.data.formTemplate.id
      // Answers without them: nothing inherited is read as an answer.
      const mine = await s.me.post(`/my/jobs/${s.first}/forms/${templateId}`, { answers: { notes: 'ok' } })
      expect(mine.status, mine.body.error).toBe(201)
      const theirs = await s.admin.post(`/jobs/${s.second}/form-submissions`, {
        templateId,
        answers: { notes: 'ok' },
      })
      expect(theirs.status, theirs.body.error).toBe(201)
      // Given, they are checked like any other answer.
      const given = { notes: 'ok', toString: 'text', valueOf: 2, hasOwnProperty: true, isPrototypeOf: 'a' }
      const full = await s.me.post(`/my/jobs/${s.first}/forms/${templateId}`, { answers: given })
      expect([full.status, full.body.data?.submission.answers]).toEqual([201, given])
      const wrong = await s.me.post(`/my/jobs/${s.first}/forms/${templateId}`, {
        answers: { notes: 'ok', valueOf: 'two' },
      })
      expect(wrong.body.details).toEqual([{ path: '/body/answers/valueOf', message: 'must be a number' }])
      // A required field keyed so is still required.
      const required = await s.admin.post('/form-templates', {
        name: 'Required odd key',
        appliesTo: 'ALL_JOBS',
        fields: [{ key: 'toString', label: 'To string', type: 'TEXT', required: true }],
      })
      const missing = await s.me.post(`/my/jobs/${s.first}/forms/${required.body.data.formTemplate.id}`, {
        answers: {},
      })
      expect(missing.body.details).toEqual([
        { path: '/body/answers/toString', message: 'is required (To string)' },
      ])

      for (const key of ['__proto__', 'constructor', 'prototype']) {
        const fields = [
          { key: 'first', label: 'First', type: 'TEXT' },
          { key, label: 'Odd', type: 'TEXT' },
        ]
        const refused = await s.admin.post('/form-templates', { name: 'X', appliesTo: 'ALL_JOBS', fields })
        expect([refused.status, refused.body.code], key).toEqual([400, 'VALIDATION_ERROR'])
        expect(refused.body.details[0].path, key).toBe('/body/fields/1/key')
        const patched = await s.admin.patch(`/form-templates/${templateId}`, { fields })
        expect([patched.status, patched.body.details?.[0].path], key).toEqual([400, '/body/fields/1/key'])
      }
    })

    it('refuses malformed templates naming the field, and lets only an ADMIN manage them', async () => {
      const s = await setup()
      const elsewhere = await setup()
      const otherTag = await makeTag(s.db, elsewhere.org, 'Theirs')
      const field = { key: 'a', label: 'A', type: 'TEXT' }
      const cases: [object, string][] = [
        [{ name: 'X', appliesTo: 'ALL_JOBS', fields: [field, field] }, '/body/fields/1/key'],
        [
          {
            name: 'X',
            appliesTo: 'ALL_JOBS',
            fields: [{ key: 'n', label: 'N', type: 'NUMBER', min: 5, max: 1 }],
          },
          '/body/fields/0/max',
        ],
        [
          { name: 'X', appliesTo: 'ALL_JOBS', fields: [{ key: 'c', label: 'C', type: 'CHOICE' }] },
          '/body/fields/0/options',
        ],
        [{ name: 'X', appliesTo: 'ALL_JOBS', fields: [{ ...field, min: 1 }] }, '/body/fields/0/min'],
        [{ name: 'X', appliesTo: 'TAGGED_JOBS', fields: [field] }, '/body/tagId'],
        [{ name: 'X', appliesTo: 'TAGGED_JOBS', tagId: otherTag.id, fields: [field] }, '/body/tagId'],
        [{ name: 'X', appliesTo: 'ALL_JOBS', fields: [] }, '/body/fields'],
      ]
      for (const [body, path] of cases) {
        const response = await s.admin.post('/form-templates', body)
        expect(response.status, JSON.stringify(body)).toBe(400)
        expect(
          response.body.details.map((d: { path: string }) => d.path),
          JSON.stringify(body),
        ).toContain(path)
      }
      expect((await s.admin.get('/form-templates')).body.data.formTemplates).toEqual([])
      const dispatcher = sessionClient(
        t,
        await signIn(t, await makeDashboardUser(t, s.org, { role: 'DISPATCHER' })),
      )
      expect((await dispatcher.get('/form-templates')).status).toBe(403)
      const created = (
        await s.admin.post('/form-templates', { name: 'All', appliesTo: 'ALL_JOBS', fields: [field] })
      ).body.data.formTemplate
      expect((await elsewhere.admin.get(`/form-templates/${created.id}`)).status).toBe(404)
      const off = await s.admin.patch(`/form-templates/${created.id}`, { isActive: false })
      expect(off.body.data.formTemplate.isActive).toBe(false)
      expect((await s.me.get(`/my/jobs/${s.first}`)).body.data.job.forms).toEqual([])
      expect((await s.admin.delete(`/form-templates/${created.id}`)).status).toBe(200)
      expect((await s.admin.get(`/form-templates/${created.id}`)).status).toBe(404)
    })
  })
}
