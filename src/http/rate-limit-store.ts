// A @fastify/rate-limit store that counts in Redis while Redis answers and in this process's memory
// while it does not, so an outage never fails a request and never switches limiting off. It
// delegates to the plugin's own RedisStore (its Lua INCR + PEXPIRE script) and LocalStore.
//
// Counts across a switch: they restart in the store switched to. Redis → memory: every key starts
// again from 0 in a fresh local store, so during an outage each instance admits up to a key's full
// limit on its own. Memory → Redis: the local counts are dropped and Redis's own counters apply
// again (a window that began before the outage still holds what was counted in it; requests
// answered from memory during the outage were never added).
import { createRequire } from 'node:module'
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Redis } from 'ioredis'

interface Counter {
  current: number
  ttl: number
}
type Callback = (error: Error | null, result?: Counter) => void

/** What the plugin's LocalStore and RedisStore have in common. */
interface PluginStore {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void
  read(key: string, callback: Callback, timeWindow: number, max: number): void
}

// The plugin ships both stores as CommonJS files without type declarations.
const require = createRequire(import.meta.url)
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
) => PluginStore
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  nameSpace: string,
) => PluginStore

/** The switch every store of one app consults (implemented by RateLimits). */
export interface StoreSwitch {
  /** The shared connection, when REDIS_URL is set. */
  readonly redis: Redis | undefined
  /** True while counters live in Redis. */
  readonly sharing: boolean
  /** Changes at every switch; a store drops its local counters when it sees a new value. */
  readonly generation: number
  /** A Redis call failed or timed out: count in memory from now on. */
  redisFailed(error: Error): void
}

interface StoreOptions {
  continueExceeding?: boolean
  exponentialBackoff?: boolean
}

/** In-memory counters, shared by every store of one namespace: one budget wherever it is counted. */
interface LocalCounters {
  store: PluginStore | undefined
  generation: number
}

const newLocalCounters = (): LocalCounters => ({ store: undefined, generation: -1 })

class FallbackStore implements FastifyRateLimitStore {
  private readonly remote: PluginStore | undefined

  constructor(
    private readonly target: StoreSwitch,
    private readonly nameSpace: string,
    private readonly options: StoreOptions,
    private readonly local: LocalCounters,
  ) {
    this.remote = target.redis
      ? new RedisStore(
          options.continueExceeding === true,
          options.exponentialBackoff === true,
          target.redis,
          nameSpace,
        )
      : undefined
  }

  incr(key: string, callback: Callback, timeWindow: number, max: number): void {
    this.count('incr', key, callback, timeWindow, max)
  }

  read(key: string, callback: Callback, timeWindow: number, max: number): void {
    this.count('read', key, callback, timeWindow, max)
  }

  /** For a route with its own `config.rateLimit`: the plugin passes the merged options and route. */
  child(routeOptions: object): FallbackStore {
    const options = routeOptions as StoreOptions & { routeInfo?: { method?: string; url?: string } }
    const route = options.routeInfo ?? {}
    return new FallbackStore(
      this.target,
      `${this.nameSpace}${route.method}${route.url}-`,
      options,
      newLocalCounters(),
    )
  }

  private count(
    method: 'incr' | 'read',
    key: string,
    callback: Callback,
    timeWindow: number,
    max: number,
  ): void {
    if (this.remote && this.target.sharing) {
      this.remote[method](
        key,
        (error, result) => {
          if (!error) {
            callback(null, result)
            return
          }
          // ioredis bounds the wait (commandTimeout, no offline queue, no retries), so this runs
          // promptly; the request is then counted locally instead of failing.
          this.target.redisFailed(error)
          this.localStore()[method](key, callback, timeWindow, max)
        },
        timeWindow,
        max,
      )
      return
    }
    this.localStore()[method](key, callback, timeWindow, max)
  }

  private localStore(): PluginStore {
    const local = this.local
    if (!local.store || local.generation !== this.target.generation) {
      local.store = new LocalStore(
        this.options.continueExceeding === true,
        this.options.exponentialBackoff === true,
      )
      local.generation = this.target.generation
    }
    return local.store
  }
}

/**
 * The store class to hand to @fastify/rate-limit (it instantiates it with its global options). Every
 * registration given the same class counts in one budget per key: the same Redis namespace, and the
 * same in-memory counters while counting locally (each registration makes its own instance).
 */
export function fallbackStore(target: StoreSwitch, nameSpace: string): FastifyRateLimitStoreCtor {
  const local = newLocalCounters()
  return class extends FallbackStore {
    constructor(options: StoreOptions) {
      super(target, nameSpace, options, local)
    }
  }
}
