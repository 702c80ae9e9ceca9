// Liveness and readiness on the API port, for load balancers and orchestrators. No API key and no
// per-key limit (both live inside the API prefixes; app.ts puts these under the generous per-IP
// limit of keyless routes), and no OpenAPI entry (only prefixed routes are documented). Probes come every few seconds, so their request logs are kept to warnings.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../db/database.js'
import { createMigrator } from '../db/migrator.js'
import type { Database } from '../db/types.js'
import type { RateLimits } from '../http/rate-limit.js'
import type { Lifecycle } from './lifecycle.js'

export interface HealthDeps {
  db: Kysely<Database>
  dialect: Dialect
  lifecycle: Lifecycle
  rateLimits: RateLimits
  /** A database that takes longer than this to answer `SELECT 1` counts as down. */
  timeoutMs?: number
  log?: FastifyBaseLogger
}

type Check = { status: 'ok' } | { status: 'failed'; error: string } | { status: 'skipped' }
type DatabaseCheck = Check & { latencyMs?: number }
type MigrationsCheck = Check & { applied?: number; expected?: number; pending?: string[] }

const DEFAULT_TIMEOUT_MS = 2000

export function installHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  const readiness = new ReadinessChecks(deps)
  const routeOptions = { schema: { hide: true }, logLevel: 'warn' as const }

  // Alive: the event loop answers. Deliberately no database call: a database outage must not make
  // an orchestrator restart every instance.
  app.get('/healthz', routeOptions, (_request, reply) => {
    reply.send({ status: 'ok' })
  })

  app.get('/readyz', routeOptions, async (_request, reply) => {
    // Redis being unreachable is reported but never makes the instance unready: rate limits fall
    // back to per-process counters and the service keeps serving.
    const rateLimit = deps.rateLimits.status()
    if (deps.lifecycle.stopping) {
      const skipped = { status: 'skipped' } as const
      return reply.code(503).send({
        status: 'not_ready',
        shuttingDown: true,
        checks: { database: skipped, migrations: skipped, rateLimit },
      })
    }
    const [database, migrations] = await Promise.all([readiness.database(), readiness.migrations()])
    const ready = database.status === 'ok' && migrations.status === 'ok'
    return reply.code(ready ? 200 : 503).send({
      status: ready ? 'ready' : 'not_ready',
      shuttingDown: false,
      checks: { database, migrations, rateLimit },
    })
  })
}

class ReadinessChecks {
  private databaseInFlight: Promise<DatabaseCheck> | null = null
  private migrationsCurrent: MigrationsCheck | null = null

  constructor(private readonly deps: HealthDeps) {}

  /**
   * `SELECT 1` with a time limit. Probes that arrive while one is running share it, so a database
   * that hangs cannot pile up waiting queries in the pool.
   */
  database(): Promise<DatabaseCheck> {
    this.databaseInFlight ??= (async () => {
      const started = performance.now()
      try {
        await withTimeout(sql`select 1`.execute(this.deps.db), this.timeoutMs, 'database')
        return { status: 'ok' as const, latencyMs: Math.round(performance.now() - started) }
      } catch (error) {
        this.deps.log?.warn({ err: error }, 'readiness: database check failed')
        return { status: 'failed' as const, error: reasonOf(error) }
      } finally {
        this.databaseInFlight = null
      }
    })()
    return this.databaseInFlight
  }

  /**
   * Every migration this build knows is applied. Once true it stays true (a running process never
   * un-applies one), so later probes cost nothing; a newer build's extra migrations do not matter.
   */
  async migrations(): Promise<MigrationsCheck> {
    if (this.migrationsCurrent) return this.migrationsCurrent
    try {
      const migrations = await withTimeout(
        createMigrator(this.deps.db, this.deps.dialect).getMigrations(),
        this.timeoutMs,
        'migration status',
      )
      const pending = migrations.filter((m) => m.executedAt === undefined).map((m) => m.name)
      const counts = { applied: migrations.length - pending.length, expected: migrations.length }
      if (pending.length > 0) return { status: 'failed', error: 'migrations pending', pending, ...counts }
      this.migrationsCurrent = { status: 'ok', ...counts }
      return this.migrationsCurrent
    } catch (error) {
      this.deps.log?.warn({ err: error }, 'readiness: migration check failed')
      return { status: 'failed', error: reasonOf(error) }
    }
  }

  private get timeoutMs(): number {
    return this.deps.timeoutMs ?? DEFAULT_TIMEOUT_MS
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`${what} did not answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/**
 * /readyz answers anyone, so it names the kind of failure (a timeout, or the driver's error code
 * such as ECONNREFUSED or 57P01) and never a message that could carry a host name or a query; the
 * full error goes to the log.
 */
function reasonOf(error: unknown): string {
  if (error instanceof TimeoutError) return 'timeout'
  const code = (error as { code?: unknown })?.code
  return typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : 'error'
}

class TimeoutError extends Error {}
