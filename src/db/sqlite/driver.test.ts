// Group commit on SQLite: transactions that queue behind each other share one COMMIT, and yet none is
// acknowledged before it is durable, none sees another's failure, and nothing outside a transaction
// ever reads a batch's uncommitted rows. Checked against a second, independent connection to the file.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DIALECTS } from '../../../test/helpers.js'
import { GroupCommitSqliteDialect } from './dialect.js'
import { MAX_BATCH } from './group-commit.js'
import { SqliteStatements } from './statement-cache.js'
import { WalSync } from './wal-sync.js'

interface Tables {
  parent: { id: number }
  child: { id: number; parent_id: number | null }
}

describe.runIf(DIALECTS.includes('sqlite'))('sqlite: group commit', () => {
  let dir: string
  let file: string
  let dialect: GroupCommitSqliteDialect
  let db: Kysely<Tables>
  /** An independent connection: sees only what is committed. */
  let observer: SQLite.Database

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'group-commit-'))
    file = join(dir, 'test.db')
    const raw = new SQLite(file)
    raw.pragma('journal_mode = WAL')
    raw.pragma('foreign_keys = ON')
    raw.pragma('synchronous = FULL')
    raw.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (id INTEGER PRIMARY KEY,
        parent_id INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)`)
    dialect = new GroupCommitSqliteDialect(new SqliteStatements(raw))
    db = new Kysely<Tables>({ dialect })
    observer = new SQLite(file, { readonly: true })
  })

  afterEach(async () => {
    observer.close()
    await db.destroy()
    rmSync(dir, { recursive: true, force: true })
  })

  const committed = () =>
    (observer.prepare('SELECT id FROM child ORDER BY id').pluck().all() as number[]) ?? []
  const insert = (id: number, parentId: number | null = null) =>
    db.transaction().execute(async (trx) => {
      await trx.insertInto('child').values({ id, parent_id: parentId }).execute()
      // An await between statements, as a service has: the others queue meanwhile.
      await trx.selectFrom('child').select('id').where('id', '=', id).execute()
      return id
    })

  it('makes queued transactions durable with one COMMIT, and acknowledges none before it', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => i + 1)
    const seenAtAcknowledgement: number[][] = []
    await Promise.all(ids.map((id) => insert(id).then(() => seenAtAcknowledgement.push(committed()))))
    expect(committed()).toEqual(ids)
    // When any of them was acknowledged, every one was already on disk for other connections.
    for (const seen of seenAtAcknowledgement) expect(seen).toEqual(ids)
    expect(dialect.driver.stats).toEqual({ commits: 1, transactions: 20 })
  })

  it('lets transactions that begin in later callbacks of the same event-loop turn join the batch', async () => {
    // As requests do: each arrives in its own socket callback and runs to its end before the next.
    const ids = Array.from({ length: 10 }, (_, i) => i + 1)
    await Promise.all(ids.map((id) => new Promise((resolve) => setImmediate(() => resolve(insert(id))))))
    expect(committed()).toEqual(ids)
    expect(dialect.driver.stats).toEqual({ commits: 1, transactions: 10 })
  })

  it('rolls back a failing member alone; the rest of its batch commits', async () => {
    const outcomes = await Promise.allSettled([
      insert(1),
      db.transaction().execute(async (trx) => {
        await trx.insertInto('child').values({ id: 2, parent_id: null }).execute()
        throw new Error('refused')
      }),
      insert(3),
      insert(1), // a primary-key violation inside the batch
      insert(4),
    ])
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ])
    expect(committed()).toEqual([1, 3, 4])
    expect(dialect.driver.stats.commits).toBe(1)
  })

  it('fails every member of a batch whose COMMIT fails, and keeps none of its rows', async () => {
    // A deferred foreign key is checked at COMMIT only: the second member makes the shared COMMIT fail.
    const outcomes = await Promise.allSettled([insert(1), insert(2, 999), insert(3)])
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected'])
    expect(committed()).toEqual([])
    // The connection is usable again, and the next transaction commits on its own.
    expect(await insert(4)).toBe(4)
    expect(committed()).toEqual([4])
  })

  it('commits the open batch before a query outside any transaction reads', async () => {
    let workDone!: () => void
    const done = new Promise<void>((resolve) => {
      workDone = resolve
    })
    const first = db.transaction().execute(async (trx) => {
      await trx.insertInto('child').values({ id: 1, parent_id: null }).execute()
      workDone()
    })
    await done
    const rows = await db.selectFrom('child').select('id').execute()
    expect(rows.map((r) => r.id)).toEqual([1])
    // No turn of the event loop has passed: had the read run inside the open batch, the row would not
    // be committed yet.
    expect(committed()).toEqual([1])
    await first
    expect(dialect.driver.stats).toEqual({ commits: 1, transactions: 1 })
  })

  it('reads rows as better-sqlite3 would, and again after the schema changes', async () => {
    await db.insertInto('parent').values({ id: 7 }).execute()
    const select = sql<Record<string, unknown>>`SELECT * FROM parent`
    expect((await select.execute(db)).rows).toEqual([{ id: 7 }])
    expect((await sql`SELECT 1 AS a, 2 AS a, NULL AS "b c"`.execute(db)).rows).toEqual([
      { a: 2, 'b c': null },
    ])
    await sql`ALTER TABLE parent ADD COLUMN name TEXT`.execute(db)
    // The same SQL text: its cached column list must not outlive the schema it was read from.
    expect((await select.execute(db)).rows).toEqual([{ id: 7, name: null }])
  })

  it(`commits at most ${MAX_BATCH} transactions at once`, async () => {
    const ids = Array.from({ length: MAX_BATCH * 2 + 5 }, (_, i) => i + 1)
    await Promise.all(ids.map((id) => insert(id)))
    expect(committed()).toEqual(ids)
    expect(dialect.driver.stats.commits).toBe(3)
    expect(dialect.driver.stats.transactions).toBe(ids.length)
  })
})

/** A stand-in fdatasync that completes when the test says so. */
function manualSync() {
  const pending: { resolve(): void; reject(error: Error): void }[] = []
  const syncFile = () => new Promise<void>((resolve, reject) => pending.push({ resolve, reject }))
  return {
    walSync: new WalSync(syncFile),
    /** fdatasyncs started and not finished. */
    get running() {
      return pending.length
    },
    finish(error?: Error) {
      const next = pending.shift()
      if (!next) throw new Error('no fdatasync is running')
      if (error) next.reject(error)
      else next.resolve()
    },
  }
}

const turn = () => new Promise((resolve) => setImmediate(resolve))

/** Whether `promise` has settled once the event loop has run everything that was ready. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false
  promise.then(
    () => (done = true),
    () => (done = true),
  )
  for (let i = 0; i < 10; i++) await turn()
  return done
}

describe.runIf(DIALECTS.includes('sqlite'))('sqlite: durability off the event loop, read snapshots', () => {
  let dir: string
  let file: string
  let statements: SqliteStatements
  let sync: ReturnType<typeof manualSync>
  let db: Kysely<Tables>
  let observer: SQLite.Database

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wal-sync-'))
    file = join(dir, 'test.db')
    const raw = new SQLite(file)
    raw.pragma('journal_mode = WAL')
    raw.pragma('synchronous = NORMAL')
    raw.exec('CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER)')
    statements = new SqliteStatements(raw)
    sync = manualSync()
    db = new Kysely<Tables>({ dialect: new GroupCommitSqliteDialect(statements, sync.walSync) })
    observer = new SQLite(file)
  })

  afterEach(async () => {
    const closing = db.destroy()
    while (!(await settled(closing))) if (sync.running > 0) sync.finish()
    await closing
    observer.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const committed = () => observer.prepare('SELECT id FROM child ORDER BY id').pluck().all() as number[]
  const insert = (id: number) =>
    db.transaction().execute(async (trx) => {
      await trx.insertInto('child').values({ id, parent_id: null }).execute()
      return id
    })
  /** Turns of the event loop until `condition` holds (a transaction takes a few to reach COMMIT). */
  const until = async (condition: () => boolean) => {
    for (let i = 0; i < 50 && !condition(); i++) await turn()
    expect(condition()).toBe(true)
  }

  it('acknowledges a batch only once an fdatasync begun after its COMMIT has finished', async () => {
    const first = Promise.all([insert(1), insert(2)])
    await until(() => sync.running === 1)
    // Committed (other connections see it) and being synced, but not yet acknowledged.
    expect(committed()).toEqual([1, 2])
    expect(await settled(first)).toBe(false)

    // A batch committed while that fdatasync runs may not be covered by it: it waits for the next.
    const second = insert(3)
    await until(() => committed().length === 3)
    expect(sync.running).toBe(1)
    sync.finish()
    expect(await first).toEqual([1, 2])
    expect(await settled(second)).toBe(false)
    expect(sync.running).toBe(1)
    sync.finish()
    expect(await second).toBe(3)
    expect(sync.walSync.syncs).toBe(2)
  })

  it('answers a write made outside any transaction once it is synced too', async () => {
    const write = db.insertInto('child').values({ id: 9, parent_id: null }).execute()
    expect(await settled(write)).toBe(false)
    expect(committed()).toEqual([9])
    sync.finish()
    await write
    // A read outside a transaction needs no fdatasync.
    expect((await db.selectFrom('child').select('id').execute()).map((r) => r.id)).toEqual([9])
    expect(sync.running).toBe(0)
  })

  it('fails every member of a batch whose fdatasync fails', async () => {
    const batch = Promise.allSettled([insert(1), insert(2)])
    await until(() => sync.running === 1)
    sync.finish(new Error('EIO: i/o error, fdatasync'))
    const outcomes = await batch
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected'])
    // The next batch is synced and acknowledged as usual.
    const next = insert(3)
    await until(() => sync.running === 1)
    sync.finish()
    expect(await next).toBe(3)
  })

  it('shares one read transaction among the direct reads of a turn, and never hides a write of its own', async () => {
    const read = () => statements.readCommitted<{ id: number }>('SELECT id FROM child ORDER BY id', [])
    expect(read()).toEqual([])
    expect(statements.inTransaction).toBe(false)
    // Another connection's write lands inside the snapshot's turn: seen from the next turn on.
    observer.prepare('INSERT INTO child (id) VALUES (1)').run()
    expect(read()).toEqual([])
    await turn()
    expect(read()).toEqual([{ id: 1 }])
    // A write of this process ends the snapshot first, so a read right after it sees it.
    expect(read()).toEqual([{ id: 1 }])
    const write = insert(2)
    await until(() => sync.running === 1)
    expect(statements.inTransaction).toBe(false)
    expect(read()).toEqual([{ id: 1 }, { id: 2 }])
    sync.finish()
    await write
  })
})
