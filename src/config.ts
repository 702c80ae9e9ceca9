// Every environment variable the service reads, typed, in one place.
import { DEFAULT_CHANGE_SETTLE_MS } from './http/list-order.js'
import { SERVER_LIMIT_DEFAULTS, type ServerLimits } from './http/server-limits.js'
import { parseS3StoreUrl } from './modules/attachments/s3-store.js'

export interface Config extends ServerLimits {
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
  /** Requests per minute and client address to the routes that need no key; 0 turns the limit off. */
  ipRateLimitPerMinute: number
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (Fastify's `trustProxy`): false
   * (the peer is the client), true (any: only behind a proxy that overwrites the header), a hop
   * count, or a comma-separated list of addresses and CIDR ranges.
   */
  trustProxy: boolean | number | string
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
  /**
   * Lists read with `updatedSince` and the event feed hold back what changed within this many
   * milliseconds, until every transaction stamped earlier has committed (CHANGE_FEED_SETTLE_MS).
   */
  changeSettleMs: number
  /** Route plans this process solves at once, each in a worker thread (PLAN_WORKERS); 0: none here. */
  planWorkers: number
  /** QUEUED and RUNNING route plans one organisation may have at once (ROUTE_PLAN_QUEUE_MAX); 0: no cap. */
  routePlanQueueMax: number
  /** Workers' positions are kept this many days, then pruned (POSITION_RETENTION_DAYS). */
  positionRetentionDays: number
  /** JOB_ETA_CHANGED when a stop's predicted arrival moves by more than this since the last one (ETA_CHANGE_MINUTES). */
  etaChangeMinutes: number
  /** Recompute the ETAs of shifts in progress this often, on one instance at a time (LIVE_REFRESH_SECONDS); 0: never here. */
  liveRefreshSeconds: number
  /** Occurrences of job series become jobs this many days ahead, today included (SERIES_HORIZON_DAYS). */
  seriesHorizonDays: number
  /** Generate series' jobs this often, on one instance at a time (SERIES_GENERATE_SECONDS); 0: never here. */
  seriesGenerateSeconds: number
  /**
   * Where attachment content is kept (ATTACHMENT_STORE): unset, the database (chunks); an
   * `s3://bucket/prefix?endpoint=…&region=…` URL, that S3-compatible bucket.
   */
  attachmentStore: string | undefined
  /** Bytes of attachments an organisation may keep unless it has its own quota (ATTACHMENT_QUOTA_BYTES). */
  attachmentQuotaBytes: number
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
  /**
   * How far the JavaScript heap may grow past what survived the last full collection before the next
   * one, in percent (HEAP_GROWTH_PERCENT; 100 = twice the live size); 0 leaves it to V8.
   */
  heapGrowthPercent: number
  /** A dashboard session without a request for this long has ended (SESSION_IDLE_MINUTES). */
  sessionIdleMs: number
  /** A WORKER's session without a request for this long has ended (WORKER_SESSION_IDLE_MINUTES). */
  workerSessionIdleMs: number
  /** A dashboard session ends this long after sign-in, however active (SESSION_MAX_HOURS). */
  sessionMaxAgeMs: number
  /** Requests per minute of one signed-in user, all their sessions together. */
  sessionRateLimitPerMinute: number
  /**
   * Failed sign-ins allowed within the window (sessions/sign-in-limits.ts): for one email from one
   * client address, from one address, and for one email from browsers it does not know; a browser
   * with the email's device cookie is limited by its own failures only.
   */
  signInMaxFailuresPerAccountAndIp: number
  signInMaxFailuresPerIp: number
  signInMaxFailuresPerAccount: number
  signInMaxFailuresPerDevice: number
  signInWindowMs: number
  /**
   * Where customers reach this service (PUBLIC_BASE_URL, no trailing slash): tracking links are
   * `<PUBLIC_BASE_URL>/t/<token>`. Default: the listening address.
   */
  publicBaseUrl: string
  /** The SMTP server customer emails go through (SMTP_URL, smtp:// or smtps://); unset: none are sent. */
  smtpUrl: string | undefined
  /** The From of customer emails (SMTP_FROM). */
  smtpFrom: string
  /**
   * Base URL of a Nominatim or Photon server for the dashboard's address lookup (GEOCODER_URL); unset:
   * none, coordinates are entered by hand or on the map. GEOCODER_FORMAT (nominatim | photon) says
   * which it is; unset, it is detected from the answers.
   */
  geocoderUrl: string | undefined
  geocoderFormat: 'nominatim' | 'photon' | undefined
  /**
   * Base URL of an OSRM-compatible table service for road travel times (ROUTING_OSRM_URL); unset:
   * straight lines (great-circle × the organisation's detour factor at its speed).
   */
  routingOsrmUrl: string | undefined
  /** The server's `--max-table-size` (ROUTING_OSRM_MAX_TABLE): larger tables are asked for in blocks. */
  routingOsrmMaxTable: number
  /** How long one table request may take before straight lines are used (ROUTING_OSRM_TIMEOUT_MS). */
  routingOsrmTimeoutMs: number
}

export const DEFAULT_REDIS_KEY_PREFIX = 'fieldservice:rl:'
/** Requests per minute and address to the routes that need no key (documents, probes, 404s). */
export const DEFAULT_IP_RATE_LIMIT_PER_MINUTE = 600
/** Where tracking links point when nothing says (an app built without PUBLIC_BASE_URL, e.g. in tests). */
export const DEFAULT_PUBLIC_BASE_URL = 'http://127.0.0.1:3000'
/** The From of customer emails when SMTP_FROM is unset. */
export const DEFAULT_SMTP_FROM = 'fieldservice <no-reply@localhost>'
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
/** Dashboard sessions and sign-in limits when their variables are unset. */
export const SESSION_DEFAULTS = {
  sessionIdleMs: 60 * 60_000,
  workerSessionIdleMs: 12 * 60 * 60_000,
  sessionMaxAgeMs: 12 * 3_600_000,
  sessionRateLimitPerMinute: 600,
  signInMaxFailuresPerAccountAndIp: 10,
  signInMaxFailuresPerIp: 100,
  // Above the per-address limit, so guessing from one address alone never reaches it.
  signInMaxFailuresPerAccount: 50,
  signInMaxFailuresPerDevice: 10,
  signInWindowMs: 15 * 60_000,
} as const
export const MAX_BODY_BYTES = 1024 * 1024
/** The port Prometheus' node exporters conventionally leave to applications. */
export const DEFAULT_METRICS_PORT = 9464
/** V8's heap may grow to twice what survived the last full collection (src/ops/heap-growth.ts). */
export const DEFAULT_HEAP_GROWTH_PERCENT = 100
/**
 * Route plans one organisation may have queued or running: a day's work for a few depots and a
 * rerun or two, while fifty of one organisation's cannot fill the queue in front of everyone else's.
 */
export const DEFAULT_ROUTE_PLAN_QUEUE_MAX = 10
/** The live day (issue 29): positions kept a week; a quarter of an hour is worth telling a customer. */
export const LIVE_DEFAULTS = {
  positionRetentionDays: 7,
  etaChangeMinutes: 15,
  liveRefreshSeconds: 60,
} as const
/**
 * Recurring job series (issue 31): four weeks of jobs ahead, the horizon moved on every hour (a new
 * day's occurrences appear within the hour of its turn).
 */
export const SERIES_DEFAULTS = {
  seriesHorizonDays: 28,
  seriesGenerateSeconds: 3600,
} as const

/** Road travel (issue 32): OSRM's default `--max-table-size`; a plan never waits long for a dead server. */
export const OSRM_DEFAULTS = { maxTable: 100, timeoutMs: 2000 } as const

/** Attachments (issue 31): 5 GiB per organisation unless it has its own quota. */
export const DEFAULT_ATTACHMENT_QUOTA_BYTES = 5 * 1024 ** 3

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

/** TRUST_PROXY: unset or false, true, a number of hops, or addresses and ranges (`10.0.0.0/8,loopback`). */
function trustProxy(env: NodeJS.ProcessEnv): boolean | number | string {
  const raw = env.TRUST_PROXY?.trim() ?? ''
  if (raw === '' || raw.toLowerCase() === 'false') return false
  if (raw.toLowerCase() === 'true') return true
  if (/^\d+$/.test(raw)) return Number(raw)
  if (!/^[\w.:/,\s]+$/.test(raw)) {
    throw new Error(`TRUST_PROXY must be true, false, a hop count or addresses and CIDR ranges, got "${raw}"`)
  }
  return raw
}

/** HTTP_*: see server-limits.ts for what each bounds. */
function serverLimits(env: NodeJS.ProcessEnv): ServerLimits {
  const defaults = SERVER_LIMIT_DEFAULTS
  const limits = {
    httpHeadersTimeoutMs: positive('HTTP_HEADERS_TIMEOUT_MS', defaults.httpHeadersTimeoutMs, env),
    httpRequestTimeoutMs: positive('HTTP_REQUEST_TIMEOUT_MS', defaults.httpRequestTimeoutMs, env),
    httpKeepAliveTimeoutMs: positive('HTTP_KEEP_ALIVE_TIMEOUT_MS', defaults.httpKeepAliveTimeoutMs, env),
    httpIdleTimeoutMs: positive('HTTP_IDLE_TIMEOUT_MS', defaults.httpIdleTimeoutMs, env),
    httpMaxConnections: integer('HTTP_MAX_CONNECTIONS', defaults.httpMaxConnections, env),
  }
  // Node refuses a headers timeout longer than the request timeout (the request includes its headers).
  if (limits.httpHeadersTimeoutMs > limits.httpRequestTimeoutMs) {
    throw new Error(
      `HTTP_HEADERS_TIMEOUT_MS (${limits.httpHeadersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS ` +
        `(${limits.httpRequestTimeoutMs}): the request includes its headers`,
    )
  }
  return limits
}

/** PUBLIC_BASE_URL: an http(s) origin, maybe with a path; a trailing slash is dropped. */
export function publicBaseUrl(raw: string | undefined, host: string, listenPort: number): string {
  if (raw === undefined || raw.trim() === '') {
    const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
    return `http://${shown.includes(':') ? `[${shown}]` : shown}:${listenPort}`
  }
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    throw new Error(`PUBLIC_BASE_URL must be an absolute http(s) URL, got "${raw}"`)
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw new Error(`PUBLIC_BASE_URL must be an http(s) URL without query or fragment, got "${raw}"`)
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '')
}

function smtpUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.SMTP_URL?.trim()
  if (!raw) return undefined
  if (!/^smtps?:\/\/[^/\s]+/.test(raw))
    throw new Error(`SMTP_URL must be smtp://host:port or smtps://…, got "${raw}"`)
  return raw
}

/** An http(s) base URL without query or fragment, its trailing slash dropped (GEOCODER_URL, ROUTING_OSRM_URL). */
function baseUrl(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const raw = env[name]?.trim()
  if (!raw) return undefined
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new Error(`${name} must be an absolute http(s) URL, got "${raw}"`)
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw new Error(`${name} must be an http(s) URL without query or fragment, got "${raw}"`)
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '')
}

function geocoderFormat(env: NodeJS.ProcessEnv): 'nominatim' | 'photon' | undefined {
  const raw = env.GEOCODER_FORMAT?.trim().toLowerCase()
  if (!raw) return undefined
  if (raw !== 'nominatim' && raw !== 'photon') {
    throw new Error(`GEOCODER_FORMAT must be nominatim or photon, got "${env.GEOCODER_FORMAT}"`)
  }
  return raw
}

/** ATTACHMENT_STORE: unset for the database, else an s3:// URL (checked here, used by attachments/s3-store.ts). */
function attachmentStore(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.ATTACHMENT_STORE?.trim()
  if (!raw) return undefined
  parseS3StoreUrl(raw)
  return raw
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
    ipRateLimitPerMinute: integer('IP_RATE_LIMIT_PER_MINUTE', DEFAULT_IP_RATE_LIMIT_PER_MINUTE, env),
    trustProxy: trustProxy(env),
    bodyLimitBytes: MAX_BODY_BYTES,
    pgPoolSize: integer('PG_POOL_SIZE', 10, env),
    ...serverLimits(env),
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX || DEFAULT_REDIS_KEY_PREFIX,
    webhookDispatcher: boolean('WEBHOOK_DISPATCHER', WEBHOOK_DEFAULTS.webhookDispatcher, env),
    webhookAllowPrivate: boolean('WEBHOOK_ALLOW_PRIVATE', WEBHOOK_DEFAULTS.webhookAllowPrivate, env),
    webhookTimeoutMs: positive('WEBHOOK_TIMEOUT_MS', WEBHOOK_DEFAULTS.webhookTimeoutMs, env),
    webhookPollIntervalMs: positive('WEBHOOK_POLL_INTERVAL_MS', WEBHOOK_DEFAULTS.webhookPollIntervalMs, env),
    webhookConcurrency: positive('WEBHOOK_CONCURRENCY', WEBHOOK_DEFAULTS.webhookConcurrency, env),
    webhookRetentionDays: positive('WEBHOOK_RETENTION_DAYS', WEBHOOK_DEFAULTS.webhookRetentionDays, env),
    changeSettleMs: integer('CHANGE_FEED_SETTLE_MS', DEFAULT_CHANGE_SETTLE_MS, env),
    planWorkers: integer('PLAN_WORKERS', 1, env),
    routePlanQueueMax: integer('ROUTE_PLAN_QUEUE_MAX', DEFAULT_ROUTE_PLAN_QUEUE_MAX, env),
    positionRetentionDays: positive('POSITION_RETENTION_DAYS', LIVE_DEFAULTS.positionRetentionDays, env),
    etaChangeMinutes: positive('ETA_CHANGE_MINUTES', LIVE_DEFAULTS.etaChangeMinutes, env),
    liveRefreshSeconds: integer('LIVE_REFRESH_SECONDS', LIVE_DEFAULTS.liveRefreshSeconds, env),
    seriesHorizonDays: positive('SERIES_HORIZON_DAYS', SERIES_DEFAULTS.seriesHorizonDays, env),
    seriesGenerateSeconds: integer('SERIES_GENERATE_SECONDS', SERIES_DEFAULTS.seriesGenerateSeconds, env),
    attachmentStore: attachmentStore(env),
    attachmentQuotaBytes: positive('ATTACHMENT_QUOTA_BYTES', DEFAULT_ATTACHMENT_QUOTA_BYTES, env),
    metricsPort: port('METRICS_PORT', DEFAULT_METRICS_PORT, env),
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    shutdownDelayMs: integer('SHUTDOWN_DELAY_MS', 5000, env),
    // Webhook deliveries take up to WEBHOOK_TIMEOUT_MS; the default leaves them time to finish.
    shutdownTimeoutMs: positive('SHUTDOWN_TIMEOUT_MS', 30_000, env),
    heapGrowthPercent: integer('HEAP_GROWTH_PERCENT', DEFAULT_HEAP_GROWTH_PERCENT, env),
    sessionIdleMs: positive('SESSION_IDLE_MINUTES', SESSION_DEFAULTS.sessionIdleMs / 60_000, env) * 60_000,
    workerSessionIdleMs:
      positive('WORKER_SESSION_IDLE_MINUTES', SESSION_DEFAULTS.workerSessionIdleMs / 60_000, env) * 60_000,
    sessionMaxAgeMs:
      positive('SESSION_MAX_HOURS', SESSION_DEFAULTS.sessionMaxAgeMs / 3_600_000, env) * 3_600_000,
    sessionRateLimitPerMinute: positive(
      'SESSION_RATE_LIMIT_PER_MINUTE',
      SESSION_DEFAULTS.sessionRateLimitPerMinute,
      env,
    ),
    signInMaxFailuresPerAccountAndIp: positive(
      'SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_IP',
      SESSION_DEFAULTS.signInMaxFailuresPerAccountAndIp,
      env,
    ),
    signInMaxFailuresPerAccount: positive(
      'SIGN_IN_MAX_FAILURES_PER_ACCOUNT',
      SESSION_DEFAULTS.signInMaxFailuresPerAccount,
      env,
    ),
    signInMaxFailuresPerDevice: positive(
      'SIGN_IN_MAX_FAILURES_PER_DEVICE',
      SESSION_DEFAULTS.signInMaxFailuresPerDevice,
      env,
    ),
    signInMaxFailuresPerIp: positive(
      'SIGN_IN_MAX_FAILURES_PER_IP',
      SESSION_DEFAULTS.signInMaxFailuresPerIp,
      env,
    ),
    signInWindowMs:
      positive('SIGN_IN_WINDOW_MINUTES', SESSION_DEFAULTS.signInWindowMs / 60_000, env) * 60_000,
    publicBaseUrl: publicBaseUrl(env.PUBLIC_BASE_URL, env.HOST || '127.0.0.1', integer('PORT', 3000, env)),
    smtpUrl: smtpUrl(env),
    smtpFrom: env.SMTP_FROM?.trim() || DEFAULT_SMTP_FROM,
    geocoderUrl: baseUrl('GEOCODER_URL', env),
    geocoderFormat: geocoderFormat(env),
    routingOsrmUrl: baseUrl('ROUTING_OSRM_URL', env),
    routingOsrmMaxTable: positive('ROUTING_OSRM_MAX_TABLE', OSRM_DEFAULTS.maxTable, env),
    routingOsrmTimeoutMs: positive('ROUTING_OSRM_TIMEOUT_MS', OSRM_DEFAULTS.timeoutMs, env),
  }
}
