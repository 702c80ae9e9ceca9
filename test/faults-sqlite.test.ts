// SQLite has no server to lose, but it can still refuse a write for a while: another process (the
// CLI, a backup) holding the write lock past busy_timeout (SQLITE_BUSY), or a full disk
// (SQLITE_FULL). Either answers 503 SERVICE_UNAVAILABLE with Retry-After, never a 500, and the
// service carries on once the cause is gone.
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../src/app.js'
import { createDatabase, type DatabaseHandle } from '../src/db/database.js'
import { createApiKey } from '../src/modules/api-keys/service.js'
import { createOrganisation } from '../src/modules/organisations/service.js'
import { createTestDatabaseUrl, DIALECTS } from './helpers.js'

const describeSqlite = DIALECTS.includes('sqlite') ? describe : describe.skip

describeSqlite('sqlite: the database refuses writes for a while', () => {
  let database: { url: string; cleanup(): Promise<void> }
  let handle: DatabaseHandle
  let app: App
  let headers: Record<string, string>
  const errorLogs: unknown[] = []

  beforeAll(async () => {
    database = await createTestDatabaseUrl('sqlite')
    handle = createDatabase(database.url)
    const org = await createOrganisation(handle.db, { name: 'Locked Roofing', plan: 'PRO' })
    const { key } = await createApiKey(handle.db, {
      organisationId: org.id,
      name: 'lock test',
      scopes: ['read', 'write'],
      rateLimitPerMinute: 1_000_000,
    })
    headers = { authorization: `Bearer ${key}` }
    // Wait 200 ms for a lock rather than the production 5 s, to keep the test short.
    await sql`PRAGMA busy_timeout = 200`.execute(handle.db)
    app = await buildApp({
      db: handle.db,
      dialect: 'sqlite',
      config: {
        authCacheTtlMs: 0,
        defaultRateLimitPerMinute: 100,
        bodyLimitBytes: 1024 * 1024,
        webhookDispatcher: false,
      },
      logger: {
        level: 'error',
        stream: { write: (line: string) => errorLogs.push(JSON.parse(line)) },
      },
    })
    await app.ready()
  })
  afterAll(async () => {
    await app?.close()
    await handle?.destroy()
    await database?.cleanup()
  })

  const post = (payload: unknown) =>
    app.inject({ method: 'POST', url: '/v1/public/jobs', headers, payload: payload as object })

  const expectUnavailable = (response: Awaited<ReturnType<typeof post>>) => {
    expect(response.statusCode, response.body).toBe(503)
    expect(response.json()).toEqual({ error: expect.any(String), code: 'SERVICE_UNAVAILABLE' })
    expect(response.json().error).not.toMatch(/SQLITE|locked|busy|disk/i)
    expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1)
  }

  it('answers 503 while another process holds the write lock (SQLITE_BUSY), and reads still work', async () => {
    const before = await post({ title: 'Before the lock' })
    expect(before.statusCode).toBe(201)
    const other = new SQLite(database.url)
    try {
      other.pragma('busy_timeout = 0')
      other.exec('BEGIN IMMEDIATE')
      expectUnavailable(await post({ title: 'While locked' }))
      const read = await app.inject({
        method: 'GET',
        url: `/v1/public/jobs/${before.json().data.job.id}`,
        headers,
      })
      expect(read.statusCode).toBe(200)
      other.exec('ROLLBACK')
    } finally {
      other.close()
    }
    const after = await post({ title: 'After the lock' })
    expect(after.statusCode).toBe(201)
    expect(errorLogs).toEqual([])
  })

  it('answers 503 when the database cannot grow (SQLITE_FULL), and writes again once it can', async () => {
    const [{ page_count: pages }] = (await sql<{ page_count: number }>`PRAGMA page_count`.execute(handle.db))
      .rows as [{ page_count: number }]
    await sql.raw(`PRAGMA max_page_count = ${pages}`).execute(handle.db)
    try {
      const description = 'x'.repeat(10_000)
      let full: Awaited<ReturnType<typeof post>> | undefined
      for (let i = 0; i < 100 && !full; i++) {
        const response = await post({ title: `Filling ${i}`, description })
        if (response.statusCode !== 201) full = response
      }
      expect(full, 'a write that no longer fits').toBeDefined()
      expectUnavailable(full as Awaited<ReturnType<typeof post>>)
    } finally {
      await sql.raw('PRAGMA max_page_count = 1073741823').execute(handle.db)
    }
    const after = await post({ title: 'Room again', description: 'y'.repeat(10_000) })
    expect(after.statusCode).toBe(201)
    expect(errorLogs).toEqual([])
  })
})
