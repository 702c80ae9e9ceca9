// Group commit on SQLite: transactions that queue behind each other share one COMMIT, and yet none is
// acknowledged before it is durable, none sees another's failure, and nothing outside a transaction
// ever reads a batch's uncommitted rows. Checked against a second, independent connection to the file.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DIALECTS } from '../../test/helpers.js'
import { GroupCommitSqliteDialect, MAX_BATCH, SqliteStatements } from './sqlite-driver.js'

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
