// Durable commits without blocking the event loop: SQLite itself runs with synchronous=NORMAL (a
// COMMIT appends its frames to the WAL and returns), and the WAL is then fdatasync'ed on libuv's
// thread pool, so the event loop serves other requests while the disk works; batches that commit
// meanwhile share the next fdatasync (WalSync). Without one, SQLite's own synchronous setting decides
// (FULL: the COMMIT itself waits for the disk).
import type { FileHandle } from 'node:fs/promises'
import { open } from 'node:fs/promises'

/** Flushes a file to disk (fdatasync) without blocking the event loop. */
export type SyncFile = () => Promise<void>

interface Waiter {
  resolve(): void
  reject(error: unknown): void
}

/**
 * Group fsync of the WAL: `sync()` resolves once an fdatasync that began after the call has completed,
 * so everything written to the WAL before the call is on disk. One fdatasync runs at a time; the calls
 * made while it runs share the next one.
 */
export class WalSync {
  /** fdatasyncs completed, for tests and diagnostics. */
  syncs = 0
  private running: Promise<void> | null = null
  private waiting: Waiter[] = []

  constructor(
    private readonly syncFile: SyncFile,
    private readonly closeFile: () => Promise<void> = async () => {},
  ) {}

  sync(): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }))
    if (!this.running) this.running = this.round()
    return done
  }

  /** Waits for the fdatasyncs asked for so far, then closes the file. */
  async close(): Promise<void> {
    while (this.running) await this.running
    await this.closeFile()
  }

  private async round(): Promise<void> {
    while (this.waiting.length > 0) {
      const waiters = this.waiting
      this.waiting = []
      try {
        await this.syncFile()
        this.syncs += 1
        for (const waiter of waiters) waiter.resolve()
      } catch (error) {
        for (const waiter of waiters) waiter.reject(error)
      }
    }
    this.running = null
  }
}

/** fdatasync and close of the WAL file, opened on first use (it exists once SQLite has written). */
export function walFile(path: string): [sync: SyncFile, close: () => Promise<void>] {
  let handle: Promise<FileHandle> | undefined
  const sync = async () => {
    handle ??= open(path, 'r').catch((error: unknown) => {
      handle = undefined
      throw error
    })
    await (await handle).datasync()
  }
  const close = async () => {
    await (await handle)?.close()
  }
  return [sync, close]
}
