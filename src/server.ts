// Starting and stopping the service: config → database → migrations → listen; graceful shutdown.
import type { FastifyRequest } from 'fastify'
import { type App, buildApp } from './app.js'
import type { Config } from './config.js'
import { createDatabase, type DatabaseHandle } from './db/database.js'
import { migrateToLatest, newerMigrations } from './db/migrator.js'
import { acquireServeLock } from './db/serve-lock.js'
import { DEFAULT_DASHBOARD_DIR } from './http/dashboard.js'
import { carriesSecret } from './modules/auth/index.js'
import { limitHeapGrowth } from './ops/heap-growth.js'
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
  /**
   * Shut down gracefully on SIGINT/SIGTERM (see closeOnSignals), with the handlers in place before
   * the port opens: a Ctrl-C that arrives as soon as the first request is answered is still graceful.
   */
  closeOnSignals?: boolean
  /**
   * Work that runs in this process once the port is open (`demo --simulate`): given the app and its
   * database, it answers how to stop it, which shutdown does before the database closes.
   */
  alongside?: (running: { app: App; db: DatabaseHandle['db']; url: string }) => { close(): Promise<void> }
}

const REDACTED_HEADERS = ['authorization', 'cookie', 'x-api-key', 'x-csrf-token']
const REDACTED_BODY_FIELDS = ['password', 'secret', 'signingSecret', 'key', 'apiKey', 'token', 'csrfToken']
/** Query parameters whose values are not logged: named like a credential. */
const SECRET_QUERY_NAME = /key|token|secret|passw|signature|auth|credential|session|cookie/i
const REDACTED = '[redacted]'

function decodeQueryPart(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '))
  } catch {
    return part
  }
}

/**
 * The URL as logged: the value of every query parameter named like a secret, or holding one of our
 * keys or secrets whatever its name, is replaced by `[redacted]`. Path and other parameters are kept.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?')
  if (start === -1) return url
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=')
      const name = equals === -1 ? pair : pair.slice(0, equals)
      const value = equals === -1 ? '' : pair.slice(equals + 1)
      const secret = SECRET_QUERY_NAME.test(decodeQueryPart(name)) || carriesSecret(decodeQueryPart(value))
      return secret && value !== '' ? `${name}=${REDACTED}` : pair
    })
  return `${url.slice(0, start)}?${query.join('&')}`
}

/**
 * JSON logs with the request id on every line (Fastify's `reqId`). The request serializer is
 * Fastify's own (method, URL, host, remote address; never headers or bodies) with secrets taken out
 * of the URL's query; nothing here logs a body. The redaction covers whatever logs them anyway (an
 * error carrying the request, a debugging line): credentials in headers, and body fields that hold
 * secrets.
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
      censor: REDACTED,
    },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        version: [request.headers?.['accept-version']].flat()[0],
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  }
}

export async function startServer(config: Config, options: ServerOptions = {}): Promise<RunningServer> {
  limitHeapGrowth(config.heapGrowthPercent)
  // Before the database is opened (and migrated): a second server on a SQLite file stops here.
  const lock = acquireServeLock(config.databaseUrl)
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
    dashboardDir: DEFAULT_DASHBOARD_DIR,
  })
  app.metrics.databaseStats = () => databaseStatsOf(database)
  const newer = await newerMigrations(database.db)
  if (newer.length > 0) {
    app.log.warn({ newer }, 'a newer build has migrated this database; serving on its schema unchanged')
  }
  app.metrics.collectProcessMetrics()
  const signals = options.closeOnSignals ? closeOnSignals() : undefined
  const url = await app.listen({ host: config.host, port: config.port })
  app.log.info(
    { dialect: database.dialect, dashboard: `${url}/`, docs: `${url}/v1/public/docs` },
    'fieldservice is listening',
  )
  const metricsServer = options.serveMetrics === false ? undefined : await serveMetrics(app, config)
  const companion = options.alongside?.({ app, db: database.db, url })

  let stopping: Promise<void> | undefined
  let endDelay = () => {}
  const stop = async (delayMs: number) => {
    app.lifecycle.drain()
    await companion?.close()
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
    lock?.release()
  }
  const server: RunningServer = {
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
  signals?.attach(server)
  return server
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
 * The same signal again within this is the same Ctrl-C delivered twice, not a second press: a
 * terminal signals its whole foreground process group, and `npm run` forwards the signal to its
 * child once more (through tsx, ≈ 30 ms later).
 */
export const REPEATED_SIGNAL_MS = 1000

/**
 * Calls `first` on the first SIGINT or SIGTERM and `again` on each later one, ignoring a repeat of
 * the signal that arrives within REPEATED_SIGNAL_MS of it.
 */
export function onStopSignals(
  first: (signal: NodeJS.Signals) => void,
  again: (signal: NodeJS.Signals) => void,
): void {
  let last: { signal: NodeJS.Signals; at: number } | undefined
  const handle = (signal: NodeJS.Signals) => {
    const now = Date.now()
    if (last === undefined) {
      last = { signal, at: now }
      first(signal)
    } else if (signal !== last.signal || now - last.at >= REPEATED_SIGNAL_MS) {
      last = { signal, at: now }
      again(signal)
    }
  }
  process.on('SIGINT', handle)
  process.on('SIGTERM', handle)
}

/**
 * SIGTERM/SIGINT start the graceful shutdown, then the process exits 0 (1 if closing failed). A
 * second signal (a second Ctrl-C) skips what is left of the drain delay; in-flight work still finishes.
 * Without a server yet, a signal waits for the one `attach` hands over (the port is opening).
 */
export function closeOnSignals(server?: RunningServer): { attach(server: RunningServer): void } {
  let target = server
  let early: NodeJS.Signals | undefined
  const begin = (running: RunningServer, signal: NodeJS.Signals) => {
    running.app.log.info({ signal }, 'shutting down')
    running.shutdown().then(
      () => process.exit(0),
      (error) => {
        process.stderr.write(`shutdown failed: ${error}\n`)
        process.exit(1)
      },
    )
  }
  onStopSignals(
    (signal) => {
      if (target) begin(target, signal)
      else early = signal
    },
    (signal) => {
      if (!target) return
      target.app.log.info({ signal }, 'second signal: skipping the rest of the drain delay')
      target.hurry()
    },
  )
  return {
    attach(running) {
      target = running
      if (early) begin(running, early)
    },
  }
}
