// `fieldservice export` and `fieldservice import` as an operator runs them, on a real database of each
// dialect: an organisation with one of everything is exported to a file, restored into a new empty
// organisation, and exported again — the same archive once ids are set aside. A non-empty target and
// a truncated file are refused with a message, not a stack trace, and leave the target empty.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { createDatabase } from '../src/db/database.js'
import { archiveLinesOf, buildArchiveFixture, normalisedRecords } from './archive-fixture.js'
import { cliOn } from './cli-runner.js'
import {
  createTestDatabaseUrl,
  DIALECTS,
  TEST_IP_RATE_LIMIT_PER_MINUTE,
  TEST_PASSWORD_PARAMS,
  type TestContext,
} from './helpers.js'

for (const dialect of DIALECTS) {
  describe(`${dialect}: fieldservice export / import`, () => {
    let dir: string
    let database: { url: string; cleanup(): Promise<void> }
    let t: TestContext
    let cli: ReturnType<typeof cliOn>
    let organisationId: string

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'fieldservice-archive-'))
      database = await createTestDatabaseUrl(dialect)
      const handle = createDatabase(database.url)
      const app = await buildApp({
        db: handle.db,
        dialect: handle.dialect,
        passwordParams: TEST_PASSWORD_PARAMS,
        config: {
          authCacheTtlMs: 0,
          defaultRateLimitPerMinute: 100,
          bodyLimitBytes: 1024 * 1024,
          webhookDispatcher: false,
          planWorkers: 0,
          liveRefreshSeconds: 0,
          seriesGenerateSeconds: 0,
          ipRateLimitPerMinute: TEST_IP_RATE_LIMIT_PER_MINUTE,
        },
      })
      await app.ready()
      t = {
        app,
        dialect,
        database: { ...handle, cleanup: async () => {} },
        close: async () => {
          await app.close()
          await handle.destroy()
        },
      }
      organisationId = (await buildArchiveFixture(t)).organisationId
      cli = cliOn({ ...process.env, DATABASE_URL: database.url })
    }, 60_000)
    afterAll(async () => {
      await t.close()
      await database.cleanup()
      await rm(dir, { recursive: true, force: true })
    })

    it('exports to a file, restores into an empty organisation, and the restored one exports the same', async () => {
      const source = join(dir, 'source.ndjson.gz')
      expect(await cli.cli('export', '--org', organisationId, '--out', source)).toBe('')
      const target = await cli.cliJson('orgs', 'create', '--name', 'Restored Plumbing', '--plan', 'STARTER')
      const restored = await cli.cliJson('import', '--org', target.id, source)
      const sourceLines = archiveLinesOf(await readFile(source))
      expect(restored.counts).toEqual(
        Object.fromEntries(
          Object.entries(sourceLines[0]?.counts as Record<string, number>).filter(([, n]) => n > 0),
        ),
      )
      expect(restored.attachmentBytes).toBeGreaterThan(0)

      // By name, as an operator would type it.
      const again = join(dir, 'again.ndjson.gz')
      await cli.cli('export', '--org', 'Restored Plumbing', '--out', again)
      expect(normalisedRecords(archiveLinesOf(await readFile(again)))).toEqual(normalisedRecords(sourceLines))

      // The restored organisation is no longer empty: a second import is refused.
      const refused = await cli.cliFails('import', '--org', target.id, source)
      expect(refused).toMatch(
        /is not empty \(it has \d+ tags, .*\): an archive is restored only into an empty/,
      )
      expect(refused).not.toMatch(/\n\s+at /)
    })

    it('a truncated file is refused with a message and leaves the target empty', async () => {
      const source = join(dir, 'source.ndjson.gz')
      const whole = await readFile(source)
      const cut = join(dir, 'cut.ndjson.gz')
      await writeFile(cut, whole.subarray(0, Math.floor(whole.length * 0.7)))
      const target = await cli.cliJson('orgs', 'create', '--name', 'Cut Short Ltd', '--plan', 'FREE')
      const refused = await cli.cliFails('import', '--org', target.id, cut)
      expect(refused).toMatch(/truncated/)
      expect(refused).not.toMatch(/\n\s+at /)
      const empty = join(dir, 'empty.ndjson.gz')
      await cli.cli('export', '--org', target.id, '--out', empty)
      const lines = archiveLinesOf(await readFile(empty))
      expect(Object.values(lines[0]?.counts as Record<string, number>).every((n) => n === 0)).toBe(true)
      expect(lines.map((l) => l.type)).toEqual([undefined, 'end'])

      expect(await cli.cliFails('import', '--org', 'No Such Org', source)).toMatch(
        /No organisation with the id or name "No Such Org"/,
      )
    })
  })
}
