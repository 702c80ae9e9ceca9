// Keeps the announced ETAs up to date: every LIVE_REFRESH_SECONDS the instance holding the lease
// recomputes every shift under way (and prunes old positions); any instance recomputes an
// organisation at once when one of its jobs or positions is written (wake). JOB_ETA_CHANGED is decided
// under each job's lock (service.ts), so even a refresh running on two instances announces once.
import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.js'
import { LeasedTask, logTaskFailure, type TaskLog } from '../../db/leases.js'
import type { Database } from '../../db/types.js'
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
  /** The periodic refresh, on the instance holding the lease. */
  private readonly periodic: LeasedTask
  private readonly pending = new Set<string>()
  /** The recomputation asked for by wakes and not yet done, if any. */
  private scheduled: Promise<void> | null = null
  private running: Promise<void> = Promise.resolve()

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    readonly settings: LiveSettings,
    private readonly log: TaskLog,
  ) {
    this.periodic = new LeasedTask(
      db,
      clock,
      {
        name: LIVE_LEASE,
        periodSeconds: settings.liveRefreshSeconds,
        what: 'live refresh',
        run: (now) => this.refreshAll(now),
      },
      log,
    )
  }

  start(): void {
    this.periodic.start()
  }

  async close(): Promise<void> {
    await this.periodic.close()
    await this.settled()
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

  /** The periodic refresh, if this process holds the lease (tests call it). Whether it ran here. */
  tick(): Promise<boolean> {
    return this.periodic.tick()
  }

  /** Every shift under way, and the positions past their retention pruned. */
  private async refreshAll(now: number): Promise<void> {
    await prunePositions(this.db, this.settings.positionRetentionDays, now)
    for (const organisationId of await organisationsOnShift(this.db, now)) {
      await refreshEtas(this.db, organisationId, { thresholdMinutes: this.settings.etaChangeMinutes }, now)
    }
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
        logTaskFailure(this.log, 'live refresh', error, { organisationId })
      }
    }
  }
}
