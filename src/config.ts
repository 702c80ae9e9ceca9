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
}

export const DEFAULT_SQLITE_PATH = './data/fieldservice.db'
export const MAX_BODY_BYTES = 1024 * 1024

function integer(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`)
  }
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
    authCacheTtlMs: integer('AUTH_CACHE_TTL_MS', 5000, env),
    defaultRateLimitPerMinute: integer('DEFAULT_RATE_LIMIT_PER_MINUTE', 100, env),
    bodyLimitBytes: MAX_BODY_BYTES,
    pgPoolSize: integer('PG_POOL_SIZE', 10, env),
  }
}
