// `fieldservice serve --workers N`: N worker processes (node:cluster) sharing the port, on
// PostgreSQL. The primary serves no HTTP API: it applies migrations once, forks the workers,
// restarts one that dies (with a back-off, so a crash loop does not spin), serves /metrics for all
// of them (prom-client's AggregatorRegistry collects each worker's registry over IPC), and on
// SIGTERM/SIGINT tells every worker to shut down gracefully and exits when they all have.
//
// Workers are forked with the primary's own command line, so a worker runs `serve` again and lands
// in runClusterWorker(): startServer without migrations and without a metrics port.
import cluster, { type Worker } from 'node:cluster'
import { AggregatorRegistry, Registry } from 'prom-client'
import type { Config } from '../config.js'
import { createDatabase, dialectOfUrl } from '../db/database.js'
import { migrateToLatest } from '../db/migrator.js'
import { registerCollector } from '../ops/collector.js'
import { type MetricsServer, startMetricsServer } from '../ops/metrics-server.js'
import { closeOnSignals, onStopSignals, type RunningServer, startServer } from '../server.js'

export const SQLITE_WORKERS_REFUSED =
  '--workers above 1 needs PostgreSQL: SQLite runs as one writer process, so the service runs as one ' +
  'process on it. Set DATABASE_URL=postgres://… to run several workers.'

/** IPC from the primary: start the graceful shutdown; `hurry` skips the rest of the drain delay. */
const SHUTDOWN = 'fieldservice:shutdown'
const HURRY = 'fieldservice:hurry'
const SLOT_ENV = 'FIELDSERVICE_WORKER_SLOT'

/** Restart back-off: doubles while workers keep dying young, back to the minimum after a stable run. */
const RESTART_MIN_MS = 500
const RESTART_MAX_MS = 30_000
const STABLE_AFTER_MS = 30_000
/** After the drain delay and shutdown timeout, a worker still running is killed. */
const KILL_GRACE_MS = 10_000

export function assertWorkersSupported(config: Config, workers: number): void {
  if (workers > 1 && dialectOfUrl(config.databaseUrl) !== 'postgres') throw new Error(SQLITE_WORKERS_REFUSED)
}

interface Slot {
  worker: Worker | undefined
  startedAt: number
  restartDelayMs: number
  restartTimer: NodeJS.Timeout | undefined
}

export async function runClusterPrimary(config: Config, workers: number): Promise<void> {
  assertWorkersSupported(config, workers)
  const log = jsonLogger(config.logLevel)
  const database = createDatabase(config.databaseUrl, { pgPoolSize: 1 })
  try {
    const applied = await migrateToLatest(database.db, database.dialect)
    if (applied.length > 0) log('info', 'migrations applied', { applied })
  } finally {
    await database.destroy()
  }

  const slots: Slot[] = Array.from({ length: workers }, () => ({
    worker: undefined,
    startedAt: 0,
    restartDelayMs: RESTART_MIN_MS,
    restartTimer: undefined,
  }))
  let restarts = 0
  let stopping = false
  let failedExits = 0

  const fork = (index: number) => {
    const slot = slots[index] as Slot
    slot.restartTimer = undefined
    slot.startedAt = Date.now()
    slot.worker = cluster.fork({ [SLOT_ENV]: String(index + 1) })
  }

  const metricsServer = await serveClusterMetrics(config, log, () => ({
    running: slots.filter((s) => s.worker && !s.worker.isDead()).length,
    restarts,
  }))

  cluster.on('exit', (worker, code, signal) => {
    const index = slots.findIndex((s) => s.worker === worker)
    const slot = slots[index]
    if (!slot) return
    slot.worker = undefined
    if (stopping) {
      if (code !== 0) failedExits += 1
      if (slots.every((s) => s.worker === undefined)) finish()
      return
    }
    if (Date.now() - slot.startedAt >= STABLE_AFTER_MS) slot.restartDelayMs = RESTART_MIN_MS
    const delayMs = slot.restartDelayMs
    slot.restartDelayMs = Math.min(RESTART_MAX_MS, delayMs * 2)
    restarts += 1
    log('warn', 'worker died; restarting it', {
      worker: index + 1,
      workerPid: worker.process.pid,
      code,
      signal,
      restartInMs: delayMs,
    })
    slot.restartTimer = setTimeout(() => fork(index), delayMs)
  })

  const finish = () => {
    void metricsServer?.close().finally(() => {
      log('info', 'all workers stopped', { failedExits })
      process.exit(failedExits === 0 ? 0 : 1)
    })
  }

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    log('info', 'shutting down the workers', { signal })
    for (const slot of slots) clearTimeout(slot.restartTimer)
    const live = slots.filter((s) => s.worker)
    if (live.length === 0) return finish()
    for (const slot of live) slot.worker?.send(SHUTDOWN)
    const killAfter = config.shutdownDelayMs + config.shutdownTimeoutMs + KILL_GRACE_MS
    setTimeout(() => {
      for (const slot of slots) {
        if (!slot.worker) continue
        log('error', 'worker did not stop in time; killing it', { workerPid: slot.worker.process.pid })
        slot.worker.process.kill('SIGKILL')
      }
    }, killAfter).unref()
  }
  onStopSignals(stop, () => {
    for (const slot of slots) slot.worker?.send(HURRY)
  })

  for (let i = 0; i < workers; i++) fork(i)
  log('info', 'fieldservice cluster started', {
    workers,
    port: config.port,
    metrics: metricsServer?.url,
  })
}

/** In a forked worker: serve until the primary (or a signal) says stop. */
export async function runClusterWorker(config: Config): Promise<void> {
  // Answer the primary's metric requests from the start (an empty registry until the app is up).
  new AggregatorRegistry()
  let server: RunningServer | undefined
  let stopRequested = false
  let hurryRequested = false
  const shutdown = () => {
    stopRequested = true
    server?.shutdown().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  const hurry = () => {
    hurryRequested = true
    server?.hurry()
  }
  process.on('message', (message) => {
    if (message === SHUTDOWN) shutdown()
    else if (message === HURRY) hurry()
  })
  // The primary is gone (killed): nobody hands this worker connections any more; stop now.
  process.on('disconnect', () => {
    shutdown()
    hurry()
  })

  server = await startServer(config, { migrate: false, serveMetrics: false })
  const slot = process.env[SLOT_ENV] ?? String(cluster.worker?.id ?? 0)
  registerCollector(server.app.metrics.registry, {
    name: 'fieldservice_worker_info',
    help: 'One series per running cluster worker: its slot and process id',
    type: 'gauge',
    values: () => [{ labels: { worker: slot, pid: String(process.pid) }, value: 1 }],
  })
  AggregatorRegistry.setRegistries([server.app.metrics.registry])
  closeOnSignals(server)
  if (stopRequested) shutdown()
  if (hurryRequested) hurry()
}

async function serveClusterMetrics(
  config: Config,
  log: JsonLogger,
  workers: () => { running: number; restarts: number },
): Promise<MetricsServer | undefined> {
  if (config.metricsPort === 0) return undefined
  const own = new Registry()
  registerCollector(own, {
    name: 'fieldservice_cluster_workers',
    help: 'Worker processes running under this primary',
    type: 'gauge',
    values: () => [{ labels: {}, value: workers().running }],
  })
  registerCollector(own, {
    name: 'fieldservice_cluster_worker_restarts_total',
    help: 'Workers that died unexpectedly and were restarted',
    type: 'counter',
    values: () => [{ labels: {}, value: workers().restarts }],
  })
  const aggregator = new AggregatorRegistry()
  try {
    return await startMetricsServer({
      host: config.metricsHost,
      port: config.metricsPort,
      // The workers' metrics summed per series (gauges such as the outbox lag take the maximum),
      // after the primary's own: the names never overlap, so the two texts simply follow each other.
      scrape: async () => {
        const [primary, fromWorkers] = await Promise.all([own.metrics(), aggregator.clusterMetrics()])
        return { contentType: own.contentType, body: `${primary}\n${fromWorkers}` }
      },
      onError: (error) => log('error', 'metrics scrape failed', { err: String(error) }),
    })
  } catch (error) {
    log('error', 'metrics endpoint could not listen; serving without it', {
      err: String(error),
      port: config.metricsPort,
    })
    return undefined
  }
}

type JsonLogger = (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void

/** The primary has no Fastify app: pino-shaped JSON lines, so its logs read like the workers'. */
function jsonLogger(level: string): JsonLogger {
  const levels = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity }
  const threshold = levels[level as keyof typeof levels] ?? 30
  return (at, msg, fields = {}) => {
    if (levels[at] < threshold) return
    const line = { level: levels[at], time: Date.now(), pid: process.pid, role: 'primary', ...fields, msg }
    process.stdout.write(`${JSON.stringify(line)}\n`)
  }
}
