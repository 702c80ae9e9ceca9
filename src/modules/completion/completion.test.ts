// Completion requirements (issue 31 §3): per job and per form template, the largest of each counts;
// completing without them is 422 COMPLETION_REQUIREMENTS naming what is missing; notes given with the
// complete request count and are kept; the worker reads the same checklist for their own jobs only.

import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTag, outboxEvents, setJobState, tagJob } from '../../../test/factories.js'
import {
  adminClient,
  createKey,
  createTenant,
  createTestApp,
  DIALECTS,
  type TestContext,
} from '../../../test/helpers.js'
import { makeDashboardUser, sessionClient, signIn } from '../../../test/sessions.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: completion requirements`, () => {
    let t: TestContext
    beforeAll(async () => {
      t = await createTestApp(dialect)
    })
    afterAll(() => t.close())

    async function tenant() {
      const created = await createTenant(t, { scopes: ['admin'] })
      const worker = await makeDashboardUser(t, created.organisationId, {
        role: 'WORKER',
        name: 'Wendy Worker',
      })
      const phone = sessionClient(t, await signIn(t, worker))
      return { ...created, admin: adminClient(t, created.headers), worker, phone }
    }

    /** A job of the worker's, under way. */
    async function jobInProgress(
      admin: ReturnType<typeof adminClient>,
      organisationId: string,
      workerId: string,
      title = 'Boiler service',
    ): Promise<string> {
      const job = (await admin.post('/jobs', { title })).body.data.job
      await setJobState(t.database.db, organisationId, job.id, {
        status: 'IN_PROGRESS',
        assignedUserId: workerId,
        startedAt: new Date(Date.now() - 3_600_000).toISOString(),
      })
      return job.id
    }

    it("a job's own requirements: 422 naming each missing item, then notes given with complete count", async () => {
      const { admin, organisationId, worker, phone } = await tenant()
      const jobId = await jobInProgress(admin, organisationId, worker.id)
      const none = await admin.get(`/jobs/${jobId}/completion`)
      expect(none.status).toBe(200)
      expect(none.body.data.completion).toEqual({
        requires: { signature: false, photos: 0, notes: false },
        sources: [],
        has: { signatures: 0, photos: 0, notes: null, forms: [] },
        missing: [],
        notesWrittenAt: null,
      })

      const set = await admin.put(`/jobs/${jobId}/requirements`, {
        requires: { signature: true, photos: 2, notes: true },
      })
      expect(set.status, JSON.stringify(set.body)).toBe(200)
      expect(set.body.data.completion.requires).toEqual({ signature: true, photos: 2, notes: true })
      expect(set.body.data.completion.missing.map((m: { item: string }) => m.item)).toEqual([
        'SIGNATURE',
        'PHOTOS',
        'NOTES',
      ])
      expect(set.body.data.completion.missing[1].message).toBe('2 photos (none yet)')

      // The phone reads the same checklist.
      const mine = await phone.get(`/my/jobs/${jobId}/completion`)
      expect(mine.status).toBe(200)
      expect(mine.body.data.completion).toEqual(set.body.data.completion)

      const refused = await phone.post(`/my/jobs/${jobId}/complete`, { notes: 'Replaced the pump' })
      expect(refused.status).toBe(422)
      expect(refused.body).toMatchObject({ code: 'COMPLETION_REQUIREMENTS' })
      expect(refused.body.error).toBe(
        "The job cannot be completed without: The customer's signature; 2 photos (none yet)",
      )
      expect(refused.body.details).toEqual([
        { path: '/requires/signature', message: "The customer's signature" },
        { path: '/requires/photos', message: '2 photos (none yet)' },
      ])
      expect((await admin.get(`/jobs/${jobId}`)).body.data.job.status).toBe('IN_PROGRESS')

      // Only notes required: given with the request, they are enough and are kept.
      await admin.put(`/jobs/${jobId}/requirements`, { requires: { notes: true } })
      const withoutNotes = await phone.post(`/my/jobs/${jobId}/complete`, {})
      expect(withoutNotes.status).toBe(422)
      expect(withoutNotes.body.details).toEqual([
        { path: '/requires/notes', message: 'Notes on what was done' },
      ])
      const blank = await phone.post(`/my/jobs/${jobId}/complete`, { notes: '   ' })
      expect(blank.status).toBe(400)
      const done = await phone.post(`/my/jobs/${jobId}/complete`, {
        notes: 'Replaced the pump; pressure 1.5 bar',
      })
      expect(done.status, JSON.stringify(done.body)).toBe(200)
      const after = (await admin.get(`/jobs/${jobId}/completion`)).body.data.completion
      expect(after.has.notes).toBe('Replaced the pump; pressure 1.5 bar')
      expect(after.missing).toEqual([])
      expect(after.notesWrittenAt).toMatch(/Z$/)
      // A finished job's requirements no longer change.
      const late = await admin.put(`/jobs/${jobId}/requirements`, { requires: { photos: 1 } })
      expect(late.status).toBe(422)
      expect(late.body.code).toBe('TERMINAL_STATE')
    })

    it("a form template's requirements apply to the jobs it applies to; the largest of each counts", async () => {
      const { admin, organisationId, worker } = await tenant()
      const tag = await makeTag(t.database.db, organisationId, 'Gas')
      const form = await admin.post('/form-templates', {
        name: 'Gas safety record',
        appliesTo: 'TAGGED_JOBS',
        tagId: tag.id,
        fields: [{ key: 'pressure', label: 'Pressure', type: 'NUMBER' }],
        requires: { signature: true, photos: 1 },
      })
      expect(form.status, JSON.stringify(form.body)).toBe(201)
      expect(form.body.data.formTemplate.requires).toEqual({ signature: true, photos: 1, notes: false })
      const plain = await admin.post('/form-templates', {
        name: 'Plain',
        appliesTo: 'ALL_JOBS',
        fields: [{ key: 'ok', label: 'OK', type: 'YES_NO' }],
        isActive: false,
      })
      expect(plain.body.data.formTemplate.requires).toEqual({ signature: false, photos: 0, notes: false })
      const patched = await admin.patch(`/form-templates/${plain.body.data.formTemplate.id}`, {
        requires: { photos: 30 },
      })
      expect(patched.status).toBe(400)

      const gasJob = await jobInProgress(admin, organisationId, worker.id, 'Gas check')
      await tagJob(t.database.db, organisationId, gasJob, tag.id)
      await admin.put(`/jobs/${gasJob}/requirements`, { requires: { photos: 3 } })
      const completion = (await admin.get(`/jobs/${gasJob}/completion`)).body.data.completion
      expect(completion.requires).toEqual({ signature: true, photos: 3, notes: false })
      expect(completion.sources).toEqual([
        { kind: 'JOB', formTemplate: null, requires: { signature: false, photos: 3, notes: false } },
        {
          kind: 'FORM_TEMPLATE',
          formTemplate: { id: form.body.data.formTemplate.id, name: 'Gas safety record' },
          requires: { signature: true, photos: 1, notes: false },
        },
      ])
      expect(completion.has.forms).toEqual([
        { id: form.body.data.formTemplate.id, name: 'Gas safety record', submitted: false },
      ])
      expect(completion.missing.map((m: { item: string }) => m.item)).toEqual(['FORM', 'SIGNATURE', 'PHOTOS'])

      // The form comes first (FORM_REQUIRED), then the requirements.
      const first = await admin.post(`/jobs/${gasJob}/complete`, {})
      expect(first.body.code).toBe('FORM_REQUIRED')
      await admin.post(`/jobs/${gasJob}/form-submissions`, {
        templateId: form.body.data.formTemplate.id,
        answers: { pressure: 2 },
      })
      const second = await admin.post(`/jobs/${gasJob}/complete`, {})
      expect(second.status).toBe(422)
      expect(second.body.code).toBe('COMPLETION_REQUIREMENTS')
    })

    it('photos and a signature from the phone satisfy them; JOB_COMPLETED names the proof; the PDF holds it', async () => {
      const { admin, organisationId, worker, headers } = await tenant()
      const signedIn = await signIn(t, worker)
      const jobId = await jobInProgress(admin, organisationId, worker.id, 'Annual boiler service')
      await admin.put(`/jobs/${jobId}/requirements`, { requires: { signature: true, photos: 2 } })
      const upload = async (query: string, body: Buffer) => {
        const response = await t.app.inject({
          method: 'POST',
          url: `/v1/admin/my/jobs/${jobId}/attachments?${query}`,
          headers: {
            cookie: `fs_session=${signedIn.cookie}`,
            'x-csrf-token': signedIn.csrfToken,
            'content-type': 'application/octet-stream',
          },
          payload: body,
        })
        expect(response.statusCode, response.body).toBe(201)
        return response.json().data.attachment as { id: string; kind: string }
      }
      const photo = (background: string) =>
        sharp({ create: { width: 800, height: 600, channels: 3, background } })
          .jpeg()
          .toBuffer()
      const first = await upload('kind=PHOTO&filename=before.jpg', await photo('#336699'))
      let completion = (await admin.get(`/jobs/${jobId}/completion`)).body.data.completion
      expect(completion.has).toMatchObject({ signatures: 0, photos: 1 })
      expect(completion.missing.map((m: { message: string }) => m.message)).toEqual([
        "The customer's signature",
        '2 photos (1 more)',
      ])
      const second = await upload('kind=PHOTO&filename=after.jpg', await photo('#996633'))
      const signature = await upload(
        'kind=SIGNATURE&signerName=Priya%20Patel',
        await sharp({ create: { width: 300, height: 100, channels: 4, background: '#00000000' } })
          .png()
          .toBuffer(),
      )
      completion = (await admin.get(`/jobs/${jobId}/completion`)).body.data.completion
      expect(completion.missing).toEqual([])

      const phone = sessionClient(t, signedIn)
      const done = await phone.post(`/my/jobs/${jobId}/complete`, { notes: 'Serviced; new electrode' })
      expect(done.status, JSON.stringify(done.body)).toBe(200)
      const completed = (await outboxEvents(t.database.db, organisationId)).filter(
        (e) => e.event === 'JOB_COMPLETED',
      )
      expect(completed).toHaveLength(1)
      expect(completed[0]?.data.attachments).toEqual([
        { id: first.id, kind: 'PHOTO' },
        { id: second.id, kind: 'PHOTO' },
        { id: signature.id, kind: 'SIGNATURE' },
      ])

      // The proof: a PDF with the two photos (JPEG) and the signature, on both APIs.
      const pdf = await t.app.inject({ method: 'GET', url: `/v1/admin/jobs/${jobId}/proof`, headers })
      expect(pdf.statusCode).toBe(200)
      expect(pdf.headers['content-type']).toBe('application/pdf')
      expect(pdf.headers['content-security-policy']).toContain('sandbox')
      const text = pdf.rawPayload.toString('latin1')
      expect(text.startsWith('%PDF-')).toBe(true)
      expect(text.match(/\/Filter \/DCTDecode/g)).toHaveLength(2)
      expect(text).toContain('/Subtype /Image')
      const reader = (await createKey(t, organisationId, { scopes: ['read'] })).headers
      const published = await t.app.inject({
        method: 'GET',
        url: `/v1/public/jobs/${jobId}/proof`,
        headers: reader,
      })
      expect(published.statusCode).toBe(200)
      expect(published.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
      const stranger = await tenant()
      const hidden = await t.app.inject({
        method: 'GET',
        url: `/v1/admin/jobs/${jobId}/proof`,
        headers: stranger.headers,
      })
      expect(hidden.statusCode).toBe(404)
    })

    it("another organisation's job, and another worker's, are not found", async () => {
      const a = await tenant()
      const b = await tenant()
      const jobId = await jobInProgress(a.admin, a.organisationId, a.worker.id)
      expect((await b.admin.get(`/jobs/${jobId}/completion`)).status).toBe(404)
      expect((await b.admin.put(`/jobs/${jobId}/requirements`, { requires: { notes: true } })).status).toBe(
        404,
      )
      expect((await b.phone.get(`/my/jobs/${jobId}/completion`)).status).toBe(404)
      const other = await makeDashboardUser(t, a.organisationId, { role: 'WORKER' })
      const otherPhone = sessionClient(t, await signIn(t, other))
      expect((await otherPhone.get(`/my/jobs/${jobId}/completion`)).status).toBe(404)
      expect((await a.admin.put(`/jobs/${jobId}/requirements`, { requires: { bogus: true } })).status).toBe(
        400,
      )
    })
  })
}
