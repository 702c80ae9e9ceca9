// Sign-in attempts are limited per email address and per client address: failed attempts are counted
// (in the rate limiter's store, so in Redis across instances when REDIS_URL is set) and, past the
// limit, refused with 429 before any password is checked. Only failures count, so people signing in
// from one office address, or a browser test suite signing in all day, are never locked out.
//
// Counting only failures means a check, a slow password verification, then a count: attempts on the
// same account or from the same address run one after another in this process, so parallel guesses
// cannot all pass the check before the first failure is counted (across N instances at most N
// overlap). Password verifications also run at most a few at a time in the whole process: scrypt uses
// libuv's thread pool, which SQLite's fsyncs need too.
import type { FastifyRateLimitStore } from '@fastify/rate-limit'
import { AppError } from '../../http/errors.js'

export interface SignInLimitSettings {
  maxFailuresPerAccount: number
  maxFailuresPerIp: number
  windowMs: number
}

/** Verifications running at once per process, and attempts allowed to wait per account, address, process. */
const MAX_CONCURRENT_VERIFICATIONS = 2
const MAX_WAITING_PER_KEY = 8
const MAX_WAITING_OVERALL = 200

type Counter = { current: number; ttl: number }
type StoreMethod = 'incr' | 'read'

const tooMany = (retryAfterSeconds: number) =>
  new AppError(
    'RATE_LIMITED',
    `Too many sign-in attempts; retry in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`,
    undefined,
    { retryAfterSeconds },
  )

/** Runs tasks of one key one after another; refuses when too many are already waiting. */
class KeyedQueue {
  private readonly queues = new Map<string, { tail: Promise<unknown>; size: number }>()

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    let queue = this.queues.get(key)
    if (!queue) {
      queue = { tail: Promise.resolve(), size: 0 }
      this.queues.set(key, queue)
    }
    if (queue.size >= MAX_WAITING_PER_KEY) throw tooMany(1)
    queue.size++
    const result = queue.tail.then(
      () => task(),
      () => task(),
    )
    queue.tail = result.catch(() => undefined)
    try {
      return await result
    } finally {
      queue.size--
      if (queue.size === 0) this.queues.delete(key)
    }
  }
}

/** At most `limit` tasks at once; the others wait in order. */
class Semaphore {
  private running = 0
  private readonly waiting: (() => void)[] = []

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      if (this.waiting.length >= MAX_WAITING_OVERALL) throw tooMany(1)
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    } else {
      this.running++
    }
    try {
      return await task()
    } finally {
      const next = this.waiting.shift()
      if (next) next()
      else this.running--
    }
  }
}

export class SignInLimiter {
  private readonly perIp = new KeyedQueue()
  private readonly perAccount = new KeyedQueue()
  private readonly verifications = new Semaphore(MAX_CONCURRENT_VERIFICATIONS)

  constructor(
    private readonly store: FastifyRateLimitStore,
    private readonly settings: SignInLimitSettings,
  ) {}

  /**
   * Runs one sign-in attempt for `account` (the normalised email) from `ip`. `attempt` says whether
   * it failed (wrong password, unknown or inactive user); a failure is counted for both. Throws 429
   * with Retry-After when either has failed too often within the window.
   */
  async guard<T>(
    ip: string,
    account: string,
    attempt: () => Promise<{ failed: boolean; value: T }>,
  ): Promise<T> {
    return this.perIp.run(ip, () =>
      this.perAccount.run(account, async () => {
        const ipKey = `ip:${ip}`
        const accountKey = `account:${account}`
        const [byIp, byAccount] = await Promise.all([
          this.count('read', ipKey),
          this.count('read', accountKey),
        ])
        const blocked = [
          [byIp, this.settings.maxFailuresPerIp],
          [byAccount, this.settings.maxFailuresPerAccount],
        ] as const
        for (const [counter, max] of blocked) {
          if (counter.current >= max) throw tooMany(Math.max(1, Math.ceil(counter.ttl / 1000)))
        }
        const outcome = await this.verifications.run(attempt)
        if (outcome.failed) await Promise.all([this.count('incr', ipKey), this.count('incr', accountKey)])
        return outcome.value
      }),
    )
  }

  private count(method: StoreMethod, key: string): Promise<Counter> {
    const store = this.store as FastifyRateLimitStore & {
      read(...args: Parameters<FastifyRateLimitStore['incr']>): void
    }
    return new Promise((resolve, reject) => {
      const callback = (error: Error | null, result?: Counter) =>
        error || !result ? reject(error ?? new Error('no count')) : resolve(result)
      // The store's max only matters for its ban/backoff options, which are off here.
      store[method](key, callback as never, this.settings.windowMs, Number.MAX_SAFE_INTEGER)
    })
  }
}
