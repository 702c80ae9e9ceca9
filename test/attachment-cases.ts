// The attachment cases every store must pass: attachments.test.ts runs them on the database store
// (SQLite and PostgreSQL), s3-store.test.ts on an S3 store against a real S3-speaking server.
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Dialect } from '../src/db/database.js'
import { MAX_IMAGE_BYTES } from '../src/modules/attachments/schemas.js'
import type { AttachmentStore } from '../src/modules/attachments/store.js'
import { outboxEvents, setJobState } from './factories.js'
import { adminClient, client, createKey, createTenant, createTestApp, type TestContext } from './helpers.js'
import { makeDashboardUser, signIn } from './sessions.js'

const NOW = Date.parse('2026-11-26T10:00:00.000Z')

export const image = (format: 'jpeg' | 'png' | 'webp', width = 640, height = 480) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 10 } } })
    .toFormat(format)
    .toBuffer()

/** The first bytes of a HEIC file (an ISO `ftyp` box of brand heic): enough for sniffing. */
export const HEIC = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypheic'),
  Buffer.from([0, 0, 0, 0]),
  Buffer.from('mif1heic'),
  Buffer.alloc(64, 7),
])
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
)
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

export interface StoreUnderTest {
  /** Left out: the app's default, the database store. */
  store?: AttachmentStore
  /** The names under which the store holds content now (chunk keys, object keys), sorted. */
  storedKeys(t: TestContext): Promise<string[]>
}

export function describeAttachmentCases(
  label: string,
  dialect: Dialect,
  makeStore: () => Promise<StoreUnderTest>,
) {
  describe(`${label}: attachments`, () => {
    let t: TestContext
    let under: StoreUnderTest
    beforeAll(async () => {
      under = await makeStore()
      t = await createTestApp(
        dialect,
        {},
        { clock: () => NOW, ...(under.store ? { attachmentStore: under.store } : {}) },
      )
    })
    afterAll(() => t.close())

    async function tenant() {
      const created = await createTenant(t, { scopes: ['read', 'write', 'admin'] })
      const api = client(t, created.headers)
      const job = async (title = 'Boiler service') => {
        const response = await api.post('/jobs', { title })
        expect(response.status).toBe(201)
        return response.body.data.job.id as string
      }
      return { ...created, api, admin: adminClient(t, created.headers), job }
    }

    async function upload(
      headers: Record<string, string>,
      path: string,
      query: Record<string, string>,
      payload: Buffer | Readable,
      contentType = 'application/octet-stream',
    ) {
      const response = await t.app.inject({
        method: 'POST',
        url: `${path}?${new URLSearchParams(query)}`,
        headers: { ...headers, 'content-type': contentType },
        payload,
      })
      return { status: response.statusCode, body: response.json(), headers: response.headers }
    }

    async function read(headers: Record<string, string>, url: string) {
      const response = await t.app.inject({ method: 'GET', url, headers })
      return { status: response.statusCode, bytes: response.rawPayload, headers: response.headers }
    }

    const storedKeys = () => under.storedKeys(t)

    it('stores photos of every type, a signature and a PDF; lists, serves and thumbnails them byte for byte', async () => {
      const { headers, admin, job, organisationId } = await tenant()
      const jobId = await job()
      const base = `/v1/admin/jobs/${jobId}/attachments`
      const files = {
        jpeg: await image('jpeg'),
        png: await image('png'),
        webp: await image('webp'),
      }
      const sent: { id: string; bytes: Buffer; type: string; thumbnail: boolean }[] = []
      for (const [format, bytes] of Object.entries(files)) {
        // The Content-Type says JPEG every time: it is never trusted.
        const created = await upload(
          headers,
          base,
          { kind: 'PHOTO', filename: `photo.${format}` },
          bytes,
          'image/jpeg',
        )
        expect(created.status, JSON.stringify(created.body)).toBe(201)
        sent.push({ id: created.body.data.attachment.id, bytes, type: `image/${format}`, thumbnail: true })
      }
      const heic = await upload(headers, base, { kind: 'PHOTO', filename: 'IMG_0001.HEIC' }, HEIC)
      expect(heic.status, JSON.stringify(heic.body)).toBe(201)
      sent.push({ id: heic.body.data.attachment.id, bytes: HEIC, type: 'image/heic', thumbnail: false })
      const signaturePng = await image('png', 300, 100)
      const signature = await upload(
        headers,
        base,
        { kind: 'SIGNATURE', signerName: 'Priya Patel', signedAt: '2026-11-26T09:58:00+01:00' },
        signaturePng,
      )
      expect(signature.status, JSON.stringify(signature.body)).toBe(201)
      expect(signature.body.data.attachment).toMatchObject({
        kind: 'SIGNATURE',
        signerName: 'Priya Patel',
        signedAt: '2026-11-26T08:58:00.000Z',
        filename: 'signature.png',
      })
      sent.push({
        id: signature.body.data.attachment.id,
        bytes: signaturePng,
        type: 'image/png',
        thumbnail: true,
      })
      const pdf = await upload(headers, base, { kind: 'FILE', filename: 'quote.pdf' }, PDF)
      expect(pdf.status, JSON.stringify(pdf.body)).toBe(201)
      expect(pdf.body.data.attachment).toMatchObject({
        jobId,
        kind: 'FILE',
        contentType: 'application/pdf',
        sizeBytes: PDF.length,
        filename: 'quote.pdf',
        signerName: null,
        signedAt: null,
        uploadedBy: null,
        sha256: sha256(PDF),
        contentUrl: `${base}/${pdf.body.data.attachment.id}/content`,
        thumbnailUrl: null,
      })
      sent.push({ id: pdf.body.data.attachment.id, bytes: PDF, type: 'application/pdf', thumbnail: false })
      // Content is kept under the organisation's id, then the job's.
      const keys = await storedKeys()
      for (const item of sent)
        expect(keys.some((key) => key.endsWith(`${organisationId}/${jobId}/${item.id}`))).toBe(true)

      const listed = await admin.get(`/jobs/${jobId}/attachments`)
      expect(listed.status).toBe(200)
      expect(listed.body.data.attachments.map((a: { id: string }) => a.id)).toEqual(
        sent.map((s) => s.id).reverse(),
      )
      for (const item of sent) {
        const shown = listed.body.data.attachments.find((a: { id: string }) => a.id === item.id)
        expect(shown).toMatchObject({
          contentType: item.type,
          sizeBytes: item.bytes.length,
          sha256: sha256(item.bytes),
        })
        const content = await read(headers, shown.contentUrl)
        expect(content.status).toBe(200)
        expect(content.bytes.equals(item.bytes)).toBe(true)
        expect(content.headers['content-type']).toBe(item.type)
        expect(content.headers['content-length']).toBe(String(item.bytes.length))
        expect(content.headers.etag).toBe(`"${sha256(item.bytes)}"`)
        expect(content.headers['x-content-type-options']).toBe('nosniff')
        expect(content.headers['content-security-policy']).toBe("sandbox; default-src 'none'")
        expect(content.headers['content-disposition']).toMatch(
          item.type === 'application/pdf' ? /^attachment;/ : /^inline;/,
        )
        const again = await t.app.inject({
          method: 'GET',
          url: shown.contentUrl,
          headers: { ...headers, 'if-none-match': `"${sha256(item.bytes)}"` },
        })
        expect(again.statusCode).toBe(304)
        if (item.thumbnail) {
          expect(shown.thumbnailUrl).toBe(`${base}/${item.id}/thumbnail`)
          const thumbnail = await read(headers, shown.thumbnailUrl)
          expect(thumbnail.status).toBe(200)
          expect(thumbnail.headers['content-type']).toBe('image/webp')
          const meta = await sharp(thumbnail.bytes).metadata()
          expect(meta.format).toBe('webp')
          expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(320)
        } else {
          expect(shown.thumbnailUrl).toBeNull()
          expect((await read(headers, `${base}/${item.id}/thumbnail`)).status).toBe(404)
        }
      }
      const events = (await outboxEvents(t.database.db, organisationId)).filter(
        (e) => e.event === 'ATTACHMENT_ADDED',
      )
      expect(events.map((e) => e.data.attachmentId)).toEqual(sent.map((s) => s.id))
      expect(events[4]?.data).toMatchObject({
        jobId,
        kind: 'SIGNATURE',
        signerName: 'Priya Patel',
        title: 'Boiler service',
      })
    })

    it('refuses what its bytes are not — a text file named .jpg, a JPEG as signature — and stores nothing', async () => {
      const { headers, admin, job } = await tenant()
      const jobId = await job()
      const base = `/v1/admin/jobs/${jobId}/attachments`
      const keysBefore = await storedKeys()
      const text = await upload(
        headers,
        base,
        { kind: 'PHOTO', filename: 'holiday.jpg' },
        Buffer.from('just some text, honestly'),
        'image/jpeg',
      )
      expect(text.status).toBe(415)
      expect(text.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' })
      expect(text.body.error).toContain('text')
      const jpegSignature = await upload(
        headers,
        base,
        { kind: 'SIGNATURE', signerName: 'Al' },
        await image('jpeg'),
      )
      expect(jpegSignature.status).toBe(415)
      expect(jpegSignature.body.error).toContain('JPEG')
      const pdfPhoto = await upload(headers, base, { kind: 'PHOTO' }, PDF)
      expect(pdfPhoto.status).toBe(415)
      const empty = await upload(headers, base, { kind: 'PHOTO' }, Buffer.alloc(0))
      expect(empty.status).toBe(415)
      const unsigned = await upload(headers, base, { kind: 'SIGNATURE' }, await image('png'))
      expect(unsigned.status).toBe(400)
      expect(unsigned.body.details).toEqual([
        { path: '/query/signerName', message: 'is required for a SIGNATURE' },
      ])
      const badKind = await upload(headers, base, { kind: 'VIDEO' }, PDF)
      expect(badKind.status).toBe(400)
      expect((await admin.get(`/jobs/${jobId}/attachments`)).body.data.attachments).toEqual([])
      expect(await storedKeys()).toEqual(keysBefore)
    })

    it('refuses 10 MiB + 1 byte, announced or streamed, as soon as the cap is passed; nothing is stored', async () => {
      const { headers, admin, job, organisationId } = await tenant()
      const jobId = await job()
      const base = `/v1/admin/jobs/${jobId}/attachments`
      const jpeg = await image('jpeg')
      const tooBig = Buffer.alloc(MAX_IMAGE_BYTES + 1, 0x20)
      jpeg.copy(tooBig)
      const keysBefore = await storedKeys()
      const announced = await upload(headers, base, { kind: 'PHOTO' }, tooBig)
      expect(announced.status).toBe(413)
      expect(announced.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' })
      expect(announced.body.error).toContain('10 MiB')
      // No Content-Length: refused while streaming, after 10 MiB have passed.
      const streamed = await upload(
        headers,
        base,
        { kind: 'PHOTO' },
        Readable.from([tooBig.subarray(0, 1 << 20), tooBig.subarray(1 << 20)]),
      )
      expect(streamed.status).toBe(413)
      expect((await admin.get(`/jobs/${jobId}/attachments`)).body.data.attachments).toEqual([])
      expect(await storedKeys()).toEqual(keysBefore)
      expect(
        (await outboxEvents(t.database.db, organisationId)).filter((e) => e.event === 'ATTACHMENT_ADDED'),
      ).toEqual([])
      // A FILE may be larger: 10 MiB + 1 of PDF is fine.
      const bigPdf = Buffer.alloc(MAX_IMAGE_BYTES + 1, 0x20)
      PDF.copy(bigPdf)
      const file = await upload(headers, base, { kind: 'FILE' }, bigPdf)
      expect(file.status, JSON.stringify(file.body)).toBe(201)
      const back = await read(headers, file.body.data.attachment.contentUrl)
      expect(sha256(back.bytes)).toBe(sha256(bigPdf))
    })

    it('streams a 9 MB photo in and out', async () => {
      const { headers, job } = await tenant()
      const jobId = await job()
      const big = Buffer.alloc(9_000_000)
      for (let i = 0; i < big.length; i += 4096) big[i] = i % 251
      ;(await image('jpeg')).copy(big)
      const created = await upload(headers, `/v1/admin/jobs/${jobId}/attachments`, { kind: 'PHOTO' }, big)
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      expect(created.body.data.attachment.sizeBytes).toBe(9_000_000)
      const back = await read(headers, created.body.data.attachment.contentUrl)
      expect(back.bytes.length).toBe(9_000_000)
      expect(back.bytes.equals(big)).toBe(true)
    })

    it("keeps within the organisation's quota: 422 beyond it, deleting frees it", async () => {
      const { headers, admin, job, organisationId } = await tenant()
      const jobId = await job()
      const base = `/v1/admin/jobs/${jobId}/attachments`
      await t.database.db
        .updateTable('organisations')
        .set({ attachment_quota_bytes: 3 * PDF.length })
        .where('id', '=', organisationId)
        .execute()
      const first = await upload(headers, base, { kind: 'FILE' }, PDF)
      const second = await upload(headers, base, { kind: 'FILE' }, PDF)
      expect([first.status, second.status]).toEqual([201, 201])
      const keysBefore = await storedKeys()
      const twice = Buffer.concat([PDF, PDF])
      const over = await upload(headers, base, { kind: 'FILE' }, twice)
      expect(over.status).toBe(422)
      expect(over.body).toMatchObject({ code: 'ATTACHMENT_QUOTA_EXCEEDED' })
      // Without Content-Length the quota is checked once the size is known: refused all the same.
      const streamed = await upload(headers, base, { kind: 'FILE' }, Readable.from([twice]))
      expect(streamed.status).toBe(422)
      expect(await storedKeys()).toEqual(keysBefore)
      const deleted = await admin.delete(`/jobs/${jobId}/attachments/${first.body.data.attachment.id}`)
      expect(deleted.status).toBe(200)
      expect(deleted.body.data.attachment).toMatchObject({ id: first.body.data.attachment.id })
      expect((await read(headers, first.body.data.attachment.contentUrl)).status).toBe(404)
      const afterDelete = await upload(headers, base, { kind: 'FILE' }, twice)
      expect(afterDelete.status, JSON.stringify(afterDelete.body)).toBe(201)
    })

    it('an upload retried with the same Idempotency-Key answers the same 201 and stores one attachment', async () => {
      const { headers, admin, job, organisationId } = await tenant()
      const jobId = await job()
      const base = `/v1/admin/jobs/${jobId}/attachments`
      const photo = await image('jpeg')
      const keyed = { ...headers, 'idempotency-key': 'photo-1-of-job' }
      const first = await upload(keyed, base, { kind: 'PHOTO', filename: 'a.jpg' }, photo)
      const retry = await upload(keyed, base, { kind: 'PHOTO', filename: 'a.jpg' }, photo)
      expect(first.status).toBe(201)
      expect(retry.status).toBe(201)
      expect(retry.headers['idempotent-replayed']).toBe('true')
      expect(retry.body).toEqual(first.body)
      // The same key for other metadata is another request: refused.
      const other = await upload(keyed, base, { kind: 'PHOTO', filename: 'b.jpg' }, photo)
      expect(other.status).toBe(422)
      expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED')
      expect((await admin.get(`/jobs/${jobId}/attachments`)).body.data.attachments).toHaveLength(1)
      const added = (await outboxEvents(t.database.db, organisationId)).filter(
        (e) => e.event === 'ATTACHMENT_ADDED',
      )
      expect(added).toHaveLength(1)
    })

    it('the public API reads with the read scope; another organisation gets 404 everywhere', async () => {
      const { headers, job, organisationId } = await tenant()
      const jobId = await job()
      const photo = await image('png')
      const created = await upload(headers, `/v1/admin/jobs/${jobId}/attachments`, { kind: 'PHOTO' }, photo)
      const id = created.body.data.attachment.id
      const reader = await createKey(t, organisationId, { scopes: ['read'] })
      const listed = await client(t, reader.headers).get(`/jobs/${jobId}/attachments`)
      expect(listed.status).toBe(200)
      expect(listed.body.data.attachments[0]).toMatchObject({
        id,
        contentUrl: `/v1/public/jobs/${jobId}/attachments/${id}/content`,
        thumbnailUrl: `/v1/public/jobs/${jobId}/attachments/${id}/thumbnail`,
      })
      const content = await read(reader.headers, `/v1/public/jobs/${jobId}/attachments/${id}/content`)
      expect(content.status).toBe(200)
      expect(content.bytes.equals(photo)).toBe(true)
      expect(
        (await read(reader.headers, `/v1/public/jobs/${jobId}/attachments/${id}/thumbnail`)).status,
      ).toBe(200)
      const writer = await createKey(t, organisationId, { scopes: ['write'] })
      expect((await client(t, writer.headers).get(`/jobs/${jobId}/attachments`)).status).toBe(403)
      // No upload on the public API.
      const publicUpload = await upload(
        reader.headers,
        `/v1/public/jobs/${jobId}/attachments`,
        { kind: 'PHOTO' },
        photo,
      )
      expect(publicUpload.status).toBe(405)

      const stranger = await tenant()
      const strangerJob = await stranger.job()
      const urls = [
        `/v1/public/jobs/${jobId}/attachments`,
        `/v1/public/jobs/${jobId}/attachments/${id}/content`,
        `/v1/admin/jobs/${jobId}/attachments`,
        `/v1/admin/jobs/${jobId}/attachments/${id}/content`,
        `/v1/admin/jobs/${jobId}/attachments/${id}/thumbnail`,
        `/v1/admin/jobs/${strangerJob}/attachments/${id}/content`,
      ]
      for (const url of urls) expect((await read(stranger.headers, url)).status, url).toBe(404)
      const strangerUpload = await upload(
        stranger.headers,
        `/v1/admin/jobs/${jobId}/attachments`,
        { kind: 'PHOTO' },
        photo,
      )
      expect(strangerUpload.status).toBe(404)
      const strangerDelete = await stranger.admin.delete(`/jobs/${jobId}/attachments/${id}`)
      expect(strangerDelete.status).toBe(404)
      expect((await stranger.admin.delete(`/jobs/${strangerJob}/attachments/${id}`)).status).toBe(404)
      expect((await read(headers, `/v1/admin/jobs/${jobId}/attachments/${id}/content`)).status).toBe(200)
    })

    it('a worker attaches to and reads their own assigned jobs only, and cannot delete', async () => {
      const { headers, job, organisationId } = await tenant()
      const worker = await makeDashboardUser(t, organisationId, { role: 'WORKER' })
      const colleague = await makeDashboardUser(t, organisationId, { role: 'WORKER' })
      const mine = await job('Mine')
      const theirs = await job('Theirs')
      await setJobState(t.database.db, organisationId, mine, {
        status: 'ASSIGNED',
        assignedUserId: worker.id,
      })
      await setJobState(t.database.db, organisationId, theirs, {
        status: 'ASSIGNED',
        assignedUserId: colleague.id,
      })
      const session = await signIn(t, worker)
      const phone = { cookie: `fs_session=${session.cookie}`, 'x-csrf-token': session.csrfToken }
      const photo = await image('webp')
      const created = await upload(
        phone,
        `/v1/admin/my/jobs/${mine}/attachments`,
        { kind: 'PHOTO', filename: 'C:\\DCIM\\after.webp' },
        photo,
      )
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const attachment = created.body.data.attachment
      expect(attachment).toMatchObject({
        uploadedBy: worker.id,
        filename: 'after.webp',
        contentUrl: `/v1/admin/my/jobs/${mine}/attachments/${attachment.id}/content`,
      })
      const signed = await upload(
        phone,
        `/v1/admin/my/jobs/${mine}/attachments`,
        { kind: 'SIGNATURE', signerName: 'Mr Jones' },
        await image('png'),
      )
      expect(signed.status).toBe(201)
      expect(signed.body.data.attachment.signedAt).toBe(new Date(NOW).toISOString())
      const listed = await read(phone, `/v1/admin/my/jobs/${mine}/attachments`)
      expect(listed.status).toBe(200)
      expect((await read(phone, attachment.contentUrl)).bytes.equals(photo)).toBe(true)
      expect((await read(phone, attachment.thumbnailUrl)).status).toBe(200)
      // Workers attach photos and signatures, not files.
      expect(
        (await upload(phone, `/v1/admin/my/jobs/${mine}/attachments`, { kind: 'FILE' }, PDF)).status,
      ).toBe(400)
      // Someone else's job: 404, as in the rest of My day.
      expect(
        (await upload(phone, `/v1/admin/my/jobs/${theirs}/attachments`, { kind: 'PHOTO' }, photo)).status,
      ).toBe(404)
      expect((await read(phone, `/v1/admin/my/jobs/${theirs}/attachments`)).status).toBe(404)
      // The dashboard routes are not the worker's.
      expect(
        (await upload(phone, `/v1/admin/jobs/${mine}/attachments`, { kind: 'PHOTO' }, photo)).status,
      ).toBe(403)
      const remove = await t.app.inject({
        method: 'DELETE',
        url: `/v1/admin/jobs/${mine}/attachments/${attachment.id}`,
        headers: phone,
      })
      expect(remove.statusCode).toBe(403)
      // The admin sees what the worker attached.
      const seen = await read(headers, `/v1/admin/jobs/${mine}/attachments/${attachment.id}/content`)
      expect(seen.bytes.equals(photo)).toBe(true)
    })

    it('only an ADMIN deletes; a dispatcher may upload and read', async () => {
      const { job, organisationId } = await tenant()
      const jobId = await job()
      const dispatcher = await makeDashboardUser(t, organisationId, { role: 'DISPATCHER' })
      const session = await signIn(t, dispatcher)
      const desk = { cookie: `fs_session=${session.cookie}`, 'x-csrf-token': session.csrfToken }
      const created = await upload(
        desk,
        `/v1/admin/jobs/${jobId}/attachments`,
        { kind: 'FILE', filename: 'a "quote"\u202e.pdf' },
        PDF,
      )
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      expect(created.body.data.attachment.uploadedBy).toBe(dispatcher.id)
      const content = await read(desk, created.body.data.attachment.contentUrl)
      expect(content.headers['content-disposition']).toBe(
        `attachment; filename="a _quote__.pdf"; filename*=UTF-8''a%20%22quote%22%E2%80%AE.pdf`,
      )
      const remove = await t.app.inject({
        method: 'DELETE',
        url: `/v1/admin/jobs/${jobId}/attachments/${created.body.data.attachment.id}`,
        headers: desk,
      })
      expect(remove.statusCode).toBe(403)
    })
  })
}
