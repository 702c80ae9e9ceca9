// Checkpoints (copying the WAL back into the database file, with its own fsyncs) run in a worker
// thread on a connection of its own. SQLite's automatic checkpoint ran inside the COMMIT that
// crossed 1 000 WAL pages and held the event loop for 10-150 ms (measured); better-sqlite3 is
// synchronous, so whatever SQLite waits for, every request waits for.
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/**
 * How many WAL pages the serving connection lets pile up before it checkpoints on its own: a
 * backstop, reached only if the checkpoint thread cannot keep up (or could not start).
 */
export const BACKSTOP_CHECKPOINT_PAGES = 10_000

const CHECKPOINT_INTERVAL_MS = 100

// CommonJS, evaluated in the worker: a PASSIVE checkpoint never waits for the writer and never makes
// it wait; what it cannot copy yet (frames of a transaction still open) it copies next time.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const SQLite = require(workerData.driver)
const db = new SQLite(workerData.file, { fileMustExist: true })
db.pragma('busy_timeout = 0')
db.pragma('synchronous = FULL')
const checkpoint = () => {
  try {
    const [{ checkpointed }] = db.pragma('wal_checkpoint(PASSIVE)')
    if (checkpointed > 0) parentPort.postMessage(checkpointed)
  } catch { /* busy or closing: the next round retries */ }
}
const timer = setInterval(checkpoint, workerData.intervalMs)
parentPort.once('message', () => {
  clearInterval(timer)
  checkpoint()
  db.close()
  parentPort.close()
})
`

/** Checkpoints one SQLite file's WAL every `intervalMs`, in a worker thread. */
export class WalCheckpointer {
  /** WAL frames found copied into the database file, summed over checkpoints (for tests). */
  framesCopied = 0
  private readonly worker: Worker
  private readonly exited: Promise<void>

  constructor(file: string, intervalMs = CHECKPOINT_INTERVAL_MS) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3')
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, intervalMs } })
    // A worker that fails leaves the backstop checkpoint to the serving connection; never an
    // uncaught 'error' event in the process that serves.
    this.worker.on('error', () => {})
    this.worker.on('message', (frames: number) => {
      this.framesCopied += frames
    })
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()))
    this.worker.unref()
  }

  /** A last checkpoint, then the worker's connection closes. */
  async close(): Promise<void> {
    // Unreferenced, the worker would not keep the process alive for this wait: it would just end.
    this.worker.ref()
    this.worker.postMessage('close')
    await this.exited
  }
}
