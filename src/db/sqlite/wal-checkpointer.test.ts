// The WAL's disk work off the event loop, on a real file: COMMITs are made durable by fdatasync on the
// thread pool, and checkpoints happen in a worker thread on a connection of its own.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DIALECTS } from '../../../test/helpers.js'
import { createDatabase } from '../database.js'
import { WalCheckpointer } from './wal-checkpointer.js'

describe.runIf(DIALECTS.includes('sqlite'))('sqlite: WAL work off the event loop', () => {
  let dir: string
  let file: string

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-wal-'))
    file = join(dir, 'test.db')
  })

  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('runs SQLite itself at synchronous=NORMAL whether FULL (the driver fdatasyncs) or NORMAL is asked for', async () => {
    for (const sqliteSynchronous of ['FULL', 'NORMAL'] as const) {
      const handle = createDatabase(join(dir, `${sqliteSynchronous}.db`), { sqliteSynchronous })
      const level = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(handle.db)
      expect(level.rows[0]?.synchronous).toBe(1) // NORMAL: the COMMIT itself never waits for the disk
      await sql`CREATE TABLE t (id INTEGER PRIMARY KEY)`.execute(handle.db)
      await handle.db.transaction().execute((trx) => sql`INSERT INTO t (id) VALUES (1)`.execute(trx))
      await handle.destroy()
    }
  })

  it('copies the WAL into the database file from its worker thread while the service writes', async () => {
    const handle = createDatabase(file)
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)`.execute(handle.db)
    const observer = new SQLite(file, { readonly: true })
    try {
      const sizeBefore = statSync(file).size
      for (let round = 0; round < 20; round++) {
        await handle.db.transaction().execute(async (trx) => {
          for (let i = 0; i < 50; i++) {
            await sql`INSERT INTO t (body) VALUES (${'x'.repeat(400)})`.execute(trx)
          }
        })
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      // Well under the serving connection's own (backstop) threshold: only the worker can have grown
      // the database file.
      // 1 000 rows of 400 characters: at least 400 kB once they are in the database file.
      const grown = () => statSync(file).size > sizeBefore + 400_000
      const deadline = Date.now() + 5000
      while (!grown() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
      expect(grown()).toBe(true)
      expect(observer.prepare('SELECT count(*) FROM t').pluck().get()).toBe(1000)
    } finally {
      observer.close()
      await handle.destroy()
    }
  })

  it('counts the frames it copies, and closes with a last checkpoint', async () => {
    const writer = new SQLite(file)
    writer.pragma('journal_mode = WAL')
    writer.pragma('wal_autocheckpoint = 0')
    writer.exec('CREATE TABLE t (body TEXT)')
    const checkpointer = new WalCheckpointer(file, 10)
    const insert = writer.prepare('INSERT INTO t (body) VALUES (?)')
    for (let i = 0; i < 200; i++) insert.run('y'.repeat(1000))
    const deadline = Date.now() + 5000
    while (checkpointer.framesCopied === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(checkpointer.framesCopied).toBeGreaterThan(0)
    await checkpointer.close()
    writer.close()
  })

  it('lets a process that closes its database carry on afterwards (the worker keeps it alive until then)', () => {
    // A command-line run has nothing else to keep Node alive while the checkpoint worker closes.
    const script = join(dir, 'close.mts')
    const database = fileURLToPath(new URL('../database.ts', import.meta.url))
    writeFileSync(
      script,
      `import { createDatabase } from ${JSON.stringify(database)}
       const handle = createDatabase(${JSON.stringify(file)})
       await handle.db.transaction().execute(async () => {})
       await handle.destroy()
       console.log('after destroy')`,
    )
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
      encoding: 'utf8',
      timeout: 20_000,
    })
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe('after destroy\n')
    expect(run.status).toBe(0)
  })
})
