// Sign-in attempts are limited by their failures, counted in the rate limiter's store (so in Redis
// across instances when REDIS_URL is set); past a limit, an attempt is refused with 429 and
// Retry-After before any password is checked. Only failures count, so people signing in from one
// office address, or a browser test suite signing in all day, are never locked out. Following
// OWASP's device cookies (device-cookies.ts), an attempt is one of two kinds:
//
// - From a browser that has signed in to this account before (it sends a valid device cookie for
//   the account): limited only by the failures of that device (SIGN_IN_MAX_FAILURES_PER_DEVICE), so
//   a stolen cookie cannot guess for long either, and never by what others do.
// - From anywhere else: limited by the failures for this account from this address
//   (…_PER_ACCOUNT_AND_IP), from this address for any account (…_PER_IP) and for this account from
//   every browser it does not know (…_PER_ACCOUNT); a failure counts against all three.
//
// Guessing from one address therefore locks that address out (for the account, then for every
// account) but not the owner signing in from elsewhere; guessing from many addresses at once locks
// out new browsers for the account, never the owner's own. Every key uses the normalised email.
//
// Counting only failures means a check, a slow password verification, then a count: attempts on the
// same account, from the same address or with the same device run one after another in this process,
// so parallel guesses cannot all pass the check before the first failure is counted (across N
// instances at most N overlap). Password verifications also run at most a few at a time in the whole
// process: scrypt uses libuv's thread pool, which SQLite's fsyncs need too.
import type { FastifyRateLimitStore } from '@fastify/rate-limit'
import { AppError } from '../../http/errors.js'

export interface SignInLimitSettings {
  /** Failures for one account from one address (attempts without the account's device cookie). */
  maxFailuresPerAccountAndIp: number
  /** Failures from one address, any account (attempts without the account's device cookie). */
  maxFailuresPerIp: number
  /** Failures for one account from browsers it does not know, any address. */
  maxFailuresPerAccount: number
  /** Failures of one device cookie. */
  maxFailuresPerDevice: number
  windowMs: number
}

/** One sign-in attempt: who it is for, where from, and the browser's device, if it is known. */
export interface SignInAttempt {
  /** The client address. */
  ip: string
  /** The normalised email. */
  account: string
  /** The id of the valid device cookie for this account the browser sent, if any. */
  device?: string
}

/** Verifications running at once per process, and attempts allowed to wait per account, address, process. */
const MAX_CONCURRENT_VERIFICATIONS = 2
const MAX_WAITING_PER_KEY = 8
const MAX_WAITING_OVERALL = 200

type Counter = { current: number; ttl: number }
/** A counter's key and the failures it allows within the window. */
type Limit = [key: string, max: number]
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
  private readonly perDevice = new KeyedQueue()
  private readonly verifications = new Semaphore(MAX_CONCURRENT_VERIFICATIONS)

  constructor(
    private readonly store: FastifyRateLimitStore,
    private readonly settings: SignInLimitSettings,
  ) {}

  /**
   * Runs one sign-in attempt. `attempt` says whether it failed (wrong password, unknown or inactive
   * user); a failure is counted against every limit the attempt is under. Throws 429 with
   * Retry-After when one of them has been reached within the window.
   */
  async guard<T>(
    { ip, account, device }: SignInAttempt,
    attempt: () => Promise<{ failed: boolean; value: T }>,
  ): Promise<T> {
    const { settings } = this
    if (device !== undefined) {
      // Its own queue too: a flood of guesses for the account or from its address never holds it up.
      return this.perDevice.run(device, () =>
        this.limited([[`device:${device}`, settings.maxFailuresPerDevice]], attempt),
      )
    }
    // An address holds no slash (IPv6 neither), so the address ends where the account begins.
    const limits: Limit[] = [
      [`account-ip:${ip}/${account}`, settings.maxFailuresPerAccountAndIp],
      [`ip:${ip}`, settings.maxFailuresPerIp],
      [`account:${account}`, settings.maxFailuresPerAccount],
    ]
    return this.perIp.run(ip, () => this.perAccount.run(account, () => this.limited(limits, attempt)))
  }

  private async limited<T>(
    limits: Limit[],
    attempt: () => Promise<{ failed: boolean; value: T }>,
  ): Promise<T> {
    const counters = await Promise.all(limits.map(([key]) => this.count('read', key)))
    // Waiting for the first to clear would only meet the next: Retry-After is the longest.
    const reached = counters.filter((counter, i) => counter.current >= (limits[i] as Limit)[1])
    if (reached.length > 0) {
      const ttl = Math.max(...reached.map((counter) => counter.ttl))
      throw tooMany(Math.max(1, Math.ceil(ttl / 1000)))
    }
    const outcome = await this.verifications.run(attempt)
    if (outcome.failed) await Promise.all(limits.map(([key]) => this.count('incr', key)))
    return outcome.value
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
