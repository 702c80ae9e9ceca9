// Background work that must run on one instance at a time (DESIGN.md, the live day): the instance
// holding a named row of the `leases` table runs it. A lease is taken or renewed for one and a half
// periods each time the work runs, so when its holder dies another instance takes over within one
// and a half periods; a holder shutting down gives it up at once.
import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.js'
import { isDatabaseUnavailable } from './database.js'
import type { Database, Executor } from './types.js'

/**
 * Takes or renews the named lease until `expiresAt` when it is free, expired or already ours.
 * Whether we hold it now.
 */
export async function claimLease(
  db: Executor,
  name: string,
  holder: string,
  now: string,
  expiresAt: string,
): Promise<boolean> {
  const renewed = await db
    .updateTable('leases')
    .set({ holder, expires_at: expiresAt })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('holder', '=', holder), eb('expires_at', '<=', now)]))
    .executeTakeFirst()
  if (Number(renewed.numUpdatedRows) > 0) return true
  const inserted = await db
    .insertInto('leases')
    .values({ name, holder, expires_at: expiresAt })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst()
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0
}

/** Gives the lease up (shutdown), so another instance need not wait for it to expire. */
export async function releaseLease(db: Executor, name: string, holder: string): Promise<void> {
  await db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute()
}

export type TaskLog = Pick<FastifyBaseLogger, 'error' | 'warn'>

/** Logs a background failure: a database outage is expected to stop a run (the next catches up). */
export function logTaskFailure(log: TaskLog, what: string, error: unknown, context: object = {}): void {
  const level = isDatabaseUnavailable(error) ? 'warn' : 'error'
  log[level]({ err: error, ...context }, `${what} failed`)
}

export interface LeasedTaskOptions {
  /** The lease's name (one per kind of work). */
  name: string
  /** Seconds between runs; 0: this process never runs the work periodically. */
  periodSeconds: number
  /** What the log says failed ("live refresh"). */
  what: string
  /** The work, as of `now` (the task's clock when the period started). */
  run: (now: number) => Promise<void>
}

/** One kind of periodic work, run every period by whichever instance holds its lease. */
export class LeasedTask {
  /** Who this process is in the lease table. */
  readonly holder = randomUUID()
  private timer: NodeJS.Timeout | undefined
  private running: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly options: LeasedTaskOptions,
    private readonly log: TaskLog,
  ) {}

  start(): void {
    if (this.options.periodSeconds <= 0 || this.timer) return
    this.timer = setInterval(() => {
      this.running = this.tick()
    }, this.options.periodSeconds * 1000)
    this.timer.unref()
  }

  /** Stops the period, waits for a run under way and gives the lease up. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    await this.running
    await releaseLease(this.db, this.options.name, this.holder).catch(() => {})
  }

  /** One periodic run, only while this process holds the lease. Whether it ran here. */
  async tick(): Promise<boolean> {
    const now = this.clock()
    const period = Math.max(1, this.options.periodSeconds) * 1000
    try {
      const held = await claimLease(
        this.db,
        this.options.name,
        this.holder,
        new Date(now).toISOString(),
        new Date(now + period * 1.5).toISOString(),
      )
      if (!held) return false
      await this.options.run(now)
      return true
    } catch (error) {
      logTaskFailure(this.log, this.options.what, error)
      return false
    }
  }
}
