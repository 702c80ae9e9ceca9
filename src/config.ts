// Every environment variable the service reads, typed, in one place.

export interface Config {
  /** `postgres://…` selects PostgreSQL; anything else is a SQLite file path (or `:memory:`). */
  databaseUrl: string
  host: string
  port: number
  logLevel: string
  /** SQLite `PRAGMA synchronous`: FULL survives power loss, NORMAL only process crashes. */
  sqliteSynchronous: 'FULL' | 'NORMAL'
  /** How long a resolved API key stays cached in memory; revocation takes effect within this. */
  authCacheTtlMs: number
  /** Per-key limit used when a key was created without one. */
  defaultRateLimitPerMinute: number
  /** Fixed at 1 MiB (DESIGN.md); larger bodies get 413 PAYLOAD_TOO_LARGE. */
  bodyLimitBytes: number
  pgPoolSize: number
  /** Redis for rate-limit counters shared by every instance; unset → counters per process. */
  redisUrl: string | undefined
  /** Prefix of every Redis key the rate limiter writes, so deployments (and tests) can share a Redis. */
  redisKeyPrefix: string
  /** Run the webhook dispatcher in this process (WEBHOOK_DISPATCHER=false turns it off). */
  webhookDispatcher: boolean
  /** Allow http:// and private, loopback and link-local webhook targets (development and tests). */
  webhookAllowPrivate: boolean
  /** One delivery attempt gets this long, connection to last byte read (spec: 10 s). */
  webhookTimeoutMs: number
  /** How often the dispatcher looks for events committed by other processes. */
  webhookPollIntervalMs: number
  /** Deliveries in flight at once, per process. */
  webhookConcurrency: number
  /** Execution logs (and dispatched outbox events) older than this are pruned. */
  webhookRetentionDays: number
  /** Prometheus metrics on a port of their own (not the API's); 0 turns the endpoint off. */
  metricsPort: number
  /** Interface of the metrics port: loopback unless the scraper runs on another host. */
  metricsHost: string
  /**
   * After SIGTERM/SIGINT, /readyz answers 503 but requests are still served this long, so a load
   * balancer stops sending new ones before the port closes.
   */
  shutdownDelayMs: number
  /** After the delay, how long in-flight requests and webhook deliveries get before connections are cut. */
  shutdownTimeoutMs: number
}

export const DEFAULT_REDIS_KEY_PREFIX = 'fieldservice:rl:'
export const DEFAULT_SQLITE_PATH = './data/fieldservice.db'

/** Webhook settings when their variables are unset (also what an app built without them uses). */
export const WEBHOOK_DEFAULTS = {
  webhookDispatcher: true,
  webhookAllowPrivate: false,
  webhookTimeoutMs: 10_000,
  webhookPollIntervalMs: 1000,
  webhookConcurrency: 16,
  webhookRetentionDays: 30,
} as const
export const MAX_BODY_BYTES = 1024 * 1024
/** The port Prometheus' node exporters conventionally leave to applications. */
export const DEFAULT_METRICS_PORT = 9464

function boolean(name: string, fallback: boolean, env: NodeJS.ProcessEnv): boolean {
  const raw = env[name]?.trim().toLowerCase()
  if (raw === undefined || raw === '') return fallback
  if (['true', '1', 'yes', 'on'].includes(raw)) return true
  if (['false', '0', 'no', 'off'].includes(raw)) return false
  throw new Error(`${name} must be true or false, got "${env[name]}"`)
}

function positive(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const value = integer(name, fallback, env)
  if (value === 0) throw new Error(`${name} must be at least 1`)
  return value
}

function integer(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`)
  }
  return value
}

function port(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const value = integer(name, fallback, env)
  if (value > 65535) throw new Error(`${name} must be a port number (0 to 65535), got "${env[name]}"`)
  return value
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const synchronous = (env.SQLITE_SYNCHRONOUS ?? 'FULL').toUpperCase()
  if (synchronous !== 'FULL' && synchronous !== 'NORMAL') {
    throw new Error(`SQLITE_SYNCHRONOUS must be FULL or NORMAL, got "${env.SQLITE_SYNCHRONOUS}"`)
  }
  return {
    databaseUrl: env.DATABASE_URL || DEFAULT_SQLITE_PATH,
    host: env.HOST || '127.0.0.1',
    port: integer('PORT', 3000, env),
    logLevel: env.LOG_LEVEL || 'info',
    sqliteSynchronous: synchronous,
    authCacheTtlMs: integer('AUTH_CACHE_TTL_MS', 4000, env),
    defaultRateLimitPerMinute: integer('DEFAULT_RATE_LIMIT_PER_MINUTE', 100, env),
    bodyLimitBytes: MAX_BODY_BYTES,
    pgPoolSize: integer('PG_POOL_SIZE', 10, env),
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX || DEFAULT_REDIS_KEY_PREFIX,
    webhookDispatcher: boolean('WEBHOOK_DISPATCHER', WEBHOOK_DEFAULTS.webhookDispatcher, env),
    webhookAllowPrivate: boolean('WEBHOOK_ALLOW_PRIVATE', WEBHOOK_DEFAULTS.webhookAllowPrivate, env),
    webhookTimeoutMs: positive('WEBHOOK_TIMEOUT_MS', WEBHOOK_DEFAULTS.webhookTimeoutMs, env),
    webhookPollIntervalMs: positive('WEBHOOK_POLL_INTERVAL_MS', WEBHOOK_DEFAULTS.webhookPollIntervalMs, env),
    webhookConcurrency: positive('WEBHOOK_CONCURRENCY', WEBHOOK_DEFAULTS.webhookConcurrency, env),
    webhookRetentionDays: positive('WEBHOOK_RETENTION_DAYS', WEBHOOK_DEFAULTS.webhookRetentionDays, env),
    metricsPort: port('METRICS_PORT', DEFAULT_METRICS_PORT, env),
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    shutdownDelayMs: integer('SHUTDOWN_DELAY_MS', 5000, env),
    // Webhook deliveries take up to WEBHOOK_TIMEOUT_MS; the default leaves them time to finish.
    shutdownTimeoutMs: positive('SHUTDOWN_TIMEOUT_MS', 30_000, env),
  }
}
