// One serving process per SQLite file: a second `serve` on the same file is refused at start with a
// clear message and exit status, before it opens the database; a lock left by a killed server is
// taken over. PostgreSQL serves any number of instances (multi-instance.test.ts).
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabaseUrl } from './helpers.js'
import { freePort, kill, PROCESS_TEST_TIMEOUT_MS, startService } from './processes.js'

const ROOT = new URL('../', import.meta.url)

/** `serve` in a child process that is expected to stop by itself: its exit status and stderr. */
async function serveThatStops(databaseUrl: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(await freePort()),
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, stderr }
}

describe('sqlite: one serving process per database file', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  let database: { url: string; cleanup(): Promise<void> }
  beforeAll(async () => {
    database = await createTestDatabaseUrl('sqlite')
  })
  afterAll(async () => {
    await database?.cleanup()
  })

  it('refuses a second server on the same file, then lets one start after the first was killed', async () => {
    const first = await startService(database.url)
    try {
      expect(existsSync(`${database.url}.serve-lock`)).toBe(true)
      const second = await serveThatStops(database.url)
      expect(second.code).not.toBe(0)
      expect(second.stderr).toContain(
        `Another fieldservice process (pid ${first.child.pid}) is already serving`,
      )
      expect(second.stderr).toContain('PostgreSQL')
      // The first one never noticed.
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200)
    } finally {
      await kill(first.child, 'SIGKILL')
    }
    // kill -9 left the lock behind; its process is gone, so the next server takes it over.
    const third = await startService(database.url)
    await kill(third.child, 'SIGTERM')
    // A graceful stop removes it.
    expect(existsSync(`${database.url}.serve-lock`)).toBe(false)
  })

  it('takes over a lock whose process no longer runs', async () => {
    writeFileSync(`${database.url}.serve-lock`, '2147483646')
    const server = await startService(database.url)
    await kill(server.child, 'SIGTERM')
  })

  it('locks the file a sqlite:// URL names, not a path made of the URL', async () => {
    // Seen trying DATABASE_URL=sqlite:///tmp/x.db: the demo seeded the file, then serving failed
    // with ENOENT on "<cwd>/sqlite:/tmp/x.db.serve-lock".
    const server = await startService(`sqlite://${database.url}`)
    try {
      expect(existsSync(`${database.url}.serve-lock`)).toBe(true)
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    } finally {
      await kill(server.child, 'SIGTERM')
    }
    expect(existsSync(`${database.url}.serve-lock`)).toBe(false)
  })
})
