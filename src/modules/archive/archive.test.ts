// The organisation archive (issue 31 §4): exported over HTTP by an ADMIN, restored into an empty
// organisation, and exported again — the two archives are the same once ids are set aside, the
// attachment bytes included. A non-empty target and a damaged archive are refused, leaving nothing.
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ArchiveFixture,
  archiveLinesOf,
  buildArchiveFixture,
  normalisedRecords,
} from '../../../test/archive-fixture.js'
import { createTestApp, DIALECTS, type TestContext } from '../../../test/helpers.js'
import { DatabaseAttachmentStore } from '../attachments/db-store.js'
import { createOrganisation } from '../organisations/service.js'
import { archiveStream } from './export.js'
import { ArchiveError, importArchive } from './import.js'
import { ARCHIVED_TABLES } from './tables.js'

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: organisation archive`, () => {
    let t: TestContext
    let fixture: ArchiveFixture
    let archive: Buffer
    let store: DatabaseAttachmentStore

    beforeAll(async () => {
      t = await createTestApp(dialect)
      store = new DatabaseAttachmentStore(t.database.db)
      fixture = await buildArchiveFixture(t)
      const response = await t.app.inject({
        method: 'GET',
        url: '/v1/admin/export',
        headers: { cookie: `fs_session=${fixture.admin.cookie}` },
      })
      expect(response.statusCode, response.body).toBe(200)
      expect(response.headers['content-type']).toBe('application/gzip')
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="fieldservice-archive-\d{4}-\d{2}-\d{2}\.ndjson\.gz"$/,
      )
      archive = response.rawPayload
    }, 60_000)
    afterAll(() => t.close())

    const emptyOrganisation = async () =>
      (await createOrganisation(t.database.db, { name: `Target ${Math.random()}`, plan: 'PRO' })).id

    /** Rows of every archived table, and stored content, the organisation has. */
    async function heldBy(organisationId: string) {
      const held: Record<string, number> = {}
      for (const table of ARCHIVED_TABLES) {
        const row = await t.database.db
          .selectFrom(table.type)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('organisation_id', '=', organisationId)
          .executeTakeFirstOrThrow()
        if (Number(row.n) > 0) held[table.type] = Number(row.n)
      }
      const chunks = await t.database.db
        .selectFrom('attachment_chunks')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('content_key', 'like', `${organisationId}/%`)
        .executeTakeFirstOrThrow()
      if (Number(chunks.n) > 0) held.attachment_chunks = Number(chunks.n)
      return held
    }

    it('holds one of everything, in dependency order, with no secrets', () => {
      const lines = archiveLinesOf(archive)
      const header = lines[0] as { format: string; version: number; counts: Record<string, number> }
      expect(header).toMatchObject({ format: 'fieldservice-archive', version: 1 })
      for (const table of ARCHIVED_TABLES) expect(header.counts[table.type], table.type).toBeGreaterThan(0)
      const types = lines.slice(1).map((l) => l.type)
      expect(types.at(-1)).toBe('end')
      expect(types.filter((type) => type === 'attachments')).toHaveLength(2)
      expect(types).toContain('attachment_content')
      const seriesJobs = lines.filter((l) => l.type === 'jobs' && l.data?.series_id)
      expect(seriesJobs.length).toBeGreaterThanOrEqual(1)
      expect(new Set(lines.filter((l) => l.type === 'jobs').map((l) => l.data?.status))).toEqual(
        new Set(['CREATED', 'ASSIGNED', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED']),
      )
      const text = JSON.stringify(lines)
      expect(text).not.toContain('password_hash')
      expect(text).not.toContain('$scrypt$')
      expect(text).not.toContain('organisation_id')
      expect(text).not.toContain('content_key')
    })

    it('reads every table in keyset pages: pages of 3 rows make the same archive', async () => {
      const exportedAt = archiveLinesOf(archive)[0]?.exportedAt as string
      const paged = await bytesOf(archiveStream(t.database.db, store, fixture.organisationId, exportedAt, 3))
      expect(archiveLinesOf(paged)).toEqual(archiveLinesOf(archive))
    })

    it('403 for a dispatcher', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/v1/admin/export',
        headers: { cookie: `fs_session=${fixture.dispatcher.cookie}` },
      })
      expect(response.statusCode).toBe(403)
      expect(response.json()).toMatchObject({ code: 'FORBIDDEN' })
    })

    it('restores into an empty organisation: exported again, the same archive and the same bytes', async () => {
      const target = await emptyOrganisation()
      const result = await importArchive(t.database.db, store, target, Readable.from([archive]))
      expect(result.counts.jobs).toBe(
        (archiveLinesOf(archive)[0]?.counts as Record<string, number> | undefined)?.jobs,
      )
      const again = await bytesOf(archiveStream(t.database.db, store, target, new Date().toISOString()))
      const before = archiveLinesOf(archive)
      const after = archiveLinesOf(again)
      expect(after).toHaveLength(before.length)
      expect(normalisedRecords(after)).toEqual(normalisedRecords(before))

      // The restored attachments' bytes, read back from the store, are the source's.
      const attachments = await t.database.db
        .selectFrom('attachments')
        .select(['organisation_id', 'content_key', 'sha256', 'filename'])
        .where('organisation_id', 'in', [fixture.organisationId, target])
        .orderBy('filename')
        .execute()
      expect(attachments).toHaveLength(4)
      for (const row of attachments) {
        const bytes = await bytesOf(await store.get(row.content_key))
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(row.sha256)
      }
      const [a, b] = attachments.filter((r) => r.filename === 'boiler.jpg')
      expect(a?.sha256).toBe(b?.sha256)
      expect(a?.content_key).not.toBe(b?.content_key)
      // The restored series' job template names the restored customer, not the source's.
      const series = await t.database.db
        .selectFrom('job_series')
        .select('template')
        .where('organisation_id', '=', target)
        .executeTakeFirstOrThrow()
      const customerId = JSON.parse(series.template).customerId as string
      const customer = await t.database.db
        .selectFrom('customers')
        .select('organisation_id')
        .where('id', '=', customerId)
        .executeTakeFirstOrThrow()
      expect(customer.organisation_id).toBe(target)
    })

    it('refuses a target that is not empty, and changes nothing', async () => {
      const before = await heldBy(fixture.organisationId)
      const error = await importArchive(
        t.database.db,
        store,
        fixture.organisationId,
        Readable.from([archive]),
      ).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ArchiveError)
      expect((error as Error).message).toMatch(/is not empty \(it has \d+ tags, /)
      expect(await heldBy(fixture.organisationId)).toEqual(before)
    })

    it('a truncated archive is refused with a clear error and leaves the target empty', async () => {
      const text = archiveLinesOf(archive).map((line) => JSON.stringify(line))
      const cases: [string, Buffer, RegExp][] = [
        ['cut gzip', archive.subarray(0, Math.floor(archive.length * 0.8)), /truncated/],
        ['lines missing', gzipSync(`${text.slice(0, -5).join('\n')}\n`), /truncated|ends inside/],
        [
          'a damaged line',
          gzipSync(`${text.slice(0, 50).join('\n')}\n{"type":"jobs",\n`),
          /Line 51 .*not a JSON line/,
        ],
        ['not gzip', Buffer.from('hello'), /not a readable gzip file/],
      ]
      for (const [name, bytes, message] of cases) {
        const target = await emptyOrganisation()
        const error = await importArchive(t.database.db, store, target, Readable.from([bytes])).catch(
          (e: unknown) => e,
        )
        expect(error, name).toBeInstanceOf(ArchiveError)
        expect((error as Error).message, name).toMatch(message)
        expect(await heldBy(target), name).toEqual({})
      }
    })
  })
}
