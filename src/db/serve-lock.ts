// One serving process per SQLite file. SQLite is an embedded, one-process database here (its WAL
// checkpointer, group commits and the idempotency and outbox claims assume no other writer), so a
// second `serve` on the same file is refused at start, clearly, instead of the two corrupting each
// other's assumptions. The lock is a file beside the database holding the server's pid, made with
// O_EXCL; a lock left by a process that no longer runs (kill -9, power loss) is taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { resolve } from 'node:path'
import { dialectOfUrl, sqliteFileOfUrl } from './database.js'

export interface ServeLock {
  path: string
  release(): void
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Takes the serve lock of a SQLite database file; undefined for PostgreSQL and `:memory:`. */
export function acquireServeLock(databaseUrl: string): ServeLock | undefined {
  const file = sqliteFileOfUrl(databaseUrl)
  if (dialectOfUrl(databaseUrl) !== 'sqlite' || file === ':memory:') return undefined
  // The file the database opens, not the URL: `sqlite:///srv/fs.db` locks /srv/fs.db.serve-lock.
  const database = resolve(file)
  const path = `${database}.serve-lock`
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      const release = () => {
        try {
          if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path)
        } catch {
          // Already gone.
        }
      }
      process.once('exit', release)
      return { path, release }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const holder = Number(readFileSync(path, 'utf8').trim())
    if (isRunning(holder) && holder !== process.pid) {
      throw new Error(
        `Another fieldservice process (pid ${holder}) is already serving ${database}: SQLite is one ` +
          "process's database. Stop that one first, or use PostgreSQL (DATABASE_URL=postgres://…) to run " +
          `several instances. (The lock is ${path}.)`,
      )
    }
    // Left behind by a process that is gone: take it over.
    unlinkSync(path)
  }
  throw new Error(`Could not take the serve lock ${path}`)
}
