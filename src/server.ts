// Starting and stopping the service: config → database → migrations → listen; graceful shutdown.
import { type App, buildApp } from './app.js'
import type { Config } from './config.js'
import { createDatabase, type DatabaseHandle } from './db/database.js'
import { migrateToLatest, newerMigrations } from './db/migrator.js'
import type { DatabaseStats } from './ops/metrics.js'
import { type MetricsServer, startMetricsServer } from './ops/metrics-server.js'

export interface RunningServer {
  url: string
  app: App
  /** Where Prometheus scrapes this process; undefined when METRICS_PORT=0 or in a cluster worker. */
  metricsUrl: string | undefined
  /** Stops at once: no drain delay (tests, the CLI's one-off runs). */
  close(): Promise<void>
  /**
   * The shutdown of a signal: /readyz answers 503 at once, requests are still served for
   * SHUTDOWN_DELAY_MS while the load balancer notices, then the port closes and in-flight requests
   * and webhook deliveries finish. `hurry()` skips what is left of the delay.
   */
  shutdown(): Promise<void>
  hurry(): void
}

export interface ServerOptions {
  /** Apply pending migrations before listening (default). A cluster's primary does it once instead. */
  migrate?: boolean
  /** Serve /metrics on METRICS_PORT (default). Cluster workers leave it to the primary. */
  serveMetrics?: boolean
}

const REDACTED_HEADERS = ['authorization', 'cookie', 'x-api-key']
const REDACTED_BODY_FIELDS = ['password', 'secret', 'signingSecret', 'key', 'apiKey', 'token']

/**
 * JSON logs with the request id on every line (Fastify's `reqId`). Fastify's request serializer logs
 * method, URL, host and remote address, never headers or bodies, and nothing here logs a body; the
 * redaction covers whatever logs them anyway (an error carrying the request, a debugging line):
 * credentials in headers, and body fields that hold secrets.
 */
export function loggerOptions(level: string) {
  const headerPaths = ['req.headers', 'request.headers', 'headers'].flatMap((headers) =>
    REDACTED_HEADERS.map((name) => `${headers}["${name}"]`),
  )
  const bodyPaths = ['req.body', 'request.body', 'body'].flatMap((body) =>
    REDACTED_BODY_FIELDS.map((field) => `${body}.${field}`),
  )
  return {
    level,
    redact: {
      paths: [...headerPaths, 'res.headers["set-cookie"]', ...bodyPaths],
      censor: '[redacted]',
    },
  }
}

export async function startServer(config: Config, options: ServerOptions = {}): Promise<RunningServer> {
  const database = createDatabase(config.databaseUrl, {
    sqliteSynchronous: config.sqliteSynchronous,
    pgPoolSize: config.pgPoolSize,
  })
  if (options.migrate !== false) await migrateToLatest(database.db, database.dialect)
  const app = await buildApp({
    db: database.db,
    dialect: database.dialect,
    config,
    logger: loggerOptions(config.logLevel),
  })
  app.metrics.databaseStats = () => databaseStatsOf(database)
  const newer = await newerMigrations(database.db)
  if (newer.length > 0) {
    app.log.warn({ newer }, 'a newer build has migrated this database; serving on its schema unchanged')
  }
  app.metrics.collectProcessMetrics()
  const url = await app.listen({ host: config.host, port: config.port })
  app.log.info({ dialect: database.dialect, docs: `${url}/v1/public/docs` }, 'fieldservice is listening')
  const metricsServer = options.serveMetrics === false ? undefined : await serveMetrics(app, config)

  let stopping: Promise<void> | undefined
  let endDelay = () => {}
  const stop = async (delayMs: number) => {
    app.lifecycle.drain()
    if (delayMs > 0) {
      app.log.info({ delayMs }, 'shutting down: /readyz answers 503; still serving during the delay')
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs)
        endDelay = () => {
          clearTimeout(timer)
          resolve()
        }
      })
    }
    app.lifecycle.close()
    await closeHttp(app, config.shutdownTimeoutMs)
    await metricsServer?.close()
    await database.destroy()
  }
  return {
    url,
    app,
    metricsUrl: metricsServer?.url,
    close: () => {
      stopping ??= stop(0)
      return stopping
    },
    shutdown: () => {
      stopping ??= stop(config.shutdownDelayMs)
      return stopping
    },
    hurry: () => endDelay(),
  }
}

/**
 * Stops listening and lets in-flight requests finish (app.close(); the webhook dispatcher finishes
 * its deliveries in an onClose hook). Node closes the connections that are idle when the server
 * closes; a keep-alive connection whose request was still running becomes idle later, so idle ones
 * are closed again until the server is gone, and after `timeoutMs` every connection is cut.
 */
async function closeHttp(app: App, timeoutMs: number): Promise<void> {
  const reaper = setInterval(() => app.server.closeIdleConnections(), 100)
  const deadline = setTimeout(() => {
    app.log.warn(
      { timeoutMs },
      'shutdown: requests still running after the timeout; closing their connections',
    )
    app.server.closeAllConnections()
  }, timeoutMs)
  try {
    await app.close()
  } finally {
    clearInterval(reaper)
    clearTimeout(deadline)
  }
}

/**
 * The metrics port is secondary: if it is taken (another instance on the host, a test run), the
 * service still serves its API and says so in the log rather than refusing to start.
 */
async function serveMetrics(app: App, config: Config): Promise<MetricsServer | undefined> {
  if (config.metricsPort === 0) return undefined
  try {
    const server = await startMetricsServer({
      host: config.metricsHost,
      port: config.metricsPort,
      scrape: () => app.metrics.scrape(),
      onError: (error) => app.log.error({ err: error }, 'metrics scrape failed'),
    })
    app.log.info({ metrics: server.url }, 'metrics endpoint is listening')
    return server
  } catch (error) {
    app.log.error(
      { err: error, port: config.metricsPort },
      'metrics endpoint could not listen (METRICS_PORT=0 turns it off); serving without it',
    )
    return undefined
  }
}

/** Pool counters (PostgreSQL) or group-commit counters (SQLite) of the database handle. */
function databaseStatsOf(database: DatabaseHandle): DatabaseStats {
  return { pool: database.pool, groupCommit: database.groupCommit }
}

/**
 * SIGTERM/SIGINT start the graceful shutdown, then the process exits 0 (1 if closing failed). A
 * second signal (a second Ctrl-C) skips what is left of the drain delay; in-flight work still finishes.
 */
export function closeOnSignals(server: RunningServer): void {
  let received = false
  const stop = (signal: string) => {
    if (received) {
      server.app.log.info({ signal }, 'second signal: skipping the rest of the drain delay')
      server.hurry()
      return
    }
    received = true
    server.app.log.info({ signal }, 'shutting down')
    server.shutdown().then(
      () => process.exit(0),
      (error) => {
        process.stderr.write(`shutdown failed: ${error}\n`)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}
