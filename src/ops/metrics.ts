// The service's Prometheus metrics: one registry per app (tests build many apps in one process),
// served on a port of its own by metrics-server.ts. Everything except request counting is read at
// scrape time, so it costs nothing between scrapes.
import type { Kysely } from 'kysely'
import { collectDefaultMetrics, Registry } from 'prom-client'
import type { Database } from '../db/types.js'
import type { RateLimitStatus } from '../http/rate-limit.js'
import { registerCollector, type SampleValue } from './collector.js'
import { readOutboxLag } from './outbox-lag.js'
import { RequestMetrics } from './request-metrics.js'

/** What the database layer can tell about itself; each part only where that engine has it. */
export interface DatabaseStats {
  /** PostgreSQL: the pg.Pool counters. */
  pool?: { totalCount: number; idleCount: number; waitingCount: number }
  /** SQLite: group commit (db/sqlite/group-commit.ts): COMMITs issued and the transactions they carried. */
  groupCommit?: { commits: number; transactions: number }
}

export interface MetricsSources {
  db: Kysely<Database>
  rateLimitStatus(): RateLimitStatus
  webhookResults(): Readonly<Record<'SUCCESS' | 'FAILED', number>>
}

/** How long the outbox query may take before a scrape goes on without it. */
const OUTBOX_QUERY_TIMEOUT_MS = 2000

export class ServiceMetrics {
  readonly registry = new Registry()
  readonly requests = new RequestMetrics()
  /** Set by whoever owns the database handle (server.ts); read at scrape time. */
  databaseStats: () => DatabaseStats | undefined = () => undefined
  private processMetrics = false

  constructor(private readonly sources: MetricsSources) {
    this.requests.register(this.registry)
    this.registerOutboxLag()
    this.registerWebhookDeliveries()
    this.registerRateLimitStore()
    this.registerDatabase()
  }

  /** Node's process metrics (CPU, memory, event loop lag, GC): once, and only in a real server. */
  collectProcessMetrics(): void {
    if (this.processMetrics) return
    this.processMetrics = true
    collectDefaultMetrics({ register: this.registry })
  }

  /** The Prometheus text exposition of everything in this registry. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() }
  }

  private registerOutboxLag(): void {
    // Both gauges come from one query per scrape. Every cluster worker reads the same table, so the
    // primary keeps the maximum rather than the sum.
    let pending: Promise<SampleValue[][]> | null = null
    const read = () => {
      pending ??= readOutboxLag(this.sources.db, OUTBOX_QUERY_TIMEOUT_MS)
        .then(({ pendingEvents, oldestAgeSeconds }) => [
          [{ labels: {}, value: pendingEvents }],
          [{ labels: {}, value: oldestAgeSeconds }],
        ])
        // A scrape during a database outage still answers, without these two series.
        .catch(() => [[], []])
        .finally(() => {
          pending = null
        })
      return pending
    }
    registerCollector(this.registry, {
      name: 'fieldservice_outbox_pending_events',
      help: 'Committed domain events not yet claimed by a webhook dispatcher (counted up to 100000)',
      type: 'gauge',
      aggregator: 'max',
      values: async () => (await read())[0] ?? [],
    })
    registerCollector(this.registry, {
      name: 'fieldservice_outbox_oldest_pending_age_seconds',
      help: 'Age of the oldest event not yet claimed by a webhook dispatcher; 0 when none is waiting',
      type: 'gauge',
      aggregator: 'max',
      values: async () => (await read())[1] ?? [],
    })
  }

  private registerWebhookDeliveries(): void {
    registerCollector(this.registry, {
      name: 'fieldservice_webhook_deliveries_total',
      help: 'Webhook delivery attempts finished by this process (redeliveries included), by result',
      type: 'counter',
      values: () => {
        const results = this.sources.webhookResults()
        return [
          { labels: { result: 'SUCCESS' }, value: results.SUCCESS },
          { labels: { result: 'FAILED' }, value: results.FAILED },
        ]
      },
    })
  }

  private registerRateLimitStore(): void {
    registerCollector(this.registry, {
      name: 'fieldservice_rate_limit_redis_connected',
      help: '1 when rate-limit counters are shared through Redis right now, else 0',
      type: 'gauge',
      aggregator: 'min',
      values: () => [{ labels: {}, value: this.sources.rateLimitStatus().redis === 'connected' ? 1 : 0 }],
    })
    registerCollector(this.registry, {
      name: 'fieldservice_rate_limit_fallback_active',
      help: '1 when REDIS_URL is set but Redis is unreachable, so limits are counted per process',
      type: 'gauge',
      aggregator: 'max',
      values: () => [{ labels: {}, value: this.sources.rateLimitStatus().redis === 'unreachable' ? 1 : 0 }],
    })
  }

  private registerDatabase(): void {
    registerCollector(this.registry, {
      name: 'fieldservice_db_pool_connections',
      help: 'PostgreSQL pool connections of this process, by state (total = open, idle = unused)',
      type: 'gauge',
      values: () => {
        const pool = this.databaseStats()?.pool
        if (!pool) return []
        return [
          { labels: { state: 'total' }, value: pool.totalCount },
          { labels: { state: 'idle' }, value: pool.idleCount },
        ]
      },
    })
    registerCollector(this.registry, {
      name: 'fieldservice_db_pool_waiting_requests',
      help: 'Queries waiting for a free PostgreSQL pool connection',
      type: 'gauge',
      values: () => {
        const pool = this.databaseStats()?.pool
        return pool ? [{ labels: {}, value: pool.waitingCount }] : []
      },
    })
    registerCollector(this.registry, {
      name: 'fieldservice_sqlite_commits_total',
      help: 'SQLite COMMITs issued (group commit: several write transactions can share one)',
      type: 'counter',
      values: () => {
        const stats = this.databaseStats()?.groupCommit
        return stats ? [{ labels: {}, value: stats.commits }] : []
      },
    })
    registerCollector(this.registry, {
      name: 'fieldservice_sqlite_committed_transactions_total',
      help: 'SQLite write transactions made durable by those COMMITs',
      type: 'counter',
      values: () => {
        const stats = this.databaseStats()?.groupCommit
        return stats ? [{ labels: {}, value: stats.transactions }] : []
      },
    })
  }
}
