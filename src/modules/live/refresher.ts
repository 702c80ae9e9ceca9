// Keeps the announced ETAs up to date: every LIVE_REFRESH_SECONDS the instance holding the lease
// recomputes every shift under way (and prunes old positions); any instance recomputes an
// organisation at once when one of its jobs or positions is written (wake). JOB_ETA_CHANGED is decided
// under each job's lock (service.ts), so even a refresh running on two instances announces once.
import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.js'
import { isDatabaseUnavailable } from '../../db/database.js'
import type { Database } from '../../db/types.js'
import * as live from './repository.js'
import { organisationsOnShift, prunePositions, refreshEtas } from './service.js'

export const LIVE_LEASE = 'live-refresh'
/** Job writes this close together share one recomputation of their organisation's ETAs. */
const WAKE_DELAY_MS = 200

export interface LiveSettings {
  etaChangeMinutes: number
  positionRetentionDays: number
  /** 0: this process never runs the periodic refresh (it still recomputes on wake). */
  liveRefreshSeconds: number
}

export class LiveRefresher {
  /** Who this process is in the lease table. */
  readonly holder = randomUUID()
  private timer: NodeJS.Timeout | undefined
  private readonly pending = new Set<string>()
  /** The recomputation asked for by wakes and not yet done, if any. */
  private scheduled: Promise<void> | null = null
  private running: Promise<void> = Promise.resolve()

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    readonly settings: LiveSettings,
    private readonly log: Pick<FastifyBaseLogger, 'error' | 'warn'>,
  ) {}

  start(): void {
    if (this.settings.liveRefreshSeconds <= 0 || this.timer) return
    this.timer = setInterval(() => void this.tick(), this.settings.liveRefreshSeconds * 1000)
    this.timer.unref()
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = undefined
    await this.settled()
    await live.releaseLease(this.db, LIVE_LEASE, this.holder).catch(() => {})
  }

  /**
   * Recompute this organisation's shifts under way soon: writes within WAKE_DELAY_MS of each other
   * share one recomputation, so a burst of job writes costs one, not one each.
   */
  wake(organisationId: string): void {
    this.pending.add(organisationId)
    this.scheduled ??= new Promise<void>((resolve) => {
      setTimeout(() => {
        this.scheduled = null
        // One recomputation at a time: a burst arriving while one runs goes after it.
        this.running = this.running.then(() => this.refreshPending())
        void this.running.then(resolve)
      }, WAKE_DELAY_MS).unref()
    })
  }

  /** Resolves once every recomputation asked for so far has finished (tests, shutdown). */
  async settled(): Promise<void> {
    for (;;) {
      if (this.scheduled) await this.scheduled
      const running = this.running
      await running
      if (!this.scheduled && running === this.running) return
    }
  }

  /**
   * The periodic refresh: only while this process holds the lease (taken or renewed for one and a
   * half periods, so another instance takes over if this one dies). Whether it ran here.
   */
  async tick(): Promise<boolean> {
    const now = this.clock()
    const period = Math.max(1, this.settings.liveRefreshSeconds) * 1000
    try {
      const held = await live.claimLease(
        this.db,
        LIVE_LEASE,
        this.holder,
        new Date(now).toISOString(),
        new Date(now + period * 1.5).toISOString(),
      )
      if (!held) return false
      await prunePositions(this.db, this.settings.positionRetentionDays, now)
      for (const organisationId of await organisationsOnShift(this.db, now)) {
        await refreshEtas(this.db, organisationId, { thresholdMinutes: this.settings.etaChangeMinutes }, now)
      }
      return true
    } catch (error) {
      this.logFailure(error, {})
      return false
    }
  }

  /** A database outage is expected to stop a refresh (the next one catches up): warn, not error. */
  private logFailure(error: unknown, context: { organisationId?: string }): void {
    const level = isDatabaseUnavailable(error) ? 'warn' : 'error'
    this.log[level]({ err: error, ...context }, 'live refresh failed')
  }

  private async refreshPending(): Promise<void> {
    for (const organisationId of [...this.pending]) {
      this.pending.delete(organisationId)
      try {
        await refreshEtas(
          this.db,
          organisationId,
          { thresholdMinutes: this.settings.etaChangeMinutes },
          this.clock(),
        )
      } catch (error) {
        this.logFailure(error, { organisationId })
      }
    }
  }
}
